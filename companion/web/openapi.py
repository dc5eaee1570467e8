"""The OpenAPI 3.0 description of ``/api/v1``, served at ``/api/v1/openapi.json``.

Written as data next to the handlers so a test can hold the two together: every route the app has is
described here, and nothing else (see tests/web/test_openapi.py; schemathesis fuzzes it). Every refusal is
an RFC 9457 problem (``application/problem+json``) whose ``type`` is one of the kinds of its status
(:mod:`companion.web.problems`). Served for a game, the document carries that game's own actions, one
schema each with a discriminator on ``action``, and its family's own deed.
"""

from __future__ import annotations

import copy
from typing import Any

from .problems import MEDIA_TYPE, PROBLEMS, PROBLEMS_PATH

__all__ = ["OPENAPI", "openapi_document"]


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _problem_schema(status: int) -> dict:
    """A problem of one status: its ``type`` is one of that status's kinds."""
    types = sorted(p.type for p in PROBLEMS.values() if p.status == status)
    return {
        "allOf": [
            _ref("Problem"),
            {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": types},
                    "status": {"type": "integer", "enum": [status]},
                },
            },
        ]
    }


class _Error(dict):
    """A refusal's response, made into a problem of its status once the status is known (:func:`_op`)."""


def _error(text: str) -> dict:
    return _Error(description=text)


def _problem_response(status: str, text: str) -> dict:
    return {"description": text, "content": {MEDIA_TYPE: {"schema": _problem_schema(int(status))}}}


def _ok(schema: dict, text: str = "OK") -> dict:
    return {"description": text, "content": {"application/json": {"schema": schema}}}


_GUARDS = {
    "401": _error("no credential, or a wrong, withdrawn or expired one"),
    "421": _error("the Host header does not name this table"),
    "429": _error("too many requests, or too many wrong tokens from this device"),
}
_ROLE = {"403": _error("the caller's role may not do this; nothing was written")}
_BODY = {
    "400": _error("the body is not the JSON object this operation takes"),
    "403": _error("not for this role, or a cross-origin request; nothing was written"),
    "408": _error("the body did not arrive in time"),
    "413": _error("the body is too large"),
    "415": _error("the body is not application/json"),
}
_NAME = {"name": "name", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1, "maxLength": 40}}
_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1, "maxLength": 40}}


def _op(
    summary: str,
    responses: dict,
    *,
    body: dict | None = None,
    params: list | None = None,
    public: bool = False,
    extra: tuple[dict, ...] = (),
) -> dict:
    op: dict = {"summary": summary, "responses": {}}
    if params:
        op["parameters"] = params
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    op["responses"].update(responses)
    if not public:
        op["responses"].update(_GUARDS)
    else:
        op["responses"]["421"] = _GUARDS["421"]
        op["security"] = []
    for more in extra:
        op["responses"].update(more)
    op["responses"] = {
        code: _problem_response(code, r["description"]) if isinstance(r, _Error) else r
        for code, r in op["responses"].items()
    }
    return op


_NULL_INT = {"type": "integer", "nullable": True}
_NULL_STR = {"type": "string", "nullable": True}

