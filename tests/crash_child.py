"""Child process for the crash test: applies random actions for ever, acknowledging each commit.

    python -m tests.crash_child GAME PACK SEED [OPTIONS_JSON]   # one child, the game given
    python -m tests.crash_child --forking SOCKET_FD             # a parent of children, one a request

A child prints "READY <seq>" once the game is open, then "ACK <seq>" after each action's (or undo's)
COMMIT returned; the test kills it with SIGKILL at a random moment.

``--forking`` imports the bank once and forks a child for each request on the Unix socket ``SOCKET_FD``
(the test's end of a socket pair): a request is the game, pack, seed and options as JSON, with the write
end of the pipe the child's lines go to. It answers ``{"child": PID}`` once the child runs and
``{"ended": PID, "signal": N}`` once it is reaped. A hundred kills then cost a hundred forks, not a
hundred interpreters importing the bank: the child is the same process with the same code from its
first line on, opening the game as a fresh program would.
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import signal
import socket
import sys
import traceback
from pathlib import Path
from typing import TextIO

from companion.core.errors import BankerError
from companion.service import Banker
from tests.random_actions import GENERATORS, players_for


def play(game: Path, pack: str, seed: int, options: dict, out: TextIO) -> None:
    """Open (or start) the game and apply random actions for ever, acknowledging each on ``out``."""
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


def _die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def forking(sock: socket.socket) -> None:
    """Serve the test's requests one at a time until it closes its end."""
    _die_with_parent()
    while True:
        request, fds, _flags, _addr = socket.recv_fds(sock, 65536, 1)
        if not request:
            return
        game, pack, seed, options = json.loads(request)
        pid = os.fork()
        if pid == 0:
            try:
                _die_with_parent()
                sock.close()
                os.dup2(fds[0], 1)
                os.close(fds[0])
                play(Path(game), pack, seed, options, sys.stdout)
            except BaseException:
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(1)
        os.close(fds[0])
        sock.sendall(json.dumps({"child": pid}).encode() + b"\n")
        _, status = os.waitpid(pid, 0)
        sock.sendall(
            json.dumps({"ended": pid, "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0}).encode() + b"\n"
        )


def main() -> None:
    if sys.argv[1] == "--forking":
        forking(socket.socket(fileno=int(sys.argv[2])))
        return
    game, pack, seed = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    play(game, pack, seed, options, sys.stdout)


if __name__ == "__main__":
    main()
