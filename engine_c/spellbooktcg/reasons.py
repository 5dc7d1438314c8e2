"""Why a Spellbook TCG move, for hints: what it does now, measured from the engine and the public board.

`reasons(state, move, versus=None)` speaks to the seat to move ("you") and reads only what that seat may see
(its own hand and mana pool, the board, the queue, the sizes of every zone), never the other seat's hidden
cards. Each claim is a number the engine gives:

- a mana card: the pool it makes and the spell cards it leaves affordable; no mana card: the hand kept;
- an attacker: the damage it deals the other wizard if unblocked (after that wizard's shield or shock), the
  characters free to block it and the most damage one of them deals back; `done`: the attack's total;
- a blocker and the attacker it takes: the damage it stops, what each of the pair takes and who dies;
  `done` while blocking: the damage the unblocked attackers will deal;
- a power or a charm: the spell as it stands once the card is added (its final numbers, as the queue will
  resolve them) and the mana left this step; `cast`: the finished spell; `pass`: the mana kept;
- a target: what the resolving spell does to it (damage after shield or shock, healing, tokens, a death).
With `versus` (the best other family's move), the difference where both are the same kind of choice.

`veiled(found, move)`: the same without naming the move (no card, no character, no exact figure that
singles it out), for a hint that hides the move. `audit(state, move, found, versus)` re-derives every claim
from the engine and lists the false ones; `names_move(state, move, found)` lists texts that give it away.
Texts cite no rule ids (the docstrings do: TC-2 mana, TC-5 final spells, TD-1 damage, TK-2 tokens, TB
combat).
"""
from __future__ import annotations

import re

from engine_c.base import Reason
from engine_c.spellbooktcg import cards as C
from engine_c.spellbooktcg.state import MAXSUM, Move, State
from engine_c.spellbooktcg.text import card_name

GAINS, GIVES_UP = "gains", "gives_up"


# ------------------------------------------------------------------------------------------- the board
def _character(state: State, code: int) -> dict | None:
    """A character's public face: {'name', 'owner', 'damage', 'health', 'tokens': (type, n), 'wizard'}."""
    if code < 2:
        w = state.wizard(code)
        return {"name": "wizard", "owner": code, "damage": w["damage"], "health": w["health"], "tokens": w["tokens"],
                "wizard": True, "attacking": w["attacking"], "blocking": w["blocking"], "uid": w["uid"]}
    owner, place = divmod(code - 2, MAXSUM)
    summons = state.summons(owner)
    if place >= len(summons):
        return None
    c = summons[place]
    return {"name": card_name(state.cardset, c["cards"][0]), "owner": owner, "damage": c["damage"],
            "health": c["health"], "tokens": c["tokens"], "wizard": False, "attacking": c["attacking"],
            "blocking": c["blocking"], "uid": c["uid"]}


def _characters(state: State, owner: int) -> list[dict]:
    return [c for c in (_character(state, code) for code in [owner] + [2 + owner * MAXSUM + j
                                                                     for j in range(len(state.summons(owner)))]) if c]


def damage_taken(dealt: int, target: dict) -> int:
    """TD-1: the damage dealt less the target's shield, plus its shock, at least 0."""
    kind, n = target["tokens"]
    return max(0, dealt - (n if kind == "shield" else 0) + (n if kind == "shock" else 0))


def _who(c: dict, seat: int) -> str:
    whose = "your" if c["owner"] == seat else "their"
    return f"{whose} wizard" if c["wizard"] else f"{whose} {c['name']}"


def _free(c: dict) -> bool:
    """Without ice: may attack or block (TK-5)."""
    return c["tokens"][0] != "ice"


def _budget(state: State, seat: int) -> int:
    """Mana left this spell step (TC-2): the pool less what the seat's spells of the step cost."""
    return len(state.mana(seat)) - state.spent()[seat]


def _spell_words(fin: dict) -> str:
    """A final spell (State.final_spell) in words: '4 damage, then 1 ice token', 'a 3/3 summon, 2 shield'."""
    parts = []
    eff = {k: v for k, _t, v in fin["effects"] if k in ("summon_damage", "summon_health")}
    if fin["summon"]:
        parts.append(f"a {eff.get('summon_damage', 0)}/{eff.get('summon_health', 0)} summon")
    for k, t, v in fin["effects"]:
        if k == "damage":
            parts.append(f"{v} damage")
        elif k == "health":
            parts.append(f"{v} healing")
        elif k == "tokens" and not fin["no_tokens"]:
            parts.append(f"{v} {t} token{'s' if v != 1 else ''}")
    return ", then ".join(parts) or "nothing"


