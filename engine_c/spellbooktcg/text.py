"""The Spellbook TCG in words, for a seat: its table as the seat may see it, each legal move said as a player
says it, what the table saw after a move, the end. The terminal (clients/play_spellbooktcg.py), the review and
the hints take every game-specific sentence from here.

    from engine_c.spellbooktcg import State, text
    s = State.new(seed=1)
    print(text.render_view(s, 0))              # seat 0's hand and mana pool; seat 1's only as counts
    print(text.move_text(s, s.legal_moves()[0], 0))

Nothing here reads what the seat may not see (TI-2..TI-4): a view shows the seat's own hand and mana pool,
the other seat's as counts, each spellbook as its size (the order of the unknown cards is nobody's, and
known cards healed back in are not shown either), each graveyard as its size with the cards every seat
knows there (TX-31), and the public board and spell queue.
"""
from __future__ import annotations

import re
from typing import Sequence

from engine_c.spellbooktcg import cards as C
from engine_c.spellbooktcg.state import MAXSUM, Move, State, char_text

LUCK = "the draws from the spellbooks (each deck's shuffled order)"   # what luck is made of, for a review's text
STEPS = {"setup": "setup", "draw": "draw", "mana": "mana", "attack": "attack", "block": "blocks",
         "blockon": "blocks", "cast": "spells", "charm": "spells", "target": "resolution", "over": "the end"}
TOKEN_TEXT = {"fire": "fire", "ice": "ice", "shield": "shield", "shock": "shock"}


def seat_names(labels: Sequence[str] | None = None) -> list[str]:
    return list(labels) if labels is not None else ["seat 0", "seat 1"]


def _you(name: str) -> bool:
    return name.lower().startswith("you")


def _does(name: str, verb: str) -> str:
    """'seat 1 casts', 'you (seat 0) cast'."""
    return f"{name} {verb}" if _you(name) else f"{name} {verb}s"


def _whose(name: str) -> str:
    return "your" if _you(name) else f"{name}'s"


# ----------------------------------------------------------------------------------------------
# Cards
# ----------------------------------------------------------------------------------------------
def effect_text(e: C.Effect) -> str:
    return "".join(text for text, _ in effect_parts(e))


def effect_parts(e: C.Effect) -> list[tuple[str, bool]]:
    """An effect's words as (text, modifiable) pieces: a number a charm may change is modifiable (printed
    bold on the card, TF-2); one its `fixed` list names is not."""
    def number(n: int, name: str) -> tuple[str, bool]:
        return str(n), name not in e.fixed

    if e.kind == "summon":
        return [("summon a ", False), number(e.n, "damage"), ("/", False), number(e.health, "health")]
    if e.kind == "tokens":
        return [number(e.n, "n"), (f" {TOKEN_TEXT.get(e.token, e.token)} token{'s' if e.n != 1 else ''}", False)]
    return [number(e.n, e.kind), (f" {'damage' if e.kind == 'damage' else 'healing'}", False)]


TARGET_TEXT = {"none": "", "character": " to a character", "summon": " to a summon", "spell": " on a queued spell"}
MODIFIER_TEXT = {"add_damage": "add {n} damage", "add_health": "add {n} health", "add_tokens": "add {n} {t} token(s)",
                 "tokens_plus": "tokens +{n}", "spellpower_plus": "spellpower +{n}"}


def card_effect(card: C.Card) -> str:
    """What a card does: 'summon a 2/2', '2 damage to a character', 'add 2 damage'."""
    return "".join(text for text, _ in card_effect_parts(card))


def card_effect_parts(card: C.Card) -> list[tuple[str, bool]]:
    """card_effect as (text, modifiable) pieces: a power's numbers that charms may change are modifiable
    (bold on the card, TF-2); a charm's own number is what it adds, never modified."""
    if card.type == "charm":
        kind, token, n = card.modifier
        return [(MODIFIER_TEXT[kind].format(n=n, t=token), False)]
    parts: list[tuple[str, bool]] = []
    for i, e in enumerate(card.effects):
        parts += ([(", then ", False)] if i else []) + effect_parts(e)
    return (parts or [("nothing", False)]) + [(TARGET_TEXT.get(card.target, ""), False)]