SCHEMAS = {
    "Problem": {
        "type": "object",
        "required": ["type", "title", "status", "detail"],
        "description": "RFC 9457 problem details: branch on `type`, show `detail` to people",
        "properties": {
            "type": {"type": "string", "description": f"the kind of refusal, `{PROBLEMS_PATH}<kind>` (docs/api.md)"},
            "title": {"type": "string", "description": "what every refusal of this kind means"},
            "status": {"type": "integer"},
            "detail": {"type": "string", "description": "why this request was refused, in one line for people"},
        },
    },
    "ProblemType": {
        "type": "object",
        "required": ["type", "title", "status"],
        "properties": {"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}},
    },
    "Money": {
        "type": "object",
        "required": ["amount", "amount_text"],
        "properties": {"amount": {"type": "integer"}, "amount_text": {"type": "string"}},
    },
    "Deed": {
        "type": "object",
        "required": ["name", "group", "kind", "marks"],
        "description": "a deed on a phone's page; served for a game, its family's own fields too",
        "properties": {
            "name": {"type": "string"},
            "group": {"type": "string"},
            "kind": {"type": "string"},
            "marks": {"type": "array", "items": {"type": "string"}},
        },
    },
    "Loan": {
        "type": "object",
        "required": ["text"],
        "properties": {
            "text": {"type": "string"},
            "amount": _NULL_INT,
            "amount_text": {"type": "string"},
            "due_turn": _NULL_INT,
            "turns_left": _NULL_INT,
            "overdue": {"type": "boolean"},
            "due_text": {"type": "string"},
        },
    },
    "Pot": {
        "type": "object",
        "required": ["name", "label", "amount", "amount_text"],
        "properties": {
            "name": {"type": "string"},
            "label": {"type": "string"},
            "amount": {"type": "integer"},
            "amount_text": {"type": "string"},
        },
    },
    "PaymentRequest": {
        "type": "object",
        "required": ["id", "player", "to", "amount", "amount_text", "memo", "status", "reason", "created"],
        "properties": {
            "id": {"type": "string"},
            "player": {"type": "string"},
            "to": {"type": "string"},
            "amount": {"type": "integer", "minimum": 1},
            "amount_text": {"type": "string"},
            "memo": {"type": "string"},
            "status": {"type": "string", "enum": ["pending", "approved", "declined", "cancelled"]},
            "reason": {"type": "string"},
            "created": {"type": "string"},
            "decided": _NULL_STR,
            "seq": _NULL_INT,
            "held": {
                "type": "string",
                "description": "on a page: why the banker's approval was refused (it still waits)",
            },
        },
    },
    "StoryLine": {
        "type": "object",
        "required": ["seq", "text"],
        "properties": {
            "seq": {"type": "integer"},
            "text": {"type": "string"},
            "change": {"type": "integer"},
            "change_text": {"type": "string"},
            "turn": _NULL_INT,
            "kind": {"type": "string"},
        },
    },
    "NewRequest": {
        "type": "object",
        "required": ["to", "amount"],
        "additionalProperties": False,
        "properties": {
            "to": {"type": "string", "description": '"bank" or another player\'s name'},
            "amount": {
                "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string"}],
                "description": 'whole money: 50, "$1,500", "2.5M"',
            },
            "memo": {"type": "string", "maxLength": 60},
            "id": {"type": "string", "minLength": 1, "maxLength": 40, "description": "the phone's idempotency id"},
            "from": {"type": "string", "description": "must be the caller's own player if given"},
        },
    },
    "Decline": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"reason": {"type": "string", "maxLength": 120}},
    },
    "Empty": {"type": "object", "additionalProperties": False, "properties": {}},
    "Action": {
        "type": "object",
        "required": ["action"],
        "additionalProperties": True,
        "properties": {
            "action": {"type": "string", "description": "transfer, buy, rent, ... (docs/actions.md)"},
            "id": {"type": "string", "minLength": 1, "maxLength": 100},
        },
    },
    "Outcome": {
        "type": "object",
        "required": ["seq", "kind", "summary", "events", "version", "repeated"],
        "properties": {
            "seq": {"type": "integer"},
            "kind": {"type": "string"},
            "summary": {"type": "string"},
            "events": {"type": "array", "items": {"type": "object"}},
            "version": {"type": "integer"},
            "repeated": {"type": "boolean"},
            "undone": {"type": "boolean", "description": "repeated, and undone since"},
        },
    },
    "Entry": {
        "type": "object",
        "required": ["seq", "kind", "action", "events", "summary", "at"],
        "properties": {
            "seq": {"type": "integer"},
            "kind": {"type": "string"},
            "id": _NULL_STR,
            "action": {"type": "object"},
            "events": {"type": "array", "items": {"type": "object"}},
            "summary": {"type": "string"},
            "target": _NULL_INT,
            "at": {"type": "string"},
        },
    },
    "PlayerPage": {
        "type": "object",
        "required": ["role", "version", "title", "turn", "me", "players", "pots", "requests", "can_request", "payees"],
        "properties": {
            "role": {"type": "string", "enum": ["player"]},
            "version": {"type": "integer"},
            "title": {"type": "string"},
            "rules": {"type": "string"},
            "turn": {"type": "object"},
            "over": {"type": "object", "nullable": True},
            "me": {
                "type": "object",
                "required": ["name", "cash", "cash_text", "deeds", "loans", "worth_series", "story"],
                "properties": {
                    "name": {"type": "string"},
                    "cash": {"type": "integer"},
                    "cash_text": {"type": "string"},
                    "deeds": {"type": "array", "items": _ref("Deed")},
                    "loans": {"type": "array", "items": _ref("Loan")},
                    "worth_series": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
                    "story": {"type": "array", "items": {"type": "object"}},
                },
            },
            "players": {"type": "array", "items": {"type": "object", "required": ["name"]}},
            "pots": {"type": "array", "items": _ref("Pot")},
            "requests": {"type": "array", "items": _ref("PaymentRequest")},
            "can_request": {"type": "boolean"},
            "payees": {"type": "array", "items": {"type": "string"}},
        },
    },
    "BankerPage": {
        "type": "object",
        "required": ["role", "version", "title", "turn", "players", "pots", "pending", "answered", "log"],
        "properties": {
            "role": {"type": "string", "enum": ["banker"]},
            "version": {"type": "integer"},
            "title": {"type": "string"},
            "turn": {"type": "object"},
            "over": {"type": "object", "nullable": True},
            "players": {"type": "array", "items": {"type": "object", "required": ["name", "cash", "deeds"]}},
            "pots": {"type": "array", "items": _ref("Pot")},
            "pending": {"type": "array", "items": _ref("PaymentRequest")},
            "answered": {"type": "array", "items": _ref("PaymentRequest")},
            "log": {"type": "array", "items": {"type": "object"}},
        },
    },
    "Join": {
        "type": "object",
        "required": ["player", "url"],
        "properties": {"player": {"type": "string"}, "url": {"type": "string"}},
    },
}