def _cost(state: State, cid: str) -> int:
    return state.cardset.cards[cid].cost


def _powers_affordable(state: State, seat: int, budget: int, without: str | None = None) -> tuple[int, int]:
    """(powers in the seat's hand it could pay for with `budget`, powers in hand), one copy of `without` aside."""
    hand = list(state.hand(seat))
    if without in hand:
        hand.remove(without)
    powers = [c for c in hand if state.cardset.cards[c].type == "power"]
    return sum(1 for c in powers if _cost(state, c) <= budget), len(powers)


# ------------------------------------------------------------------------------------------- measures
def _measure(state: State, move: Move) -> list[Reason]:
    seat = state.current_player
    k = move.kind
    if k in ("mana", "none"):
        return _mana(state, seat, move)
    if k == "attack" or (k == "done" and state.phase == "attack"):
        return _attack(state, seat, move)
    if k in ("block", "on") or (k == "done" and state.phase == "block"):
        return _block(state, seat, move)
    if k in ("power", "charm", "cast", "pass"):
        return _spell(state, seat, move)
    if k == "target":
        return _target(state, seat, move)
    return []


def _mana(state: State, seat: int, move: Move) -> list[Reason]:
    pool = len(state.mana(seat))
    hand = len(state.hand(seat))
    if move.kind == "none":
        can, of = _powers_affordable(state, seat, pool)
        return [Reason("keeps_hand", hand, (), f"you keep all {hand} cards in your hand", GAINS),
                Reason("mana_pool", pool, (), f"your mana pool stays at {pool} cards: {can} of the {of} powers "
                                              f"in your hand cost {pool} or less", GIVES_UP)]
    name = card_name(state.cardset, move.card)
    cost = _cost(state, move.card)
    can, of = _powers_affordable(state, seat, pool + 1, without=move.card)
    return [Reason("mana_pool", pool + 1, (), f"your mana pool grows to {pool + 1} cards: {can} of the {of} powers "
                                              f"left in your hand cost {pool + 1} or less", GAINS),
            Reason("card_given", cost, (name,), f"{name} (cost {cost}) leaves your hand for good", GIVES_UP)]


def _attack(state: State, seat: int, move: Move) -> list[Reason]:
    other = 1 - seat
    wizard = _character(state, other)
    blockers = [c for c in _characters(state, other) if _free(c)]
    if move.kind == "done":
        attackers = [c for c in _characters(state, seat) if c["attacking"]]
        total = sum(damage_taken(c["damage"], wizard) for c in attackers)
        if not attackers:
            return [Reason("attack_total", 0, (), "no attack this turn: none of your characters is hit back",
                           GIVES_UP)]
        return [Reason("attack_total", total, (), f"you attack with {len(attackers)} character"
                       f"{'s' if len(attackers) != 1 else ''}: {total} damage to their wizard if none is blocked "
                       f"(their spellbook has {wizard['health']} cards)", GAINS)]
    me = _character(state, move.value)
    hit = damage_taken(me["damage"], wizard)
    out = [Reason("attack_damage", hit, (_who(me, seat),), f"if unblocked, {_who(me, seat)} deals {hit} damage to "
                  f"their wizard (their spellbook has {wizard['health']} cards)", GAINS)]
    if blockers:
        back = max(damage_taken(b["damage"], me) for b in blockers)
        dies = back >= me["health"] and not me["wizard"]
        out.append(Reason("block_risk", back, (), f"they have {len(blockers)} character"
                          f"{'s' if len(blockers) != 1 else ''} free to block; the strongest deals {back} damage back"
                          + (f", enough to kill it (health {me['health']})" if dies else ""), GIVES_UP))
    else:
        out.append(Reason("unblockable", 0, (), "they have no character free to block", GAINS))
    return out


