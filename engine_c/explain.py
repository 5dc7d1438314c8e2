"""Why a move is illegal, in words (used by State.parse_move / apply)."""
from __future__ import annotations

from engine_c import _engine as _E
from engine_c.state import (COLOR_NAMES, FAMILIAR_SPACES, K, NCOL, POOL_LIMIT, SPELL_NAMES, Move, token_name)

_PHASE_OF_KIND = {
    K.TAKE: "morning", K.DRAW: "morning", K.SACRIFICE: "morning", K.ERUPTION: "morning", K.BLAZE: "morning",
    K.LEVITATION: "morning", K.SHARING: "morning", K.DIVINATION: "morning",
    K.STORE: "midday", K.PURIFICATION: "midday", K.CURE: "midday", K.OFFERING: "midday", K.FEAST: "midday",
    K.CLONE: "midday",
    K.LEARN: "evening", K.TRANSMUTE: "evening", K.GROWTH: "evening", K.FOCUS: "evening",
    K.TIMETRAVEL: "evening", K.STORM: "evening",
}
_SPELL_OF_KIND = {
    K.SACRIFICE: "Sacrifice", K.ERUPTION: "Eruption", K.BLAZE: "Blaze", K.LEVITATION: "Levitation",
    K.SHARING: "Sharing", K.DIVINATION: "Divination", K.PURIFICATION: "Purification", K.CURE: "Cure",
    K.OFFERING: "Offering", K.FEAST: "Feast", K.GROWTH: "Growth", K.FOCUS: "Focus", K.TIMETRAVEL: "TimeTravel",
    K.STORM: "Storm", K.CLONE: "Clone", K.TRANSMUTE: "Transmutation",
}
_SUBDECISION_HINT = {
    "take": "take <Altar token> (one at a time)", "store": "store <token>", "blaze": "take <Altar token> (Blaze)",
    "swap": "swap <Altar token> <pool token>", "discard": "discard <tokens>",
    "storm": "discard <Altar token> or pass", "clone": "the action Clone copies",
}


def explain_illegal(state, move: Move) -> str:
    kind, level, x, a, b, items = _E.decode_move(move.code)
    raw = state._to_raw()
    cp = state.current_player
    text = str(move)
    if cp == -2:
        return f"{text!r}: the game is over"
    if cp == -1:
        if kind != K.DRAWN:
            return f"{text!r}: a Pouch draw must be resolved first (a chance event; use resolve_chance())"
        return f"{text!r}: there is no {token_name(a)} in the Pouch"
    if kind == K.DRAWN:
        return f"{text!r}: no draw is pending; player {cp} must decide"
    decision = state.decision
    who = f"player {cp}"
    if decision in ("morning", "midday", "evening"):
        want = _PHASE_OF_KIND.get(kind)
        if kind in (K.SWAP, K.DISCARD):
            return f"{text!r}: nothing is being swapped or discarded now; it is {who}'s {decision.capitalize()}"
        if want and want != decision:
            return f"{text!r} is a {want.capitalize()} action; now it is {who}'s {decision.capitalize()}"
        reason = _spell_reason(raw, cp, kind, level, b)
        if reason:
            return f"{text!r}: {reason}"
        reason = _token_reason(raw, cp, kind, a, items)
        if reason:
            return f"{text!r}: {reason}"
    elif decision in _SUBDECISION_HINT:
        return (f"{text!r} is not legal: {who} must now choose {_SUBDECISION_HINT[decision]}; "
                f"legal: {_sample(state)}")
    return f"{text!r} is not legal here ({who}, {decision}); legal: {_sample(state)}"


def _sample(state, k: int = 8) -> str:
    moves = [str(m) for m in state.legal_moves()]
    more = f" … ({len(moves)} in all)" if len(moves) > k else ""
    return ", ".join(moves[:k]) + more


def _spell_reason(raw, p, kind, level, b) -> str | None:
    name = _SPELL_OF_KIND.get(kind)
    if kind in (K.LEARN, K.TRANSMUTE):
        c = b // 3
        if raw["spell"][c] != b:
            return f"{SPELL_NAMES[b]} is not in play ({COLOR_NAMES[c]} is {SPELL_NAMES[raw['spell'][c]]})"
        if raw["level"][p][c]:
            return f"{SPELL_NAMES[b]} is already learned by player {p} (L3: a spell is learned once)"
        if kind == K.LEARN:
            return None
    if name is None:
        return None
    sid = SPELL_NAMES.index(name)
    c = sid // 3
    if raw["spell"][c] != sid:
        return f"{name} is not in play in this game ({COLOR_NAMES[c]} is {SPELL_NAMES[raw['spell'][c]]})"
    lvl = raw["level"][p][c]
    if not lvl:
        return f"{name} is not learned by player {p}"
    if raw["learned_day"][p][c] >= raw["day"]:
        return f"{name} was learned this Day; its action is available from the next Day on (T4)"
    need = {K.FOCUS: level, K.GROWTH: level, K.STORM: level}.get(kind, level if level >= 3 else 0)
    if kind == K.TRANSMUTE:
        need = 4
    if need and lvl < need:
        return f"{name} is at level {lvl}; the level-{need} effect needs level {need}"
    return None


def _token_reason(raw, p, kind, a, items) -> str | None:
    pool = raw["pool"][p]
    if kind in (K.TAKE, K.DRAW, K.FEAST) and sum(pool) >= POOL_LIMIT:
        return f"player {p}'s pool is full ({POOL_LIMIT} tokens, P1)"
    if kind in (K.TAKE, K.FEAST) and raw["altar"][a] == 0:
        return f"there is no {token_name(a)} on the Altar"
    if kind in (K.STORE, K.SACRIFICE, K.TIMETRAVEL) and pool[a] == 0:
        return f"player {p}'s pool holds no {token_name(a)}"
    if kind == K.STORE and sum(raw["fam"][p]) >= FAMILIAR_SPACES:
        return f"player {p}'s familiar is full (P2)"
    if kind in (K.LEARN, K.TRANSMUTE):
        need = [0] * 21
        need[a] += 1
        for t in items:
            need[t] += 1
        for t in range(21):
            if need[t] > pool[t]:
                return f"the learning spends {need[t]} {token_name(t)} but player {p}'s pool holds {pool[t]}"
        return "the spent tokens do not pay exactly that many Materia of the spell's color (L1, L2, L4)"
    return None
