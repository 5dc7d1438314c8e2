"""`spellbook-ai play`: a whole game against bots in the terminal, for every game of engine_c/registry.py.

    spellbook-ai play --bots ismcts:level=5 greedy --practice                  SpellBook (clients/play_spellbook.py)
    spellbook-ai play --game abracadawhat --bots counting ismcts:level=3      Abracada…What? (clients/play_abracadawhat.py)

This module is what the games' terminals share (D64): the command line (`--game NAME` imports
clients/play_NAME.py and calls its `run(args, inp, out)`, or, for a game without one, the generic terminal
clients/play_generic.py; `--load FILE` takes the game from the record),
the loop that reads a line and plays bots until a human decides, the line editor (history, Tab completion
of the game's moves and commands), the commands every game has (board, hint [1|2|3], undo, save FILE,
load FILE, quit), the hint search that grows until its best move is clear (search/coach.py: GetHints'
own search, with the shipped model and the server's budget rules, so the terminal's hint is the server's for
the same position and seed), and the end of a game: the review offered (search/coach.py's review, as
`spellbook-ai review` and AnalyzeGame), then the record saved. `resign` ends the game at once (D130). A game's terminal subclasses PlayClient and Hinter with its table,
its own commands and its hints' words.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Callable, TextIO

from engine_c import records

HUMAN = "human"


def seat_spec(entry: dict) -> str:
    """A record's seat as the terminal's seat name: "human" for a human or a client, else the bot spec."""
    if entry.get("kind") in ("human", "client"):
        return HUMAN
    return entry.get("spec") or f"ismcts:level={entry.get('level') or 5}"


@dataclass
class Event:
    seat: int                  # -1 for draws
    text: str


def seat_label(sess, seat: int) -> str:
    return f"you (seat {seat})" if sess.seats[seat] == HUMAN else f"seat {seat} ({sess.seats[seat]})"


def write_record(path: str, rec: dict) -> None:
    """A game record as the terminal saves it (indented JSON); OSError when the file cannot be written."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")


def load_record(path: str) -> dict:
    """The one game record in a file (any format engine_c.records reads); ValueError says what is wrong."""
    try:
        found = records.load_file(path)
    except records.RecordError as e:
        raise ValueError(f"{path}: {e}") from None
    if len(found) != 1:
        raise ValueError(f"{path} holds {len(found)} games: review one with `spellbook-ai review {path} --game N`")
    return found[0]


# ----------------------------------------------------------------------------------------------
# Hints: the search every game's hints start from
# ----------------------------------------------------------------------------------------------
@dataclass
class Hinter:
    """A terminal's graduated hints (`hint` again goes one level further; a new position starts again at
    1). The search is GetHints' (search/coach.py): the server's default level with the shipped model,
    seeded by coach.hint_seed(game seed, position), grown until its best move is separated from the second
    (search/hints.py) within the server's caps, or it says the top moves are about equal. A game's Hinter
    gives its search adapter and the hint's words (`hint(state, level)`)."""

    iterations: int | None = None      # the first budget; None: the default level's (GetHints' own)
    seed: int = 0
    _key: str = ""
    _grown: object = None
    level: int = 0

    def adapter(self):
        """The game's search adapter."""
        raise NotImplementedError

    def seed_at(self, state) -> int:
        """The hint search's seed at `state`: GetHints with this seed answers the same hint."""
        from search.coach import hint_seed

        return hint_seed(self.seed, state)

    def options(self, state):
        """The hint search's first options at `state`: GetHints' for its seed (search/coach.py)."""
        from search.coach import hint_options

        return hint_options(self.adapter(), self.seed_at(state), iterations=self.iterations)

    def grown(self, state):
        """The search at `state`, grown as GetHints grows it (cached while the state stays)."""
        from search.coach import hint_search

        key = state.to_text()
        if key != self._key:
            self._grown = hint_search(self.adapter(), state, self.options(state))[0]
            self._key, self.level = key, 0
        return self._grown

    def hint(self, state, level: int | None) -> str:
        """Hint `level` (1-3; None: one further than the last at this position) as text."""
        raise NotImplementedError


