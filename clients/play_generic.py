"""`spellbook-ai play --game NAME` for a game without a terminal of its own: the game through its contract alone.

    spellbook-ai play --game tinygame --bots ismcts:level=3 --seat 1
    spellbook-ai demo --game tinygame --seed 4

clients/play.py routes here whenever the game's folder brings no `clients/play_NAME.py` (engine_c/contract.py),
so a new game is playable in the terminal the moment its engine folder is built. Everything it says comes
from the game's own parts: where a decision is (the text module's `where`), what the seat may see (its
`view`, engine_c.contract.seat_view: by default the seat's observation), each legal move numbered and in the
game's words (`move_words`), what the table saw of a move (`event_lines`; without them, the move in words
and the chance outcomes the seat may see, as the record module's `visible` says), the scores, and the
rules as the game tells a player (`player_help`). Moves are typed by number or by their text; the bots
are the search's (`--bots ismcts:level=N`, random, ...), and `hint [1|2|3]` is the same hint search as
every terminal's (1: the moves it weighs, 2: its move, 3: its ranked list). The loop, line editor,
undo (--practice), resign, review and save are clients/play.py's.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

from clients.play import (HUMAN, Event, Hinter, PlayClient, SeatedSession, continued, ranked_lines, run_local,
                          write_record)
from engine_c import records
from engine_c.contract import Game, event_lines, move_words, seat_view
from engine_c.registry import get_game

COMMANDS = ("hint", "rules", "help", "save", "load", "board", "moves", "undo", "resign", "quit")


def chance_rolls(chance: list[dict]) -> tuple[int, ...]:
    """The die rolls among a move's chance events, as event_lines takes them (the server's sessions read them
    the same way: a "roll" event's outcome is `roll N`)."""
    return tuple(int(e["move"].split()[1]) for e in chance if e["kind"] == "roll")


