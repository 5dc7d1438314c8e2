"""Abracada…What?'s part of the game record: engine_c/records.py is the one format for every game
(docs/records.md) and asks each game's `record` module (engine_c.registry) what only the game knows. Here:
the setup is the variants; a chance event is a stone dealt, refilled or taken, or a die roll, with the zone
and seat it went to; and a stone is hidden from a viewer who may not see it while the game runs (XI1-XI4)."""
from __future__ import annotations

from typing import Any

from engine_c import records as R
from engine_c.abracadawhat.state import VARIANTS, State, chance_destination, outcome_visible_to, variant_bits
from engine_c.base import _mix_seed

EVENT_KINDS = ("deal", "refill", "secret", "roll", "move")
PUBLIC = False               # hands and secret stones are hidden from some viewers until the game is over


def new(players: int, setup: Any, seed: int) -> State:
    """State.new(players, seed, variants=setup); ValueError names what is wrong."""
    return State.new(players=players, seed=seed, variants=setup or ())


def fresh(players: int, setup: Any, seed: int) -> State:
    """A state before the deal whose generator is `seed`'s; `setup`: the variants."""
    st = State()
    st._init(players, variant_bits(setup), _mix_seed(seed))
    return st


def setup_list(setup: Any) -> list[str]:
    """The record's `variants` from a writer's variant names."""
    return [str(v).lower() for v in setup]


def setup_events(st: State) -> list[dict]:
    """The deal (XS2 in XC5's order) of a fresh state as 'deal' events, applied."""
    out = []
    while st.is_chance():
        outcome = st.Move(st._sample_chance_code())
        out.append(chance_event(st, outcome))
        st._apply_code(outcome.code)
    return out


def read_setup(obj: dict, seed: int | None) -> list[str]:
    """The record's variants, sorted and lower-case (RecordError('variants') otherwise)."""
    variants = obj.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) and v.lower() in VARIANTS for v in variants):
        raise R.RecordError("variants", f"must be a list of variant names ({', '.join(VARIANTS)}), got {variants!r}")
    return sorted({v.lower() for v in variants})


def check_view(obj: dict, players: int) -> None:
    """A record made for one viewer says whose view it is: 'spectator' or 'seat N'."""
    view = obj.get("view")
    if view is not None and not (view == "spectator" or (isinstance(view, str) and view.startswith("seat ")
                                                          and view[5:].isdigit() and int(view[5:]) < players)):
        raise R.RecordError("view", f"must be 'spectator' or 'seat N' (N from 0 to {players - 1}), got {view!r}")


def chance_event(state: State, outcome: Any, seq: int | None = None) -> dict:
    """A stone or a roll with its kind, zone and seat (before it is applied)."""
    kind, zone, to = chance_destination(state)
    return R.event(kind, -1, outcome, seq, zone=zone, to=to if to >= 0 else None)


def check_chance_kind(st: State, ev: dict, i: int) -> None:
    """The event's kind (and zone and seat, when given) must be the pending chance event's."""
    want = chance_event(st, "")
    for key in ("kind", "zone", "to"):
        if key in ev and ev[key] != want.get(key) or key == "kind" and ev[key] != want[key]:
            raise R.RecordError(f"events[{i}].{key}", f"the pending chance event is "
                                                      f"{dict((k, want[k]) for k in ('kind', 'zone', 'to') if k in want)}"
                                                      f", not {ev[key]!r}")


def visible(ev: dict, viewer: int | None) -> bool:
    """Whether `viewer` (a seat, None: a spectator) may see the stone of chance event `ev` during the game."""
    return outcome_visible_to(ev.get("zone", ""), ev.get("to", -1), viewer)
