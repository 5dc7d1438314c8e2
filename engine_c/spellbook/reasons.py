"""Why a SpellBook move is good (or what it costs), in a player's terms, for hints.

`reasons(state, move)` compares the mover's situation before the move with the situation right after it,
before any Pouch draw it causes is resolved (so no hidden information is used or revealed). Each reason
is a `Reason(kind, value, items, text, aspect)`; only the ones that apply are returned, in this order.
`aspect` groups them: "gains" (what the move does now), "enables" (what it makes possible), "gives_up"
(what it costs), "leaves" (what the next player finds on the Altar). Texts say "you" for the mover and
never cite rule ids.

    gains     points_gained     your score (at current levels) rises by `value`
              spell_learned     the move learns or raises `items[0]` to level `value`
              familiar_tokens   `value` tokens go onto your familiar (items: their types)
              tokens_gained     your pool gains `value` tokens net (items: the types gained)
              tokens_to_draw    `value` tokens will be drawn into your pool next
    enables   learn_tonight     spells you can learn at this Day's Evening and could not before (items)
              spells_enabled    spells you can learn at your next Evening and could not before (items)
              end_triggered     the move triggers the end of the game: this round is the last
    gives_up  learn_broken      spells you could learn this Evening before the move and no longer can
                                (e.g. a store that spends the Materia of tonight's learning; items)
              learn_lost        the same for your next Evening, when tonight's is not in reach (items)
              opponents_points  the best opponent's score changes by `value` (negative: it costs them)
    leaves    altar_denied      Altar tokens you take that the next player needed for a spell (items)
              altar_left        Altar tokens left for the next player that would let them learn a spell
                                (items: "Rc:Sacrifice"); value 0 and a "nothing" text when none does
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine_c.spellbook import _engine as _E
from engine_c.spellbook.state import K, NTYPE, POOL_LIMIT, SPELL_NAMES, Move, State, token_name

_OP = {name: op for op, name in _E.FRAME_NAMES.items()}
_EVENING = 3  # PHASES.index("evening")
GAINS, ENABLES, GIVES_UP, LEAVES = "gains", "enables", "gives_up", "leaves"


@dataclass(frozen=True)
class Reason:
    kind: str
    value: float
    items: tuple[str, ...] = field(default_factory=tuple)
    text: str = ""
    aspect: str = ""


def spell_title(name: str) -> str:
    """'TimeTravel' -> 'Time Travel' (the names players read on the cards)."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)


def _names(ids) -> tuple[str, ...]:
    return tuple(spell_title(SPELL_NAMES[s]) for s in sorted(ids))


def _points(n: float) -> str:
    n = abs(n)
    return f"{n:g} point" + ("" if n == 1 else "s")


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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


def _learnable(raw: dict, player: int) -> set[int]:
    try:
        return learnable_spells(raw, player)
    except Exception:  # a hypothetical Evening the engine refuses: no claim rather than a wrong one
        return set()


def _evening_ahead(raw: dict, player: int) -> bool:
    """Whether `player`'s own Evening of the Day in progress is still to come (or is now)."""
    return not raw["over"] and raw["active"] == player and 1 <= raw["phase"] <= _EVENING


def _altar_gifts(raw: dict, q: int) -> dict[int, set[int]]:
    """Altar token type -> spells player q could learn with that token added to their pool (and not without)."""
    if sum(raw["pool"][q]) >= POOL_LIMIT:
        return {}
    base = _learnable(raw, q)
    out = {}
    for t in range(NTYPE):
        if raw["altar"][t]:
            hypo = dict(raw)
            hypo["pool"] = [list(p) for p in raw["pool"]]
            hypo["pool"][q][t] += 1
            gained = _learnable(hypo, q) - base
            if gained:
                out[t] = gained
    return out


def reasons(state: State, move: Move | str) -> list[Reason]:
    """The reasons `move` (legal in `state`) is good or costly for the seat playing it; `state` is not changed."""
    player = state.current_player
    if player < 0:
        return []
    if isinstance(move, str):
        move = state.parse_move(move)
    after = state.clone()
    after.apply(move)
    b, a = state._to_raw(), after._to_raw()
    out = _gains(state, after, b, a, player)
    out += _learning(b, a, player, move)
    if a["end_triggered"] and not b["end_triggered"]:
        out.append(Reason("end_triggered", 1, (), "triggers the end of the game: this round is the last", ENABLES))
    sb, sa = state.scores(), after.scores()
    others = [p for p in range(b["players"]) if p != player]
    if others:
        delta = max(sa[p].total for p in others) - max(sb[p].total for p in others)
        if delta:
            out.append(Reason("opponents_points", delta, (),
                              f"the best opponent's score {'rises' if delta > 0 else 'falls'} by {_points(delta)}",
                              GIVES_UP if delta > 0 else GAINS))
    out += _altar(b, a, player)
    return out


