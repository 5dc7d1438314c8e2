"""Why a SpellBook move is good (or what it costs), in a player's terms, for hints.

`reasons(state, move)` compares the mover's situation before the move with the situation right after it
(`settle`: the move, then the mover's own follow-up choices of the same action, e.g. which color Offering
stores, by the one-ply heuristic), before any Pouch draw it causes is resolved (so no hidden information
is used or revealed). Every claim is measured on the engine's states, never asserted from the move's kind;
`audit(state, move, found)` re-derives each from the engine and lists the false ones (issue 42). With
`versus` (the best other family's move, for hints), `versus_*` reasons say what the move gains or gives up
against it. Other seats are named as the page and the terminal name them relative to the mover ("the next
player"), never by seat number. Each reason
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
              altar_discarded   the Altar holds `value` (10 or more) tokens with your refill still ahead:
                                unless you take some, the refill discards them all (then no altar_left)
    versus (against `versus`; aspect "gains" when the difference favours the move, else "gives_up")
              versus_points     your score now, minus the alternative's
              versus_pool       your pool's size, minus the alternative's
              versus_familiar   tokens on your familiar, minus the alternative's
              versus_spells     spells learned, minus the alternative's
              versus_reach      spells you could learn at your coming Evening (items: only with the move;
                                value: how many; a second reason with value < 0 for those only with the
                                alternative)
              versus_end        the move triggers the end and the alternative does not (1), or the reverse (-1)
              versus_next       spells the next player's Altar would complete: the move's count minus the
                                alternative's
"""
from __future__ import annotations

import re
from engine_c.base import Reason

from engine_c.spellbook import _engine as _E
from engine_c.spellbook.state import COLORS, K, NTYPE, POOL_LIMIT, SPELL_NAMES, Move, State, token_name

_OP = {name: op for op, name in _E.FRAME_NAMES.items()}
_EVENING = 3  # PHASES.index("evening")
GAINS, ENABLES, GIVES_UP, LEAVES = "gains", "enables", "gives_up", "leaves"


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


_PHASE_DECISIONS = ("morning", "midday", "evening")
_FOLLOW_UP_LIMIT = 12


def settle(state: State, move: Move) -> State:
    """The state after `move` and the mover's own follow-up choices of the same action (sub-decisions such
    as the color Offering stores or the token a take moves), each the one-ply heuristic's best
    (engine_c/spellbook/heuristic.py, seed 0): up to the next chance event, the next phase decision, the
    end, or another seat's decision. Deterministic."""
    from engine_c.spellbook.heuristic import move_values

    player = state.current_player
    after = state.clone()
    after.apply(move)
    for _ in range(_FOLLOW_UP_LIMIT):
        if after.current_player != player or after.decision in _PHASE_DECISIONS:
            break
        legal = after.legal_moves()
        values = move_values(after, legal, 0)
        after.apply(legal[max(range(len(legal)), key=lambda k: (values[k], -k))])
    return after


def reasons(state: State, move: Move | str, versus: Move | str | None = None) -> list[Reason]:
    """The reasons `move` (legal in `state`) is good or costly for the seat playing it, and with `versus`
    (another legal move) what it gains or gives up against that one; `state` is not changed."""
    player = state.current_player
    if player < 0:
        return []
    if isinstance(move, str):
        move = state.parse_move(move)
    if isinstance(versus, str):
        versus = state.parse_move(versus)
    after = settle(state, move)
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
    if versus is not None and versus != move:
        out += _versus(state, after, settle(state, versus), player)
    return out


def _pool_after_draws(raw: dict, player: int) -> int:
    """The player's pool once the Pouch draws already due to it have arrived (a `draw` is settled before its
    tokens come: counting them as absent would tell the player that drawing 2 leaves fewer tokens than
    taking 1). The engine stops a draw at the pool's limit (P3), so this does too."""
    from engine_c.spellbook.state import FRAME_NAMES, POOL_LIMIT

    due = sum(f[2] for f in raw["stack"] if FRAME_NAMES.get(f[0]) == "drawpool" and f[1] == player)
    return min(sum(raw["pool"][player]) + due, POOL_LIMIT)