# ----------------------------------------------------------------------------------------------
# The game (no I/O): state, seats, record
# ----------------------------------------------------------------------------------------------
@dataclass
class GenericSession(SeatedSession):
    """One terminal game of any game: its state, who sits where ("human" or a bot spec), the setup (None:
    the game's default) and every event in order (the record's)."""

    game: Game
    seed: int
    seats: list[str]
    setup: Any = None
    practice: bool = False
    state: Any = field(init=False)
    events: list[dict] = field(default_factory=list)
    seed_fixed: bool = False
    seed_is_deal: bool = True
    resigned: int | None = None

    def __post_init__(self) -> None:
        from clients.bots import bot_seed, make_bot

        g = self.game
        if not g.min_players <= len(self.seats) <= g.max_players:
            raise ValueError(f"{g.title} seats {g.min_players} to {g.max_players} players, got {len(self.seats)} "
                             "(you and the --bots)")
        self.bots = {i: make_bot(spec, seed=bot_seed(self.seed, f"{spec}@{i}"), players=self.players, game=g.name)
                     for i, spec in enumerate(self.seats) if spec != HUMAN}
        self.state = records.new_game(g.name, self.players, self.setup, self.seed)
        self.events = records.setup_events(self.players, (), self.seed, game=g.name, setup=self.setup)
        self.lines = event_lines(g.text)
        self.words = move_words(g.text)

    @classmethod
    def new(cls, game: Game, bots: list[str], human_seat: int = 0, seed: int = 0, setup: Any = None,
            practice: bool = False) -> "GenericSession":
        if not 0 <= human_seat <= len(bots):
            raise ValueError(f"--seat must be 0 to {len(bots)} with {len(bots)} bot(s), got {human_seat}")
        seats = list(bots)
        seats.insert(human_seat, HUMAN)
        return cls(game=game, seed=seed, seats=seats, setup=setup, practice=practice)

    @property
    def players(self) -> int:
        return len(self.seats)

    def advance(self, on_event: Callable[[Event], None] | None = None) -> None:
        """Bot decisions (and the chance after each) until a human decides or the game ends; each reported
        as the human's seat may see it."""
        st = self.state
        while not st.is_terminal():
            self._resolve_chance()
            if st.is_terminal() or self.seats[st.current_player] == HUMAN:
                return
            seat = st.current_player
            move, _info = self.bots[seat].choose(st)
            for line in self._play(move):
                if on_event:
                    on_event(Event(-1, line))

    def play_human(self, move) -> list[str]:
        return self._play(move)

    def _resolve_chance(self) -> list[dict]:
        st, out = self.state, []
        while st.is_chance():
            outcome = st.sample_chance()
            out.append(records.chance_event(st, outcome))
            st.apply(outcome)
        self.events += out
        return out

    def _play(self, move) -> list[str]:
        """Plays `move` for the seat to move, then the chance it sets off: what the human's seat saw."""
        before, seat = self.state.clone(), self.state.current_player
        self.state.apply(move)
        decision = records.event("move", seat, move)
        self.events.append(decision)
        chance = self._resolve_chance()
        return self.report(before, move, decision, chance)

    def report(self, before, move, decision: dict, chance: list[dict]) -> list[str]:
        """A move as the human's seat saw it: the game's event lines; without them, the move in the game's
        words and each chance outcome the seat may see (one it may not, as the record module hides it)."""
        viewer = self.human
        lines = self.lines(before, move, self.state, chance_rolls(chance), viewer)
        if lines:
            return list(lines)
        rules = self.game.record
        who = "you" if decision["seat"] == viewer else f"seat {decision['seat']}"
        shown = records.visible_to(rules, decision, viewer)
        out = [f"{who}: {self.words(str(move)) if shown else 'a move you may not see'}"]
        for ev in chance:
            text = self.words(ev["move"]) if records.visible_to(rules, ev, viewer) else "(hidden from you)"
            out.append(f"  {ev['kind']}: {text}" + (f" (to seat {ev['to']})" if "to" in ev else ""))
        return out

    def undo(self) -> None:
        """Back to the human's previous decision (--practice): the record replayed up to it."""
        if not self.practice:
            raise ValueError("undo is for practice games (--practice)")
        last = max((i for i, e in enumerate(self.events) if e["kind"] == "move" and e["seat"] == self.human),
                   default=None)
        if last is None:
            raise ValueError("you have made no decision yet")
        self.events = self.events[:last]
        rec = records.build(self.players, (), [records.seat_from_spec(s) for s in self.seats], self.events, None,
                            seed=self.seed, seed_shown=True, game=self.game.name, setup=self.setup)
        self.state, _ = records.replay(rec)

    # ------------------------------------------------------------------ records
    def to_record(self) -> dict:
        """The game record (docs/records.md). The seed is in it once the game is over, or if the player chose
        it (--seed): a live game's seed tells every chance outcome to come."""
        events = self.events + ([records.resign_event(self.resigned)] if self.resigned is not None else [])
        return records.build(self.players, (), [records.seat_from_spec(s) for s in self.seats], events, self.state,
                             seed=self.seed if self.seed_is_deal else None, seed_shown=self.seed_fixed,
                             game=self.game.name, setup=self.setup)

    def save(self, path: str) -> None:
        write_record(path, self.to_record())

    @classmethod
    def from_record(cls, rec: dict) -> "GenericSession":
        """Continues a game from its record (of the game it names); without its seed, the chance to come is new."""
        c = continued(rec)
        sess = cls(game=c.game, seed=c.seed, seats=c.seats, setup=c.record[c.game.setup])
        sess.seed_fixed = sess.seed_is_deal = c.seed_fixed
        sess.state, sess.events = c.state, [dict(e) for e in c.record["events"]]
        return sess