def _gains(state: State, after: State, b: dict, a: dict, player: int) -> list[Reason]:
    out: list[Reason] = []
    gained = after.scores()[player].total - state.scores()[player].total
    if gained:
        out.append(Reason("points_gained", gained, (),
                          f"you {'gain' if gained > 0 else 'lose'} {_points(gained)} (at current levels)", GAINS))
    for c in range(len(b["spell"])):
        if a["level"][player][c] != b["level"][player][c]:
            name = spell_title(SPELL_NAMES[a["spell"][c]])
            lvl = a["level"][player][c]
            out.append(Reason("spell_learned", lvl, (name,), f"you learn {name} at level {lvl}"
                              if not b["level"][player][c] else f"{name} goes to level {lvl}", GAINS))
    fam = [max(0, a["fam"][player][t] - b["fam"][player][t]) for t in range(NTYPE)]
    if sum(fam):
        stored = sum(a["fam"][player])
        worth = 18 if stored >= 16 else stored + 1
        out.append(Reason("familiar_tokens", sum(fam), _tokens(fam),
                          f"you store {sum(fam)} on your familiar (then worth {_points(worth)})", GAINS))
    pool_b, pool_a = b["pool"][player], a["pool"][player]
    net = sum(pool_a) - sum(pool_b)
    if net > 0:
        new = [max(0, pool_a[t] - pool_b[t]) for t in range(NTYPE)]
        out.append(Reason("tokens_gained", net, _tokens(new), f"your pool gains {' '.join(_tokens(new))}", GAINS))
    if after.is_chance() and a["stack"]:
        top = a["stack"][-1]
        if _E.FRAME_NAMES[top[0]] == "drawpool" and top[1] == player and top[2] > 0:
            out.append(Reason("tokens_to_draw", top[2], (), f"you draw {top[2]} from the Pouch", GAINS))
    return out


def _learning(b: dict, a: dict, player: int, move: Move) -> list[Reason]:
    """What the move does to the spells the mover can learn: tonight when the Evening of the mover's Day
    is still ahead, else at the mover's next Evening."""
    if b["over"]:
        return []
    learns = move.kind in ("learn", "Transmutation") or any(
        a["level"][player][c] and not b["level"][player][c] for c in range(len(b["spell"])))
    out: list[Reason] = []
    if _evening_ahead(b, player):
        before = _learnable(b, player)
        now = _learnable(a, player) if _evening_ahead(a, player) else set()
        enabled, broken = now - before, before - now
        if enabled:
            out.append(Reason("learn_tonight", len(enabled), _names(enabled),
                              f"lets you learn {_and(_names(enabled))} this Evening", ENABLES))
        if broken and not learns:
            why = ("it spends Materia that learning needs" if b["phase"] < _EVENING
                   else "you skip this Evening's learning" if move.kind == "pass"
                   else "an Evening has room for one action")
            out.append(Reason("learn_broken", len(broken), _names(broken),
                              f"gives up learning {_and(_names(broken))} this Evening: {why}", GIVES_UP))
        if before or now or learns:
            return out
    before, now = _learnable(b, player), _learnable(a, player)
    enabled, lost = now - before, before - now
    if enabled:
        out.append(Reason("spells_enabled", len(enabled), _names(enabled),
                          f"puts {_and(_names(enabled))} within reach of your next Evening", ENABLES))
    if lost and not learns:
        out.append(Reason("learn_lost", len(lost), _names(lost),
                          f"you could no longer learn {_and(_names(lost))} at your next Evening", GIVES_UP))
    return out