def _measures(state: State, after: State, player: int) -> dict:
    """What `_versus` compares, measured on the engine's state `after` (settled from `state`)."""
    raw, before = after._to_raw(), state._to_raw()
    q = (player + 1) % before["players"]
    reach = _learnable(raw, player)           # with the pool it leaves, at an Evening (learned ones excluded)
    known = before["players"] > 1 and not _refill_discards(raw, player) and not _refilled(before, raw, player)
    gifts = _altar_gifts(raw, q) if known else None        # None: what the next player finds is not known
    return {"points": after.scores()[player].total, "pool": _pool_after_draws(raw, player),
            "familiar": sum(raw["fam"][player]), "spells": sum(1 for lv in raw["level"][player] if lv),
            "learned": {raw["spell"][c] for c, lv in enumerate(raw["level"][player]) if lv},
            "reach": reach, "end": bool(raw["end_triggered"]),
            "next": None if gifts is None else set().union(*gifts.values()) if gifts else set()}


def _versus(state: State, after: State, other: State, player: int) -> list[Reason]:
    """What the move gains or gives up against the alternative (both settled), measured."""
    m, o = _measures(state, after, player), _measures(state, other, player)
    out: list[Reason] = []

    def diff(kind: str, d: float, more: str, less: str) -> None:
        if d:
            out.append(Reason(kind, d, (), f"{more if d > 0 else less} than with the best other choice",
                              GAINS if d > 0 else GIVES_UP))

    d = m["points"] - o["points"]
    diff("versus_points", d, f"your score is {_points(d)} higher now", f"your score is {_points(d)} lower now")
    d = m["pool"] - o["pool"]
    diff("versus_pool", d, f"your pool holds {_plain(d, 'token', 'tokens')} more",
         f"your pool holds {_plain(d, 'token', 'tokens')} fewer")
    d = m["familiar"] - o["familiar"]
    diff("versus_familiar", d, f"your familiar holds {_plain(d, 'token', 'tokens')} more",
         f"your familiar holds {_plain(d, 'token', 'tokens')} fewer")
    d = m["spells"] - o["spells"]
    diff("versus_spells", d, f"you have {_plain(d, 'spell', 'spells')} more learned",
         f"you have {_plain(d, 'spell', 'spells')} fewer learned")
    learned = m["learned"] | o["learned"]      # a spell learned by either is no longer "within reach"
    only, lost = m["reach"] - o["reach"] - learned, o["reach"] - m["reach"] - learned
    if only:
        out.append(Reason("versus_reach", len(only), _names(only),
                          f"the pool it leaves you could pay for {_and(_names(only))}, which the pool after the "
                          f"best other choice could not", ENABLES))
    if lost:
        out.append(Reason("versus_reach", -len(lost), _names(lost),
                          f"the pool after the best other choice could pay for {_and(_names(lost))}, which the "
                          f"pool it leaves you could not", GIVES_UP))
    if m["end"] != o["end"]:
        out.append(Reason("versus_end", 1 if m["end"] else -1, (),
                          "it starts the last round, which the best other choice would not" if m["end"]
                          else "the best other choice would start the last round; this keeps the game going",
                          ENABLES if m["end"] else GIVES_UP))
    d = len(m["next"]) - len(o["next"]) if m["next"] is not None and o["next"] is not None else 0
    if d:
        out.append(Reason("versus_next", d, (),
                          f"the Altar would complete {_plain(abs(d), 'spell', 'spells')} "
                          f"{'more' if d > 0 else 'fewer'} for the next player than with the best other choice",
                          GIVES_UP if d > 0 else GAINS))
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
    stored = sum(a["fam"][player]) - sum(b["fam"][player])     # net: a swap (Growth 3) stores nothing
    if stored > 0:
        worth = after.scores()[player].familiar
        out.append(Reason("familiar_tokens", stored, _tokens(fam),
                          f"you store {stored} on your familiar (then worth {_points(worth)})", GAINS))
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
    if n < 2 or b["over"] or not (changed or morning) or _refilled(b, a, player):
        return []
    q = (player + 1) % n
    who = "the next player"
    gifts_b = _altar_gifts(b, q)
    out: list[Reason] = []
    taken = _taken(b, a, player)
    denied = {t: s for t, s in gifts_b.items() if taken[t] and a["altar"][t] == 0}
    if denied:
        items = tuple(f"{token_name(t)}:{'/'.join(_names(s))}" for t, s in sorted(denied.items()))
        text = "; ".join(f"{token_name(t)} ({_and(_names(s))})" for t, s in sorted(denied.items()))
        out.append(Reason("altar_denied", len(denied), items,
                          f"you take from the Altar what {who} needed to learn a spell: {text}", LEAVES))
    if _refill_discards(a, player):
        out.append(Reason("altar_discarded", sum(a["altar"]), (),
                          f"the Altar holds {sum(a['altar'])} tokens: unless you take some this Day, the refill "
                          f"at its end discards them all", LEAVES))
        return out
    gifts_a = _altar_gifts(a, q)
    if gifts_a:
        items = tuple(f"{token_name(t)}:{'/'.join(_names(s))}" for t, s in sorted(gifts_a.items()))
        text = "; ".join(f"{token_name(t)} would let them learn {_and(_names(s))}" for t, s in sorted(gifts_a.items()))
        out.append(Reason("altar_left", len(gifts_a), items, f"leaves {who} on the Altar: {text}", LEAVES))
    elif changed:
        out.append(Reason("altar_left", 0, (), f"leaves nothing on the Altar that would let {who} learn a spell",
                          LEAVES))
    return out