# ----------------------------------------------------------------------------------------------
# Hints
# ----------------------------------------------------------------------------------------------
@dataclass
class GenericHinter(Hinter):
    """The graduated hints from the search every terminal's hints start from (clients/play.py Hinter): 1 the
    moves it weighs most (in no order), 2 its move with the chance to win after it, 3 its ranked list."""

    game: Game | None = None

    def adapter(self):
        return self.game.adapter

    def hint(self, state, level: int | None) -> str:
        from search.coach import hint_family
        from search.hints import top_hints

        grown = self.grown(state)
        level = min(self.level + 1, 3) if level is None else level
        self.level = max(self.level, level)
        hints = top_hints(grown.result, 3, family=hint_family(self.adapter(), state))
        words = move_words(self.game.text)
        label = lambda m: words(str(m))           # noqa: E731
        if level == 1:
            return ("Hint 1 (`hint` again: the search's move): it weighs these most, in no order:\n"
                    + "\n".join(f"  - {label(h.move)}" for h in sorted(hints, key=lambda h: str(h.move))))
        best = hints[0]
        if level == 2:
            return (f"Hint 2 (`hint` again: its list): {label(best.move)}  [{best.move}]; your chance to win "
                    f"after it: {best.win_probability:.0%}"
                    + ("  (about equal to other moves: the search can't tell these apart)" if best.about_equal else ""))
        return "Hint 3: " + "\n".join(ranked_lines(grown, hints, label=label))


# ----------------------------------------------------------------------------------------------
# The terminal
# ----------------------------------------------------------------------------------------------
HELP = """Type a move's number, or its text as the list shows it in brackets.
  hint [1|2|3]  1 the moves the search weighs, 2 its move, 3 its list
  rules         the game's rules          board   show the table
  moves         list the legal moves      save FILE / load FILE   save the game / continue one
  undo          back to your last decision (--practice)
  resign        end the game here (it can be reviewed and saved)
  help          this text                 quit    leave the game"""


def value_text(value: Any) -> str:
    """A view's value as a line: text as it is, anything else as compact JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def help_lines(info: Any, indent: str = "  ") -> list[str]:
    """The game's `player_help()` as lines, whatever its shape: each field by name, lists as bullets."""
    if isinstance(info, dict):
        out = []
        for key, value in info.items():
            if isinstance(value, (dict, list)):
                out += [f"{indent}{key}:"] + help_lines(value, indent + "  ")
            else:
                out.append(f"{indent}{key}: {value_text(value)}")
        return out
    if isinstance(info, list):
        return [line for item in info for line in (help_lines(item, indent + "  ") if isinstance(item, (dict, list))
                                                   else [f"{indent}- {value_text(item)}"])]
    return [f"{indent}{value_text(info)}"]


class GenericPlayClient(PlayClient):
    """clients/play.py's terminal, with the table, the moves and the hints read through the game contract."""

    sess: GenericSession

    def make_hinter(self, iterations: int, seed: int):
        return GenericHinter(iterations, seed, game=self.sess.game)

    @property
    def game(self) -> Game:
        return self.sess.game

    def completions(self, typed: str) -> list[str]:
        typed = typed.lstrip()
        st = self.sess.state
        moves = [str(m) for m in st.legal_moves()] if st.current_player >= 0 else []
        return [t for t in dict.fromkeys(moves + list(COMMANDS)) if t.startswith(typed) and t != typed]

    def intro(self) -> str:
        s = self.sess
        return (f"{self.game.title}: {s.players} players; you are seat {s.human}"
                f"{' (you play first)' if s.human == 0 else ''}. Type `rules` for the rules, `help` for the "
                "commands, `hint` for a hint.")

    def table_lines(self) -> list[str]:
        """Where the game is, the scores and what the human's seat may see of the table."""
        st, seat = self.sess.state, self.sess.human
        scores = records.totals(st)
        lines = [f"[{self.game.text.where(st)}]" if not st.is_terminal() else "[the end]",
                 "Scores: " + ", ".join(f"{self.seat_name(p)} {v}" for p, v in enumerate(scores))]
        for key, value in seat_view(self.game.text)(st, seat).items():
            if isinstance(value, str) and "\n" in value:      # a table the game drew in text: below its name
                lines += [f"  {key}:"] + [f"    {line}" for line in value.splitlines()]
            else:
                lines.append(f"  {key}: {value_text(value)}")
        return lines

    def seat_name(self, seat: int) -> str:
        return f"you (seat {seat})" if self.sess.seats[seat] == HUMAN else f"seat {seat}"

    def numbered(self) -> list[str]:
        words = self.sess.words
        out = []
        for i, m in enumerate(self.sess.state.legal_moves(), 1):
            said = words(str(m))
            out.append(f"  {i:2d}. {said}" + (f"   [{m}]" if said != str(m) else ""))
        return out

    def show(self) -> None:
        for line in self.table_lines():
            self.say(line)
        self.say("Your moves:")
        for line in self.numbered():
            self.say(line)

    def final_text(self) -> str:
        sess = self.sess
        winners = sess.state.winners()
        lines = self.table_lines()
        lines.append("The game is over: winner" + ("s " if len(winners) > 1 else " ")
                     + " and ".join(self.seat_name(w) for w in winners) + ".")
        if sess.seed_is_deal:
            lines.append(f"(The seed was {sess.seed}: `spellbook-ai play --game {self.game.name} --seed {sess.seed}` "
                         "plays it again.)")
        return "\n".join(lines)

    def save_name(self) -> str:
        return f"{self.game.name}-game-{self.sess.seed}.json"

    def handle(self, line: str) -> bool | str:
        cmd, _, rest = line.partition(" ")
        cmd, rest = cmd.lower(), rest.strip()
        if cmd in ("quit", "exit"):
            return "quit"
        if cmd in ("help", "?"):
            self.say(HELP)
            return False
        if cmd == "rules":
            self.say(f"{self.game.title}:")
            for text in help_lines(self.game.text.player_help()):
                self.say(text)
            return False
        if cmd == "moves":
            for text in self.numbered():
                self.say(text)
            return False
        common = self.common_command(cmd, rest)
        if common is not None:
            return common
        move = self.typed_move(line)
        if move is None:
            return False
        for text in self.sess.play_human(move):
            self.say(f"    {text}")
        return True