def card_json(card: C.Card) -> dict:
    """A card as a board draws it: name, type, cost, rarity, what it does, and the same words in pieces with
    the modifiable numbers marked (`effect_parts`: [text, modifiable] pairs)."""
    return {"id": card.id, "name": card.name, "type": card.type, "cost": card.cost, "rarity": card.rarity,
            "effect": card_effect(card), "effect_parts": [[t, b] for t, b in card_effect_parts(card) if t]}


def card_text(cs: C.CardSet, cid: str) -> str:
    """'Arcane Bolt (power, cost 2): 2 damage to a character'."""
    c = cs.cards.get(cid)
    if c is None:
        return cid
    return f"{c.name} ({c.type}, cost {c.cost}): {card_effect(c)}"


def card_name(cs: C.CardSet, cid: str) -> str:
    c = cs.cards.get(cid)
    return c.name if c else cid


def _multiset(ids: Sequence[str], cs: C.CardSet) -> str:
    counts: dict[str, int] = {}
    for i in ids:
        counts[i] = counts.get(i, 0) + 1
    return ", ".join(f"{card_name(cs, i)}{f' x{n}' if n > 1 else ''}" for i, n in sorted(counts.items())) or "none"


# ----------------------------------------------------------------------------------------------
# Characters and spells
# ----------------------------------------------------------------------------------------------
def char_name(state: State, code: int, names: Sequence[str], raw: dict | None = None) -> str:
    """'seat 1's wizard', "your Conjure Familiar (s0.1, 2/1)"."""
    raw = raw or state._to_raw()
    if code < 2:
        return f"{_whose(names[code])} wizard"
    p, j = divmod(code - 2, MAXSUM)
    if j >= len(raw["board"][p]):
        return f"{_whose(names[p])} summon {char_text(code)}"
    c = raw["board"][p][j]
    cs, ids = state.cardset, state.card_ids
    return f"{_whose(names[p])} {card_name(cs, ids[c['cards'][0]])} ({char_text(code)}, {c['damage']}/{c['health']})"


def tokens_text(tok: tuple) -> str:
    kind, n = tok
    return f", {n} {kind}" if kind and n else ""


def spell_text(state: State, cards: Sequence[str]) -> str:
    """'Arcane Bolt + Empower'."""
    cs = state.cardset
    return " + ".join(card_name(cs, c) for c in cards)


def _amount(n: int, what: str) -> str:
    return f"{n} {what}" if what in ("damage", "healing") else f"{n} {what} token{'s' if n != 1 else ''}"


def final_spell_text(state: State, index: int) -> str:
    """Queued spell `index`'s final form in words, its charms applied (TC-5, TC-6): '4 damage, then 1 ice
    token to a character', 'summon a 3/3 with 2 shield tokens'."""
    fin = state.final_spell(index)
    power = state.cardset.cards.get(state.queue()[index][1][0])
    values = {k: v for k, _, v in fin["effects"] if k in ("summon_damage", "summon_health")}
    if fin["summon"]:
        tokens = [] if fin["no_tokens"] else [_amount(v, t) for k, t, v in fin["effects"] if k == "tokens"]
        text = f"summon a {values.get('summon_damage', 0)}/{values.get('summon_health', 0)}"
        text += f" with {' and '.join(tokens)}" if tokens else ""
    else:
        # the power's effects in order, then the appended ones (TC-6); tokens of two types are not dealt
        said = [_amount(v, t) if k == "tokens" else _amount(v, "damage" if k == "damage" else "healing")
                for k, t, v in fin["effects"] if k in ("damage", "health") or (k == "tokens" and not fin["no_tokens"])]
        text = (", then ".join(said) or "nothing") + TARGET_TEXT.get(power.target if power else "none", "")
    if fin["no_tokens"]:
        text += " (its tokens are of two types, so none is dealt)"
    return text