def _taken(b: dict, a: dict, player: int) -> list[int]:
    """Tokens of each type that went from the Altar to the mover (pool or familiar): what left the Altar
    and what the mover gained, the smaller (a refill's discard or a Pouch draw is no take)."""
    out = []
    for t in range(NTYPE):
        left = b["altar"][t] - a["altar"][t]
        got = a["pool"][player][t] + a["fam"][player][t] - b["pool"][player][t] - b["fam"][player][t]
        out.append(max(0, min(left, got)))
    return out


def _refilled(b: dict, a: dict, player: int) -> bool:
    """Whether the mover's refill (A1) ran between `b` and `a`: what the next player finds then depends
    on Pouch draws not made yet, so no Altar claim is made."""
    def pending(raw):
        return any(_E.FRAME_NAMES[f[0]] == "resupply" and f[1] == player for f in raw["stack"])
    return pending(b) and not pending(a)


def _refill_discards(raw: dict, player: int) -> bool:
    """Whether the Altar holds 10 or more tokens while the mover's own refill (A1) is still to come."""
    if raw["over"] or sum(raw["altar"]) < 10:
        return False
    return any(_E.FRAME_NAMES[f[0]] == "resupply" and f[1] == player for f in raw["stack"])


def seat_name(player: int, q: int, n: int) -> str:
    """Another seat as the page and the terminal speak of it, relative to `player`."""
    d = (q - player) % n
    if d == 1:
        return "the next player"
    if d == n - 1:
        return "the player before you"
    return "the player after next" if d == 2 else f"the player {d} seats after you"


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
    if r.kind == "altar_discarded":
        return r.text
    if r.kind in ("versus_points", "versus_pool", "versus_familiar", "versus_spells", "versus_end", "versus_next"):
        return r.text
    if r.kind == "versus_reach":
        return r.text
    return None


_SPELL_LISTS = ("learn_tonight", "spells_enabled", "learn_broken", "learn_lost", "versus_reach")


def move_spells(move: Move) -> set[str]:
    """The spells a move names: the one it learns, or the one whose action it is (also copied by Clone)."""
    kind, _level, _x, _a, b, _items = _E.decode_move(move.code)
    if kind in (K.LEARN, K.TRANSMUTE):
        return {spell_title(SPELL_NAMES[b])}
    words = str(move).split()
    first = spell_title(words[0]) if words else ""
    return {first} if first and first in {spell_title(n) for n in SPELL_NAMES} else set()


def veiled(found: list[Reason], move: Move | None = None) -> list[Reason]:
    """`reasons(...)` with texts and items that neither name nor restate the move (no token of it, not its
    kind): what it gains, gives up and leaves, for a hint that must not give the move away. With `move`,
    the spell it learns or whose action it is is left out of every list too (a reason left with no
    spell is dropped)."""
    hide = move_spells(move) if move is not None else set()
    out = []
    for r in found:
        if r.kind in ("altar_denied", "altar_left") and r.items:
            kept = tuple(x for x in _spells_only(r.items) if x not in hide)
            if not kept:
                continue
            r = Reason(r.kind, r.value, tuple(f"?:{x}" for x in kept), r.text, r.aspect)
        elif r.kind in _SPELL_LISTS and hide & set(r.items):
            kept = tuple(x for x in r.items if x not in hide)
            if not kept:
                continue
            value = len(kept) if r.value >= 0 else -len(kept)
            text = r.text
            if r.kind == "versus_reach":
                text = (f"the pool it leaves you could pay for {_and(kept)}, which the pool after the best other "
                        f"choice could not" if value > 0 else
                        f"the pool after the best other choice could pay for {_and(kept)}, which the pool it "
                        f"leaves you could not")
            r = Reason(r.kind, value, kept, text, r.aspect)
        text = _veiled_text(r)
        if text is None:
            continue
        items = _spells_only(r.items) if r.kind in ("altar_denied", "altar_left") else (
            r.items if r.kind in _SPELL_LISTS else ())
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
            who = seat_name(player, q, raw["players"])
            out.append(Reason("opponent_can_learn", q, spells,
                              f"{who[0].upper() + who[1:]} can learn {_and(spells)} at their next Evening with "
                              f"the pool they hold", THREATENS))
    return out