PATHS = {
    "/api/v1/openapi.json": {"get": _op("This document", {"200": _ok({"type": "object"})}, public=True)},
    PROBLEMS_PATH + "{kind}": {
        "get": _op(
            "What one kind of refusal means: a problem's `type`, dereferenced",
            {"200": _ok(_ref("ProblemType")), "404": _error("no such kind of problem")},
            params=[
                {
                    "name": "kind",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string", "minLength": 1, "maxLength": 40},
                }
            ],
            public=True,
        )
    },
    "/api/v1/state": {
        "get": _op(
            "The caller's page: a player's own view, or the banker's",
            {"200": _ok({"oneOf": [_ref("PlayerPage"), _ref("BankerPage")]})},
        )
    },
    "/api/v1/events": {
        "get": _op(
            "The caller's page, live: server-sent events `state` (id = game version), `ping`, `closed`",
            {
                "200": {
                    "description": "an event stream that stays open",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                }
            },
        )
    },
    "/api/v1/requests": {
        "get": _op(
            "Payment requests: the caller's own (player) or all (banker)",
            {
                "200": _ok(
                    {
                        "type": "object",
                        "required": ["requests"],
                        "properties": {"requests": {"type": "array", "items": _ref("PaymentRequest")}},
                    }
                )
            },
        ),
        "post": _op(
            "A player asks to pay another player or the bank; it waits for the banker",
            {
                "201": _ok(
                    {"type": "object", "required": ["request"], "properties": {"request": _ref("PaymentRequest")}},
                    "the request, waiting (or the earlier one with the same id)",
                ),
                "409": _error("a rule or limit says no (requests off, not enough cash, too many waiting)"),
            },
            body=_ref("NewRequest"),
            extra=(_BODY,),
        ),
    },
    "/api/v1/requests/{id}/cancel": {
        "post": _op(
            "A player withdraws their own waiting request",
            {
                "200": _ok(
                    {"type": "object", "required": ["request"], "properties": {"request": _ref("PaymentRequest")}}
                ),
                "404": _error("no such request"),
                "409": _error("already answered"),
            },
            body=_ref("Empty"),
            params=[_ID],
            extra=(_BODY,),
        )
    },
    "/api/v1/requests/{id}/approve": {
        "post": _op(
            "The banker approves: the transfer is applied through the Banker (idempotent)",
            {
                "200": _ok(
                    {
                        "type": "object",
                        "required": ["request", "outcome"],
                        "properties": {"request": _ref("PaymentRequest"), "outcome": _ref("Outcome")},
                    }
                ),
                "404": _error("no such request"),
                "409": _error("a rule refuses the transfer now, or already answered"),
                "503": _error("the game file is busy"),
            },
            body=_ref("Empty"),
            params=[_ID],
            extra=(_BODY,),
        )
    },
    "/api/v1/requests/{id}/decline": {
        "post": _op(
            "The banker declines, with a reason for the phone",
            {
                "200": _ok(
                    {"type": "object", "required": ["request"], "properties": {"request": _ref("PaymentRequest")}}
                ),
                "404": _error("no such request"),
                "409": _error("already answered"),
            },
            body=_ref("Decline"),
            params=[_ID],
            extra=(_BODY,),
        )
    },
    "/api/v1/actions": {
        "post": _op(
            "The banker applies an action (the same JSON as `companion do`; an `id` makes it idempotent)",
            {
                "201": _ok(_ref("Outcome"), "applied"),
                "200": _ok(_ref("Outcome"), "already applied under this id"),
                "409": _error("a rule refuses it; the game is unchanged"),
                "503": _error("the game file is busy"),
            },
            body=_ref("Action"),
            extra=(_BODY,),
        )
    },
    "/api/v1/log": {
        "get": _op(
            "Log entries after a version (banker)",
            {
                "200": _ok(
                    {
                        "type": "object",
                        "required": ["version", "entries"],
                        "properties": {
                            "version": {"type": "integer"},
                            "entries": {"type": "array", "items": _ref("Entry")},
                        },
                    }
                ),
                "400": _error("after or limit out of range"),
            },
            params=[
                {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500}},
            ],
            extra=(_ROLE,),
        )
    },
    "/api/v1/story": {
        "get": _op(
            "The whole game in words, newest first: a player's own story with turns, every log line for the banker",
            {
                "200": _ok(
                    {
                        "type": "object",
                        "required": ["version", "lines"],
                        "properties": {
                            "version": {"type": "integer"},
                            "lines": {"type": "array", "items": _ref("StoryLine")},
                        },
                    }
                )
            },
        )
    },
    "/api/v1/players/{name}/join": {
        "get": _op(
            "A player's join link (banker)",
            {"200": _ok(_ref("Join")), "404": _error("no such player")},
            params=[_NAME],
            extra=(_ROLE,),
        )
    },
    "/api/v1/players/{name}/qr.svg": {
        "get": _op(
            "A player's join link as a QR code (banker)",
            {
                "200": {"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                "404": _error("no such player"),
            },
            params=[_NAME],
            extra=(_ROLE,),
        )
    },
    "/api/v1/players/{name}/revoke": {
        "post": _op(
            "Withdraw a player's link and make a new one (banker)",
            {"200": _ok(_ref("Join")), "404": _error("no such player")},
            body=_ref("Empty"),
            params=[_NAME],
            extra=(_BODY,),
        )
    },
}