# ----------------------------------------------------------------------------------------------
# Moves in words
# ----------------------------------------------------------------------------------------------
def move_text(state: State, move: Move, viewer: int | None = None, names: Sequence[str] | None = None) -> str:
    """A legal move of the seat to decide in a player's words (`viewer`: whose names say "your")."""
    names = seat_names(names) if names is not None else _names_for(viewer)
    raw = state._to_raw()
    cs = state.cardset
    k = move.kind
    if k == "none":
        return "put no card into your mana pool"
    if k == "mana":
        return f"put {card_name(cs, move.card)} into your mana pool"
    if k == "attack":
        return f"attack with {char_name(state, move.value, names, raw)}"
    if k == "done":
        return "declare no more attackers" if state.phase == "attack" else "declare no more blockers"
    if k == "block":
        return f"block with {char_name(state, move.value, names, raw)}"
    if k == "on":
        return f"... the attacker {char_name(state, move.value, names, raw)}"
    if k == "power":
        return f"cast {card_text(cs, move.card)}"
    if k == "charm":
        return f"attach {card_text(cs, move.card)}"
    if k == "cast":
        return "finish the spell"
    if k == "pass":
        return "pass (cast nothing more this step)"
    if k == "target":
        m = re.match(r"target q(\d+)$", str(move))
        if m:
            i = int(m.group(1))
            caster, cards = state.queue()[i]
            return f"target the spell q{i}, {_whose(names[caster])} {spell_text(state, cards)}"
        return f"target {char_name(state, move.value, names, raw)}"
    return str(move)


def _names_for(viewer: int | None) -> list[str]:
    return [("you" if p == viewer else f"seat {p}") for p in range(2)]


def decision_text(state: State, names: Sequence[str]) -> str:
    """What the seat to decide is deciding: 'seat 0's mana step: put a card into the mana pool?'."""
    cp = state.current_player
    if cp < 0:
        return "nobody decides" if cp == -2 else "a draw is pending"
    raw = state._to_raw()
    phase = state.phase
    who = names[cp]
    if phase == "mana":
        return f"{who}: put a card from your hand into your mana pool (the pool is your mana each spell step)?"
    if phase == "attack":
        return f"{who}: declare attackers, one at a time (they all attack the other wizard)"
    if phase == "block":
        return f"{who}: declare blockers, one at a time"
    if phase == "blockon":
        return f"{who}: which attacker does the blocker take?"
    if phase == "cast":
        budget = sum(raw["mana"][cp]) - raw["spent"][cp]
        return f"{who}: cast a spell (its power first) or pass; {budget} mana left this step"
    if phase == "charm":
        budget = sum(raw["mana"][cp]) - raw["spent"][cp]
        return f"{who}: attach a charm to your spell or finish it; {budget} mana left this step"
    if phase == "target":
        caster, cards = state.queue()[raw["resolving"]]
        return f"{who}: choose the target of your spell {spell_text(state, cards)}"
    return f"{who} decides"


