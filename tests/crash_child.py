"""The crash test's children: each applies random actions for ever, acknowledging each commit, until the
test kills it with SIGKILL at a random moment.

Usage: python -m tests.crash_child --serve. A fork server: it imports the bank once, then for each line
``GAME<TAB>PACK<TAB>SEED<TAB>OPTIONS_JSON`` on its standard input forks a child that opens (or creates) the
game and plays. On standard output come ``CHILD <pid>`` (the server), ``READY <seq>`` once the child has the
game open and ``ACK <seq>`` after each action's or undo's COMMIT returned (the child), then ``ENDED`` once
the child is gone (the server). Forking a process that has the bank imported spares each of the hundred
children the interpreter's start and the imports, which are not what the test proves; the child is a
process of its own, killed as the power cord kills it.
"""

from __future__ import annotations

import json
import os
import random
import sys
import traceback
from pathlib import Path
from typing import NoReturn, TextIO

from companion.core.errors import BankerError
from companion.service import Banker
from tests.random_actions import GENERATORS, players_for


def play(game: Path, pack: str, seed: int, options: dict, out: TextIO) -> NoReturn:
    rnd = random.Random(seed)
    banker = (
        Banker.open(game, backup_every=5)
        if game.exists()
        else Banker.create(game, pack, players_for(pack), options, backup_every=5)
    )
    out.write(f"READY {banker.version}\n")
    out.flush()
    while True:
        try:
            if banker.can_undo and rnd.random() < 0.1:
                outcome = banker.undo()
            else:
                outcome = banker.do(GENERATORS[pack](banker.table, rnd))
        except BankerError:
            continue
        out.write(f"ACK {outcome.version}\n")
        out.flush()


def serve() -> None:
    for request in sys.stdin:
        game, pack, seed, options = request.rstrip("\n").split("\t")
        sys.stdout.flush()  # nothing buffered may be written twice, by the child too
        pid = os.fork()
        if pid == 0:
            try:
                play(Path(game), pack, int(seed), json.loads(options), sys.stdout)
            except BaseException:
                traceback.print_exc()  # to the test, which shows it; the server carries on
                sys.stderr.flush()
            os._exit(1)
        print(f"CHILD {pid}", flush=True)
        os.waitpid(pid, 0)
        print("ENDED", flush=True)


if __name__ == "__main__":
    if sys.argv[1:] != ["--serve"]:
        sys.exit(__doc__)
    serve()
