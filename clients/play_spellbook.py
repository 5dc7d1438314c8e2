"""`spellbook-ai play` for SpellBook: a whole game against 1-3 bots in the terminal (clients/play.py's
PlayClient with SpellBook's board, commands and hints, D64).

    spellbook-ai play --bots ismcts:level=5 greedy --seat 0 --practice

At your turn the board is shown (the Altar, every pool, every familiar and its value, every spell with
its level and rune, the score so far, whose turn and which phase) with your legal moves, numbered; the
ways to learn a spell are collapsed to one line per spell (`learn SPELL` lists them by level and
payment). Type a number or a move in the notation (docs/notation.md). Commands:

    hint [1|2|3]   1: where to look; 2: why the best move is good (what it makes possible, what it
                   gives up, what it leaves the next player); 3: the move and the top 3, every figure
                   labelled (`hint` again goes one step further). A hint's search grows until its best
                   move is clearly ahead, or says the top moves are about equal.
    undo           take back your last move and the bots' replies (practice games: --practice); the
                   Pouch is shuffled again, so the undone draws do not come back
    learn SPELL    the ways to learn SPELL;  help SPELL: what SPELL does at each level
    save FILE      write the game record (docs/records.md: players, spells, seats, every move and draw)
    load FILE      continue a saved game
    resign         end the game here: the record says who resigned; the review and the save follow (D130)
    board, moves [TEXT], help, quit (exit status 0)

The deal's seed is shown when the game ends (it fixes the Pouch order, so it stays hidden until then).
A saved record replays exactly: the draws are in it, and replaying re-draws them with the state's
seeded generator so a continued game draws what the original would have.
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from typing import Callable, TextIO

from engine_c import records
from engine_c.spellbook import IllegalMoveError, Move, NotationError, State
from engine_c.spellbook import _engine as _E
from engine_c.spellbook.state import COLOR_NAMES, COLORS, RUNES, format_counts
from engine_c.spellbook.text import move_words
from clients.play import (HUMAN, Event, Hinter, PlayClient, load_record, ranked_lines, run_local, run_on_server,
                          seat_label, seat_spec, write_record)
from clients.spell_text import describe, find_spell, points, spell_title

MAX_LISTED = 30
ALTAR_CLEAR_AT = 10          # an Altar holding this many at its resupply is discarded, then refilled with 5
UNDO_SALT = 0x5EED_0DD0
_FRAMES = dict(_E.FRAME_NAMES)


def _mix(*parts: int) -> int:
    """A seed for the n-th undo of a game: derived from the game's (secret until the end) seed."""
    h = 0
    for x in parts:
        h = (h * 0x9E3779B97F4A7C15 + x + 1) % 2**63
    return h


def words(move: Move | str) -> str:
    """A move as the terminal says it: its words (engine_c/spellbook/move_words.py, as the page says it too)."""
    return move_words(str(move))


def familiar_value(stored: int) -> int:
    """Points of a familiar board holding `stored` tokens (SPELLBOOK.md §1: n -> n+1; 16 -> 18)."""
    return 18 if stored >= 16 else stored + 1