def ranked_lines(grown, hints, costs=lambda move: [], label=str) -> list[str]:
    """Hint 3's list: the search's choice, the moves it cannot tell apart from it ("1=", about equal), then
    the others by win probability, each with its win probability, estimated score and verdict (search/hints.py
    `verdict`: the text GetHints sends and the page shows); `costs(move)`: lines under a runner-up (what it
    gives up); `label(move)`: the move as the list names it (a game's words); the notes where figures look out
    of order."""
    lines = [f"The search's choice, the moves it cannot tell apart from it, then the others by win probability "
             f"({grown.result.iterations} iterations; {grown.separation.text}):"]
    from search.hints import rank_label

    for h in hints:
        lines.append(f"  {rank_label(h):>2s}. {label(h.move):36s} win {h.win_probability:4.0%}   "
                     f"est. score {h.expected_score:5.1f}   {h.verdict}")
        if h.rank > 1:
            lines += [f"       {text}" for text in costs(h.move)]
    if len(hints) == 1:
        lines.append("  (no other move was examined closely: each got less than a tenth of its visits)")
    lines += [f"  note on #{h.rank}: {h.note}" for h in hints if h.note]
    return lines


# ----------------------------------------------------------------------------------------------
# The terminal client
# ----------------------------------------------------------------------------------------------
def line_editor(client: "PlayClient"):
    """A prompt_toolkit session for a terminal: line editing, history (kept in ~/.spellbook-ai/history)
    and completion of the commands and the legal moves of the moment (Tab). None when prompt_toolkit
    cannot run there (the plain line reader is used)."""
    try:
        import os

        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.history import FileHistory, InMemoryHistory
    except ImportError:
        return None

    class Moves(Completer):
        def get_completions(self, document, complete_event):
            typed = document.text_before_cursor.lstrip()
            for text in client.completions(typed):
                yield Completion(text, start_position=-len(typed))

    try:
        home = os.path.join(os.path.expanduser("~"), ".spellbook-ai")
        os.makedirs(home, exist_ok=True)
        history = FileHistory(os.path.join(home, "history"))
    except OSError:
        history = InMemoryHistory()
    try:
        return PromptSession(history=history, completer=Moves(), complete_while_typing=False)
    except Exception:          # no usable terminal (e.g. a dumb one): the plain reader
        return None


@dataclass
class Continued:
    """A saved game replayed so that it can go on (`continued`): the record as loaded, its game, the seed its
    chance continues from, the state at its end and the seats ("human" or a bot spec)."""

    record: dict
    game: object
    seed: int
    state: object
    seats: list[str]
    seed_fixed: bool


def continued(rec: dict, game: str | None = None) -> Continued:
    """Replays a record (any format engine_c.records reads: a terminal save, a server record, a tournament
    game) to go on from its end. The record's seed continues its chance as it would have gone; without one,
    the chance to come is new. ValueError says why it cannot go on: it does not replay, it is a game of
    another kind than `game`, or a seat resigned."""
    import secrets

    try:
        rec = records.load(rec)
        kind = records.game_of(rec)
        if game is not None and kind.name != game:
            raise records.RecordError("game", f"the record is a game of {kind.name}")
        seed = rec.get("seed", secrets.randbits(31))
        final, _steps = records.replay(rec, rng_seed=seed)
    except records.RecordError as e:
        raise ValueError(f"the record does not replay: {e}") from None
    if records.resigned(rec) is not None:
        raise ValueError(f"seat {records.resigned(rec)} resigned this game: it cannot go on "
                         "(`spellbook-ai review FILE` reviews it)")
    seats = [seat_spec(s) for s in rec["seats"]] or [HUMAN] * rec["players"]
    return Continued(rec, kind, seed, final, seats, "seed" in rec)


class SeatedSession:
    """What every terminal game's session shares (a dataclass with `state`, `seats` "human" or a bot spec
    each, `events` and `resigned`): whose view the terminal shows, whether the game is over, resigning."""

    @property
    def human(self) -> int:
        """The human seat deciding now, else the first human seat: whose view the terminal shows."""
        cp = self.state.current_player
        if 0 <= cp < len(self.seats) and self.seats[cp] == HUMAN:
            return cp
        return self.seats.index(HUMAN) if HUMAN in self.seats else 0

    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.resigned is not None

    def resign(self, seat: int) -> None:
        """`seat` resigns: the game ends here (its record's last event says so, D130)."""
        if self.over:
            raise ValueError("the game is already over")
        self.resigned = seat

    @property
    def moves(self) -> list[dict]:
        """The decisions and chance events after the setup (what `save` reports)."""
        return self.events

    @classmethod
    def load(cls, path: str):
        """Continues the game saved at `path` (the session's `from_record`)."""
        return cls.from_record(load_record(path))