# ----------------------------------------------------------------------------------------------
# The audit: every claim re-derived from the engine (issue 42)
# ----------------------------------------------------------------------------------------------
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_SEAT_NUMBER = re.compile(r"\bseat \d|\bplayer \d|\bBot \d", re.IGNORECASE)


def _count_words(text: str) -> list[float]:
    return [float(x) for x in _NUMBER.findall(text)]


def audit(state: State, move: Move | str, found: list[Reason], versus: Move | str | None = None) -> list[str]:
    """The claims of `found` (reasons(state, move, versus), veiled or not) that the engine contradicts,
    each as a sentence (empty: every claim is true). Each kind is checked from the states the engine
    reaches (State.scores(), the raw board, the legal learnings of a hypothetical Evening), not from the
    move's kind; numbers in a text must be the measured ones; no text names a seat by number."""
    if isinstance(move, str):
        move = state.parse_move(move)
    if isinstance(versus, str):
        versus = state.parse_move(versus)
    p = state.current_player
    after = settle(state, move)
    b, a = state._to_raw(), after._to_raw()
    n = b["players"]
    q = (p + 1) % n
    bad: list[str] = []

    def claim(ok: bool, r: Reason, why: str) -> None:
        if not ok:
            bad.append(f"{r.kind} {r.text!r}: {why}")

    other = settle(state, versus) if versus is not None else None
    names = {spell_title(n_): c for c, n_ in ((c, SPELL_NAMES[s]) for c, s in enumerate(b["spell"]))}
    for r in found:
        claim(not _SEAT_NUMBER.search(r.text), r, "names a seat by number")
        k = r.kind
        if k == "points_gained":
            d = after.scores()[p].total - state.scores()[p].total
            claim(d == r.value and set(_count_words(r.text)) <= {abs(d)}, r, f"the score changes by {d}")
        elif k == "spell_learned":
            changed = [c for c in range(len(b["spell"])) if a["level"][p][c] != b["level"][p][c]
                       and a["level"][p][c] == r.value]
            c = names.get(r.items[0]) if r.items else None
            claim(c in changed if r.items else bool(changed), r, "no such change of level")
            claim(set(_count_words(r.text)) <= {float(r.value)}, r, "a number that is not the level")
        elif k == "familiar_tokens":
            d = sum(a["fam"][p]) - sum(b["fam"][p])
            worth = after.scores()[p].familiar
            claim(d == r.value and set(_count_words(r.text)) <= {float(d), float(worth)}, r,
                  f"{d} stored, familiar worth {worth}")
        elif k == "tokens_gained":
            d = sum(a["pool"][p]) - sum(b["pool"][p])
            claim(d == r.value and d > 0, r, f"the pool changes by {d}")
        elif k == "tokens_to_draw":
            top = a["stack"][-1] if a["stack"] else None
            claim(after.is_chance() and top is not None and _E.FRAME_NAMES[top[0]] == "drawpool" and top[1] == p
                  and top[2] == r.value, r, "no such draw is pending")
        elif k in ("learn_tonight", "learn_broken", "spells_enabled", "learn_lost"):
            before_set, after_set = set(_names(learnable_spells(b, p))), set(_names(learnable_spells(a, p)))
            if k in ("learn_tonight", "learn_broken"):
                after_set = after_set if _evening_ahead(a, p) else set()
                claim(_evening_ahead(b, p), r, "this Evening is not ahead")
            if k in ("learn_tonight", "spells_enabled"):
                claim(set(r.items) <= after_set - before_set, r, "not newly learnable")
            else:
                claim(set(r.items) <= before_set - after_set, r, "was not learnable, or still is")
        elif k == "end_triggered":
            claim(bool(a["end_triggered"]) and not b["end_triggered"], r, "the end is not triggered by it")
        elif k == "opponents_points":
            others = [x for x in range(n) if x != p]
            d = (max(after.scores()[x].total for x in others) - max(state.scores()[x].total for x in others))
            claim(d == r.value and abs(d) in _count_words(r.text), r, f"the best opponent changes by {d}")
        elif k in ("altar_denied", "altar_left", "altar_discarded") and _refilled(b, a, p):
            bad.append(f"{k} {r.text!r}: the refill ran, what the next player finds is not known yet")
        elif k in ("altar_denied", "altar_left"):
            raw_k = b if k == "altar_denied" else a
            every = set().union(*(_names(v) for v in _altar_gifts(raw_k, q).values()))
            for item in r.items:
                tok, _, spells = item.partition(":")
                if not spells:                            # veiled items carry the spells only
                    claim(tok in every, r, f"the Altar holds nothing that completes {tok} for the next player")
                else:
                    t = COLORS.index(tok[0]) * 3 + "cts".index(tok[1])
                    raw = b if k == "altar_denied" else a
                    gifts = _altar_gifts(raw, q)
                    claim(set(spells.split("/")) <= set(_names(gifts.get(t, ()))), r,
                          f"{tok} would not complete {spells} for the next player")
                    if k == "altar_denied":
                        got = a["pool"][p][t] + a["fam"][p][t] - b["pool"][p][t] - b["fam"][p][t]
                        claim(b["altar"][t] > a["altar"][t] and got > 0 and a["altar"][t] == 0, r,
                              f"{tok} was not taken from the Altar by you")
                    else:
                        claim(a["altar"][t] > 0, r, f"{tok} is not on the Altar")
            if k == "altar_left":
                claim(not _refill_discards(a, p), r, "the refill discards the Altar anyway")
                if r.value == 0:
                    claim(not _altar_gifts(a, q), r, "the Altar does complete a spell for the next player")
        elif k == "altar_discarded":
            claim(_refill_discards(a, p) and sum(a["altar"]) == r.value, r, "the refill does not discard it")
        elif k.startswith("versus_"):
            if other is None:
                bad.append(f"{k}: no alternative was given")
                continue
            m, o = _measures(state, after, p), _measures(state, other, p)
            if k in ("versus_points", "versus_pool", "versus_familiar", "versus_spells"):
                field_ = k.split("_", 1)[1]
                d = m[field_] - o[field_]
                claim(d == r.value and d != 0 and abs(d) in _count_words(r.text), r, f"the difference is {d}")
                claim(("higher" in r.text or "more" in r.text) == (d > 0), r, "the direction is wrong")
            elif k == "versus_reach":
                only = set(_names(m["reach"] - o["reach"])) if r.value > 0 else set(_names(o["reach"] - m["reach"]))
                claim(set(r.items) <= only and len(r.items) == abs(r.value), r, "not a difference of reach")
            elif k == "versus_end":
                claim(m["end"] != o["end"] and (r.value > 0) == m["end"], r, "no such difference of the end")
            elif k == "versus_next":
                claim(m["next"] is not None and o["next"] is not None, r, "the next player's Altar is not known")
                d = len(m["next"] or ()) - len(o["next"] or ())
                claim(d == r.value and d != 0, r, f"the difference is {d}")
        elif k == "opponent_can_learn":
            pass
        else:
            bad.append(f"{k}: a claim the audit does not know")
    return bad