# ----------------------------------------------------------------------------------------------
# The game (no I/O): state, seats, record, undo
# ----------------------------------------------------------------------------------------------
@dataclass
class GameSession:
    seed: int
    players: int
    spells: list[str]
    seats: list[str]                       # bot spec, or "human"
    practice: bool = False
    state: State = field(init=False)
    moves: list[list] = field(default_factory=list)     # [seat, text]; seat -1: a draw
    undo_stack: list[tuple[State, int]] = field(default_factory=list)
    rng_in_sync: bool = True
    auto_forced: bool = True                # play a human's only legal move without asking
    seed_fixed: bool = False                # the player chose the seed: a saved record may show it
    seed_is_deal: bool = True               # the setup came from `seed` (not so for a record without one)
    setup: list | None = None               # the setup draws, when loaded from a record
    undos: int = 0
    resigned: int | None = None             # the seat that resigned (the game ended there, D130)
    _altar_at_move: int = 0

    def __post_init__(self) -> None:
        from clients.bots import bot_seed, make_bot

        if len(self.seats) != self.players:
            raise ValueError(f"{self.players} players but {len(self.seats)} seats")
        self.state = State.new(players=self.players, spells=self.spells, seed=self.seed)
        self.spells = self.state.spells
        self.bots = {i: make_bot(spec, seed=bot_seed(self.seed, f"{spec}@{i}"), players=self.players)
                     for i, spec in enumerate(self.seats) if spec != HUMAN}

    @classmethod
    def new(cls, bots: list[str], human_seat: int = 0, seed: int = 0, spells: str = "set1",
            practice: bool = False) -> "GameSession":
        if not 1 <= len(bots) <= 3:
            raise ValueError(f"play against 1 to 3 bots, got {len(bots)}")
        if not 0 <= human_seat <= len(bots):
            raise ValueError(f"--seat must be 0 to {len(bots)}, got {human_seat}")
        seats = list(bots)
        seats.insert(human_seat, HUMAN)
        return cls(seed=seed, players=len(seats), spells=spells, seats=seats, practice=practice)

    # ------------------------------------------------------------------ progress
    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.resigned is not None

    def resign(self, seat: int) -> None:
        """`seat` resigns: the game ends here (its record's last event says so, D130)."""
        if self.over:
            raise ValueError("the game is already over")
        self.resigned = seat

    def human_to_move(self) -> bool:
        cp = self.state.current_player
        return cp >= 0 and self.seats[cp] == HUMAN

    def advance(self, on_event: Callable[[Event], None] | None = None) -> None:
        """Draws and bot moves until a human decides or the game ends. The draws of one step are reported
        as one event ("seat 1 draws Rc Gt", "Altar resupplied: ...")."""
        st = self.state
        while not st.is_terminal():
            if st.is_chance():
                for text in self._resolve_draws():
                    if on_event:
                        on_event(Event(-1, text))
                continue
            seat = st.current_player
            if self.seats[seat] == HUMAN:
                moves = st.legal_moves()
                if len(moves) > 1 or not self.auto_forced:
                    return
                self.play_human(moves[0])          # a forced move (often: pass) plays itself
                if on_event:
                    on_event(Event(seat, f"{words(moves[0])} (forced)"))
                st = self.state
                continue
            move, _info = self.bots[seat].choose(st)
            self._altar_at_move = sum(st._to_raw()["altar"])
            st.apply(move)
            self.moves.append([seat, str(move)])
            if on_event:
                on_event(Event(seat, words(move)))

    def _resolve_draws(self) -> list[str]:
        """Resolves the pending draws (recorded one by one) and describes them, one line per step."""
        st = self.state
        altar_before = self._altar_at_move      # the Altar before the move that led here (before any resupply)
        groups: list[list] = []                       # [frame name, seat, tokens]
        while st.is_chance():
            top = st._to_raw()["stack"][-1]
            key = [_FRAMES.get(top[0], ""), top[1]]
            drawn = st.sample_chance()
            st.apply(drawn)
            self.moves.append([-1, str(drawn)])
            token = str(drawn).split()[-1]
            if groups and groups[-1][:2] == key:
                groups[-1][2].append(token)
            else:
                groups.append(key + [[token]])
        return [self._describe_draws(kind, seat, tokens, altar_before) for kind, seat, tokens in groups]

    def _describe_draws(self, kind: str, seat: int, tokens: list[str], altar_before: int) -> str:
        shown = " ".join(tokens)
        if kind == "drawaltar":
            if altar_before >= ALTAR_CLEAR_AT and len(tokens) >= 5:
                return (f"Altar resupplied: it held {altar_before} tokens, so they were discarded and 5 drawn: "
                        f"{shown}")
            return f"Altar resupplied: {shown}"
        who = "you" if 0 <= seat < self.players and self.seats[seat] == HUMAN else f"seat {seat}"
        verb = "draw" if who == "you" else "draws"
        return f"{who} {verb} {shown}" + (" onto the Altar" if kind != "drawpool" else "")

    def play_human(self, move: Move) -> None:
        self.undo_stack.append((self.state.clone(), len(self.moves)))
        seat = self.state.current_player
        self._altar_at_move = sum(self.state._to_raw()["altar"])
        self.state.apply(move)
        self.moves.append([seat, str(move)])

    def undo(self) -> None:
        if not self.practice:
            raise ValueError("undo is for practice games (start with --practice)")
        if not self.undo_stack:
            raise ValueError("nothing to undo yet")
        state, n = self.undo_stack.pop()
        # forced moves replay themselves at once: go back to the last real choice
        while self.auto_forced and self.undo_stack and len(state.legal_moves()) == 1:
            state, n = self.undo_stack.pop()
        if self.auto_forced and len(state.legal_moves()) == 1:
            self.undo_stack.append((state, n))
            raise ValueError("nothing to undo yet: your moves so far were forced")
        # A new Pouch order (what you know stays: the Pouch's contents): replaying the undone move must not
        # draw the tokens you have just seen, or undo would let practice peek into the Pouch.
        self.undos += 1
        self.state = state.determinize(state.current_player, knows_discard=True,
                                       seed=_mix(self.seed, UNDO_SALT, self.undos))
        self.rng_in_sync = False
        del self.moves[n:]

    # ------------------------------------------------------------------ records
    def to_record(self) -> dict:
        """The game record (engine_c.records, docs/records.md). The seed is in it once the game is over,
        or if the player chose it (--seed): a random deal's seed would reveal the Pouch's order."""
        setup = self.setup if self.setup is not None else records.setup_events(self.players, self.spells, self.seed)
        events = list(setup) + [records.event("draw" if seat == -1 else "move", seat, text) for seat, text in self.moves]
        if self.resigned is not None:
            events.append(records.resign_event(self.resigned))
        extra = {"practice": True} if self.practice else {}
        return records.build(self.players, self.spells, [records.seat_from_spec(s) for s in self.seats], events,
                             self.state, seed=self.seed if self.seed_is_deal else None,
                             seed_shown=self.seed_fixed, **extra)

    @classmethod
    def from_record(cls, rec: dict) -> "GameSession":
        """Continues a game from its record (any format engine_c.records reads: a terminal save, a server
        record, a tournament game). A record without its seed continues with a new, unknown Pouch order."""
        import secrets

        try:
            rec = records.load(rec)
            seed = rec.get("seed", secrets.randbits(31))
            final, steps, at = records.replay_indexed(rec, rng_seed=seed)
        except records.RecordError as e:
            raise ValueError(f"the record does not replay: {e}") from None
        if records.resigned(rec) is not None:
            raise ValueError(f"seat {records.resigned(rec)} resigned this game: it cannot go on "
                             "(`spellbook-ai review FILE` reviews it)")
        seats = [seat_spec(s) for s in rec["seats"]] or [HUMAN] * rec["players"]
        sess = cls(seed=seed, players=rec["players"], spells=rec["spells"], seats=seats,
                   practice=bool(rec.get("practice", False)))
        sess.seed_fixed = sess.seed_is_deal = "seed" in rec
        n_setup = sum(1 for e in rec["events"] if e["kind"] == "setup")
        sess.setup = rec["events"][:n_setup]
        sess.state = final
        sess.moves = [[e["seat"] if e["kind"] == "move" else -1, e["move"]] for e in rec["events"][n_setup:]]
        sess.undo_stack = [(before, i - n_setup) for (before, _m, seat), i in zip(steps, at) if seats[seat] == HUMAN]
        return sess

    def save(self, path: str) -> None:
        write_record(path, self.to_record())

    @classmethod
    def load(cls, path: str) -> "GameSession":
        rec = load_record(path)
        if rec.get("game", "spellbook") != "spellbook":
            raise ValueError(f"{path} holds a game of {rec['game']}: `spellbook-ai play --load {path}` continues it")
        return cls.from_record(rec)