# ----------------------------------------------------------------------------------------------
# The table, as a seat sees it
# ----------------------------------------------------------------------------------------------
def render_view(state: State, seat: int | None, names: Sequence[str] | None = None) -> str:
    """The table as `seat` (None: a spectator) may see it: its own hand and mana pool, the other's as
    counts; spellbooks and graveyards as sizes (a graveyard with its cards every seat knows); the board and
    the spell queue."""
    names = seat_names(names)
    raw = state._to_raw()
    cs = state.cardset
    ids = state.card_ids
    wiz = state.wizard_ids()
    over = state.is_terminal()
    cp = state.current_player
    head = (f"=== Turn {state.turn} · {_whose(names[state.active_player])} turn · {STEPS.get(state.phase, state.phase)}"
            + ("" if over or cp < 0 else f" · to decide: {names[cp]}") + " ===")
    if over:
        head = f"=== The end (turn {state.turn}) ==="
    lines = [head]
    for p in range(2):
        mark = "*" if p == cp else " "
        w = state.wizard(p)
        grave = state.graveyard(p)
        known = [g for g in grave if g is not None]
        hand_n, mana_n = len(raw["hand"][p]), sum(raw["mana"][p])
        lines.append(f"{mark} {names[p]}: wizard {card_name_w(cs, wiz[p])} (damage {raw['wizards'][p][0]}"
                     f"{tokens_text(w['tokens'])}{', attacking' if w['attacking'] else ''}"
                     f"{', blocking' if w['blocking'] is not None else ''})   spellbook {len(raw['book'][p])} cards"
                     f"   graveyard {len(grave)}" + (f" (known: {_multiset(known, cs)})" if known else "")
                     + f"   hand {hand_n}   mana {mana_n}")
        if p == seat:
            hand = state.hand(p)
            lines.append("    hand: " + ("; ".join(card_text(cs, c).replace(" (", f" x{hand.count(c)} (", 1)
                                                  if hand.count(c) > 1 else card_text(cs, c)
                                                  for c in sorted(set(hand))) or "empty"))
            lines.append(f"    mana pool: {_multiset(state.mana(p), cs)}"
                         + (f" ({raw['spent'][p]} spent this step)" if raw["spent"][p] else ""))
        summons = raw["board"][p]
        if summons:
            for j, c in enumerate(summons):
                code = 2 + p * MAXSUM + j
                tok = state.summons(p)[j]["tokens"]
                status = ", attacking" if c["atk"] else ", blocking" if c["blk"] != _nobody() else ""
                under = [ids[k] for k in c["cards"][1:]]
                lines.append(f"    summon {char_text(code)}: {card_name(cs, ids[c['cards'][0]])} {c['damage']}/"
                             f"{c['health']}{tokens_text(tok)}{status}"
                             + (f" (charms: {', '.join(card_name(cs, x) for x in under)})" if under else ""))
    queue = state.queue()
    if queue:
        lines.append("Spell queue (last cast resolves first): " + "; ".join(
            f"q{i} {_whose(names[c])} {spell_text(state, cards)}" for i, (c, cards) in enumerate(queue)))
    if not over and cp >= 0:
        lines.append(decision_text(state, names))
    return "\n".join(lines)


def card_name_w(cs: C.CardSet, wid: str) -> str:
    w = cs.wizards.get(wid)
    return w.name if w else wid


def _nobody() -> int:
    from engine_c.spellbooktcg.notation import NOBODY

    return NOBODY


# ----------------------------------------------------------------------------------------------
# What the table saw
# ----------------------------------------------------------------------------------------------
def describe_move(before: State, move: Move, names: Sequence[str], viewer: int | None, reveal: bool = False) -> str:
    """A decision as `viewer` saw it: another seat's mana card is hidden (TI-1: only that one went)."""
    seat = before.current_player
    if move.kind == "mana" and seat != viewer and not reveal:
        return f"{names[seat]}: put a card into the mana pool"
    text = move_text(before, move, seat, names)
    # "your mana pool" is the mover's; every other "your" (a character's) is already the reader's
    text = re.sub(r"\binto your mana pool\b", "into your mana pool" if _you(names[seat]) else "into their mana pool", text)
    return f"{names[seat]}: {text}"


