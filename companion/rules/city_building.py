"""Monopoly City building: the build spinner's allowance, blocks, railroads, stadiums, skyscrapers,
the Monopoly Tower, and planning permission (bonus buildings and hazards).

The trading unit's build spinner decides how many blocks a player may build on a turn (1, 2 or 3) or
grants a free railroad instead. The banker records its result with ``spin``; block and railroad
builds then draw on that allowance until the turn ends. Stadiums, skyscrapers and the tower are
bought outside the spinner's allowance, and none of them counts towards a district's 8 blocks.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core import contract as c
from companion.core.engine import Registry, Tx
from companion.core.errors import BadAction, Refused
from companion.core.said import does, who, whose
from companion.core.model import BANK, card, cash

from . import city_districts as cd

__all__ = ["BUILDING", "BLOCKS", "build_spin", "spin_of", "roll_of", "describe_spin"]

BUILDING = Registry()

_FACES: dict[int | str, int | str] = {
    1: 1,
    2: 2,
    3: 3,
    "1": 1,
    "2": 2,
    "3": 3,
    4: "railroad",
    "4": "railroad",
    "railroad": "railroad",
}
_KINDS = ("residential", "industrial", "railroad", "stadium", "skyscraper", "tower")
FACES = ((1, "1 block"), (2, "2 blocks"), (3, "3 blocks"), ("railroad", "A railroad"))
BUILDINGS = (
    ("residential", "Residential blocks"),
    ("industrial", "Industrial blocks"),
    ("railroad", "A railroad"),
    ("stadium", "A stadium"),
    ("skyscraper", "A skyscraper"),
    ("tower", "The Monopoly Tower"),
)


#: The buildings that are blocks: they draw on the spin's allowance and take a count.
BLOCKS = ("residential", "industrial")
#: The buildings only a spin gives (the free railroad): a screen offers one only while the spin has filled it.
SPUN_ONLY = ("railroad",)


def _own_districts(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [n for n, rec in table["deeds"].items() if rec.get("owner") == partial.get("player")]


def _planning_options(table: dict[str, Any], partial: dict[str, Any]) -> list[tuple[str, str]]:
    planning = table["pack"]["planning"]
    return [(b, f"{b} (bonus)") for b in planning["bonus"]] + [(h, f"{h} (hazard)") for h in planning["hazards"]]


def roll_of(table: dict[str, Any]) -> int:
    """Which roll of the turn is being played: 1, then 2 and 3 after doubles."""
    return cast("int", table["turn"].get("roll", 1))


def spin_of(table: dict[str, Any], player: str) -> dict[str, Any] | None:
    """The player's latest spin in the turn being played, or None if they have not spun this turn."""
    spin = table["turn"].get("spin")
    if spin and spin["player"] == player and spin["turn"] == table["turn"]["number"]:
        return cast("dict[str, Any] | None", spin)
    return None


def describe_spin(spin: dict[str, Any]) -> str:
    if spin["result"] == "railroad":
        return "a railroad" + (" (built)" if spin["used"] else "")
    left = spin["result"] - spin["used"]
    return f"{spin['result']} block{'s' if spin['result'] > 1 else ''} ({left} left)"


def build_spin(
    table: dict[str, Any], player: str | None, building: str | None = None, *, this_roll: bool = True
) -> dict[str, Any]:
    """What the player's build spin gives a Build now, for a screen that fills the Build in so that the
    district is the only tap left (the touchscreen draws it; the rule, ``build``, still decides).

    ``building`` is what the Build holds so far. Before a spin (this roll's, unless ``this_roll`` is
    False): ``spun`` False, the building kept (residential when none). After it: a railroad when the
    spinner gave one (built or not: the rule says what is left of it), else the building kept when it is
    one (residential instead of a railroad or nothing) with ``count`` the blocks the spin still allows
    (1 to 3; None for a building that is not blocks) and ``allowance`` what is left of the spin. ``text``
    says the spin ("2 blocks (1 left)"); ``blocks`` names the buildings that take a count and
    ``spun_only`` the ones only a spin gives."""
    spin = spin_of(table, player) if player else None
    if spin is not None and this_roll and spin.get("roll", 1) != roll_of(table):
        spin = None  # a double since that spin: this roll spins again
    if spin is None:
        return {
            "spun": False,
            "text": "",
            "building": building or "residential",
            "count": None,
            "allowance": None,
            "blocks": BLOCKS,
            "spun_only": SPUN_ONLY,
        }
    said = {"spun": True, "text": describe_spin(spin), "blocks": BLOCKS, "spun_only": SPUN_ONLY}
    if spin["result"] == "railroad":
        return {**said, "building": "railroad", "count": None, "allowance": 0}
    left = max(spin["result"] - spin["used"], 0)
    kept = building if building in BLOCKS or (building and building != "railroad") else "residential"
    count = max(1, min(left, 3)) if kept in BLOCKS else None
    return {**said, "building": kept, "count": count, "allowance": left}


