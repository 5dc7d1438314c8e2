"""`spellbook-ai play --game spellbooktcg`: the Spellbook TCG against a bot in the terminal.

    spellbook-ai play --game spellbooktcg --bots ismcts:level=4 --seat 0
    spellbook-ai play --game spellbooktcg --cards my_cards.json --decks my_decks.json        # your own cards

You see what your seat may see (TI-1..TI-4): your hand (each card with its cost and what it does) and your
mana pool; the other wizard's hand and mana pool as counts; both spellbooks and graveyards as sizes (with the
graveyard cards every seat knows), the summons with their damage, health and tokens, and the spell queue.
Each decision lists the legal moves, numbered and in words: type the number, or the move's notation (`mana
mend`, `attack w0`, `power arcane_bolt`, `target w1`, `pass`, ...). Tab completes the moves and commands.

    hint [1|2|3]   1: where to look; 2: the moves the search weighs and what decides it; 3: the search's move
                   with why (measured from the engine) and the top 3
    hold           what the other wizard probably holds: each card's chance, from the cards you cannot place
    card NAME      what a card does;   cards: every card of this game's decks
    save FILE      write the game record (docs/records.md);   load FILE: continue a saved game
    board, moves, resign, help, quit       (undo with --practice)

The setup: `--decks` (the starter decks frost_ward v fire_shock by default; a deck file, FILE:ID, one or two
decks) and `--cards` (a card file of your own, docs/tcg-cards.md); a file that breaks the rules is refused
naming the file, the card and the field. The shuffle's seed is shown when the game ends. The game's
sentences are engine_c/spellbooktcg/text.py's; the loop, line editor, review and save are clients/play.py's.
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from typing import Callable, TextIO

from clients.play import (HUMAN, Event, Hinter, PlayClient, SeatedSession, continued, ranked_lines, run_local,
                          write_record)
from engine_c import records
from engine_c.spellbooktcg import reasons as R
from engine_c.spellbooktcg import record as TR
from engine_c.spellbooktcg import text as T
from engine_c.spellbooktcg.state import Move, State

GAME = "spellbooktcg"
COMMANDS = ("hint", "hold", "card", "cards", "help", "save", "load", "board", "moves", "undo", "resign", "quit")


# ----------------------------------------------------------------------------------------------
# The game (no I/O): state, seats, record
# ----------------------------------------------------------------------------------------------
@dataclass
class TCGSession(SeatedSession):
    """One terminal game: the state, who sits where ("human" or a bot spec), the setup (card file and
    decks) and every decision and draw in order (the record's events)."""

    seed: int
    seats: list[str]
    setup: TR.Setup = field(default_factory=lambda: TR.parse_setup())
    state: State = field(init=False)
    events: list[dict] = field(default_factory=list)
    seed_fixed: bool = False
    seed_is_deal: bool = True
    practice: bool = False
    resigned: int | None = None
    players: int = 2

    def __post_init__(self) -> None:
        from clients.bots import bot_seed, make_bot

        if len(self.seats) != 2:
            raise ValueError(f"the Spellbook TCG seats 2 players, got {len(self.seats)} seats")
        self.bots = {i: make_bot(spec, seed=bot_seed(self.seed, f"{spec}@{i}"), players=2, game=GAME)
                     for i, spec in enumerate(self.seats) if spec != HUMAN}
        self.state = TR.new(2, self.setup, self.seed)
        self.events = records.setup_events(2, (), self.seed, game=GAME, setup=self.setup)

    @classmethod
    def new(cls, bots: list[str], human_seat: int = 0, seed: int = 0, decks: str = "", cards: str = "",
            practice: bool = False) -> "TCGSession":
        if len(bots) != 1:
            raise ValueError(f"play the Spellbook TCG against 1 bot (2 players), got {len(bots)}")
        if human_seat not in (0, 1):
            raise ValueError(f"--seat must be 0 or 1, got {human_seat}")
        seats = list(bots)
        seats.insert(human_seat, HUMAN)
        return cls(seed=seed, seats=seats, setup=TR.parse_setup(decks, cards), practice=practice)

    @property
    def names(self) -> list[str]:
        return [f"you (seat {p})" if self.seats[p] == HUMAN else f"seat {p}" for p in range(2)]

    def advance(self, on_event: Callable[[Event], None] | None = None) -> None:
        """Bot decisions (and the draws after each) until a human decides or the game ends; each reported
        as the human's seat saw it (text.describe_changes: the other seat's cards never)."""
        st = self.state
        while not st.is_terminal():
            self._resolve_chance()
            if st.is_terminal():
                break
            seat = st.current_player
            if self.seats[seat] == HUMAN:
                return
            move, _info = self.bots[seat].choose(st)
            lines = self._play(move)
            if on_event:
                on_event(Event(seat, lines[0].split(": ", 1)[-1]))
                for line in lines[1:]:
                    on_event(Event(-1, line))

    def _resolve_chance(self) -> list[dict]:
        st, out = self.state, []
        while st.is_chance():
            outcome = st.sample_chance()
            out.append(records.chance_event(st, outcome))
            st.apply(outcome)
        self.events += out
        return out

    def _play(self, move: Move) -> list[str]:
        before, seat = self.state.clone(), self.state.current_player
        self.state.apply(move)
        self.events.append(records.event("move", seat, move))
        draws = self._resolve_chance()
        return T.describe_changes(before, move, self.state, self.names, draws, viewer=self.human)

    def play_human(self, move: Move) -> list[str]:
        return self._play(move)

    def undo(self) -> None:
        """Back to the human's previous decision (--practice): the record replayed up to it."""
        if not self.practice:
            raise ValueError("undo is for practice games (--practice)")
        human = self.human
        last = max((i for i, e in enumerate(self.events) if e["kind"] == "move" and e["seat"] == human), default=None)
        if last is None:
            raise ValueError("you have made no decision yet")
        self.events = self.events[:last]
        rec = records.build(2, (), [records.seat_from_spec(s) for s in self.seats], self.events, None,
                            seed=self.seed, seed_shown=True, game=GAME, setup=self.setup)
        self.state, _ = records.replay(rec)

    # ------------------------------------------------------------------ records
    def to_record(self) -> dict:
        """The game record ("game": "spellbooktcg", its decks and card file: D174). The seed is in it once
        the game is over, or if the player chose it (--seed): a live game's seed tells every draw to come."""
        events = self.events + ([records.resign_event(self.resigned)] if self.resigned is not None else [])
        return records.build(2, (), [records.seat_from_spec(s) for s in self.seats], events, self.state,
                             seed=self.seed if self.seed_is_deal else None, seed_shown=self.seed_fixed,
                             game=GAME, setup=self.setup)

    def save(self, path: str) -> None:
        write_record(path, self.to_record())

    @classmethod
    def from_record(cls, rec: dict) -> "TCGSession":
        """Continues a game from its record; without its seed, the draws to come are new ones."""
        c = continued(rec, GAME)
        sess = cls(seed=c.seed, seats=c.seats, setup=TR.resolve(c.record["decks"]))
        sess.seed_fixed = sess.seed_is_deal = c.seed_fixed
        sess.state, sess.events = c.state, [dict(e) for e in c.record["events"]]
        return sess


# ----------------------------------------------------------------------------------------------
# Hints
# ----------------------------------------------------------------------------------------------
@dataclass
class TCGHinter(Hinter):
    """The graduated hints (search/coach.py's hint search, as the other terminals'): 1 where to look, 2 the
    moves the search weighs most (in no order), 3 the search's move with the top 3. The search determinizes
    for the seat to move (TI-5): a hint never reads the other seat's hand."""

    names: list[str] = field(default_factory=list)

    def adapter(self):
        from engine_c.registry import get_game

        return get_game(GAME).adapter

    def hint(self, state: State, level: int | None) -> str:
        from search.coach import hint_family
        from search.hints import top_hints

        g = self.grown(state)
        level = min(self.level + 1, 3) if level is None else level
        self.level = max(self.level, level)
        seat = state.current_player
        hints = top_hints(g.result, 3, family=hint_family(self.adapter(), state))
        words = lambda m: T.move_text(state, m, seat, self.names or None)          # noqa: E731
        if level == 1:
            return "Hint 1: " + T.hint_focus(state, hints[0].move) + "  (`hint` again: the moves it weighs)"
        best = hints[0]
        versus = hints[1].move if len(hints) > 1 else None
        why = R.reasons(state, best.move, versus=versus)
        if level == 2:
            shown = sorted(hints, key=lambda h: str(h.move))
            veiled = R.veiled(why, best.move)
            return ("Hint 2 (`hint` again: the move): the search weighs these most, in no order:\n"
                    + "\n".join(f"  - {words(h.move)}" for h in shown)
                    + ("\n  What decides it: " + "; ".join(r.text for r in veiled) if veiled else ""))
        lines = [f"Hint 3: {words(best.move)}  [{best.move}]"
                 + ("  (about equal to other moves: the search can't tell these apart)" if best.about_equal else ""),
                 f"  your chance to win after it: {best.win_probability:.0%}; your spellbook at the end, "
                 f"estimated by simulated play: {best.expected_score:.1f}"]
        lines += [f"  why: {r.text}" for r in why]
        return "\n".join(lines + ranked_lines(g, hints, label=words))


# ----------------------------------------------------------------------------------------------
# The terminal
# ----------------------------------------------------------------------------------------------
HELP = """Type a move's number (or its notation: `mana mend`, `attack w0`, `power arcane_bolt`, `target w1`, `pass`).
  hint [1|2|3]  1 where to look, 2 the moves it weighs, 3 the move
  card NAME     what a card does          cards   every card of this game's decks
  hold          what they probably hold (from the cards you cannot place)
  board         show the table            moves   list the legal moves
  save FILE     save the game             load FILE  continue one
  undo          back to your last decision (--practice)
  resign        end the game here (it can be reviewed and saved)
  help          this text                 quit    leave the game"""


class TCGPlayClient(PlayClient):
    """clients/play.py's terminal with this game's table, commands and hints."""

    sess: TCGSession

    def make_hinter(self, iterations: int, seed: int):
        return TCGHinter(iterations, seed, names=self.sess.names)

    def completions(self, typed: str) -> list[str]:
        typed = typed.lstrip()
        st = self.sess.state
        moves = [str(m) for m in st.legal_moves()] if st.current_player >= 0 else []
        return [t for t in dict.fromkeys(moves + list(COMMANDS)) if t.startswith(typed) and t != typed]

    def intro(self) -> str:
        s = self.sess
        return (f"{T.game_line(s.state)}; decks {s.setup.names()}; you are seat {s.human}"
                f"{' (you play first)' if s.human == 0 else ''}. A wizard's health is its spellbook: empty it "
                f"to win. Type `help` for commands, `hint` for a hint.")

    def final_text(self) -> str:
        sess = self.sess
        lines = [T.render_view(sess.state, sess.human, sess.names), T.describe_final(sess.state, sess.names)]
        if sess.seed_is_deal:
            lines.append(f"(The shuffle was seed {sess.seed}: `spellbook-ai play --game spellbooktcg --seed "
                         f"{sess.seed}` plays it again.)")
        return "\n".join(lines)

    def save_name(self) -> str:
        return f"spellbooktcg-game-{self.sess.seed}.json"

    def numbered(self) -> list[str]:
        st, sess = self.sess.state, self.sess
        return [f"  {i:2d}. {T.move_text(st, m, st.current_player, sess.names)}   [{m}]"
                for i, m in enumerate(st.legal_moves(), 1)]

    def show(self) -> None:
        sess = self.sess
        self.say(T.render_view(sess.state, sess.human, sess.names))
        self.say("Your moves:")
        for line in self.numbered():
            self.say(line)

    def handle(self, line: str) -> bool | str:
        sess, st = self.sess, self.sess.state
        cmd, _, rest = line.partition(" ")
        cmd, rest = cmd.lower(), rest.strip()
        if cmd in ("quit", "exit"):
            return "quit"
        if cmd in ("help", "?"):
            self.say(HELP)
            return False
        if cmd == "hold":
            from engine_c.spellbooktcg.insight import hand_belief, hold_lines

            self.say("\n".join(hold_lines(hand_belief(st, sess.human))))
            return False
        if cmd == "moves":
            for text in self.numbered():
                self.say(text)
            return False
        if cmd == "cards":
            cs = st.cardset
            for cid in st.card_ids:
                self.say(f"  {cid}: {T.card_text(cs, cid)}")
            return False
        if cmd == "card":
            self.say(self._card_help(rest))
            return False
        common = self.common_command(cmd, rest)
        if common is not None:
            return common
        move = self.typed_move(line)
        if move is None:
            return False
        for text in sess.play_human(move):
            self.say(f"    {text}")
        return True

    def _card_help(self, word: str) -> str:
        st = self.sess.state
        cs = st.cardset
        key = word.strip().lower().replace(" ", "_")
        for cid in st.card_ids:
            if key in (cid, cs.cards[cid].name.lower().replace(" ", "_")):
                return T.card_text(cs, cid)
        return f"No card {word!r} in this game; its cards: {', '.join(st.card_ids)}"


def run(args, inp: TextIO, out: TextIO) -> int:
    """`play --game spellbooktcg` (clients/play.py routes here): a local game; exit status 2 for bad input."""
    if getattr(args, "server", None):
        print("spellbook-ai play: the Spellbook TCG has no server service yet; leave out --server", file=sys.stderr)
        return 2
    return run_local(args, inp, out, TCGSession, TCGPlayClient,
                     lambda seed: TCGSession.new(args.bots, args.seat, seed, getattr(args, "decks", "") or "",
                                                 getattr(args, "cards", "") or "", getattr(args, "practice", False)))


def demo_spellbooktcg(seed: int = 0, decks: str = "", cards: str = "", out=None) -> State:
    """A seeded game between two uniformly random bots: every decision in words, every draw with its card
    (a demo sees both hands), damage, summons, ticks and the winner."""
    out = out or sys.stdout
    setup = TR.parse_setup(decks, cards)
    state = TR.new(2, setup, seed)
    rng = random.Random(seed)
    names = ["seat 0", "seat 1"]
    print(f"Spellbook TCG demo: decks {setup.names()}, seed {seed}", file=out)
    for p in range(2):
        print(f"  seat {p}'s hand: {', '.join(state.hand(p))}; mana pool: {', '.join(state.mana(p))}", file=out)
    while not state.is_terminal():
        before = state.clone()
        move = rng.choice(state.legal_moves())
        state.apply(move)
        draws = []
        while state.is_chance():
            outcome = state.sample_chance()
            draws.append(records.chance_event(state, outcome))
            state.apply(outcome)
        lines = T.describe_changes(before, move, state, names, draws, viewer=None, reveal=True)
        print(f"  t{before.turn} {lines[0]}  [{move}]", file=out)
        for line in lines[1:]:
            print(f"      {line}", file=out)
    w = state.winners()
    print(("a draw" if len(w) == 2 else f"winner: seat {w[0]}") + f" (spellbooks {','.join(map(str, state.scores()))}, "
          f"turn {state.turn})", file=out)
    return state


def demo(args: argparse.Namespace, out=None):
    """`spellbook-ai demo --game spellbooktcg` (--seed, --decks, --cards; --players must be 2)."""
    if getattr(args, "players", 2) != 2:
        raise ValueError(f"players must be 2 for the Spellbook TCG, got {args.players}")
    return demo_spellbooktcg(args.seed, getattr(args, "decks", "") or "", getattr(args, "cards", "") or "", out)
