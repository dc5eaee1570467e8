"""Child process for the crash test: applies random actions for ever, acknowledging each commit.

Usage: python -m tests.crash_child GAME PACK SEED [OPTIONS_JSON]. Prints "ACK <seq>" after each action's COMMIT
returned, and "ACKUNDO <seq>" for undo; the parent kills it with SIGKILL at a random moment.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from companion.core.errors import BankerError
from companion.service import Banker
from tests.random_actions import GENERATORS, players_for


def main() -> None:
    game, pack, seed = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    rnd = random.Random(seed)
    banker = (
        Banker.open(game, backup_every=5)
        if game.exists()
        else Banker.create(game, pack, players_for(pack), options, backup_every=5)
    )
    out = sys.stdout
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


if __name__ == "__main__":
    main()