def _block(state: State, seat: int, move: Move) -> list[Reason]:
    other = 1 - seat
    mine = _character(state, seat)
    attackers = [c for c in _characters(state, other) if c["attacking"] and not _blocked(state, c)]
    if move.kind == "done":
        total = sum(damage_taken(a["damage"], mine) for a in attackers)
        return [Reason("unblocked_damage", total, (), f"the {len(attackers)} unblocked attacker"
                       f"{'s' if len(attackers) != 1 else ''} will deal {total} damage to your wizard (your spellbook "
                       f"has {mine['health']} cards)", GIVES_UP if total else GAINS)]
    if move.kind == "block":
        me = _character(state, move.value)
        most = max((damage_taken(a["damage"], mine) for a in attackers), default=0)
        stats = f"damage {me['damage']}" if me["wizard"] else f"{me['damage']}/{me['health']}"
        which = "the attacker" if len(attackers) == 1 else f"one of {len(attackers)} attackers"
        return [Reason("block_can_stop", most, (_who(me, seat),), f"{_who(me, seat)} ({stats}) can stop {which}: "
                       f"up to {most} damage to your wizard", GAINS)]
    blocker = _pending_blocker(state, seat)
    att = _character(state, move.value)
    stops = damage_taken(att["damage"], mine)
    out = [Reason("block_stops", stops, (_who(att, seat),), f"it stops the {stops} damage {_who(att, seat)} would deal "
                  f"your wizard", GAINS)]
    if blocker is not None:
        took = damage_taken(att["damage"], blocker)
        gave = damage_taken(blocker["damage"], att)
        if not blocker["wizard"]:
            out.append(Reason("blocker_takes", took, (), f"your blocker takes {took} damage"
                              + (" and dies" if took >= blocker["health"] else f" (health {blocker['health']})"),
                              GIVES_UP if took else GAINS))
        else:
            out.append(Reason("blocker_takes", took, (), f"your wizard takes {took} damage as the blocker", GIVES_UP
                              if took else GAINS))
        if not att["wizard"]:
            out.append(Reason("attacker_takes", gave, (), f"the attacker takes {gave} damage"
                              + (" and dies" if gave >= att["health"] else f" (health {att['health']})"), GAINS))
    return out


def _blocked(state: State, attacker: dict) -> bool:
    """Whether a blocker of the other side already took this attacker."""
    return any(c["blocking"] == attacker["uid"] for c in _characters(state, 1 - attacker["owner"]))


def _pending_blocker(state: State, seat: int) -> dict | None:
    """The blocker chosen a decision ago, waiting for its attacker (`block C` then `on A`)."""
    code = state._to_raw()["pending_blocker"]
    for c in [seat] + [2 + seat * MAXSUM + j for j in range(len(state.summons(seat)))]:
        ch = _character(state, c)
        if ch is not None and ch["uid"] == code:
            return ch
    return None


def _spell(state: State, seat: int, move: Move) -> list[Reason]:
    budget = _budget(state, seat)
    if move.kind == "pass":
        if budget <= 0:
            return [Reason("keeps_mana", 0, (), "you have no mana left this step", GAINS)]
        return [Reason("keeps_mana", budget, (), f"you leave {budget} mana unspent this step", GIVES_UP)]
    if move.kind == "cast":
        fin = state.final_spell(-1)
        return [Reason("spell_done", len(fin["effects"]), (), f"the spell goes on the queue as {_spell_words(fin)}",
                       GAINS)]
    building = state.queue()[-1][1] if move.kind == "charm" else []
    fin = state.spell_of(building + [move.card], seat)
    name = card_name(state.cardset, move.card)
    left = budget - _cost(state, move.card)
    out = []
    if move.kind == "power":
        out.append(Reason("spell_now", _cost(state, move.card), (name,), f"the spell starts as {_spell_words(fin)} "
                          f"(cost {_cost(state, move.card)})", GAINS))
    else:
        was = state.spell_of(building, seat)
        out.append(Reason("spell_grows", _cost(state, move.card), (name,), f"with {name} the spell becomes "
                          f"{_spell_words(fin)} (was {_spell_words(was)})", GAINS))
    out.append(Reason("mana_left", left, (), f"{left} mana left this step after it", GIVES_UP if left == 0 else GAINS))
    return out