# -- players' own actions (companion/web/plays.py) ---------------------------------------------------
_PLAY = {
    "type": "object",
    "required": ["id", "player", "action", "summary", "status", "waiting_for"],
    "properties": {
        "id": {"type": "string"},
        "player": {"type": "string"},
        "action": {"type": "string"},
        "summary": {"type": "string", "description": "the sentence the log will hold"},
        "waiting_for": {
            "type": "array",
            "items": {"type": "string"},
            "description": 'players, or "banker", still to approve',
        },
        "approved": {"type": "array", "items": {"type": "string"}},
        "status": {"type": "string", "enum": ["waiting", "done", "declined", "expired", "refused", "cancelled"]},
        "reason": {"type": "string"},
        "seq": _NULL_INT,
        "seconds_left": {
            "type": "integer",
            "description": "while it waits: the seconds before it expires, when the page was made (a phone counts them down)",
        },
    },
}
_PLAYED = {
    "type": "object",
    "required": ["play"],
    "properties": {
        "play": _PLAY,
        "seq": {"type": "integer"},
        "summary": {"type": "string"},
        "repeated": {"type": "boolean"},
    },
}
_VALUES = {
    "type": "object",
    "description": "the action's fields chosen so far (docs/actions.md); the phone's own player fills the acting field",
}
_PLAY_REFUSED = {
    "404": _error("no such action waiting"),
    "409": _error("a rule refuses it now, the table changed, or it was already answered"),
}
PATHS.update(
    {
        "/api/v1/plays": {
            "get": _op(
                "A player's actions: what they may start, their own, those waiting for their approval and "
                "the latest answered ones that waited for it (answered_for_me); for the banker, every waiting "
                "one and the pause",
                {"200": _ok({"type": "object"})},
            ),
            "post": _op(
                "A player commits an action from their phone: done at once when only their own money moves, "
                "else it waits for the approvals it needs",
                {
                    "201": _ok(_PLAYED, "done"),
                    "202": _ok(_PLAYED, "waiting for approval"),
                    "409": _error("a rule refuses it, phones are paused or off, or the table changed"),
                },
                body={
                    "type": "object",
                    "required": ["action", "id"],
                    "additionalProperties": False,
                    "properties": {
                        "action": {"type": "string", "maxLength": 40},
                        "values": _VALUES,
                        "id": {"type": "string", "minLength": 1, "maxLength": 40},
                        "seen": {
                            "type": "string",
                            "maxLength": 300,
                            "description": "the sentence on the button that was tapped",
                        },
                    },
                },
                extra=(_BODY,),
            ),
        },
        "/api/v1/plays/form": {
            "post": _op(
                "An action being put together: its fields with the rule's choices, and once complete its sentence and "
                "who approves",
                {
                    "200": _ok({"type": "object", "required": ["action", "fields", "ready"]}),
                    "409": _error("the acting field names another player"),
                },
                body={
                    "type": "object",
                    "required": ["action"],
                    "additionalProperties": False,
                    "properties": {"action": {"type": "string", "maxLength": 40}, "values": _VALUES},
                },
                extra=(_BODY,),
            )
        },
        "/api/v1/plays/{id}/approve": {
            "post": _op(
                "A player whose money it takes, or the banker, approves; the last approval commits it",
                {
                    "200": _ok(_PLAYED, "approved; others still to approve"),
                    "201": _ok(_PLAYED, "approved and done"),
                    **_PLAY_REFUSED,
                },
                body={
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"seen": {"type": "string", "maxLength": 300}},
                },
                params=[_ID],
                extra=(_BODY,),
            )
        },
        "/api/v1/plays/{id}/decline": {
            "post": _op(
                "An approver says no, with an optional reason for the asker's phone",
                {"200": _ok(_PLAYED), **_PLAY_REFUSED},
                body=_ref("Decline"),
                params=[_ID],
                extra=(_BODY,),
            )
        },
        "/api/v1/plays/{id}/cancel": {
            "post": _op(
                "A player withdraws their own waiting action",
                {"200": _ok(_PLAYED), **_PLAY_REFUSED},
                body=_ref("Empty"),
                params=[_ID],
                extra=(_BODY,),
            )
        },
        "/api/v1/plays/pause": {
            "post": _op(
                "The banker pauses (or resumes) every phone's actions",
                {"200": _ok({"type": "object", "required": ["paused"], "properties": {"paused": {"type": "boolean"}}})},
                body={
                    "type": "object",
                    "required": ["paused"],
                    "additionalProperties": False,
                    "properties": {"paused": {"type": "boolean"}},
                },
                extra=(_BODY,),
            )
        },
    }
)

