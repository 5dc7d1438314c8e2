"""`spellbook-ai play --game abracadawhat`: Abracada…What? against 1-4 bots in the terminal.

    spellbook-ai play --game abracadawhat --bots counting ismcts:level=5 --seat 0

You see what your seat may see (XI1-XI4): every other hand's faces, never your own (only its size), the
pile's and the secret stones' counts, life, points, the stones cast and removed, this round's
announcements and the earlier rounds' results. At your turn, type `cast N` (or just `N`) or `end`; Tab
completes the legal moves and the commands. Commands:

    hold           what do you probably hold? each spell's chance of being in your hand (XC6)
    chances        each legal announcement's chance of success, what it does and what a failure costs
    hint [1|2|3]   1: what you probably hold and where to look; 2: every announcement's chance and risk;
                   3: the search's move and the top 3 (`hint` again goes one step further)
    help SPELL     what spell N does;  save FILE: write the game record (docs/records.md);  load FILE:
                   continue a saved game (also `play --load FILE`, which reads the game from the record)
    board, moves, help, quit

The deal's seed is shown when the game ends (it fixes every hand, so it stays hidden until then). The
game-specific sentences come from engine_c/abracadawhat/text.py; the terminal loop, line editor, end-of-game
review and save are clients/play.py's (D64).
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from typing import Callable, TextIO

from engine_c import records
from engine_c.abracadawhat import text as T
from engine_c.abracadawhat.state import SPELLS, IllegalMoveError, Move, NotationError, State
from clients.play import (HUMAN, Event, Hinter, PlayClient, SeatedSession, continued, ranked_lines, run_local,
                          run_on_server, seat_label, write_record)

GAME = "abracadawhat"
COMMANDS = ("hold", "chances", "hint", "help", "save", "load", "board", "moves", "resign", "quit")
MAX_BOTS = 4


# ----------------------------------------------------------------------------------------------
# The game (no I/O): state, seats, record
# ----------------------------------------------------------------------------------------------
@dataclass
class AbracadaSession(SeatedSession):
    """One terminal game: the state, who sits where ("human" or a bot spec), and every decision and
    chance event in order (the record)."""

    seed: int
    players: int
    seats: list[str]
    variants: tuple[str, ...] = ()
    state: State = field(init=False)
    events: list[dict] = field(default_factory=list)     # records' events: deal/refill/secret/roll/move
    seed_fixed: bool = False                             # the player chose the seed: a saved record shows it
    seed_is_deal: bool = True
    practice: bool = False
    resigned: int | None = None                          # the seat that resigned (the game ended there, D130)

    def __post_init__(self) -> None:
        from clients.bots import bot_seed, make_bot

        if len(self.seats) != self.players:
            raise ValueError(f"{self.players} players but {len(self.seats)} seats")
        self.bots = {i: make_bot(spec, seed=bot_seed(self.seed, f"{spec}@{i}"), players=self.players, game=GAME)
                     for i, spec in enumerate(self.seats) if spec != HUMAN}
        self.state = State.new(players=self.players, seed=self.seed, variants=self.variants)
        self.variants = self.state.variants
        self.events = records.setup_events(self.players, (), self.seed, game=GAME, variants=self.variants)

    @classmethod
    def new(cls, bots: list[str], human_seat: int = 0, seed: int = 0, variants: str = "") -> "AbracadaSession":
        if not 1 <= len(bots) <= MAX_BOTS:
            raise ValueError(f"play Abracada…What? against 1 to {MAX_BOTS} bots (2-5 players), got {len(bots)}")
        if not 0 <= human_seat <= len(bots):
            raise ValueError(f"--seat must be 0 to {len(bots)}, got {human_seat}")
        seats = list(bots)
        seats.insert(human_seat, HUMAN)
        return cls(seed=seed, players=len(seats), seats=seats, variants=tuple(_variant_names(variants)))

    @property
    def names(self) -> list[str]:
        return [seat_label(self, p) for p in range(self.players)]

    def advance(self, on_event: Callable[[Event], None] | None = None) -> None:
        """Bot decisions (and the chance after each) until a human decides or the game ends. Each
        decision is reported with what the table saw (text.describe_changes: never a stone drawn)."""
        st = self.state
        while not st.is_terminal():
            self._resolve_chance()
            if st.is_terminal():
                break
            seat = st.current_player
            if self.seats[seat] == HUMAN:       # never a forced move: 8 casts, or `end` and casts of last..8
                return
            move, _info = self.bots[seat].choose(st)
            lines = self._play(move)
            if on_event:
                on_event(Event(seat, str(move)))
                for line in lines:
                    on_event(Event(-1, line))

    def _resolve_chance(self) -> None:
        st = self.state
        while st.is_chance():
            outcome = st.sample_chance()
            self.events.append(records.chance_event(st, outcome))
            st.apply(outcome)

    def _play(self, move: Move) -> list[str]:
        """Plays a decision and the chance it sets off; returns what the table saw."""
        before, seat = self.state.clone(), self.state.current_player
        self.state.apply(move)
        self.events.append(records.event("move", seat, move))
        done = len(self.events)
        self._resolve_chance()
        rolls = [int(e["move"].split()[1]) for e in self.events[done:] if e["kind"] == "roll"]
        return T.describe_changes(before, move, self.state, self.names, rolls)

    def play_human(self, move: Move) -> list[str]:
        return self._play(move)

    def undo(self) -> None:
        raise ValueError("Abracada…What? has no undo: every announcement is final")

    # ------------------------------------------------------------------ records
    def to_record(self) -> dict:
        """The game record (engine_c.records, docs/records.md, "game": "abracadawhat"). The seed is in it
        once the game is over, or if the player chose it (--seed): a random deal's seed reveals every hand."""
        events = self.events + ([records.resign_event(self.resigned)] if self.resigned is not None else [])
        return records.build(self.players, (), [records.seat_from_spec(s) for s in self.seats], events,
                             self.state, seed=self.seed if self.seed_is_deal else None,
                             seed_shown=self.seed_fixed, game=GAME, variants=self.variants)

    def save(self, path: str) -> None:
        write_record(path, self.to_record())

    @classmethod
    def from_record(cls, rec: dict) -> "AbracadaSession":
        """Continues a game from its record (a terminal save, a tournament game, a server export). The
        record replays with its seed's generator, so the game goes on as it would have; a record without
        its seed continues with new, unknown draws."""
        c = continued(rec, GAME)
        sess = cls(seed=c.seed, players=c.record["players"], seats=c.seats, variants=tuple(c.record.get("variants", ())))
        sess.seed_fixed = sess.seed_is_deal = c.seed_fixed
        sess.state, sess.events = c.state, [dict(e) for e in c.record["events"]]
        return sess


