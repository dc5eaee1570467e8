"""Schemathesis against the served OpenAPI document: no 5xx, and every answer matches the schema.

Bounded: a dozen generated requests per operation and role (valid and invalid data), on 127.0.0.1.
The document carries every action's own body schema from the action contract, so the banker's
generated actions are bodies a rule can judge, not only ones the intake refuses.
The live stream (/events) stays open by design and is tested in test_sse.py instead.
"""

from __future__ import annotations

from collections import Counter

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion.web.limits import Limits
from tests.web.phones import LiveTable

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
EXAMPLES = 12


@pytest.mark.slow
def test_the_api_answers_every_generated_request_as_its_document_says(table):
    table.do("buy", player="Ann", deed="Boardwalk")
    roomy = Limits(player_burst=10_000, player_rate=10_000, banker_burst=10_000, banker_rate=10_000)
    live = LiveTable(table.banker, limits=roomy)
    session = requests.Session()
    session.trust_env = False  # loopback only, never a proxy
    answers: Counter = Counter()
    actions: Counter = Counter()  # what the banker's generated actions got: decided by a rule, not the guards

    def heard(r, *a, **k):
        answers.update([r.status_code])
        if r.request.method == "POST" and r.request.path_url == "/api/v1/actions":
            actions.update([r.status_code])

    session.hooks["response"].append(heard)
    try:
        live.call(live.server.requests.ask, "Ann", "Bob", 5, "seed")  # something to approve or decline
        schema = schemathesis.openapi.from_url(f"{live.base}/api/v1/openapi.json", timeout=10)
        operations = [r.ok() for r in schema.get_all_operations()]
        assert len(operations) >= 12
        tried = 0
        for operation in operations:
            if operation.path == "/api/v1/events":
                continue
            for who in ("banker", "Ann"):
                headers = {"Authorization": f"Bearer {live.token(who)}"}
                for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                    @settings(
                        max_examples=EXAMPLES,
                        deadline=None,
                        database=None,
                        derandomize=True,
                        phases=[Phase.explicit, Phase.generate],
                        suppress_health_check=list(HealthCheck),
                    )
                    @given(case=operation.as_strategy(generation_mode=mode, headers=headers))
                    def answers_as_documented(case):
                        case.call_and_validate(base_url=live.base, session=session, checks=CHECKS, timeout=10)

                    try:
                        answers_as_documented()
                    except Unsatisfiable:
                        assert mode is GenerationMode.NEGATIVE  # nothing to get wrong in a bare GET
                        continue
                    tried += 1
        assert tried >= 40
        assert {200, 400, 403, 404} <= set(answers), answers  # the fuzzer reached the handlers, not only the guards
        assert not [code for code in answers if code >= 500]
        assert actions[201] + actions[409] > 0, actions  # each action's own schema: bodies a rule can judge
    finally:
        session.close()
        live.stop()
    assert table.total() == 0  # whatever the fuzzer did through the API, money was only moved by rules
