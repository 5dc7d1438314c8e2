"""Abracada…What? in words, for a seat: what it may see, what it probably holds, what each announcement
can win and risk, and what happened at the table. The terminal game (clients/play_abracadawhat.py), the review and the
hints take every game-specific sentence from here; nothing in this module reads what the seat may not see.

    from engine_c.abracadawhat import State
    from engine_c.abracadawhat import text
    s = State.new(players=3, seed=1)
    print(text.render_view(s, 0))            # every other hand, never seat 0's own (XI1-XI4)
    print(text.holding_text(s, 0))           # "what do I probably hold?" (XC6)
    print(text.announcements_text(s, 0))     # each legal cast: chance of success, gain, risk

Views are built from `State.observation(seat)` alone, so two states a seat cannot tell apart render the
same for it. What a seat probably holds comes from one function, `hold_probabilities`: today the exact
posterior of XC6 (the counts and the seat's own announcements); a belief that also reads the others'
announcements (issue 24) replaces it there and every text follows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from engine_c.abracadawhat.state import SPELLS, Move, State

LIFE_MAX = 6
WIN_POINTS = 8                      # XG1
# what a successful cast does (§4), in a player's words
EFFECTS = {
    1: "roll the die: every other player loses that much life",
    2: "every other player loses 1 life, you gain 1",
    3: "roll the die: you gain that much life (up to 6)",
    4: "take a secret stone (1 point at the round's end if you survive)",              # XR5
    5: "the players to your left and right lose 1 life each",
    6: "the player to your left loses 1 life",
    7: "the player to your right loses 1 life",
    8: "you gain 1 life",
}
END_TEXT = "keep your life; refill your hand to 5 unseen"     # what ending the turn does (XT4)
# why a round ended, in a player's words (XR2, XR3, XR4, XV2); rule ids stay out of what a player reads
REASONS = {"empty": "emptied their hand", "ko": "knocked the last life out",
           "self": "knocked themselves out", "last": "is the last magician standing"}


def spell_name(k: int) -> str:
    """'5 Lightning Tempest'."""
    return f"{k} {SPELLS[k - 1]}"


def seat_names(players: int, labels: Sequence[str] | None = None) -> list[str]:
    return list(labels) if labels is not None else [f"seat {p}" for p in range(players)]


# ----------------------------------------------------------------------------------------------
# What a seat probably holds (XC6)
# ----------------------------------------------------------------------------------------------
def hold_probabilities(state: State, seat: int) -> dict[int, float]:
    """For each spell 1-8, the probability that `seat` holds at least one stone of it, given what the seat
    may know. The one source of every "what do I probably hold?" text: today the exact posterior of XC6
    (State.holding_probabilities: the visible counts and the seat's own successes and failures)."""
    return state.holding_probabilities(seat)


def unseen_by_spell(state: State, seat: int) -> dict[int, int]:
    """How many stones of each spell `seat` cannot see now (XI4): in its own hand, the pile and the secret
    stones. The engine's count (State.unseen, the belief's key) also holds the seat's own stones cast
    this round, which lie face up before it: they are seen, so they are taken off here."""
    unseen = state.unseen(seat)
    own_cast = state._to_raw()["cast"][seat]
    return {k: unseen[k] - own_cast[k - 1] for k in unseen}


def holding_text(state: State, seat: int, probabilities: dict[int, float] | None = None) -> str:
    """"What do I probably hold?": each spell's chance of being in the seat's hand, most likely first, with
    how many of its stones the seat cannot see (its own hand, the pile, the secret stones: XI4)."""
    probs = hold_probabilities(state, seat) if probabilities is None else probabilities
    unseen = unseen_by_spell(state, seat)
    size = state.hand_sizes()[seat]
    lines = [f"What you probably hold ({size} stone{'s' if size != 1 else ''}; from what you see and your own "
             f"announcements this round):"]
    for k in sorted(probs, key=lambda k: (-probs[k], k)):
        bar = "#" * round(20 * probs[k])
        lines.append(f"  {spell_name(k):20s} {probs[k]:6.1%}  {bar:20s} ({unseen[k]} of its {k} "
                     f"stone{'s' if k != 1 else ''} unseen)")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# Each announcement: its chance, what it gains, what it risks
# ----------------------------------------------------------------------------------------------
@dataclass
class Announcement:
    move: Move
    chance: float          # probability of success (0 for `end`: nothing is announced)
    gain: str              # what a success does (or what ending the turn does)
    risk: str              # what a failure costs


def _neighbours(state: State, seat: int) -> tuple[int, int]:
    """(left, right) of `seat` among the seats still in the round (XT5: left is seat + 1; XC13)."""
    n, life, xv2 = state.players, state.life, "xv2" in state.variants

    def step(d: int) -> int:
        q = seat
        for _ in range(n):
            q = (q + d) % n
            if not xv2 or life[q] > 0:
                return q
        return seat
    return step(1), step(-1)


def _hits(state: State, seat: int, k: int) -> list[tuple[int, str]]:
    """(seat hit, how much) for a spell that costs others life."""
    others = [p for p in range(state.players) if p != seat and ("xv2" not in state.variants or state.life[p] > 0)]
    left, right = _neighbours(state, seat)
    if k == 1:
        return [(p, "the die") for p in others]
    if k == 2:
        return [(p, "1") for p in others]
    if k == 5:
        return [(left, "1")] if left == right else [(left, "1"), (right, "1")]
    if k == 6:
        return [(left, "1")]
    if k == 7:
        return [(right, "1")]
    return []


def _gain(state: State, seat: int, k: int, names: Sequence[str]) -> str:
    text = EFFECTS[k]
    life = state.life
    knocked = []
    for p, amount in _hits(state, seat, k):
        if amount == "the die":
            p_ko = min(max(7 - life[p], 0), 6) / 6 if life[p] > 0 else 0.0
            if p_ko > 0:
                knocked.append(f"{names[p]} at {life[p]} life (a {p_ko:.0%} chance)")   # names may carry parentheses
        elif life[p] == 1:
            knocked.append(f"{names[p]} at 1 life")
    xv2 = "xv2" in state.variants
    if knocked:
        text += "; it may knock out " + ", ".join(knocked) + \
            (": out of the round" if xv2 else ": you win the round (3 points)")          # XV2 / XR3
    if k == 4 and not any(state._to_raw()["secret"]):         # how many remain is public (XI1)
        text = "no secret stone is left: the stone is cast with no effect"       # XC3
    if state.hand_sizes()[seat] == 1:
        text += "; your last stone: an empty hand wins the round (" + \
            ("2 points, plus 1 per secret stone you hold)" if xv2 else "3 points)")    # XV2 / XR2
    return text


def _risk(state: State, seat: int, k: int) -> str:
    life = state.life[seat]
    xv2 = "xv2" in state.variants
    out = "knocked out (0 points" + ("" if xv2 else "; the others score 1") + ")"      # XR4
    if k == 1:
        p_ko = min(max(7 - life, 0), 6) / 6
        # XC8: a failed Ancient Dragon costs the die roll in life
        return (f"you lose the die roll in life and the turn ends; at {life} life that knocks you out with "
                f"probability {p_ko:.0%}: " + out) if p_ko else "you lose the die roll in life; the turn ends"
    if life <= 1:
        return "you lose your last life: " + out
    return f"you lose 1 life ({life} -> {life - 1}) and the turn ends"


IMPOSSIBLE = 1e-9            # a chance of success at or below this is none: the spell cannot be held
# what a success does, for a spell the seat cannot hold (every stone of it in sight, or a failed
# announcement of it this round): nothing, so no effect or knock-out is held out to it
CANNOT_SUCCEED = "it cannot succeed: you cannot hold this spell (its stones are all in sight, or you failed it this round)"


def announcements(state: State, seat: int | None = None, names: Sequence[str] | None = None,
                  probabilities: dict[int, float] | None = None) -> list[Announcement]:
    """Every legal move of the deciding seat with its chance of success (from hold_probabilities), what a
    success gains and what a failure risks. `seat` defaults to the seat to move; it must be that seat."""
    seat = state.current_player if seat is None else seat
    if seat < 0 or seat != state.current_player:
        raise ValueError(f"announcements are for the seat to move (seat {state.current_player}), not seat {seat}")
    names = seat_names(state.players, names)
    probs = hold_probabilities(state, seat) if probabilities is None else probabilities
    out = []
    for move in state.legal_moves():
        if move.kind == "end":
            out.append(Announcement(move, 0.0, END_TEXT, "nothing"))
        else:
            k = move.value
            gain = _gain(state, seat, k, names) if probs[k] > IMPOSSIBLE else CANNOT_SUCCEED
            out.append(Announcement(move, probs[k], gain, _risk(state, seat, k)))
    return out


def announcements_text(state: State, seat: int | None = None, names: Sequence[str] | None = None,
                       probabilities: dict[int, float] | None = None) -> str:
    """Each legal announcement's chance of success, what it gains and what it risks, as text."""
    lines = ["Each announcement: its chance of success, what it does, what a failure costs:"]
    for a in announcements(state, seat, names, probabilities):
        if a.move.kind == "end":
            lines.append(f"  {'end':8s}         stop here: {a.gain}")
            continue
        lines.append(f"  {str(a.move):8s} {a.chance:6.1%}  {SPELLS[a.move.value - 1]}: {a.gain}")
        lines.append(f"  {'':8s} {'':6s}   if it fails: {a.risk}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# What a seat sees (XI1-XI4, XC12): built from its observation alone
# ----------------------------------------------------------------------------------------------
def _observed(state: State, seat: int) -> dict:
    from engine_c.abracadawhat.notation import parse_raw

    raw, _ = parse_raw(state.observation(seat), observation=True)
    return raw


def _zone(counts) -> str:
    from engine_c.abracadawhat.notation import stones_text

    if isinstance(counts, tuple):                 # ('?', size): hidden from this seat
        return f"{counts[1]} hidden"
    return stones_text(counts) if any(counts) else "-"


def _size(counts) -> int:
    return counts[1] if isinstance(counts, tuple) else sum(counts)


def render_view(state: State, seat: int, names: Sequence[str] | None = None) -> str:
    """The table as `seat` sees it: every other hand's faces and never its own (only its size), the pile's
    and the secret stones' counts, life, points, the stones cast, the removed stones, this round's
    announcements and the earlier rounds' results. Built from `state.observation(seat)` only."""
    raw = _observed(state, seat)
    n = raw["players"]
    names = seat_names(n, names)
    over = bool(raw["over"])
    rnd = len(raw["history"]) + (0 if over else 1)
    lines = []
    if over:
        lines.append(f"=== Final table (after {rnd} rounds) ===")
    else:
        cp = state.current_player
        who = names[cp] if cp >= 0 else "chance"
        lines.append(f"=== Round {rnd}, {names[raw['active']]}'s turn · to decide: {who} ===")
    variants = ",".join(state.variants) or "none"
    removed = _zone(raw["removed"]) if n <= 3 else "none (4-5 players)"
    lines.append(f"Pile: {_size(raw['pile'])} stones    Secret stones left: {_size(raw['secret'])}    "
                 f"Removed face up: {removed}    Variants: {variants}    First to {WIN_POINTS} points wins")
    width = max(24, *(len(x) for x in names))
    for p in range(n):
        mark = "*" if p == state.current_player else " "
        hand = raw["hands"][p]
        shown = f"{_size(hand)} stones, hidden from you" if p == seat else _zone(hand)
        taken = raw["taken"][p]
        secret = (f"    secret stones: {_zone(taken)}" if p == seat and _size(taken) else
                  f"    secret stones taken: {_size(taken)}" if _size(taken) else "")
        lines.append(f"{mark} {names[p]:{width}s} life {raw['life'][p]}/{LIFE_MAX}   points {raw['points'][p]:2d}   "
                     f"hand: {shown}   cast: {_zone(raw['cast'][p])}{secret}")
    lines.append("This round: " + (log_text(state.log(), names) or "no announcement yet"))
    return "\n".join(lines)


def log_text(entries: list[dict], names: Sequence[str]) -> str:
    """The round's announcements (State.log()) as one line: 'seat 1: 4 ok, 7 failed (die 3) | ...'."""
    turns: list[str] = []
    current: list[str] = []
    seat = None
    for e in entries:
        if e["kind"] == "cast":
            seat = e["seat"]
            roll = f" (die {e['roll']})" if e["roll"] else ""
            current.append(f"{e['spell']} {'ok' if e['ok'] else 'failed'}{roll}")
        else:
            turns.append(f"{names[e['seat']]}: {', '.join(current) or '-'}")
            current, seat = [], None
    if current and seat is not None:
        turns.append(f"{names[seat]}: {', '.join(current)} ...")
    return " | ".join(turns)


def _you(name: str) -> bool:
    """Whether a seat's name is the reader's own ('you', 'you (seat 0)'): it takes the second person."""
    return name.lower().startswith("you")


def _does(name: str, verb: str) -> str:
    """'seat 2 announces', 'you (seat 0) announce'."""
    return f"{name} {verb}" if _you(name) else f"{name} {verb}s"


def _whose(name: str) -> str:
    """'your', "seat 2's"."""
    return "your" if _you(name) else f"{name}'s"


def reason_text(key: str, name: str) -> str:
    """Why a round ended (REASONS), for the seat `name`: 'knocked themselves out', or for the reader
    'knocked yourself out'."""
    text = REASONS[key]
    if _you(name):
        text = text.replace("themselves", "yourself").replace("their", "your").replace("is the", "are the")
    return text


def points_text(n: int) -> str:
    """'1 point', '3 points'."""
    return f"{n} point{'' if n == 1 else 's'}"


def describe_cast(entry: dict) -> str:
    """One announcement of the public log in words (after 'seat 1 announces')."""
    roll = f", the die shows {entry['roll']}" if entry["roll"] else ""
    verdict = "success" if entry["ok"] else "fails"
    return f"{spell_name(entry['spell'])}: {verdict}{roll}"


def describe_result(result: dict, names: Sequence[str], round_number: int) -> str:
    """A finished round (State.results() item) in words."""
    who = names[result["seat"]]
    scores = ", ".join(f"{names[p]} +{s}" for p, s in enumerate(result["scores"]))
    return f"Round {round_number} ends: {who} {reason_text(result['reason'], who)}. Scores: {scores}."


def _life_line(before: Sequence[int], after: Sequence[int], names: Sequence[str]) -> str | None:
    """'life: seat 1 3 -> 2, seat 2 1 -> 0 (knocked out)', or None when no life changed."""
    changed = [f"{names[p]} {lb} -> {la}" + (" (knocked out)" if la <= 0 < lb else "")
               for p, (lb, la) in enumerate(zip(before, after)) if lb != la]
    return "life: " + ", ".join(changed) if changed else None


def describe_changes(before: State, move: Move, after: State, names: Sequence[str],
                     rolls: Sequence[int] = ()) -> list[str]:
    """What the table saw when the seat to move at `before` played `move` and chance followed, up to
    `after`: the announcement with its outcome and die, life lost and gained (a knock-out), the turn's
    end (a failed announcement ends it: the seat did not choose to), a finished round with its points.
    Only public facts (XI1): never a stone drawn or dealt. `rolls`: the die rolls that followed `move`
    (a round that ends takes its log, and so its die, with it). The terminal and the page (each
    SessionEvent's `lines`) show these lines."""
    seat, done = before.current_player, len(before.results())
    if len(after.results()) > done:                 # the round ended: its log is gone, its result says how
        r = after.results()[done]
        lines = []
        if move.kind == "cast":
            ok = r["life"][seat] > 0                 # only a failure (its last life) knocks the caster out
            roll = f", the die shows {rolls[0]}" if rolls else ""
            lines.append(f"{_does(names[seat], 'announce')} {spell_name(move.value)}: "
                         f"{'success' if ok else 'fails'}{roll}")
        life = _life_line(before.life, r["life"], names)
        if life:
            lines.append(life)
        lines += [describe_result(x, names, done + k + 1) for k, x in enumerate(after.results()[done:])]
        if after.is_terminal():
            lines.append(f"The game is over: someone has {WIN_POINTS} points or more.")        # XG1
        else:
            lines.append("Points: " + ", ".join(f"{names[p]} {v}" for p, v in enumerate(after.points))
                         + f". A new round is dealt; everyone is back to {LIFE_MAX} life.")
        return lines
    lines = []
    previous = before.log()[-1] if before.log() else None
    for e in after.log()[len(before.log()):]:
        if e["kind"] == "cast":
            lines.append(f"{_does(names[e['seat']], 'announce')} {describe_cast(e)}")
        elif previous is not None and previous["kind"] == "cast" and not previous["ok"] \
                and previous["seat"] == e["seat"]:
            lines.append(f"A failed announcement ends {_whose(names[e['seat']])} turn")      # XT1
        else:
            lines.append(f"{_does(names[e['seat']], 'end')} the turn")
        previous = e
    life = _life_line(before.life, after.life, names)
    if life:
        lines.append(life)
    return lines


def renamed(line: str, names: Sequence[str], reader: int) -> str:
    """A line written for a reader ("you" for the reader's seat, "seat N" for the others: a SessionEvent's
    `lines`) in a client's own names for the seats: the line describe_changes gives with `names`."""
    return re.sub(r"\bseat (\d+)\b|\byou\b",
                  lambda m: names[int(m.group(1))] if m.group(1) is not None else names[reader], line)


def describe_final(state: State, names: Sequence[str]) -> str:
    """The game's end: each seat's points and the winner (XG1)."""
    lines = ["=== Final points ==="]
    last = state.results()[-1] if state.results() else None
    for p, pts in enumerate(state.points):
        tail = f" (last round +{last['scores'][p]}, life {last['life'][p]})" if last else ""
        lines.append(f"{names[p]}: {pts} points{tail}")
    winners = state.winners()
    lines.append(f"Winner{'s' if len(winners) > 1 else ''}: {' and '.join(names[w] for w in winners)}")   # XG1
    return "\n".join(lines)


LUCK = "the deals, refills and die rolls"   # what luck is made of in this game, for a review's text


def move_words(move_text: str) -> str:
    """A move in a player's words, as the page's log says it: 'announce 5 Lightning Tempest' for 'cast 5', 'end
    the turn' for 'end'; a chance outcome ('stone 3', 'roll 4') keeps its text."""
    kind, _, value = move_text.partition(" ")
    if kind == "cast" and value.isdigit() and 1 <= int(value) <= len(SPELLS):
        return f"announce {spell_name(int(value))}"
    if move_text == "end":
        return "end the turn"
    return move_text


def record_line(rec: dict) -> str:
    """A record's game settings in one line: 'Abracada…What?, 3 players, variants none'."""
    return f"Abracada…What?, {rec['players']} players, variants {','.join(rec.get('variants') or ()) or 'none'}"


def where(state: State) -> str:
    """Where a decision happened, for a review: 'round 2, seat 1's turn'."""
    return f"round {state.round}, seat {state.active_player}'s turn"


def round_of(state: State) -> int:
    """The round (1, 2, ...) a decision is in."""
    return state.round


def label(state: State) -> str:
    """Where a decision is, in a player's words (a review's entries): 'Round 3 · turn of seat 2'."""
    return f"Round {state.round} · turn of seat {state.active_player}"


def game_line(state: State) -> str:
    """The game's settings in one line (reviews, the terminal's welcome)."""
    return f"Abracada…What?: {state.players} players, variants {','.join(state.variants) or 'none'}"


FOCUS = {"end": "Consider stopping here: what is left to announce may not be worth a life.",
         "likely": "Look among the spells you most probably hold.",
         "beyond": "Look beyond your likeliest spells: weigh what each announcement does, not only its chance."}


def hint_focus(state: State, best: Move, probabilities: dict[int, float] | None = None) -> str:
    """Hint 1 (where to look, without naming the move): stopping, a spell among the likeliest you hold,
    or one whose effect outweighs a lower chance."""
    if best.kind == "end":
        return FOCUS["end"]
    probs = hold_probabilities(state, state.current_player) if probabilities is None else probabilities
    legal = [m.value for m in state.legal_moves() if m.kind == "cast"]
    top = max(probs[k] for k in legal)
    if probs[best.value] >= top - 0.05:
        return FOCUS["likely"]
    return FOCUS["beyond"]


# ----------------------------------------------------------------------------------------------
# For the web page (GET /games.json): the same sentences, without the rules' ids
# ----------------------------------------------------------------------------------------------
def without_rule_ids(text: str) -> str:
    """A sentence for a player, without the rules' references: 'a secret stone (1 point, XR5)' -> 'a secret
    stone (1 point)', 'you win the round (XR3)' -> 'you win the round'."""
    import re

    text = re.sub(r"\s*\((?:X[A-Z]+\d+(?:[-,–] ?X?[A-Z]*\d+)*)\)", "", text)
    text = re.sub(r",\s*X[A-Z]+\d+(?=\))", "", text)
    return re.sub(r"\s*\bX[A-Z]+\d+\b", "", text)


def player_help() -> dict:
    """What the web page says of the game: each spell's name, stones and effect; what ending a turn does;
    how a round can end; the three "where to look" hints (hint_focus); what luck is made of."""
    plain = without_rule_ids
    return {
        "spells": [{"spell": k, "name": SPELLS[k - 1], "stones": k, "effect": plain(EFFECTS[k])} for k in range(1, 9)],
        "end": plain(END_TEXT),
        "reasons": {k: plain(v) for k, v in REASONS.items()},
        "focus": dict(FOCUS),
        "lifeMax": LIFE_MAX, "winPoints": WIN_POINTS, "luck": LUCK,
    }


def view(state: State, seat: int | None) -> dict:
    """What `seat` (None: a spectator) sees of the table, as a JSON object (games.v1's `view_json`), built
    from an observation alone (XI1-XI3): every other hand's stones and never its own (its size only), its
    own taken secret stones and the others' counts; a spectator no hand and no secret stone at all."""
    raw = _observed(state, 0 if seat is None else seat)
    n = raw["players"]

    def zone(counts, shown: bool) -> dict:
        if shown and not isinstance(counts, tuple):
            return {"stones": [k + 1 for k, c in enumerate(counts) for _ in range(c)], "size": sum(counts)}
        return {"size": _size(counts)}

    over = bool(raw["over"])
    return {"seat": seat, "players": n, "variants": list(state.variants), "over": over,
            "round": len(raw["history"]) + (0 if over else 1), "active": raw["active"],
            "to_move": state.current_player, "life": list(raw["life"]), "points": list(raw["points"]),
            "hands": [zone(raw["hands"][p], seat is not None) for p in range(n)],
            "cast": [zone(raw["cast"][p], True) for p in range(n)],
            "taken": [zone(raw["taken"][p], seat == p) for p in range(n)],
            "removed": zone(raw["removed"], True), "pile": _size(raw["pile"]), "secret_left": _size(raw["secret"]),
            "log": [dict(e) for e in state.log()], "results": [dict(r) for r in state.results()]}


def event_lines(before: State, move: Move, after: State, rolls: Sequence[int], viewer: int | None) -> list[str]:
    """describe_changes for a reader: "you" for the reader's seat, "seat N" for the others (public facts)."""
    return describe_changes(before, move, after, ["you" if p == viewer else f"seat {p}"
                                                  for p in range(before.players)], rolls)
