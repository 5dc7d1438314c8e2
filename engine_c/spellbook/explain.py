"""Why a move is illegal, in words (used by State.parse_move / apply).

The messages speak to the seat deciding ("you", "your pool") and cite no rule ids: they are shown to players."""
from __future__ import annotations

from engine_c.spellbook import _engine as _E
from engine_c.spellbook.state import (COLOR_NAMES, FAMILIAR_SPACES, K, NCOL, POOL_LIMIT, SPELL_NAMES, Move, token_name)

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
        return f"{text!r}: no draw is pending; seat {cp} must decide"
    decision = state.decision
    who = "your"
    if decision in ("morning", "midday", "evening"):
        want = _PHASE_OF_KIND.get(kind)
        if kind in (K.SWAP, K.DISCARD):
            return f"{text!r}: nothing is being swapped or discarded now; it is {who} {decision.capitalize()}"
        if want and want != decision:
            art = "an" if want == "evening" else "a"
            return f"{text!r} is {art} {want.capitalize()} action; now it is {who} {decision.capitalize()}"
        reason = _spell_reason(raw, cp, kind, level, b)
        if reason:
            return f"{text!r}: {reason}"
        reason = _token_reason(raw, cp, kind, a, items)
        if reason:
            return f"{text!r}: {reason}"
        reason = _effect_reason(raw, cp, kind, level, a, b)
        if reason:
            return f"{text!r}: {reason}"
        if kind in _PHASE_OF_KIND and kind not in (K.LEARN, K.TRANSMUTE):
            return (f"{text!r}: it would move no token now, so it is not offered; "
                    f"legal: {_sample(state)}")
    elif decision in _SUBDECISION_HINT:
        return (f"{text!r} is not legal: you must now choose {_SUBDECISION_HINT[decision]}; "
                f"legal: {_sample(state)}")
    return f"{text!r} is not legal here (your {decision} decision); legal: {_sample(state)}"


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
            return f"you have already learned {SPELL_NAMES[b]} (a spell is learned once)"
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
        return f"you have not learned {name}"
    if raw["learned_day"][p][c] >= raw["day"]:
        return f"{name} was learned this Day; its action is available from the next Day on"
    need = {K.FOCUS: level, K.GROWTH: level, K.STORM: level}.get(kind, level if level >= 3 else 0)
    if kind == K.TRANSMUTE:
        need = 4
    if need and lvl < need:
        return f"{name} is at level {lvl}; the level-{need} effect needs level {need}"
    return None


_RUNE_RULE = "level 3: rune c; level 4: c or t; level 5: any rune"


def _level_of(raw, p, name) -> int:
    sid = SPELL_NAMES.index(name)
    return raw["level"][p][sid // 3] if raw["spell"][sid // 3] == sid else 0


def _effect_reason(raw, p, kind, level, a, b) -> str | None:
    """Spell-specific conditions beyond 'learned at that level' (rune limits, targets, C6)."""
    pool, altar = raw["pool"][p], raw["altar"]
    runes = "cts"
    if kind in (K.SACRIFICE, K.TIMETRAVEL):
        name = "Sacrifice" if kind == K.SACRIFICE else "TimeTravel"
        lvl = _level_of(raw, p, name)
        if lvl and a % 3 > lvl - 3:
            allowed = " or ".join(runes[: lvl - 2])
            return (f"{name} at level {lvl} discards a token with rune {allowed}, not {token_name(a)} "
                    f"({_RUNE_RULE})")
    if kind == K.TIMETRAVEL:
        c = b // 3
        if raw["spell"][c] != b:
            return f"{SPELL_NAMES[b]} is not in play ({COLOR_NAMES[c]} is {SPELL_NAMES[raw['spell'][c]]})"
        if SPELL_NAMES[b] == "TimeTravel":
            return "Time Travel cannot raise itself; choose another learned spell"
        if not raw["level"][p][c]:
            return f"you have not learned {SPELL_NAMES[b]}; Time Travel raises a learned spell"
        if raw["level"][p][c] >= 5:
            return f"{SPELL_NAMES[b]} is already at level 5 (the highest)"
    if kind == K.LEVITATION:
        mask = level - 2
        if not any(altar[t] and t % 3 < mask for t in range(21)):
            return f"the Altar holds no token with rune {' or '.join(runes[:mask])} for Levitation {level} ({_RUNE_RULE})"
    if kind == K.CLONE and level == 5:
        c = SPELL_NAMES.index("Clone") // 3
        if a % 3 != raw["rune"][p][c]:
            return f"Clone 5 discards a token with Clone's rune {runes[raw['rune'][p][c]]}, not {token_name(a)}"
    if kind == K.CLONE:
        return f"no other player has learned a spell whose action Clone {level} could copy now"
    if kind == K.FEAST and level == 3 and not any(raw["fam"][p][(a // 3) * 3 + r] for r in range(3)):
        return f"Feast 3 takes a token of a color stored on your familiar; none is {COLOR_NAMES[a // 3]}"
    if kind == K.GROWTH and level == 3:
        if not pool[a]:
            return f"your pool holds no {token_name(a)}"
        if not raw["fam"][p][b]:
            return f"your familiar holds no {token_name(b)}"
        if a == b:
            return "Growth 3 swaps two tokens of different types"
    if kind == K.ERUPTION and sum(pool) >= level + 1:
        return f"the pool already holds {sum(pool)} tokens; Eruption {level} draws until it holds {level + 1} (no effect)"
    return None


def _token_reason(raw, p, kind, a, items) -> str | None:
    pool = raw["pool"][p]
    if kind in (K.TAKE, K.DRAW, K.FEAST) and sum(pool) >= POOL_LIMIT:
        return f"your pool is full ({POOL_LIMIT} tokens)"
    if kind in (K.TAKE, K.FEAST) and raw["altar"][a] == 0:
        return f"there is no {token_name(a)} on the Altar"
    if kind in (K.STORE, K.SACRIFICE, K.TIMETRAVEL) and pool[a] == 0:
        return f"your pool holds no {token_name(a)}"
    if kind == K.STORE and sum(raw["fam"][p]) >= FAMILIAR_SPACES:
        return "your familiar is full"
    if kind in (K.LEARN, K.TRANSMUTE):
        need = [0] * 21
        need[a] += 1
        for t in items:
            need[t] += 1
        for t in range(21):
            if need[t] > pool[t]:
                return f"the learning spends {need[t]} {token_name(t)} but your pool holds {pool[t]}"
        return ("the spent tokens do not pay exactly that many Materia of the spell's color (a real token of its "
                "color, and three tokens sharing a rune count as one)")
    return None
