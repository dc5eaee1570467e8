"""A game file's connection on a disk the test controls: a look at the moment of each COMMIT (before
its fsync), and a COMMIT that fails as a full or broken disk fails it, while ``fail`` is set."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable


class Disk:
    def __init__(
        self, con: sqlite3.Connection, at_commit: Callable[[], None] | None = None, *, fail: bool = False
    ) -> None:
        self._con = con
        self.at_commit = at_commit
        self.fail = fail

    def execute(self, sql: str, *args):
        if sql == "COMMIT":
            if self.at_commit is not None:
                self.at_commit()
            if self.fail:
                error = sqlite3.OperationalError("disk I/O error")
                error.sqlite_errorcode = sqlite3.SQLITE_IOERR  # as SQLite's own error carries it
                raise error
        return self._con.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._con, name)
