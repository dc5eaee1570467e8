"""Whatever the banker taps, in any order, with undo, redo and reopening: the ledger stays sound.

Two machines of the same taps. The rules' machine runs on the pure engine alone (decide, fold,
reverse; no file), many examples: money is conserved (all accounts sum to zero), nobody but the bank
holds negative cash, a refusal leaves the table as it was, undoing an action's events comes back to
the table before it, and folding every event from the opening table gives the table. The ledger's
machine runs the same taps through the Banker on a game file, fewer examples: undo, redo and reopening
keep the stored state equal to a full replay. Its file is not synced (``PRAGMA synchronous=OFF``):
nothing here depends on the disk, and what does (a pulled plug, a crash mid-commit) is proved on fully
synced files by tests/test_game_file.py and tests/test_crash.py.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion import store
from companion.core import engine
from companion.core import events as ev
from companion.core.errors import BankerError
from companion.core.model import new_table
from companion.rules import load_pack, pack_names, resolve_options, rules_for
from companion.service import Banker
from tests.examples import examples
from tests.random_actions import GENERATORS, players_for, variants

VARIANTS = [(pack, options) for pack, options in variants() if pack in pack_names()]
IDS = [f"{p}{'-' + '-'.join(f'{k}={v}' for k, v in o.items()) if o else ''}" for p, o in VARIANTS]
_counter = itertools.count()

pytestmark = pytest.mark.spread  # each variant is a machine of its own


def sound(table: dict) -> None:
    """Money is conserved and nobody but the bank is below zero (cash or the bank's stock)."""
    accounts = table["accounts"]
    assert sum(accounts.values()) == 0
    assert all(v >= 0 for k, v in accounts.items() if k != "bank")
    assert all(v >= 0 for v in table["stock"].values())


def test_every_shipped_pack_has_a_random_action_generator():
    assert set(pack_names()) <= set(GENERATORS), "add a module to tests/random_actions for the new pack"


@pytest.mark.parametrize("pack, options", VARIANTS, ids=IDS)
def test_the_rules_keep_the_books(pack, options):
    """The pure engine: no file, no Banker; the log is a list of each action's events."""
    the_pack = load_pack(pack)
    rules = rules_for(the_pack)

    class Books(RuleBasedStateMachine):
        @initialize(seed=st.integers(0, 2**32 - 1))
        def start(self, seed):
            self.rnd = random.Random(seed)
            self.opening = new_table(
                the_pack, [{"name": p} for p in players_for(pack)], resolve_options(the_pack, dict(options))
            )
            events, _ = engine.start(self.opening, rules)
            self.log = [events]  # the events of each entry, in order: actions, undos and redos alike
            self.undo_stack: list[list] = []  # the events of actions in force, last on top
            self.redo_stack: list[list] = []  # the events of actions undone, last undone on top
            self.table = engine.fold(self.opening, events)
            self.replayed = (1, self.table)  # the fold of the log's first entries, checked step by step

        def enter(self, events: list) -> None:
            self.log.append(events)
            self.table = engine.fold(self.table, events)

        @rule(steps=st.integers(1, 6))
        def banker_taps(self, steps):
            for _ in range(steps):
                action = GENERATORS[pack](self.table, self.rnd)
                before = self.table
                try:
                    decided = engine.decide_full(self.table, action, rules)
                except BankerError:
                    assert self.table == before
                    continue
                engine.check_conservation(decided.table)
                self.enter(list(decided.events))
                assert self.table == decided.table  # folding the events is what the rule decided
                self.undo_stack.append(self.log[-1])
                self.redo_stack.clear()

        @precondition(lambda self: bool(self.undo_stack))
        @rule()
        def undo_then_redo(self):
            before = self.table
            events = self.undo_stack[-1]
            self.enter([ev.reverse(e) for e in reversed(events)])
            self.enter(events)
            assert self.table == before

        @precondition(lambda self: bool(self.undo_stack))
        @rule()
        def undo(self):
            events = self.undo_stack.pop()
            self.enter([ev.reverse(e) for e in reversed(events)])
            self.redo_stack.append(events)

        @precondition(lambda self: bool(self.redo_stack))
        @rule()
        def redo(self):
            events = self.redo_stack.pop()
            self.enter(events)
            self.undo_stack.append(events)

        @invariant()
        def money_is_conserved(self):
            if hasattr(self, "table"):
                sound(self.table)

        @invariant()
        def the_log_folds_to_the_table(self):
            if hasattr(self, "table"):
                done, table = self.replayed
                table = engine.fold(table, (e for events in self.log[done:] for e in events))
                assert table == self.table
                self.replayed = (len(self.log), table)

        def teardown(self):
            if hasattr(self, "table"):
                assert engine.fold(self.opening, (e for events in self.log for e in events)) == self.table

    Books.TestCase.settings = settings(
        max_examples=examples(200),  # a quarter in make check (tests/examples.py)
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    Books.TestCase().runTest()


@pytest.mark.parametrize("pack, options", VARIANTS, ids=IDS)
def test_ledger_properties(pack, options, tmp_path_factory, monkeypatch):
    monkeypatch.setattr(store, "SYNCHRONOUS", "OFF")
    folder = tmp_path_factory.mktemp(f"props-{pack}")

    class Ledger(RuleBasedStateMachine):
        @initialize(seed=st.integers(0, 2**32 - 1))
        def start(self, seed):
            self.rnd = random.Random(seed)
            self.path = folder / f"g{next(_counter)}.game"
            self.banker = Banker.create(self.path, pack, players_for(pack), dict(options), backup_every=7)

        def teardown(self):
            if hasattr(self, "banker"):
                self.banker.close()

        @rule(steps=st.integers(1, 6))
        def banker_taps(self, steps):
            for _ in range(steps):
                action = GENERATORS[pack](self.banker.table, self.rnd)
                before, version = self.banker.table, self.banker.version
                try:
                    self.banker.do(action)
                except BankerError:
                    assert self.banker.table == before and self.banker.version == version

        @precondition(lambda self: hasattr(self, "banker") and self.banker.can_undo)
        @rule()
        def undo_then_redo(self):
            before = self.banker.table
            self.banker.undo()
            self.banker.redo()
            assert self.banker.table == before

        @precondition(lambda self: hasattr(self, "banker") and self.banker.can_undo)
        @rule()
        def undo(self):
            self.banker.undo()

        @precondition(lambda self: hasattr(self, "banker") and self.banker.can_redo)
        @rule()
        def redo(self):
            self.banker.redo()

        @rule()
        def pull_the_plug_and_reopen(self):
            table, version = self.banker.table, self.banker.version
            self.banker.close()
            self.banker = Banker.open(self.path, backup_every=7)
            assert self.banker.table == table and self.banker.version == version

        @invariant()
        def money_is_conserved(self):
            if hasattr(self, "banker"):
                sound(self.banker.table)

        @invariant()
        def replay_equals_the_stored_state(self):
            if hasattr(self, "banker"):
                assert self.banker.replay() == self.banker.table

    Ledger.TestCase.settings = settings(
        max_examples=examples(30),
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    Ledger.TestCase().runTest()