def _target(state: State, seat: int, move: Move) -> list[Reason]:
    raw = state._to_raw()
    fin = state.final_spell(raw["resolving"])
    if str(move).startswith("target q"):
        i = int(str(move)[8:])
        caster, cards = state.queue()[i]
        return [Reason("spell_target", i, (), f"the spell acts on the queued spell {i + 1} "
                       f"({'yours' if caster == seat else 'theirs'})", GAINS)]
    t = _character(state, move.value)
    who = _who(t, seat)
    out = []
    hp, tokens = t["health"], t["tokens"]
    grave = len(state.graveyard(t["owner"]))
    for k, token, v in fin["effects"]:          # in order: an earlier effect changes what a later one does
        if k == "damage":
            took = damage_taken(v, {"tokens": tokens})
            if t["wizard"]:
                lost = min(took, hp)
                hp, grave = hp - lost, grave + lost
                text = f"{who} takes {took} damage: {lost} card{'s' if lost != 1 else ''} leave that spellbook ({hp} left)"
            else:
                hp -= took
                text = f"{who} takes {took} damage" + (" and dies" if hp <= 0 else f" ({hp} health left)")
            out.append(Reason("target_damage", took, (who,), text, GAINS if t["owner"] != seat else GIVES_UP))
            if not t["wizard"] and hp <= 0:
                break                           # it left play: the rest of the spell does nothing
        elif k == "health":
            healed = min(v, grave) if t["wizard"] else v
            hp += healed
            grave -= healed if t["wizard"] else 0
            text = (f"{who} heals {healed}: {healed} card{'s' if healed != 1 else ''} back into that spellbook ({hp})"
                    if t["wizard"] else f"{who} heals {healed} ({hp} health)")
            out.append(Reason("target_heal", healed, (who,), text, GAINS if t["owner"] == seat else GIVES_UP))
        elif k == "tokens" and not fin["no_tokens"] and v > 0:
            have, n = tokens
            if have in (None, token):
                tokens = (token, (n if have else 0) + v)
                text = f"{who} gets {v} {token} token{'s' if v != 1 else ''} ({tokens[1]} in all)"
                helps = (token == "shield") == (t["owner"] == seat)
            else:
                text = f"{who} loses its {n} {have} token{'s' if n != 1 else ''} (the new {token} is lost too)"
                tokens = (None, 0)
                helps = (have == "shield") != (t["owner"] == seat)
            out.append(Reason("target_tokens", v, (who,), text, GAINS if helps else GIVES_UP))
    return out or [Reason("target_nothing", 0, (who,), f"the spell does nothing to {who}", GIVES_UP)]


# ------------------------------------------------------------------------------------------- the contract
def reasons(state: State, move: Move | str, versus: Move | str | None = None) -> list[Reason]:
    """What `move` (legal for the seat to move) does now, measured; with `versus`, how it compares."""
    move = state.parse_move(move) if isinstance(move, str) else move
    versus = state.parse_move(versus) if isinstance(versus, str) else versus
    out = _measure(state, move)
    if versus is not None and versus != move and versus.kind == move.kind:
        mine = {r.kind: r for r in out}
        for r in _measure(state, versus):
            if r.kind in _COMPARED and r.kind in mine and r.value != mine[r.kind].value:
                d = mine[r.kind].value - r.value
                better = (d > 0) == (r.kind not in _LOWER_IS_BETTER)
                out.append(Reason("versus_" + r.kind, d, (), f"{_COMPARED[r.kind]}: {abs(d):g} "
                                  f"{'more' if d > 0 else 'less'} than the best other choice",
                                  GAINS if better else GIVES_UP))
    return out


# kinds whose values two moves of one kind may be compared by, in words
_COMPARED = {"attack_damage": "damage to their wizard if unblocked", "target_damage": "damage it deals",
             "block_stops": "damage it stops", "mana_left": "mana left this step",
             "unblocked_damage": "damage your wizard takes"}
_LOWER_IS_BETTER = {"unblocked_damage"}
_NUM = re.compile(r"\d+(?:\.\d+)?")