class PlayClient:
    """The terminal: reads lines from `inp` (prompt_toolkit's editor on a terminal), writes to `out`, and
    plays `session` (a game's session: state, seats, advance(), play_human(), undo(), save(), load(),
    to_record()) to its end. A game's terminal overrides the methods that raise NotImplementedError."""

    def __init__(self, session, inp: TextIO = sys.stdin, out: TextIO = sys.stdout,
                 hint_iterations: int | None = None, prompt: bool = True):
        self.sess, self.inp, self.out = session, inp, out
        self.hinter = self.make_hinter(hint_iterations, session.seed)
        self.prompt = prompt
        self.review_iterations: int | None = None               # None: the default level's, as `review` and AnalyzeGame
        self.review_estimator_iterations: int | None = None     # None: search/review.py's default
        self.editor = line_editor(self) if prompt and inp is sys.stdin and out is sys.stdout else None


    # What each game's terminal says and does (clients/play_spellbook.py, clients/play_abracadawhat.py)
    def make_hinter(self, iterations: int, seed: int) -> Hinter:
        raise NotImplementedError

    def completions(self, typed: str) -> list[str]:
        """What Tab offers for `typed`: the legal moves of the moment and the commands."""
        raise NotImplementedError

    def intro(self) -> str:
        """The welcome line."""
        raise NotImplementedError

    def final_text(self) -> str:
        """The table and the result at the end."""
        raise NotImplementedError

    def save_name(self) -> str:
        """The file name offered when saving at the end."""
        raise NotImplementedError

    def show(self) -> None:
        """The table and the moves, at a human's decision."""
        raise NotImplementedError

    def handle(self, line: str) -> bool | str:
        """True when a move was played (or the game was replaced); 'quit'; False to read again."""
        raise NotImplementedError

    # What every game's terminal shares
    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def typed_move(self, line: str):
        """The move a typed line names: its number in the list of legal moves, or its notation; None after
        saying why it cannot be played."""
        from engine_c.base import IllegalMoveError, NotationError

        st = self.sess.state
        text = line.strip()
        if text.isdigit():
            moves = st.legal_moves()
            k = int(text)
            if not 1 <= k <= len(moves):
                self.say(f"Choose a move from 1 to {len(moves)} (`moves` lists them).")
                return None
            return moves[k - 1]
        try:
            return st.parse_move(text)
        except IllegalMoveError as e:
            self.say(f"Illegal: {e}")
        except NotationError as e:
            self.say(f"Not a move: {e}. Type `help` for the commands, `moves` for the legal moves.")
        return None

    def common_command(self, cmd: str, rest: str) -> bool | None:
        """The commands every game's terminal shares (board, hint, undo, save, load): what handle() returns
        for them, None for any other command."""
        if cmd == "board":
            self.show()
            return False
        if cmd == "resign":
            return self.resign_command()
        if cmd == "hint":
            if rest and rest not in ("1", "2", "3"):
                self.say("hint takes a level: 1, 2 or 3")
            else:
                self.say(self.hinter.hint(self.sess.state, int(rest) if rest else None))
            return False
        if cmd == "undo":
            try:
                self.sess.undo()
            except ValueError as e:
                self.say(f"Cannot undo: {e}.")
                return False
            self.say("Undone: back to your previous decision.")
            self.show()
            return False
        if cmd == "save":
            return self.save_command(rest)
        if cmd == "load":
            return self.load_command(rest)
        return None

    def resign_command(self) -> str:
        """`resign`: the game ends at once, its record says who resigned (D130); then the review and the save
        are offered as at any game's end. Returns 'resigned'."""
        sess = self.sess
        sess.resign(sess.state.current_player)
        self.say(f"You resign: the game ends here. {self.resign_result()}")
        self.offer_save(self.offer_review())
        return "resigned"

    def resign_result(self) -> str:
        rec = self.sess.to_record()
        res = rec["result"]
        return ("Scores as they stood: " + ", ".join(f"{seat_label(self.sess, p)} {v}" for p, v in enumerate(res["scores"]))
                + "; winner" + ("s " if len(res["winners"]) > 1 else " ")
                + " and ".join(seat_label(self.sess, w) for w in res["winners"]) + ".")

    def save_command(self, path: str) -> bool:
        """`save FILE`: the game's record so far; False (read the next line)."""
        if not path:
            self.say("save needs a file name: save FILE")
            return False
        try:
            self.sess.save(path)
        except OSError as e:
            self.say(f"Cannot save: {e}")
            return False
        self.say(f"Saved to {path} ({len(self.sess.moves)} moves and chance events).")
        return False

    def load_command(self, path: str) -> bool:
        """`load FILE`: continue a saved game of this terminal's game; True when it replaced the game."""
        if not path:
            self.say("load needs a file name: load FILE")
            return False
        try:
            new = type(self.sess).load(path)
        except (OSError, ValueError) as e:
            self.say(f"Cannot load: {e}")
            return False
        self.sess = new
        self.hinter = self.make_hinter(self.hinter.iterations, new.seed)
        self.say(f"Loaded {path}: {len(new.moves)} moves and chance events replayed.")
        return True

    def _event(self, ev: Event) -> None:
        if ev.seat == -1:
            self.say(f"    {ev.text}")
        else:
            self.say(f"  {seat_label(self.sess, ev.seat)}: {ev.text}")

    def _read(self, ask: str | None = None) -> str | None:
        if self.prompt and self.editor is not None:
            try:
                return self.editor.prompt(ask or f"{seat_label(self.sess, self.sess.state.current_player)} > ").strip()
            except EOFError:
                return None
        if self.prompt:
            self.out.write(ask or f"{seat_label(self.sess, self.sess.state.current_player)} > ")
            self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        line = line.strip()
        if not self.prompt:
            self.say(f"> {line}")         # echo scripted input so the transcript reads like a session
        return line

    def run(self) -> int:
        self.say(self.intro())
        while True:
            sess = self.sess
            sess.advance(self._event)
            if sess.over:
                self.say(self.final_text())
                self.offer_save(self.offer_review())
                return 0
            self.show()
            while True:                                   # until a move is played
                line = self._read()
                if line is None:
                    self.say("(end of input: leaving the game; `save FILE` keeps it for later)")
                    return 1
                if not line:
                    continue
                done = self.handle(line)
                if done == "quit":
                    self.say("Bye.")
                    return 0
                if done == "resigned":
                    return 0
                if done:
                    break

    def offer_review(self) -> dict | None:
        """At the end: a review of the game (each decision's class and loss, luck, key moments), if wanted;
        returns it as the record's `review` field (None when declined)."""
        self.say("Review this game? Each decision's class and loss, accuracy, luck against decisions, the key "
                 "moments (a few seconds).")
        line = self._read("review? [y/N] > ")
        if not line or line.strip().lower() not in ("y", "yes"):
            return None
        from clients.review import review_budget, review_data, review_local, review_text
        from search.coach import REVIEW_SEED

        rec = self.sess.to_record()
        # search/coach.py's review at the default budget and seed: `spellbook-ai review FILE` and AnalyzeGame
        # give the same classes for this record
        review, steps = review_local(rec, iterations=self.review_iterations, seed=REVIEW_SEED,
                                     estimator_iterations=self.review_estimator_iterations)
        budget = review_budget(rec, self.review_iterations)
        humans = [p for p in range(self.sess.players) if self.sess.seats[p] == HUMAN]
        you = humans[0] if len(humans) == 1 else None          # the player at this terminal is "You"
        self.say(review_text(rec, review, steps, f"{budget} search iterations a decision", you=you))
        return review_data(review, budget, rec, steps)

    def offer_save(self, review: dict | None = None) -> None:
        """At the end: save the finished game's record (with its review, if one was made) under a file name."""
        self.say("Save this game? `spellbook-ai review FILE` reviews it later, `play --load FILE` replays it.")
        line = self._read("save? [y/N] > ")
        if not line or line.strip().lower() not in ("y", "yes"):
            return
        default = self.save_name()
        line = self._read(f"file name [{default}] > ") or default
        try:
            rec = self.sess.to_record()
            if review is not None:
                rec["review"] = review
            write_record(line, rec)
        except OSError as e:
            self.say(f"Cannot save: {e}")
            return
        self.say(f"Saved to {line}: `spellbook-ai review {line}` reviews it.")
        if review is not None:
            self.say(self._graph(review, line + ".png"))

    def _graph(self, review: dict, path: str) -> str:
        """The review's win-probability graph as a PNG beside the saved record (the `plots` extra)."""
        from clients.plots import win_probability_graph

        decisions = review["decisions"]
        try:
            win_probability_graph([(d["decision"], d["win_probabilities"]) for d in decisions],
                                  [seat_label(self.sess, p) for p in range(self.sess.players)], path,
                                  [(d["decision"], d["seat"], d["class"]) for d in decisions])
        except (ImportError, OSError) as e:
            return f"(No win-probability graph: {e})"
        return f"Its win-probability graph: {path}"