OPENAPI: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {
        "title": "Table Banker phones API",
        "version": "1",
        "description": "Players' phones and the banker's tools on the table's local network. See docs/api.md.",
    },
    "servers": [{"url": "/"}],
    "security": [{"bearer": []}, {"cookie": []}],
    "paths": PATHS,
    "components": {
        "schemas": SCHEMAS,
        "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer", "description": "a join token (player or banker)"},
            "cookie": {
                "type": "apiKey",
                "in": "cookie",
                "name": "tb_GAME",
                "description": "set by visiting the join link; its name is per game",
            },
        },
    },
}


_STEPS = {
    "type": "object",
    "title": "undo or redo",
    "required": ["action"],
    "additionalProperties": False,
    "properties": {
        "action": {"type": "string", "enum": ["undo", "redo"]},
        "id": {"type": "string", "minLength": 1, "maxLength": 100},
    },
}


def _openapi_30(schema):
    """A JSON schema as OpenAPI 3.0 reads it: ``const`` becomes a one-value ``enum``."""
    if isinstance(schema, dict):
        out = {k: _openapi_30(v) for k, v in schema.items() if k != "const"}
        if "const" in schema:
            out["enum"] = [schema["const"]]
        return out
    if isinstance(schema, list):
        return [_openapi_30(v) for v in schema]
    return schema