@BUILDING.action(
    "spin",
    c.player(),
    c.choice("result", "Where the spinner stopped", FACES, aliases=((4, "railroad"), ("4", "railroad"))),
    label="Spin",
    group="deeds",
    own_turn="the build spinner is pressed by the player whose turn it is, once a roll",
)
def spin(tx: Tx, a: dict[str, Any]) -> str:
    """Record where the build spinner stopped for the player whose turn it is (once a roll: after a
    double the player rolls again and may build again, so the spinner turns again)."""
    player = a["player"]
    result = a["result"]
    if isinstance(result, bool) or not isinstance(result, (int, str)) or _key(result) not in _FACES:
        raise BadAction(f'result is 1, 2, 3 or "railroad", not {result!r}')
    face = _FACES[_key(result)]
    done = spin_of(tx.table, player)
    roll = roll_of(tx.table)
    if done and done.get("roll", 1) == roll:
        raise Refused(
            f"{player} already spun on turn {done['turn']} ({describe_spin(done)}): the spinner turns "
            "once a roll, and again only after a double"
        )
    number = tx.table["turn"]["number"]
    tx.set(
        ["turn", "spin"],
        {"player": player, "turn": number, "result": face, "used": 0, **({"roll": roll} if roll > 1 else {})},
    )
    if face == "railroad":
        return who(player) + " spun a railroad: one free railroad on any district this turn, but no blocks"
    return who(player) + f" spun {face}: up to {face} block{'s' if face != 1 else ''} this turn"


def _key(result: int | str) -> int | str:
    return result.strip().lower() if isinstance(result, str) else result


@BUILDING.action(
    "double",
    c.player(says="Who rolled a double"),
    label="Rolled a double",
    group="turn",
    own_turn="only the player whose turn it is rolls the dice",
)
def double(tx: Tx, a: dict[str, Any]) -> str:
    """The player whose turn it is rolled a double: after this roll's landing and building they roll
    again in the same turn, and may spin and build again. A third double in a row sends them to jail."""
    player = a["player"]
    if tx.table["players"][player].get("in_jail"):
        raise Refused(f"{player} is in jail: a double gets {player} out (leave_jail), and the turn ends there")
    roll = roll_of(tx.table)
    if roll >= 3:
        tx.set(["players", player, "in_jail"], True)
        tx.set(["turn", "roll"], None)
        tx.set(["turn", "spin"], None)
        return who(player) + " rolled a third double in a row and " + does(player, "goes") + " to jail; the turn ends"
    tx.set(["turn", "roll"], roll + 1)
    return who(player) + " rolled a double: another roll this turn, and the spinner may turn again"


@BUILDING.action(
    "build",
    c.player(role="owner"),
    c.deed(only=_own_districts),
    c.choice("building", "What to build", BUILDINGS),
    c.count("count", "How many blocks", 1, 3, required=False),
    label="Build",
    group="deeds",
    own_turn="building on one's districts (blocks, a railroad, a stadium, a skyscraper or the Tower) "
    "is done during one's own turn",
)
def build(tx: Tx, a: dict[str, Any]) -> str:
    """Build blocks, a railroad, a stadium, a skyscraper or the Monopoly Tower on a district.

    Residential and industrial blocks and the free railroad draw on this turn's spin; the others
    have their own conditions and prices."""
    player = a["player"]
    deed = a["deed"]
    kind = a["building"]
    if kind not in _KINDS:
        raise BadAction(f"building is one of {', '.join(_KINDS)}, not {kind!r}")
    if "count" in a and kind not in ("residential", "industrial"):
        raise BadAction(f"count is for residential or industrial blocks, not a {kind}")
    if kind == "railroad":
        return _railroad(tx, player, deed)
    cd.require_owner(tx.table, player, deed)
    if tx.table["deeds"][deed].get("mortgaged"):
        raise Refused(f"{deed} is mortgaged: buy it back before building there")
    if kind in ("residential", "industrial"):
        return _blocks(tx, player, deed, kind, _count(a))
    return {"stadium": _stadium, "skyscraper": _skyscraper, "tower": _tower}[kind](tx, player, deed)