def _setup_of(game: Game, args: argparse.Namespace) -> Any:
    """The setup the command line gives the game (its declared setup flag), or None: the game's default."""
    return (getattr(args, game.setup, None) or None) if game.setup else None


def run(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    """`play --game NAME` for a game without its own terminal (clients/play.py routes here): a local game;
    exit status 2 for bad input."""
    if getattr(args, "server", None):
        print("spellbook-ai play: this game has no terminal of its own; the generic terminal plays here only: "
              "leave out --server", file=sys.stderr)
        return 2
    game = get_game(args.game)
    return run_local(args, inp, out, GenericSession, GenericPlayClient,
                     lambda seed: GenericSession.new(game, args.bots, args.seat, seed, _setup_of(game, args),
                                                     getattr(args, "practice", False)))


def demo(args: argparse.Namespace, out=None):
    """`spellbook-ai demo --game NAME` for a game without its own terminal: a seeded game between uniformly
    random bots, every decision and chance outcome in the game's words (a demo sees everything), then the
    scores and the winners."""
    out = out or sys.stdout
    game = get_game(args.game)
    players, seed = getattr(args, "players", game.min_players), args.seed
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"players must be an integer from {game.min_players} to {game.max_players} for "
                         f"{game.title}, got {players}")
    setup = _setup_of(game, args)
    state = records.new_game(game.name, players, setup, seed)
    words, lines_of = move_words(game.text), event_lines(game.text)
    rng = random.Random(seed)
    print(f"{game.title} demo: {players} players, seed {seed}", file=out)
    for ev in records.setup_events(players, (), seed, game=game.name, setup=setup):
        print(f"  {ev['kind']}: {words(ev['move'])}" + (f" (to seat {ev['to']})" if "to" in ev else ""), file=out)
    while not state.is_terminal():
        before, seat = state.clone(), state.current_player
        move = rng.choice(state.legal_moves())
        state.apply(move)
        chance = []
        while state.is_chance():
            outcome = state.sample_chance()
            chance.append(records.chance_event(state, outcome))
            state.apply(outcome)
        print(f"  seat {seat}: {words(str(move))}  [{move}]", file=out)
        for line in lines_of(before, move, state, chance_rolls(chance), None):
            print(f"      {line}", file=out)
        for ev in chance:
            print(f"      {ev['kind']}: {words(ev['move'])}" + (f" (to seat {ev['to']})" if "to" in ev else ""), file=out)
    winners = state.winners()
    print(("winners: seats " if len(winners) > 1 else "winner: seat ") + " and ".join(map(str, winners))
          + f" (scores {', '.join(map(str, records.totals(state)))})", file=out)
    return state