def _variant_names(variants) -> list[str]:
    from engine_c.abracadawhat.state import variant_bits

    variant_bits(variants)                    # ValueError names an unknown variant
    if isinstance(variants, str):
        variants = [v for v in variants.replace(" ", ",").split(",") if v and v != "-"]
    return [v.strip().lower() for v in variants]


# ----------------------------------------------------------------------------------------------
# Hints
# ----------------------------------------------------------------------------------------------
@dataclass
class AbracadaHinter(Hinter):
    """The graduated hints: 1 what you probably hold and where to look, 2 each announcement's chance
    and risk, 3 the search's move with the top 3. The search determinizes for the seat to move (XC6),
    so a hint never uses the hand you cannot see."""

    names: list[str] = field(default_factory=list)

    def adapter(self):
        from engine_c.registry import get_game

        return get_game(GAME).adapter

    def hint(self, state: State, level: int | None) -> str:
        from search.coach import hint_family
        from search.hints import top_hints

        g = self.grown(state)                  # first: a new position starts the ladder again
        level = min(self.level + 1, 3) if level is None else level
        self.level = max(self.level, level)
        seat = state.current_player
        hints = top_hints(g.result, 3, family=hint_family(self.adapter(), state))
        if level == 1:
            return ("Hint 1: " + T.hint_focus(state, hints[0].move) + "  (`hint` again: each announcement's "
                    "chance)\n" + T.holding_text(state, seat))
        if level == 2:
            return "Hint 2 (`hint` again: the move):\n" + T.announcements_text(state, seat, self.names or None)
        best = hints[0]
        probs = T.hold_probabilities(state, seat)

        def chance(move) -> str:
            return "" if move.kind == "end" else f"its chance of success: {probs[move.value]:.0%}"

        lines = [f"Hint 3: play {best.move}" + ("  (about equal to other moves: the search can't tell these apart)" if best.about_equal else ""),
                 f"  {chance(best.move) or 'stop here'}; your chance to win the game after it: "
                 f"{best.win_probability:.0%}; your points at the end, estimated by simulated play: "
                 f"{best.expected_score:.1f}"]
        return "\n".join(lines + ranked_lines(g, hints, lambda move: [chance(move)] if chance(move) else []))