# ----------------------------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    from clients.args import add_game_flags
    from search.levels import LEVEL_NAMES, PLAY_LEVEL, level_words

    add_game_flags(p)

    names = ", ".join(f"{lv} {level_words(lv)[0]}" for lv in LEVEL_NAMES)     # no ladder here: no "strongest"
    p.add_argument("--bots", nargs="+", default=[f"ismcts:level={PLAY_LEVEL}"],
                   help="opponents by spec (random, greedy, ismcts:level=N, ...; Abracada…What? also counting): "
                        f"1 to 3 (SpellBook), 1 to 4 (Abracada…What?). Levels: {names}; level {PLAY_LEVEL} (the "
                        "default) plays about as well as the heuristic bot (greedy, counting): a contest you "
                        "can win with care (docs/search.md, Levels)")
    p.add_argument("--seat", type=int, default=0, help="your seat (0 plays first)")
    p.add_argument("--seed", type=int, default=None, help="the deal (%(default)s: a random one, shown when the game ends)")
    p.add_argument("--practice", action="store_true", help="allow undo")
    p.add_argument("--load", default=None, metavar="FILE", help="continue a saved game")
    p.add_argument("--server", default=None, metavar="HOST:PORT", help="play in a session on a server (either game)")
    p.add_argument("--hint-iterations", type=int, default=None,
                   help="a hint's first search budget (default: the server's default level's, as GetHints; "
                        "it doubles, up to 16x, until the best move is clear)")