# ----------------------------------------------------------------------------------------------
# Showing the game
# ----------------------------------------------------------------------------------------------
BONUS_SPELLS = {"feast": "Feast", "knowledge": "Knowledge", "communion": "Communion"}


def _bonuses(sess: GameSession, sc) -> list[tuple[str, int]]:
    """End-game bonuses of the spells in play only (a bonus of a spell not in play is always 0)."""
    return [(name, getattr(sc, key)) for key, name in BONUS_SPELLS.items() if name in sess.spells]


def _pts(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def render_board(sess: GameSession) -> str:
    st = sess.state
    raw = st._to_raw()
    scores = st.scores()
    n = st.players
    over = st.is_terminal()
    rnd = (st.day + n - 1) // n if over else st.day // n + 1
    lines = []
    cp = st.current_player
    if over:
        lines.append(f"=== Final board (after {rnd} rounds) ===")
    else:
        who = "a draw" if cp == -1 else seat_label(sess, cp)
        lines.append(f"=== Round {rnd}, Day of {seat_label(sess, st.active_player)} · {st.phase} · "
                     f"to decide: {who} ({st.decision}) ===")
    lines.append("Spells: " + "  ".join(f"{COLORS[c]} {spell_title(name)}" for c, name in enumerate(st.spells)))
    altar_n = sum(raw["altar"])
    lines.append(f"Altar ({altar_n}): {format_counts(raw['altar'])}    Pouch: {sum(raw['pouch'])} tokens    "
                 f"Discard box: {format_counts(raw['discard'])}")
    if raw["end_triggered"] and not over:
        lines.append("The end is triggered: this round is the last.")
    for p in range(n):
        sc = scores[p]
        you = sess.seats[p] == HUMAN
        marker = "*" if p == cp else " "
        stored = sum(raw["fam"][p])
        lines.append(f"{marker} {seat_label(sess, p)}: {_pts(sc.total)}{'' if over else ' so far'}")
        lines.append(f"    {'your ' if you else ''}pool ({sum(raw['pool'][p])}/9): {format_counts(raw['pool'][p])}")
        lines.append(f"    {'your ' if you else ''}familiar ({stored}/16 stored, worth {familiar_value(stored)}): "
                     f"{format_counts(raw['fam'][p])}")
        learned = [f"{spell_title(st.spells[c])} level {raw['level'][p][c]} rune {RUNES[raw['rune'][p][c]]} "
                   f"({_pts(sc.spells.get(st.spells[c], 0))})"
                   for c in range(len(COLORS)) if raw["level"][p][c]]
        lines.append(f"    spells: {'; '.join(learned) if learned else 'none learned'}")
        bonus = [f"{name} {v}" for name, v in _bonuses(sess, sc) if v]
        if bonus:
            lines.append(f"    end-game bonuses{'' if over else ' so far'}: {', '.join(bonus)}")
    return "\n".join(lines)


def is_learning(move: Move) -> bool:
    return move.kind == "learn" or move.kind.split("/")[0] == "Transmutation"


def learn_key(move: Move) -> tuple[str, int]:
    """(spell, level) of a learning move: `learn Sacrifice 4 Rc : ...`, `Transmutation Sacrifice 4 Rc : ...`."""
    words = str(move).split()
    return words[1], int(words[2])


def ordered_moves(state: State) -> list[Move]:
    """The legal moves as the terminal numbers them: other moves first, in the engine's order, then the
    learnings grouped by spell (in color order), level and payment."""
    moves = state.legal_moves()
    order = {name: i for i, name in enumerate(state.spells)}
    learns = sorted((m for m in moves if is_learning(m)),
                    key=lambda m: (order.get(learn_key(m)[0], 99), learn_key(m)[1], str(m)))
    return [m for m in moves if not is_learning(m)] + learns


def render_moves(moves: list[Move], filt: str | None = None, limit: int | None = MAX_LISTED,
                 expand: str | None = None) -> str:
    """Numbered moves; learnings collapsed to one line per spell unless `filt` matches them or `expand`
    names their spell, "Sacrifice" or "Sacrifice 4" (then grouped by level, every payment listed)."""
    numbered = list(enumerate(moves, 1))
    if filt:
        numbered = [(i, m) for i, m in numbered if filt.lower() in str(m).lower()]
        if not numbered:
            return "  (no move contains that text)"
    plain = [(i, m) for i, m in numbered if not is_learning(m)]
    learns = [(i, m) for i, m in numbered if is_learning(m)]
    shown = plain if limit is None else plain[:limit]
    lines = [f"  {i:3d}. {m}" for i, m in shown]
    if len(shown) < len(plain):
        lines.append(f"  ... {len(plain) - len(shown)} more: `moves` lists all, `moves TEXT` those containing TEXT")
    spells: dict[str, list[tuple[int, Move]]] = {}
    for i, m in learns:
        spells.setdefault(learn_key(m)[0], []).append((i, m))
    for spell, items in spells.items():
        levels: dict[int, list[tuple[int, Move]]] = {}
        for i, m in items:
            levels.setdefault(learn_key(m)[1], []).append((i, m))
        want_spell, _, want_level = (expand or "").partition(" ")
        if (want_spell.lower() == spell.lower()) or (filt and len(spells) == 1 and len(items) <= MAX_LISTED):
            lines.append(f"  learn {spell_title(spell)}:")
            for lvl, ms in levels.items():
                if want_level and str(lvl) != want_level:
                    lines.append(f"    level {lvl}: {len(ms)} way{'s' if len(ms) > 1 else ''} (`learn {spell} {lvl}`)")
                    continue
                lines.append(f"    level {lvl} ({_pts(points(spell, lvl))}), {len(ms)} way{'s' if len(ms) > 1 else ''} to pay:")
                lines += [f"    {i:3d}. {m}" for i, m in ms]
        else:
            first, last = items[0][0], items[-1][0]
            ways = ", ".join(f"level {lvl} ({len(ms)} way{'s' if len(ms) > 1 else ''})" for lvl, ms in levels.items())
            lines.append(f"  {first:3d}{'-' + str(last) if last != first else ''}. learn {spell_title(spell)}: {ways}"
                         f"  → `learn {spell}` lists them")
    return "\n".join(lines)


def render_final(sess: GameSession) -> str:
    st = sess.state
    lines = ["=== Final score ==="]
    for p, sc in enumerate(st.scores()):
        spells = ", ".join(f"{spell_title(k)} {v}" for k, v in sc.spells.items() if v and k in sess.spells) or "none"
        parts = [f"spells {sum(sc.spells.values())} ({spells})", f"familiar {sc.familiar}"]
        parts += [f"{name} bonus {v}" for name, v in _bonuses(sess, sc)]
        lines.append(f"{seat_label(sess, p)}: {_pts(sc.total)} = " + " + ".join(parts))
    winners = st.winners()
    names = " and ".join(seat_label(sess, w) for w in winners)
    you = any(sess.seats[w] == HUMAN for w in winners)
    lines.append(f"Winner{'s' if len(winners) > 1 else ''}: {names}" + (" — well played!" if you else ""))
    if getattr(sess, "seed_is_deal", True):       # not for a game continued from a record without its seed
        lines.append(f"(The deal was seed {sess.seed}: `spellbook-ai play --seed {sess.seed}` plays it again.)")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# Hints
# ----------------------------------------------------------------------------------------------
PHASE_ACTIONS = {"take": "your Morning primary action (Take 1 or Draw 2)",
                 "draw": "your Morning primary action (Take 1 or Draw 2)",
                 "store": "your Midday primary action (Store 1)"}


def hint_focus(state: State, move: Move) -> str:
    """Level 1: what to look at, without the move itself."""
    kind, text, decision = move.kind, str(move), state.decision
    words = text.split()
    if decision in ("morning", "midday", "evening"):
        if kind == "pass":
            return f"Consider skipping your {state.phase} action this time."
        if kind in PHASE_ACTIONS:
            return f"Look at {PHASE_ACTIONS[kind]}."
        if kind == "learn":
            return f"Look at learning a spell: {spell_title(words[1])}."
        if is_learning(move):
            return f"Look at your spell Transmutation (to learn {spell_title(words[1])})."
        return f"Look at your spell {spell_title(kind.split('/')[0])}."
    if kind == "pass":
        return "Consider stopping here (pass)."
    tokens = [w for w in words[1:] if len(w) == 2 and w[0] in COLORS and w[1] in RUNES]
    if tokens:
        color = COLOR_NAMES[COLORS.index(tokens[0][0])]
        where = {"take": "on the Altar", "store": "in your pool", "discard": "in your pool",
                 "swap": "on the Altar"}.get(kind, "")
        return f"This step is a {decision} choice: look at the {color} tokens {where}.".replace("  ", " ").replace(" .", ".")
    return f"This step is a {decision} choice: look at the options of {kind}."


@dataclass
class SpellBookHinter(Hinter):
    """SpellBook's graduated hints: 1 a nudge (where to look), 2 the reason (what the best move makes
    possible, gives up and leaves the next player, without naming it), 3 the move, with the top 3 and
    every figure labelled."""

    def adapter(self):
        """SpellBook's search adapter."""
        from engine_c.spellbook.game import SPELLBOOK

        return SPELLBOOK

    def hint(self, state: State, level: int | None) -> str:
        from engine_c.spellbook.game import final_score_spread
        from engine_c.spellbook.reasons import reasons, threats, veiled
        from search.coach import hint_family
        from search.hints import top_hints

        g = self.grown(state)
        res = g.result
        level = min(self.level + 1, 3) if level is None else level
        self.level = max(self.level, level)
        hints = top_hints(res, 3, spread_floor=final_score_spread(state), family=hint_family(self.adapter(), state))
        best = hints[0]
        equal = ("  Several moves are about equal here: the search cannot tell them apart."
                 if best.about_equal else "")
        if level == 1:
            return "Hint 1: " + hint_focus(state, best.move) + equal + "  (`hint` again: why)"
        why = reasons(state, best.move)
        if level == 2:
            lines = ["Hint 2: why the best move is good (`hint` again: the move):"]
            lines += _reason_lines(veiled(why)) or ["  - it keeps your options open (no immediate gain or cost)"]
            others = [r for h in hints[1:] for r in veiled(reasons(state, h.move)) if r.aspect == "gives_up"]
            if others:
                lines.append("What the other candidates would give up:")
                lines += [f"  - {r.text}" for r in dict.fromkeys(others)]
            danger = threats(state)
            if danger:
                lines.append("What the others threaten:")
                lines += [f"  - {r.text}" for r in danger]
            if equal:
                lines.append(equal.strip())
            return "\n".join(lines)
        listed = ordered_moves(state)
        number = f" (move {listed.index(best.move) + 1})" if best.move in listed else ""
        lines = [f"Hint 3: play {words(best.move)}{number}"
                 + ("  (about equal to other moves: the search can't tell these apart)" if best.about_equal else ""),
                 f"  your win probability after it: {best.win_probability:.0%}",
                 f"  your final score, estimated by simulated play: {best.expected_score:.1f} points "
                 f"(games end within ± {best.score_spread:.1f} of it about two times in three: "
                 f"one standard deviation)"]
        lines += _reason_lines(why)
        # what a runner-up costs, e.g. a store that breaks tonight's learning
        lines += ranked_lines(g, hints, lambda move: [r.text for r in reasons(state, move) if r.aspect == "gives_up"],
                              label=words)
        return "\n".join(lines)


ASPECT_ORDER = ("enables", "gains", "gives_up", "leaves")   # what it makes possible first, the Altar last


def _reason_lines(why) -> list[str]:
    return [f"  - {r.text}" for aspect in ASPECT_ORDER for r in why if r.aspect == aspect]


# ----------------------------------------------------------------------------------------------
# Why a move is not possible now
# ----------------------------------------------------------------------------------------------
VERB_PHASE = {"take": "morning", "draw": "morning", "store": "midday", "learn": "evening",
              "transmutation": "evening"}
VERB_TEXT = {"take": "you take from the Altar", "draw": "you draw from the Pouch", "store": "you store",
             "learn": "you learn", "transmutation": "you learn"}


def action_phase(word: str) -> tuple[str, str] | None:
    """(phase, what it is) of a move's first word: a verb (take, store, learn...) or a spell's action."""
    from engine_c.spellbook.explain import _PHASE_OF_KIND, _SPELL_OF_KIND

    word = word.lower()
    if word in VERB_PHASE:
        return VERB_PHASE[word], VERB_TEXT[word]
    spell = find_spell(word)
    if spell is None:
        return None
    for kind, name in _SPELL_OF_KIND.items():
        if name == spell and kind in _PHASE_OF_KIND:
            return _PHASE_OF_KIND[kind], f"{spell_title(spell)} acts"
    return None


def not_now(state: State, line: str) -> str | None:
    """Why a move typed at the wrong time cannot be played now ("learn Sacrifice" in the Morning: you learn
    in the Evening), or None when the phase is not the reason."""
    words = line.split()
    found = action_phase(words[0]) if words else None
    if found is None or state.current_player < 0:
        return None
    phase, what = found
    now = state.decision
    if now == phase:
        return None
    if now in ("morning", "midday", "evening"):
        return (f"Not now: {what} in the {phase.capitalize()}; it is your {now.capitalize()}. "
                f"`moves` lists what you can do now.")
    return f"Not now: first finish this {now} step; `moves` lists its choices."


# ----------------------------------------------------------------------------------------------
# The terminal
# ----------------------------------------------------------------------------------------------
HELP = """Type a move's number or its text (e.g. `take Rc`, `draw`, `store Gt`, `pass`). Commands:
  hint [1|2|3]  1 where to look, 2 why, 3 the move    undo  take back your last move (practice games)
  learn SPELL [LEVEL]  the ways to learn SPELL       help SPELL  what SPELL does at each level
  save FILE     save the game      load FILE  continue a saved game
  board         show the board     moves [TEXT]  list (matching) legal moves
  resign        end the game here (it can still be reviewed and saved)
  help          this text          quit  leave the game"""


COMMANDS = ("hint", "undo", "learn", "help", "save", "load", "board", "moves", "resign", "quit")


def completions(state: State, typed: str) -> list[str]:
    """What the line editor offers for `typed`: the legal moves of the moment and the commands that
    start with it."""
    typed = typed.lstrip()
    moves = [str(m) for m in state.legal_moves()] if state.current_player >= 0 else []
    return [t for t in dict.fromkeys(moves + list(COMMANDS)) if t.startswith(typed) and t != typed]


class SpellBookPlayClient(PlayClient):
    """clients/play.py's terminal with SpellBook's board, numbered moves, learning lists and hints."""

    def make_hinter(self, iterations: int, seed: int):
        return SpellBookHinter(iterations, seed)

    def completions(self, typed: str) -> list[str]:
        """What Tab offers for `typed`."""
        return completions(self.sess.state, typed)

    def intro(self) -> str:
        sess = self.sess
        return (f"SpellBook: {sess.players} players, spells {', '.join(map(spell_title, sess.spells))}. "
                f"Type `help` for commands, `help SPELL` for a spell.")

    def final_text(self) -> str:
        return render_board(self.sess) + "\n" + render_final(self.sess)

    def save_name(self) -> str:
        return f"spellbook-game-{self.sess.seed}.json"

    def show(self) -> None:
        self.say(render_board(self.sess))
        self.say("Your moves:")
        self.say(render_moves(ordered_moves(self.sess.state)))

    @staticmethod
    def _learn_group(line: str, moves: list[Move]) -> str | None:
        """The spell of `learn SPELL` (or `learn SPELL LEVEL`) when that is not a whole move: list its payments."""
        words = line.split()
        if len(words) not in (2, 3) or words[0].lower() not in ("learn", "transmutation"):
            return None
        spell = find_spell(words[1])
        if spell is None or (len(words) == 3 and not words[2].isdigit()):
            return None
        if any(is_learning(m) and learn_key(m)[0] == spell for m in moves):
            return spell + (f" {words[2]}" if len(words) == 3 else "")
        return None

    def handle(self, line: str) -> bool | str:
        """True when a move was played (or the game was replaced); 'quit'; False to read again."""
        sess, st = self.sess, self.sess.state
        cmd, _, rest = line.partition(" ")
        cmd, rest = cmd.lower(), rest.strip()
        if cmd in ("quit", "exit"):
            return "quit"
        if cmd in ("help", "?"):
            if not rest:
                self.say(HELP)
                return False
            spell = find_spell(rest)
            if spell is None:
                self.say(f"No spell is called {rest!r}; the spells in this game: {', '.join(map(spell_title, sess.spells))}")
                return False
            self.say(describe(spell) + ("" if spell in sess.spells else "\n  (not in play in this game)"))
            return False
        if cmd == "moves":
            self.say(render_moves(ordered_moves(st), rest or None, limit=None))
            return False
        common = self.common_command(cmd, rest)
        if common is not None:
            return common
        moves = ordered_moves(st)
        group = self._learn_group(line, moves)
        if group:
            self.say(render_moves(moves, limit=None, expand=group))
            return False
        if line.isdigit():
            k = int(line)
            if not 1 <= k <= len(moves):
                self.say(f"There is no move {k}: pick 1 to {len(moves)}.")
                return False
            move = moves[k - 1]
        else:
            try:
                move = st.parse_move(line)
            except NotationError as e:
                self.say(not_now(st, line) or
                         f"Not a move: {e}. Type `help` for the commands, `moves` for the legal moves.")
                return False
            except IllegalMoveError as e:
                self.say(f"Illegal: {e}")
                return False
        sess.play_human(move)
        self.say(f"  {seat_label(sess, sess.moves[-1][0])}: {words(move)}")
        return True


# ----------------------------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------------------------
def run(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    """`play` for SpellBook (clients/play.py routes here): local, or in a server session (--server)."""
    if args.server:     # the server runs the bots and the Pouch; without --seed it draws a secret seed
        from clients.client import SpellBookClient
        from clients.remote_play import RemoteGameSession

        return run_on_server(args, inp, out, SpellBookClient, SpellBookPlayClient, lambda service: RemoteGameSession
                             .create(service, args.bots, args.seat, args.seed, args.spells))
    return run_local(args, inp, out, GameSession, SpellBookPlayClient,
                     lambda seed: GameSession.new(args.bots, args.seat, seed, args.spells, args.practice))


def demo_game(players: int = 2, spells: str = "set1", seed: int = 0, out=None) -> State:
    """Plays a seeded game between uniformly random bots, printing each move, draw and the result."""
    out = out or sys.stdout
    state = State.new(players=players, spells=spells, seed=seed)
    rng = random.Random(seed)
    print(f"SpellBook demo: {players} players, spells {', '.join(state.spells)}, seed {seed}", file=out)
    while not state.is_terminal():
        seat, phase, day = state.current_player, state.phase, state.day
        move = rng.choice(state.legal_moves())
        draws = state.play(move)
        drawn = f"  (draws: {' '.join(str(d)[6:] for d in draws)})" if draws else ""
        print(f"day {day + 1:3d} seat {seat} {phase:8s} {move}{drawn}", file=out)
    for seat, score in enumerate(state.scores()):
        spells = ", ".join(f"{k} {v}" for k, v in score.spells.items() if v)
        bonuses = "".join(f"; {name} bonus {getattr(score, name.lower())}" for name in ("Feast", "Knowledge", "Communion")
                          if name in state.spells)
        print(f"seat {seat}: {score.total} points (spells: {spells or 'none'}; familiar {score.familiar}{bonuses})",
              file=out)
    winners = state.winners()
    print(f"winner{'s' if len(winners) > 1 else ''}: {' and '.join(f'seat {w}' for w in winners)}", file=out)
    return state


def demo(args: argparse.Namespace, out=None) -> State:
    """`spellbook-ai demo` (--players, --spells, --seed)."""
    return demo_game(args.players, args.spells, args.seed, out)
