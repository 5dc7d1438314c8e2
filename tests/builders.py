"""Constructing exact positions for tests through the engine's raw state (all 105 tokens accounted for)."""
from __future__ import annotations

from engine_c import State
from engine_c._engine import FRAME_NAMES
from engine_c.state import COPIES, NTYPE, SPELL_NAMES, parse_counts

FRAME = {name: op for op, name in FRAME_NAMES.items()}


def build(players: int = 2, spells: str = "set1", active: int = 0, day: int = 0, at: str = "morning",
          pools: dict | None = None, fams: dict | None = None, altar: str = "-", discard: str = "-",
          learned: dict | None = None, end_triggered: int = 0, rng: int = 1) -> State:
    """A state at `active`'s phase `at` (morning/midday/evening). Tokens not placed go to the Pouch.
    learned: {seat: {"Sacrifice": (level, rune letter, day learned)}}."""
    raw = State.new(players=players, spells=spells, seed=0)._to_raw()
    zones = {"altar": parse_counts(altar, "altar"), "discard": parse_counts(discard, "discard")}
    raw["altar"], raw["discard"] = zones["altar"], zones["discard"]
    raw["pool"] = [parse_counts((pools or {}).get(p, "-"), "pool") for p in range(players)]
    raw["fam"] = [parse_counts((fams or {}).get(p, "-"), "fam") for p in range(players)]
    raw["level"] = [[0] * 7 for _ in range(players)]
    raw["rune"] = [[0] * 7 for _ in range(players)]
    raw["learned_day"] = [[0] * 7 for _ in range(players)]
    used = [0] * NTYPE
    for p, spells_of in (learned or {}).items():
        for name, (level, rune, lday) in spells_of.items():
            sid = SPELL_NAMES.index(name)
            c = sid // 3
            assert raw["spell"][c] == sid, f"{name} not in play"
            raw["level"][p][c], raw["rune"][p][c], raw["learned_day"][p][c] = level, "cts".index(rune), lday
            used[c * 3 + "cts".index(rune)] += 1
    for t in range(NTYPE):
        used[t] += raw["altar"][t] + raw["discard"][t] + sum(raw["pool"][p][t] + raw["fam"][p][t] for p in range(players))
    raw["pouch"] = [COPIES - u for u in used]
    assert min(raw["pouch"]) >= 0, "more than 5 tokens of a type"
    raw.update(day=day, active=active, end_triggered=end_triggered, over=0, rng=rng,
               phase={"morning": 1, "midday": 2, "evening": 3}[at])
    order = ["endday", "resupply", "evening", "midday", "morning"]
    frames = order[: order.index(at) + 1]
    raw["stack"] = [(FRAME[name], active, 0, 0, 0, 0) for name in frames]
    raw["taken"] = raw["given"] = raw["justdisc"] = [0] * NTYPE
    st = State()
    st._from_raw(raw)
    st.validate()
    return st