def names_move(state: State, move: Move | str, found: list[Reason]) -> list[str]:
    """The texts and items of `found` that name or restate `move` (its tokens, its kind's verb, the
    spell it learns or whose action it is): what a level-2 hint must never show."""
    if isinstance(move, str):
        move = state.parse_move(move)
    words = str(move).replace(":", " ").split()
    kind, _level, _x, _a, b, _items = _E.decode_move(move.code)
    forbidden = {w for w in words if len(w) == 2 and w[0] in COLORS and w[1] in "cts"}
    verbs = {K.TAKE: ("take", "takes"), K.DRAW: ("draw", "draws", "Pouch"), K.STORE: ("store", "stores"),
             K.PASS: ("pass", "skip"), K.LEARN: ("learn", "learns"), K.TRANSMUTE: ("learn", "learns")}
    forbidden |= set(verbs.get(kind, ()))
    if kind in (K.LEARN, K.TRANSMUTE):
        forbidden.add(spell_title(SPELL_NAMES[b]))
    if kind not in verbs and words:
        forbidden.add(spell_title(words[0]))
    out = []
    for r in found:
        text_words = set(re.findall(r"[A-Za-z]+(?: [A-Z][a-z]+)?", r.text)) | set(r.text.split())
        for w in forbidden:
            if w in text_words or re.search(rf"\b{re.escape(w)}\b", r.text) or w in r.items:
                out.append(f"{r.kind} {r.text!r} names {w!r}")
    return out