def describe_changes(before: State, move: Move | None, after: State, names: Sequence[str],
                     draws: Sequence[dict] = (), viewer: int | None = None, reveal: bool = False) -> list[str]:
    """What the table saw between `before` and `after` (a move and the play and chance it set off): the
    move, the draws (their cards for the drawer only), each wizard's damage or healing, summons that came
    and died, tokens, and the turn's change. `draws`: the chance events in between (records' events);
    `reveal`: every card (a demo), not only the viewer's."""
    lines = []
    if move is not None:
        lines.append(describe_move(before, move, names, viewer, reveal))
    cs = after.cardset
    drawn = [0, 0]
    for ev in draws:
        p = ev.get("to", -1)
        if p in (0, 1):
            drawn[p] += 1
    draw_lines = []
    for p in range(2):
        if drawn[p]:
            seen = [e["move"].split()[1] for e in draws if e.get("to") == p]
            what = f": {_multiset(seen, cs)}" if p == viewer or reveal else ""
            draw_lines.append(f"{_does(names[p], 'draw')} {drawn[p]} card{'s' if drawn[p] != 1 else ''}{what} "
                              f"(spellbook {len(after._to_raw()['book'][p])})")
    rb, ra = before._to_raw(), after._to_raw()
    # the turn ended within this move: the active player's fire and ice ticked (TT-8, TK-4, TK-5)
    ticked = after.is_terminal() or (after.turn, after.active_player) != (before.turn, before.active_player)
    for p in range(2):
        change = len(ra["book"][p]) - len(rb["book"][p]) + drawn[p]
        was = len(rb["book"][p])
        if change < 0:
            lines.append(f"{_whose(names[p])} wizard takes {-change} damage (spellbook {was} -> {was + change})")
        elif change > 0:
            lines.append(f"{_whose(names[p])} wizard heals {change} (spellbook {was} -> {was + change})")
        wb, wa = before.wizard(p)["tokens"], after.wizard(p)["tokens"]
        if wb != wa:
            lines.append(_token_line(f"{_whose(names[p])} wizard", wb, wa, ticked and p == before.active_player))
        old = {c["uid"]: c for c in rb["board"][p]}
        new = {c["uid"]: c for c in ra["board"][p]}
        ids_b, ids_a = before.card_ids, after.card_ids
        for uid, c in new.items():
            name = card_name(cs, ids_a[c["cards"][0]])
            if uid not in old:
                lines.append(f"{_whose(names[p])} {name} arrives: {c['damage']}/{c['health']}")
            else:
                o = old[uid]
                if (o["damage"], o["health"]) != (c["damage"], c["health"]):
                    lines.append(f"{_whose(names[p])} {name}: {o['damage']}/{o['health']} -> {c['damage']}/{c['health']}")
                if (o["tok"], o["tokn"]) != (c["tok"], c["tokn"]):
                    lines.append(_token_line(f"{_whose(names[p])} {name}", _pair(o), _pair(c), ticked and p == before.active_player))
        for uid, c in old.items():
            if uid not in new:
                lines.append(f"{_whose(names[p])} {card_name(cs, ids_b[c['cards'][0]])} dies")
    if after.is_terminal():
        lines.append("The game is over.")
    elif (after.turn, after.active_player) != (before.turn, before.active_player) and after.turn > 0:
        lines.append(f"Turn {after.turn}: {_whose(names[after.active_player])} turn")
    return lines + draw_lines


def _tok(tok: tuple) -> str:
    kind, n = tok
    return f"{n} {kind}" if kind and n else "none"


def _pair(c: dict) -> tuple:
    from engine_c.spellbooktcg.notation import TOKEN_NAMES

    return (TOKEN_NAMES[c["tok"]], c["tokn"]) if c["tok"] else (None, 0)


def _token_line(who: str, was: tuple, now: tuple, ticked: bool) -> str:
    """A character's tokens before -> after. At the end of its controller's turn one fewer of the same kind
    is a tick (nothing else takes one token away: another type clears them all); the last one gone may
    have ticked away or been cleared, so it is said as gone."""
    if ticked and was[0] in ("fire", "ice") and now[0] == was[0] and now[1] == was[1] - 1:
        return f"{who}'s {was[0]} ticks at the turn's end: {was[1]} -> {now[1]}"
    if ticked and was[0] in ("fire", "ice") and was[1] == 1 and now[0] is None:
        return f"{who}'s last {was[0]} token is gone by the turn's end"
    return f"{who}'s tokens: {_tok(was)} -> {_tok(now)}"