# ----------------------------------------------------------------------------------------------
# The terminal
# ----------------------------------------------------------------------------------------------
HELP = """Type `cast N` (or just N) to announce spell N, or `end` to stop after a success.
  hold          what you probably hold          chances  each announcement's chance and risk
  hint [1|2|3]  1 what you hold, 2 the risks, 3 the move
  help SPELL    what spell N does (1-8)        save FILE  save the game    load FILE  continue one
  board         show the table                 moves  list the legal moves
  resign        end the game here (it can be reviewed and saved)
  help          this text                      quit  leave the game"""


class AbracadaPlayClient(PlayClient):
    """clients/play.py's terminal with this game's table, commands and hints."""

    sess: AbracadaSession

    def make_hinter(self, iterations: int, seed: int):
        return AbracadaHinter(iterations, seed, names=self.sess.names)

    def completions(self, typed: str) -> list[str]:
        typed = typed.lstrip()
        st = self.sess.state
        moves = [str(m) for m in st.legal_moves()] if st.current_player >= 0 else []
        return [t for t in dict.fromkeys(moves + list(COMMANDS)) if t.startswith(typed) and t != typed]

    def intro(self) -> str:
        return (f"{T.game_line(self.sess.state)}; you are seat {self.sess.human}. You see every hand but your "
                f"own. Type `help` for commands, `hold` for what you probably hold.")

    def final_text(self) -> str:
        sess = self.sess
        lines = [T.render_view(sess.state, sess.human, sess.names), T.describe_final(sess.state, sess.names)]
        if sess.seed_is_deal:
            lines.append(f"(The deal was seed {sess.seed}: `spellbook-ai play --game abracadawhat --seed {sess.seed}` "
                         f"plays it again.)")
        return "\n".join(lines)

    def save_name(self) -> str:
        return f"abracadawhat-game-{self.sess.seed}.json"

    def show(self) -> None:
        sess = self.sess
        self.say(T.render_view(sess.state, sess.human, sess.names))
        self.say("Your moves: " + ", ".join(map(str, sess.state.legal_moves())))

    def handle(self, line: str) -> bool | str:
        """True when a move was played; 'quit'; False to read again."""
        sess, st = self.sess, self.sess.state
        cmd, _, rest = line.partition(" ")
        cmd, rest = cmd.lower(), rest.strip()
        seat = st.current_player
        if cmd in ("quit", "exit"):
            return "quit"
        if cmd in ("help", "?"):
            self.say(HELP if not rest else _spell_help(rest))
            return False
        if cmd == "moves":
            self.say("  " + ", ".join(map(str, st.legal_moves())))
            return False
        if cmd == "hold":
            self.say(T.holding_text(st, seat))
            return False
        if cmd == "chances":
            self.say(T.announcements_text(st, seat, sess.names))
            return False
        common = self.common_command(cmd, rest)
        if common is not None:
            return common
        move = self._parse(line)
        if move is None:
            return False
        self.say(f"  {seat_label(sess, seat)}: {move}")
        for text in sess.play_human(move):
            self.say(f"    {text}")
        return True

    def _parse(self, line: str) -> Move | None:
        """The move a line names (`cast 5`, `5`, `end`); None after saying why it cannot be played."""
        try:
            return self.sess.state.parse_move(line)
        except IllegalMoveError as e:
            self.say(f"Illegal: {e}")
        except NotationError as e:
            self.say(f"Not a move: {e}. Type `help` for the commands, `moves` for the legal moves.")
        return None