def _count(a: dict[str, Any]) -> int:
    n = a.get("count", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3:
        raise BadAction(f"count must be a whole number of blocks from 1 to 3, not {n!r}")
    return n


def _allowance(tx: Tx, player: str) -> dict[str, Any]:
    spin = spin_of(tx.table, player)
    if spin is None:
        raise Refused(f"{player} has not spun the build spinner this turn: spin first")
    return spin


def _blocks(tx: Tx, player: str, deed: str, kind: str, count: int) -> str:
    spin = _allowance(tx, player)
    if spin["result"] == "railroad":
        raise Refused(f"the spinner gave {player} a railroad this turn, not blocks")
    left = spin["result"] - spin["used"]
    if count > left:
        raise Refused(
            f"the spinner allows {player} {spin['result']} block{'s' if spin['result'] > 1 else ''} "
            f"this turn and {spin['used']} {'is' if spin['used'] == 1 else 'are'} built: {left} left"
        )
    standing = cd.blocks(tx.table, deed)
    if standing + count > cd.MAX_BLOCKS:
        raise Refused(f"{deed} has {standing} blocks: a district holds at most {cd.MAX_BLOCKS}")
    each = card(tx.table, deed)[f"{kind}_cost"]
    total = each * count
    what = f"{count} {kind} block{'s' if count > 1 else ''}"
    tx.pay(player, BANK, total, f"{what} on {deed}")
    tx.set(["deeds", deed, kind], tx.table["deeds"][deed].get(kind, 0) + count)
    tx.set(["turn", "spin"], {**spin, "used": spin["used"] + count})
    return who(player) + f" built {what} on {deed} for {tx.fmt(total)}"


def _railroad(tx: Tx, player: str, deed: str) -> str:
    spin = _allowance(tx, player)
    if spin["result"] != "railroad":
        raise Refused(f"the spinner gave {player} blocks this turn, not a railroad")
    if spin["used"]:
        raise Refused(f"{player} has already built this turn's railroad")
    if tx.table["deeds"][deed].get("railroad"):
        raise Refused(f"{deed} already has a railroad")
    tx.set(["deeds", deed, "railroad"], True)
    tx.set(["turn", "spin"], {**spin, "used": 1})
    return who(player) + f" built a free railroad on {deed}"


def _stadium(tx: Tx, player: str, deed: str) -> str:
    group = cd.group_of(tx.table, deed)
    mine = [d for d in cd.group_deeds(tx.table, group) if tx.table["deeds"][d].get("owner") == player]
    if len(mine) < 2:
        raise Refused(f"a stadium needs two {group} districts; {player} owns {len(mine)}")
    taken = [d for d in cd.group_deeds(tx.table, group) if tx.table["deeds"][d].get("stadium")]
    if taken:
        raise Refused(f"the {group} group already has its stadium (on {taken[0]})")
    if tx.table["stock"].get("stadiums", 0) < 1:
        raise Refused("both stadiums are built: there are only two in the game")
    cost = tx.table["pack"]["stadium_cost"]
    tx.pay(player, BANK, cost, f"a stadium on {deed}")
    tx.set(["deeds", deed, "stadium"], True)
    tx.set(["stock", "stadiums"], tx.table["stock"]["stadiums"] - 1)
    return who(player) + f" built a stadium on {deed} for {tx.fmt(cost)}"


def _skyscraper(tx: Tx, player: str, deed: str) -> str:
    group = cd.group_of(tx.table, deed)
    if not cd.owns_group(tx.table, player, group):
        missing = [d for d in cd.group_deeds(tx.table, group) if tx.table["deeds"][d].get("owner") != player]
        raise Refused(f"a skyscraper needs the whole {group} group (missing {', '.join(missing)})")
    taken = [d for d in cd.group_deeds(tx.table, group) if tx.table["deeds"][d].get("skyscraper")]
    if taken:
        raise Refused(f"the {group} group already has its skyscraper (on {taken[0]})")
    cost = card(tx.table, deed)["skyscraper_cost"]
    tx.pay(player, BANK, cost, f"a skyscraper on {deed}")
    tx.set(["deeds", deed, "skyscraper"], True)
    return who(player) + f" built a skyscraper on {deed} for {tx.fmt(cost)}: rent doubles on the {group} group"


def _tower(tx: Tx, player: str, deed: str) -> str:
    if tx.table["stock"].get("towers", 0) < 1:
        where = next((d for d, s in tx.table["deeds"].items() if s.get("tower")), None)
        raise Refused("the Monopoly Tower is already built" + (f" (on {where})" if where else ""))
    complete = cd.complete_groups(tx.table, player)
    if len(complete) < 2:
        raise Refused(f"the Monopoly Tower needs two whole colour groups; {player} has {len(complete)}")
    group = cd.group_of(tx.table, deed)
    if group not in complete:
        raise Refused(
            f"the Monopoly Tower goes on a district of a whole group {player} owns "
            f"({', '.join(complete)}), and {deed} is {group}"
        )
    cost = tx.table["pack"]["tower_cost"]
    tx.pay(player, BANK, cost, f"the Monopoly Tower on {deed}")
    tx.set(["deeds", deed, "tower"], True)
    tx.set(["stock", "towers"], tx.table["stock"]["towers"] - 1)
    return (
        who(player)
        + f" built the Monopoly Tower on {deed} for {tx.fmt(cost)}: rent doubles on all "
        + whose(player)
        + " districts"
    )


def _planning_building(table: dict[str, Any], name: object) -> tuple[str, str]:
    """("bonus" or "hazard", the canonical name) of a planning-permission building."""
    planning = table["pack"]["planning"]
    if isinstance(name, str):
        wanted = " ".join(name.split()).casefold()
        for bonus in planning["bonus"]:
            if bonus.casefold() == wanted:
                return "bonus", bonus
        for hazard in planning["hazards"]:
            if hazard.casefold() == wanted:
                return "hazard", hazard
    every = [*planning["bonus"], *planning["hazards"]]
    raise BadAction(f"building is one of {', '.join(every)}, not {name!r}")


@BUILDING.action(
    "planning_permission",
    c.player(role="owner"),
    c.deed(),
    c.choice(
        "building",
        "Which bonus building or hazard",
        options_from=_planning_options,
        resolve=lambda table, value: _planning_building(table, value)[1],
    ),
    label="Planning permission",
    group="deeds",
    own_turn="planning permission is used by the player who landed on it, in that turn",
)
def planning_permission(tx: Tx, a: dict[str, Any]) -> str:
    """Planning permission: a free bonus building or hazard goes on a district.

    A bonus building goes on the player's own or an unowned district, a hazard on another player's or
    an unowned one; each keeps the other out."""
    player = a["player"]
    deed = a["deed"]
    kind, name = _planning_building(tx.table, a["building"])
    state = tx.table["deeds"][deed]
    owner = state.get("owner")
    if kind == "bonus" and owner not in (None, player):
        raise Refused(
            f"a bonus building goes on {player}'s own district or an unowned one, and {deed} belongs to {owner}"
        )
    if kind == "hazard" and owner == player:
        raise Refused(f"a hazard goes on another player's district or an unowned one, not on {player}'s own {deed}")
    if state.get("bonus"):
        raise Refused(
            f"{deed} has a {state['bonus']}"
            + (": bonus buildings keep hazards out" if kind == "hazard" else " already")
        )
    if state.get("hazard"):
        raise Refused(
            f"{deed} has a {state['hazard']}"
            + (": hazards keep bonus buildings out" if kind == "bonus" else " already")
        )
    tx.set(["deeds", deed, kind], name)
    if kind == "hazard":
        return who(player) + f" built a {name} on {deed}: its residential blocks are worthless while it stands"
    return who(player) + f" built a {name} on {deed}: no hazard can go there"


@BUILDING.action(
    "remove_hazard",
    c.player(role="owner"),
    c.deed(),
    label="Remove a hazard",
    group="deeds",
    own_turn="a hazard is removed by its district's owner during the owner's own turn",
)
def remove_hazard(tx: Tx, a: dict[str, Any]) -> str:
    """The district's owner pays the bank to take a hazard away (a fixed sum per block of the hazard)."""
    player = a["player"]
    deed = a["deed"]
    cd.require_owner(tx.table, player, deed)
    hazard = tx.table["deeds"][deed].get("hazard")
    if not hazard:
        raise Refused(f"there is no hazard on {deed}")
    planning = tx.table["pack"]["planning"]
    size = planning["hazards"][hazard]
    cost = size * planning["removal_per_block"]
    if cash(tx.table, player) < cost:
        raise tx.short_of(player, cost, f"removing the {hazard} from {deed}")
    tx.pay(player, BANK, cost, f"removed the {hazard} from {deed}")
    tx.set(["deeds", deed, "hazard"], None)
    return who(player) + f" paid {tx.fmt(cost)} to remove the {hazard} ({size} blocks) from {deed}"