def _raw_tok(c: dict) -> str:
    from engine_c.spellbooktcg.notation import TOKEN_NAMES

    return f"{c['tokn']} {TOKEN_NAMES[c['tok']]}" if c["tok"] else "none"


def describe_final(state: State, names: Sequence[str]) -> str:
    """The end: each wizard's spellbook and the winner (TG-1..TG-3)."""
    raw = state._to_raw()
    lines = ["=== Result ==="]
    for p in range(2):
        lines.append(f"{names[p]}: spellbook {len(raw['book'][p])} cards")
    w = state.winners()
    if len(w) == 2:
        lines.append(f"A draw: turn {state.turn - 1} was the last (the turn limit)")
    else:
        loser = 1 - w[0]
        lines.append(f"Winner: {names[w[0]]} ({_whose(names[loser])} spellbook was empty at the start of "
                     f"{'your' if _you(names[loser]) else 'their'} turn)")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# For the shared clients: reviews, records, the page
# ----------------------------------------------------------------------------------------------
def record_line(rec: dict) -> str:
    """A record's game settings in one line: 'Spellbook TCG, frost_ward v fire_shock (starter cards)'."""
    d = rec.get("decks") or {}
    seats = d.get("seats") or [{"id": "frost_ward"}, {"id": "fire_shock"}]
    cards = "own card file" if "card_file" in d else "starter cards"
    return f"Spellbook TCG, {' v '.join(str(s.get('id', '?')) for s in seats)} ({cards})"


def where(state: State) -> str:
    """Where a decision happened, for a review: 'turn 5, seat 1's turn, spells'."""
    return f"turn {state.turn}, seat {state.active_player}'s turn, {STEPS.get(state.phase, state.phase)}"


def round_of(state: State) -> int:
    """A review's 'round' of a decision: the turn."""
    return state.turn


def label(state: State) -> str:
    """Where a decision is, in a player's words (a review's entries): 'Turn 5 · turn of seat 1 · spells ·
    spell 2'. A spell step names the spell decided on (the one cast or built, the one resolving), so the
    casts that alternate between the seats each have their own label, and a page names the seat ('your
    turn') as it does a round's turn in the other games."""
    step = STEPS.get(state.phase, state.phase)
    if state.phase in ("cast", "charm"):
        step += f" · spell {len(state.queue()) + (1 if state.phase == 'cast' else 0)}"
    elif state.phase == "target":
        step += f" · spell {state._to_raw()['resolving'] + 1}"
    return f"Turn {state.turn} · turn of seat {state.active_player} · {step}"


def game_line(state: State) -> str:
    """The game's settings in one line (the terminal's welcome)."""
    return f"Spellbook TCG: {' v '.join(state.wizard_ids())} wizards, turn limit {state._to_raw()['limit']}"


FOCUS = {"mana": "Think about your mana pool: which card you can spare for it, or none.",
         "attack": "Think about attacking: who can hit the other wizard, and what its blockers would do.",
         "block": "Think about blocking: which attacker hurts you most, and which blocker survives it.",
         "cast": "Think about the spells you can afford now, and whether to save mana for an answer.",
         "target": "Think about where this spell does the most: the other side, or your own.",
         "pass": "Think about keeping your mana: maybe nothing is worth casting now."}


def hint_focus(state: State, best: Move) -> str:
    """Hint 1 (where to look, without naming the move)."""
    if best.kind in ("pass",):
        return FOCUS["pass"]
    key = {"mana": "mana", "none": "mana", "attack": "attack", "done": "attack" if state.phase == "attack" else "block",
           "block": "block", "on": "block", "power": "cast", "charm": "cast", "cast": "cast", "target": "target"}
    return FOCUS[key.get(best.kind, "cast")]


