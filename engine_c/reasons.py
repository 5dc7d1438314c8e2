"""Why a SpellBook move is good, in machine-readable form (for hints).

`reasons(state, move)` compares the mover's situation before the move with the situation right after it,
before any Pouch draw it causes is resolved (so no hidden information is used or revealed). Each reason
is a `Reason(kind, value, items, text)`; only the ones that apply are returned, in this order:

    points_gained     the mover's score (E3, at current levels) rises by `value`
    spell_learned     the move learns or raises `items[0]` to level `value`
    familiar_tokens   `value` tokens go onto the familiar board (items: their types)
    tokens_gained     the pool gains `value` tokens net (items: the types gained)
    tokens_to_draw    `value` tokens will be drawn into the mover's pool next (a draw is pending)
    spells_enabled    spells the mover could not learn with its pool before, and can at its next
                      Evening now (items: the spell names; value: how many)
    end_triggered     the move triggers the end of the game (E1)
    opponents_points  the best opponent's score changes by `value` (negative: the move costs them)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine_c import _engine as _E
from engine_c.state import K, NTYPE, SPELL_NAMES, Move, State, token_name

_OP = {name: op for op, name in _E.FRAME_NAMES.items()}
_EVENING = 3  # PHASES.index("evening")


@dataclass(frozen=True)
class Reason:
    kind: str
    value: float
    items: tuple[str, ...] = field(default_factory=tuple)
    text: str = ""


def _tokens(counts: list[int]) -> tuple[str, ...]:
    return tuple(token_name(t) for t in range(NTYPE) for _ in range(counts[t]))


def learnable_spells(raw: dict, player: int) -> set[int]:
    """Spell ids `player` could learn (or raise) at an Evening with the pool and board of `raw`."""
    hypo = dict(raw)
    hypo["stack"] = [(_OP["endday"], player, 0, 0, 0, 0), (_OP["resupply"], player, 0, 0, 0, 0),
                     (_OP["evening"], player, 0, 0, 0, 0)]
    hypo["phase"], hypo["active"], hypo["over"] = _EVENING, player, 0
    hypo["taken"] = hypo["given"] = hypo["justdisc"] = [0] * NTYPE
    st = State()
    st._from_raw(hypo)
    out = set()
    for code in st._legal_codes():
        kind, _level, _x, _a, b, _items = _E.decode_move(code)
        if kind in (K.LEARN, K.TRANSMUTE):
            out.add(b)
    return out


def reasons(state: State, move: Move | str) -> list[Reason]:
    """The reasons `move` (legal in `state`) is good for the seat playing it; `state` is not changed."""
    player = state.current_player
    if player < 0:
        return []
    after = state.clone()
    after.apply(move)
    b, a = state._to_raw(), after._to_raw()
    out: list[Reason] = []
    sb, sa = state.scores(), after.scores()
    gained = sa[player].total - sb[player].total
    if gained:
        out.append(Reason("points_gained", gained, (), f"{'+' if gained > 0 else ''}{gained} points"))
    for c in range(len(b["spell"])):
        if a["level"][player][c] != b["level"][player][c]:
            name = SPELL_NAMES[a["spell"][c]]
            lvl = a["level"][player][c]
            out.append(Reason("spell_learned", lvl, (name,), f"learns {name} at level {lvl}"
                              if not b["level"][player][c] else f"raises {name} to level {lvl}"))
    fam = [max(0, a["fam"][player][t] - b["fam"][player][t]) for t in range(NTYPE)]
    if sum(fam):
        out.append(Reason("familiar_tokens", sum(fam), _tokens(fam), f"stores {sum(fam)} on the familiar"))
    pool_b, pool_a = b["pool"][player], a["pool"][player]
    net = sum(pool_a) - sum(pool_b)
    if net > 0:
        new = [max(0, pool_a[t] - pool_b[t]) for t in range(NTYPE)]
        out.append(Reason("tokens_gained", net, _tokens(new), f"+{net} pool tokens"))
    if after.is_chance() and a["stack"]:
        top = a["stack"][-1]
        if _E.FRAME_NAMES[top[0]] == "drawpool" and top[1] == player and top[2] > 0:
            out.append(Reason("tokens_to_draw", top[2], (), f"draws {top[2]} from the Pouch"))
    if not b["over"]:
        try:
            enabled = learnable_spells(a, player) - learnable_spells(b, player)
        except Exception:  # a hypothetical Evening the engine refuses: no claim rather than a wrong one
            enabled = set()
        if enabled:
            names = tuple(SPELL_NAMES[s] for s in sorted(enabled))
            out.append(Reason("spells_enabled", len(names), names, "can learn " + ", ".join(names)))
    if a["end_triggered"] and not b["end_triggered"]:
        out.append(Reason("end_triggered", 1, (), "triggers the end of the game"))
    others = [p for p in range(b["players"]) if p != player]
    if others:
        delta = max(sa[p].total for p in others) - max(sb[p].total for p in others)
        if delta:
            out.append(Reason("opponents_points", delta, (), f"best opponent {'+' if delta > 0 else ''}{delta} points"))
    return out