def main(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """`spellbook-ai play`: the game's terminal (`--game`, or the game of `--load FILE`); 2 for bad input."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    try:
        from engine_c.registry import DEFAULT_GAME, get_game

        game = get_game(getattr(args, "game", DEFAULT_GAME))
    except ValueError as e:
        print(f"spellbook-ai play: --game: {e}", file=sys.stderr)
        return 2
    if args.load:                       # a saved game names its game: its terminal continues it
        try:
            game = records.game_of(load_record(args.load))
        except (OSError, ValueError) as e:
            print(f"spellbook-ai play: {e}", file=sys.stderr)
            return 2
    return terminal_of(game).run(args, inp, out)


GENERIC_TERMINAL = "clients.play_generic"


def terminal_of(game):
    """The module of `game`'s terminal (`run(args, inp, out)`, `demo(args, out)`): its own (Game.layer, D64),
    else the generic terminal that plays any game through the game contract alone (clients/play_generic.py).
    Both are reached by module path, as the registry names a game's parts."""
    import importlib

    return game.layer("terminal") or importlib.import_module(GENERIC_TERMINAL)


def run_on_server(args: argparse.Namespace, inp: TextIO, out: TextIO, service_client_class, client_class,
                  new_session: Callable[[object], object]) -> int:
    """A game in a session on `--server` (clients/remote_play.py): `new_session(service_client)` creates it
    (the server runs the bots and the chance), played by `client_class` (a PlayClient). Exit status 2 with
    a message for bad input or a server that refuses."""
    from clients.client import ServiceError

    if args.load:
        print("spellbook-ai play: --load continues a game locally; leave out --server", file=sys.stderr)
        return 2
    try:
        with service_client_class(args.server, timeout=60) as service:
            client = client_class(new_session(service), inp, out, hint_iterations=args.hint_iterations,
                                  prompt=getattr(inp, "isatty", lambda: False)())
            return client.run()
    except (ValueError, ServiceError) as e:
        print(f"spellbook-ai play: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nLeaving the game (the session stays on the server).", file=out)
        return 1


def run_local(args: argparse.Namespace, inp: TextIO, out: TextIO, session_class, client_class,
              new_session: Callable[[int], object]) -> int:
    """A game here: continued from `--load`, or `new_session(seed)` (`--seed`, else a random deal), played
    by `client_class` (a PlayClient). Exit status 2 with a message for bad input."""
    try:
        if args.load:
            sess = session_class.load(args.load)
        else:
            import random

            seed = args.seed if args.seed is not None else random.randrange(2**31)
            sess = new_session(seed)
            sess.seed_fixed = args.seed is not None
    except (OSError, ValueError) as e:
        print(f"spellbook-ai play: {e}", file=sys.stderr)
        return 2
    client = client_class(sess, inp, out, hint_iterations=args.hint_iterations,
                          prompt=getattr(inp, "isatty", lambda: False)())
    try:
        return client.run()
    except KeyboardInterrupt:
        print("\nLeaving the game.", file=out)
        return 1