def _altar(b: dict, a: dict, player: int) -> list[Reason]:
    """What the next player finds on the Altar (before the Altar's resupply), when the move changes the
    Altar or is the mover's Morning choice (taking from the Altar or not)."""
    n = b["players"]
    changed = list(a["altar"]) != list(b["altar"])
    morning = b["active"] == player and b["phase"] == 1
    if n < 2 or b["over"] or not (changed or morning):
        return []
    q = (player + 1) % n
    who = f"the next player (seat {q})"
    gifts_b, gifts_a = _altar_gifts(b, q), _altar_gifts(a, q)
    out: list[Reason] = []
    denied = {t: s for t, s in gifts_b.items() if a["altar"][t] == 0}
    if denied:
        items = tuple(f"{token_name(t)}:{'/'.join(_names(s))}" for t, s in sorted(denied.items()))
        text = "; ".join(f"{token_name(t)} ({_and(_names(s))})" for t, s in sorted(denied.items()))
        out.append(Reason("altar_denied", len(denied), items,
                          f"you take from the Altar what {who} needed to learn a spell: {text}", LEAVES))
    if gifts_a:
        items = tuple(f"{token_name(t)}:{'/'.join(_names(s))}" for t, s in sorted(gifts_a.items()))
        text = "; ".join(f"{token_name(t)} would let them learn {_and(_names(s))}" for t, s in sorted(gifts_a.items()))
        out.append(Reason("altar_left", len(gifts_a), items, f"leaves {who} on the Altar: {text}", LEAVES))
    elif changed:
        out.append(Reason("altar_left", 0, (), f"leaves nothing on the Altar that would let {who} learn a spell",
                          LEAVES))
    return out


# ----------------------------------------------------------------------------------------------
# "Why", without giving the move away (hint level 2, hints with the move hidden)
# ----------------------------------------------------------------------------------------------
THREATENS = "threatens"


def _plain(n: float, one: str, many: str) -> str:
    n = abs(n)
    return f"{n:g} {one if n == 1 else many}"


def _spells_only(items: tuple[str, ...]) -> tuple[str, ...]:
    """"Rc:Sacrifice/Cure" -> "Sacrifice", "Cure": the spells an Altar reason is about, not the tokens."""
    out: list[str] = []
    for item in items:
        for name in item.split(":", 1)[-1].split("/"):
            if name not in out:
                out.append(name)
    return tuple(out)


def _veiled_text(r: Reason) -> str | None:
    """The reason in a player's terms without the move's tokens or kind (None: it would give the move away
    and says nothing beyond it)."""
    spells = _and(r.items) if r.items else ""
    if r.kind == "points_gained":
        return (f"it is worth {_points(r.value)} to you at once" if r.value > 0
                else f"it costs you {_points(r.value)} now")
    if r.kind == "spell_learned":
        return "it raises what your spells are worth at the end"
    if r.kind == "familiar_tokens":
        return "it builds up what your familiar is worth at the end"
    if r.kind in ("tokens_gained", "tokens_to_draw"):
        return "it grows your pool of Materia for the spells you are aiming at"
    if r.kind == "learn_tonight":
        return f"it makes {spells} learnable this Evening"
    if r.kind == "spells_enabled":
        return f"it brings {spells} within reach of your next Evening"
    if r.kind == "end_triggered":
        return "it starts the last round of the game"
    if r.kind == "learn_broken":
        return f"it gives up learning {spells} this Evening"
    if r.kind == "learn_lost":
        return f"it gives up being able to learn {spells} at your next Evening"
    if r.kind == "opponents_points":
        return r.text
    if r.kind == "altar_denied":
        return f"it keeps from the next player what they needed for {_and(_spells_only(r.items))}"
    if r.kind == "altar_left":
        return (f"it leaves the next player what they need for {_and(_spells_only(r.items))}" if r.items
                else "it leaves the next player nothing on the Altar that completes a spell")
    return None


def veiled(found: list[Reason]) -> list[Reason]:
    """`reasons(...)` with texts and items that neither name nor restate the move (no token of it, not its
    kind): what it gains, gives up and leaves, for a hint that must not give the move away."""
    out = []
    for r in found:
        text = _veiled_text(r)
        if text is None:
            continue
        items = _spells_only(r.items) if r.kind in ("altar_denied", "altar_left") else (
            r.items if r.kind in ("learn_tonight", "spells_enabled", "learn_broken", "learn_lost") else ())
        out.append(Reason(r.kind, r.value, items, text, r.aspect))
    return out


def threats(state: State) -> list[Reason]:
    """What the other players threaten now, whatever the mover does: the spells each could learn at their
    next Evening with the pool they hold (aspect "threatens"; items: the spells; value: the seat)."""
    player = state.current_player
    if player < 0:
        return []
    raw = state._to_raw()
    out = []
    for q in range(raw["players"]):
        if q == player:
            continue
        spells = _names(_learnable(raw, q))
        if spells:
            out.append(Reason("opponent_can_learn", q, spells,
                              f"seat {q} can learn {_and(spells)} at their next Evening with the pool they hold",
                              THREATENS))
    return out