def _action_schema_name(action: str) -> str:
    return "Action_" + action


def openapi_document(
    cookie_name: str, actions=(), *, family: str | None = None, deed_fields: dict | None = None
) -> dict:
    """The document with this game's cookie name filled in and, given the game's declared actions
    (:meth:`companion.service.Banker.actions`), each action's own body schema under a discriminator on
    ``action``, so a client - and the fuzzer in the tests - knows every field each action takes; given the
    game's family and what its deeds hold (``rules.extras["deed_fields"]``), the family's own deed."""
    doc = copy.deepcopy(OPENAPI)
    doc["components"]["securitySchemes"]["cookie"]["name"] = cookie_name
    schemas = doc["components"]["schemas"]
    if actions:
        from companion.core.contract import json_schema

        mapping = {}
        for spec in actions:
            name = _action_schema_name(spec.name)
            schemas[name] = _openapi_30(json_schema(spec))
            mapping[spec.name] = f"#/components/schemas/{name}"
        schemas["Steps"] = _STEPS
        mapping.update(undo="#/components/schemas/Steps", redo="#/components/schemas/Steps")
        schemas["Action"] = {
            "oneOf": [{"$ref": ref} for ref in dict.fromkeys(mapping.values())],
            "discriminator": {"propertyName": "action", "mapping": mapping},
            "description": "one of this game's actions, as `companion do` takes it (docs/actions.md)",
        }
    if family is not None:
        deed = schemas["Deed"]
        own = {
            name: {k: v for k, v in schema.items() if k != "default"} for name, schema in (deed_fields or {}).items()
        }
        schemas["Deed"] = {
            **deed,
            "description": f"a deed of a {family} game on a phone's page",
            "required": [*deed["required"], *own],
            "properties": {**deed["properties"], **own},
        }
    return doc
