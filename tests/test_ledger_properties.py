"""Whatever the banker taps, in any order, with undo, redo and reopening: the ledger stays sound.

Money is conserved (all accounts sum to zero), nobody but the bank holds negative cash, the stored
state equals a full replay, and undo followed by redo comes back to the same table.
"""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.core.errors import BankerError
from companion.rules import pack_names
from companion.service import Banker
from tests.random_actions import GENERATORS, players_for, variants

VARIANTS = [(pack, options) for pack, options in variants() if pack in pack_names()]
_counter = itertools.count()


def test_every_shipped_pack_has_a_random_action_generator():
    assert set(pack_names()) <= set(GENERATORS), "add a module to tests/random_actions for the new pack"


@pytest.mark.parametrize("pack, options", VARIANTS, ids=[f"{p}{'-' + '-'.join(f'{k}={v}' for k, v in o.items()) if o else ''}" for p, o in VARIANTS])
def test_ledger_properties(pack, options, tmp_path_factory):
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
                accounts = self.banker.table["accounts"]
                assert sum(accounts.values()) == 0
                assert all(v >= 0 for k, v in accounts.items() if k != "bank")
                assert all(v >= 0 for v in self.banker.table["stock"].values())

        @invariant()
        def replay_equals_the_stored_state(self):
            if hasattr(self, "banker"):
                assert self.banker.replay() == self.banker.table

    Ledger.TestCase.settings = settings(
        max_examples=200,
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    Ledger.TestCase().runTest()