def _spell_help(word: str) -> str:
    key = word.strip().lower()
    for k, name in enumerate(SPELLS, 1):
        if key in (str(k), name.lower(), name.lower().replace(" ", "")):
            return f"{T.spell_name(k)} ({k} stones): {T.EFFECTS[k]}. A failed announcement costs " + \
                ("the die roll in life." if k == 1 else "1 life.")      # XC8
    return f"No spell is called {word!r}: the spells are 1-8 ({', '.join(SPELLS)})."


def run(args, inp: TextIO, out: TextIO) -> int:
    """`play --game abracadawhat` (clients/play.py routes here): a local game; exit status 2 for bad input."""
    if args.server:     # AbracadaWhatService deals, rolls and plays the bots; this side sees its seat's view
        from clients.client import AbracadaWhatClient
        from clients.remote_play import RemoteAbracadaSession

        return run_on_server(args, inp, out, AbracadaWhatClient, AbracadaPlayClient, lambda service: RemoteAbracadaSession
                             .create(service, args.bots, args.seat, args.seed, getattr(args, "variants", "") or ""))
    return run_local(args, inp, out, AbracadaSession, AbracadaPlayClient,
                     lambda seed: AbracadaSession.new(args.bots, args.seat, seed, getattr(args, "variants", "") or ""))


def demo_abracadawhat(players: int = 3, seed: int = 0, variants: str = "", out=None):
    """A seeded Abracada…What? game between uniformly random bots: every announcement with its outcome and
    die roll, every round's result, the final points and the winner (XG1)."""
    out = out or sys.stdout
    state = State.new(players=players, seed=seed, variants=variants)
    rng = random.Random(seed)
    print(f"Abracada…What? demo: {players} players, variants {','.join(state.variants) or 'none'}, seed {seed}",
          file=out)
    rnd = 0
    while not state.is_terminal():
        if state.round != rnd:
            rnd = state.round
            hands = " | ".join("".join(map(str, state.hand(p))) for p in range(players))
            print(f"round {rnd}: seat {state.active_player} starts; hands {hands}", file=out)
        seat, move = state.current_player, rng.choice(state.legal_moves())
        finished = len(state.results())
        ok = move.kind == "cast" and move.value in state.hand(seat)     # the demo sees every hand
        rolls = [str(m) for m in state.play(move) if m.kind == "roll"]
        ended = len(state.results()) > finished
        life = state.results()[-1]["life"] if ended else state.life
        outcome = "" if move.kind == "end" else (" success" if ok else " fails") + \
            (f" ({rolls[0]})" if rolls else "")
        print(f"  seat {seat} {move}{outcome}; life {','.join(map(str, life))}", file=out)
        if ended:
            r = state.results()[-1]
            print(f"round {rnd} ends ({r['reason']}, seat {r['seat']}): scores {','.join(map(str, r['scores']))}; "
                  f"points {','.join(map(str, state.points))}", file=out)
    winners = state.winners()
    print(f"winner{'s' if len(winners) > 1 else ''}: {' and '.join(f'seat {w}' for w in winners)} "
          f"(points {','.join(map(str, state.points))})", file=out)
    return state


def demo(args: argparse.Namespace, out=None):
    """`spellbook-ai demo --game abracadawhat` (--players, --variants, --seed)."""
    return demo_abracadawhat(args.players, args.seed, args.variants, out)