def veiled(found: list[Reason], move: Move | None = None) -> list[Reason]:
    """`found` without naming the move: no card or character, no figure that picks it among the moves."""
    out = []
    for r in found:
        if r.kind in ("mana_pool", "keeps_hand"):
            out.append(Reason(r.kind, r.value, (), "it weighs your mana pool against the cards in your hand", r.aspect))
        elif r.kind in ("attack_damage", "attack_total", "block_risk", "unblockable"):
            out.append(Reason(r.kind, r.value, (), "it weighs the damage an attack deals against what blockers do "
                                                   "back", r.aspect))
        elif r.kind in ("block_can_stop", "block_stops", "blocker_takes", "attacker_takes", "unblocked_damage"):
            out.append(Reason(r.kind, r.value, (), "it weighs the damage you stop against what your blockers take",
                              r.aspect))
        elif r.kind in ("spell_now", "spell_grows", "spell_done", "mana_left", "keeps_mana"):
            out.append(Reason(r.kind, r.value, (), "it weighs what your spell does against the mana it uses",
                              r.aspect))
        elif r.kind.startswith("target_") or r.kind == "spell_target":
            out.append(Reason(r.kind, r.value, (), "it weighs where the spell does the most", r.aspect))
    seen, unique = set(), []
    for r in out:                       # one sentence per idea
        if r.text not in seen:
            seen.add(r.text)
            unique.append(r)
    return unique


def audit(state: State, move: Move | str, found: list[Reason], versus: Move | str | None = None) -> list[str]:
    """The claims of `found` (reasons or veiled reasons) that the engine contradicts: each must be one of
    the measured claims of this move (same kind, value and text) or its veiled form."""
    move = state.parse_move(move) if isinstance(move, str) else move
    versus = state.parse_move(versus) if isinstance(versus, str) else versus
    truth = reasons(state, move, versus)
    allowed = {(r.kind, r.value, r.text) for r in truth} | {(r.kind, r.value, r.text) for r in veiled(truth, move)}
    bad = [f"{r.kind} {r.text!r}: not what the engine measures" for r in found
           if (r.kind, r.value, r.text) not in allowed]
    bad += _check_numbers(state, move, truth)
    return bad


def _check_numbers(state: State, move: Move, truth: list[Reason]) -> list[str]:
    """Independent checks of the figures against the engine's own successor where one move settles them: a
    mana card grows the pool by one; a power or charm's spell is the engine's final spell; a target's
    damage is what the engine's resolution does to that character when nothing else acts in between."""
    bad = []
    seat = state.current_player
    after = state.clone()
    after.apply(move)
    for r in truth:
        if r.kind == "mana_pool" and move.kind == "mana" and r.value != len(after.mana(seat)):
            bad.append(f"{r.kind}: the pool after the move is {len(after.mana(seat))}")
        if r.kind == "mana_left" and move.kind in ("power", "charm") and after.current_player == seat \
                and r.value != _budget(after, seat):
            bad.append(f"{r.kind}: the engine leaves {_budget(after, seat)} mana")
        if r.kind in ("spell_now", "spell_grows") and after.phase == "charm" and after.current_player == seat:
            engine = _spell_words(after.final_spell(-1))
            if f"becomes {engine} (" not in r.text and f"starts as {engine} (" not in r.text:
                bad.append(f"{r.kind}: the engine's spell is {engine}")
    settled = (move.kind == "target" and move.value >= 2 and not str(move).startswith("target q")
               and after.turn == state.turn and len(after.queue()) == len(state.queue()) - 1)
    if settled:             # the resolution alone happened: the summon's health is the claims' sum
        t, now = _character(state, move.value), _character(after, move.value)
        net = sum(r.value for r in truth if r.kind == "target_heal") - \
            sum(r.value for r in truth if r.kind == "target_damage")
        if now is not None and now["uid"] == t["uid"] and now["health"] - t["health"] != net:
            bad.append(f"target: the engine's resolution changed its health by {now['health'] - t['health']}, "
                       f"the claims by {net}")
        if t["health"] + net <= 0 and now is not None and now["uid"] == t["uid"]:
            bad.append("target: the claims kill a summon the engine keeps")
    return bad


def names_move(state: State, move: Move | str, found: list[Reason]) -> list[str]:
    """Texts of `found` that name the move: its card, or the character it names."""
    move = state.parse_move(move) if isinstance(move, str) else move
    words = []
    if move.card:
        words.append(card_name(state.cardset, move.card))
    if move.kind in ("attack", "block", "on", "target") and not str(move).startswith("target q"):
        c = _character(state, move.value)
        if c is not None and not c["wizard"]:
            words.append(c["name"])
    out = []
    for r in found:
        for w in words:
            if re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", r.text) or any(w in i for i in r.items):
                out.append(f"{r.kind} {r.text!r} names {w!r}")
    return out