def player_help() -> dict:
    """What a player reads of the game: the turn's steps, how to win, the starter cards with what each does,
    the three "where to look" hints, what luck is made of (no rule ids)."""
    cs = C.starter()
    return {
        "steps": ["draw up to 7 cards (the first player skips it on turn 1)",
                  "put up to 1 card from your hand into your mana pool (your mana: each spell step you may cast "
                  "spells costing up to its size)",
                  "declare attackers (all attack the other wizard); the other player declares blockers",
                  "cast spells in turn, a power plus up to 2 charms each; the first pass ends the step",
                  "spells resolve last cast first, each on a target its caster picks",
                  "combat: unblocked attackers hit the other wizard, blocked pairs hit each other",
                  "fire and ice tokens tick on the active player's characters"],
        "win": "A wizard's health is its spellbook: damage moves its cards to the graveyard, healing moves them "
               "back. A player who starts their turn with an empty spellbook loses; turn 201 is a draw.",
        "tokens": {"fire": "damage equal to its count at its controller's turn end, then one less",
                   "ice": "cannot attack or block; one less at its controller's turn end",
                   "shield": "each damage taken is lower by its count", "shock": "each damage taken is higher by its count"},
        "cards": [card_json(c) for c in cs.cards.values()],
        "decks": [{"id": d.id, "name": d.name, "cards": dict(d.cards)} for d in C.starter_decks().values()],
        "focus": dict(FOCUS), "luck": LUCK,
    }


def view(state: State, seat: int | None) -> dict:
    """What `seat` (None: a spectator) sees of the table, as a JSON object (games.v1's `view_json`): its
    own hand and mana pool, the other's as sizes (TI-1..TI-4); a spectator no hand and no mana card; the
    table as render_view writes it for that seat."""
    raw = state._to_raw()
    out: dict = {"seat": seat, "turn": state.turn, "phase": state.phase, "active": state.active_player,
                 "to_move": state.current_player,
                 "wizards": [{"spellbook": len(raw["book"][p]), "hand": len(raw["hand"][p]),
                              "mana": sum(raw["mana"][p]), "graveyard": len(state.graveyard(p))} for p in range(2)],
                 "table": render_view(state, seat)}
    if seat is not None:
        out.update(hand=state.hand(seat), mana_pool=state.mana(seat))
    # the public table (TI-1), for a board to draw: each wizard and summon with its values, tokens and combat,
    # the spell queue in cast order, the mana each seat has spent this step, and the winners at the end
    out["board"] = [{"wizard": _char_view(state.wizard(p), f"w{p}"),
                     "summons": [_char_view(c, char_text(2 + p * MAXSUM + j), names=[cs_name(state, x) for x in c["cards"]])
                                 for j, c in enumerate(state.summons(p))]} for p in range(2)]
    # each queued spell with its final form (TC-5): a spell being built shows what it has grown into
    out["queue"] = [{"caster": c, "cards": list(cards), "code": f"q{i}", "final": final_spell_text(state, i)}
                    for i, (c, cards) in enumerate(state.queue())]
    out["spent"] = list(state.spent())
    out["resolving"] = raw["resolving"] if state.phase == "target" else None
    out["blocker"] = raw["pending_blocker"] if state.phase == "blockon" else None     # the uid of the blocker placed
    out["winners"] = state.winners() if state.is_terminal() else []
    # the game's cards (the public deck lists', TX-15): a card file of a player's own is drawn by its own words
    out["cards"] = {cid: card_json(c) for cid in state.card_ids if (c := state.cardset.cards.get(cid)) is not None}
    out["wizard_names"] = [card_name_w(state.cardset, w) for w in state.wizard_ids()]
    if seat is not None and seat == state.current_player and state.phase == "charm":
        out["charm_preview"] = charm_preview(state)
    return out


def charm_preview(state: State) -> dict[str, str]:
    """What the spell being built (the queue's last, TX-21) becomes with each charm the seat to decide may
    attach now, in words (final_spell_text): the seat's own choice, from its own hand. The charm is put on a
    copy's spell directly, because playing the move would also play what follows it by force (a second charm
    finishes the spell, TX-47, and a summon may then resolve at once)."""
    out = {}
    for move in state.legal_moves():
        if move.kind != "charm" or move.card in out:
            continue
        grown = state.copy()
        raw = grown._to_raw()
        caster, cards = raw["queue"][-1]
        raw["queue"][-1] = (caster, [*cards, state.card_ids.index(move.card)])
        grown._from_raw(raw)
        out[move.card] = final_spell_text(grown, len(raw["queue"]) - 1)
    return out


def _char_words(code: str) -> str:
    """`w1` (seat 1's wizard) or `s0.2` (seat 0's third summon), without a state."""
    m = re.fullmatch(r"w(\d)|s(\d)\.(\d+)", code)
    if not m:
        return code
    if m.group(1) is not None:
        return f"seat {m.group(1)}'s wizard"
    return f"seat {m.group(2)}'s summon {int(m.group(3)) + 1}"


def move_words(move_text: str) -> str:
    """A move's text in words without a state (the game contract's `move_words`: games.v1's Move.words, the
    review's lists): cards by their ids in title case (the starter set's names; `move_text` names a user's
    own card by its name where a state is at hand), characters by seat. A text this does not know is
    returned as it is."""
    words = move_text.split()
    kind, arg = (words[0], words[1] if len(words) > 1 else "") if words else ("", "")
    card = arg.replace("_", " ").title()
    if kind == "none" and not arg:
        return "put no card into the mana pool"
    if kind == "mana" and arg:
        return f"put {card} into the mana pool"
    if kind in ("attack", "block", "on") and arg:
        verb = {"attack": "attack with", "block": "block with", "on": "block the attacker"}[kind]
        return f"{verb} {_char_words(arg)}"
    if kind == "done" and not arg:
        return "declare no more attackers or blockers"
    if kind == "power" and arg:
        return f"cast {card} (its power first)"
    if kind == "charm" and arg:
        return f"attach {card}"
    if kind == "cast" and not arg:
        return "finish the spell"
    if kind == "pass" and not arg:
        return "pass (cast nothing more this step)"
    if kind == "target" and arg:
        m = re.fullmatch(r"q(\d+)", arg)
        return f"target the queued spell {int(m.group(1)) + 1}" if m else f"target {_char_words(arg)}"
    return move_text


def cs_name(state: State, cid: str) -> str:
    return card_name(state.cardset, cid)


def _char_view(c: dict, code: str, names: list | None = None) -> dict:
    kind, n = c["tokens"]
    out = {"code": code, "uid": c["uid"], "damage": c["damage"], "health": c["health"],
           "tokens": {"kind": kind, "n": n} if kind and n else None, "attacking": c["attacking"],
           "blocking": c["blocking"]}   # the uid of the attacker it blocks (a wizard's uid is its seat)
    if names is not None:
        out.update(cards=c["cards"], names=names)
    return out


def event_lines(before: State, move: Move, after: State, rolls: Sequence[int], viewer: int | None) -> list[str]:
    """What the table saw of a move and the play and draws it set off (describe_changes), as `viewer` (a
    seat, None: a spectator) may read it: "you" for the viewer's seat, "seat N" for the other; the draws
    are told as counts, their cards to the drawer only. The draws come from the hands: a decision takes at
    most one card from its decider's hand (a mana card, a power or a charm) and only draws add cards."""
    names = ["you" if p == viewer else f"seat {p}" for p in range(2)]
    mover = before.current_player
    draws = []
    for p in range(2):
        rest = list(before.hand(p))
        if p == mover and move.kind in ("mana", "power", "charm") and move.card in rest:
            rest.remove(move.card)
        new = list(after.hand(p))
        for c in rest:
            if c in new:
                new.remove(c)
        draws += [{"to": p, "move": f"draw {c}"} for c in new]
    return describe_changes(before, move, after, names, draws, viewer)
