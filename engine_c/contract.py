"""The game contract: what a game folder provides, and the documented default of every optional part.

Every layer reaches a game through this contract and nothing else: search/ through a `GameAdapter` (with the
compiled interface of engine_c/game.pxd behind `vtable`), the clients and the server through the `Game` the
registry (engine_c/registry.py) makes of a folder's declaration. A game folder engine_c/NAME/ holds:

- `game.py`: the adapter (a `GameAdapter` subclass instance) and `DECLARATION = Declaration(...)`: title,
  player counts, rules reference, setup field, listing order, and where the other layers' parts are;
- `state.py` (`State`, `Move`: python-chess style, with `new`, `from_text`, `observation`, `determinize`),
  `notation.py` (its `HEADER`), `text.py` (the game in words: `where`, `record_line`, `LUCK`, `player_help`;
  optionally `move_words(move_text)`, a move in a player's words, read through `move_words` below: without it
  a move is said by its text; optionally `view(state, seat)`, what a seat (None: a spectator) may see as a
  JSON object, read through `seat_view` below; optionally `event_lines(before, move, after, rolls, viewer)`,
  what the table saw of a move in words, read through `event_lines` below) and `record.py` (its part of the
  one record format of engine_c/records.py; optionally `request_setup(value)`, the setup a remote client
  may give: what reads no file on the server; optionally `command_setup(value, **flags)`, the setup a
  command line names with the setup flag and the game's further flags, read through `command_setup` below);
- optionally `reasons.py` (`reasons(state, move, versus=None)`: why a move, measured from the engine) and
  `insight.py` (`analysis_insight(state, seat)`: what the seat to move may infer of the hidden part, as
  JSON; `move_fields(insight, move)`: what it says of one move; `ANALYSIS_BY_DEFAULT`: whether the analysis
  engine answers with it unasked). A game without them has no reasons and no insight.

The other layers' parts are optional (a game without one is not offered there: `Game.layer`; the terminal
then plays it through the generic terminal, clients/play_generic.py) and found by convention unless the
declaration names them: the terminal game `clients.play_NAME`, the gRPC service `server.NAME_service`, the OpenSpiel adapter `clients.openspiel_NAME`,
the ladder table data/ladder-NAME.json and the page's folder server/static/games/NAME/. docs/adding-a-game.md walks through a new game.

A name is resolved to its `Game` once, at the edge (a request, a CLI flag, a record); the object travels
from there.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import Any, Callable, Mapping

NO_BOTS: Mapping[str, Callable] = MappingProxyType({})


class GameAdapter(abc.ABC):
    """What search/ and the bots need of a game (search/ knows no game otherwise). Required: `name`,
    `State`, `Move`, `vtable` (a PyCapsule of engine_c/game.pxd's GameVTable) and the conversions below,
    which a game whose State is engine_c.base.GameState inherits from engine_c.base.CompiledGameAdapter.
    Every other attribute is optional, and this class gives its documented default."""

    name: str = ""
    State: type
    Move: type
    vtable: Any = None

    # ------------------------------------------------------------------ optional parts, with defaults
    # The learned evaluation the game ships (search/model.py), or None: the rollout search only.
    default_model_path: str | None = None
    # The game's own strength levels {level: SearchOptions fields}, or None: search/levels.py's tables.
    level_table: Mapping[int, dict] | None = None
    # With its own table: the levels that are the policy's own moves ({level: policy fields}), the levels
    # measured for the network whatever the model's gate says, and the level of requests that name none.
    policy_levels: Mapping[int, dict] = MappingProxyType({})
    network_levels: frozenset = frozenset()
    default_level: int | None = None
    # The game's own bot specs {kind: factory(seed=..., **options)} (search.bots.make_bot).
    bots: Mapping[str, Callable] = NO_BOTS
    # The bot spec of the game's fixed heuristic: a rung of its ladder and the yardstick its Elo is read against
    # (clients/ladder.py, D141). Default: `greedy`, the one-ply heuristic over `move_values`.
    heuristic_bot: str = "greedy"
    # The level the heuristic stands above on the ladder's chain (it meets this level and the next). Default 3:
    # the game's levels are spaced so that the heuristic plays between levels 3 and 4.
    heuristic_after: int = 3
    # Pairs of neighbouring levels {(level, level + 1): games} whose ladder plays more games than its default
    # (`spellbook-ai ladder --pair-games`): the close pairs, where 80 games cannot tell which level is stronger.
    ladder_pair_games: Mapping[tuple[int, int], int] = MappingProxyType({})
    # How often a hint's budget may double (about half a second of search at the default level).
    hint_doublings: int = 4
    # True when the hidden information is only the order of future chance outcomes, so every chance
    # outcome's probability is public (SearchOptions.chance="expected", exact endgames), for the seat as the
    # rules make it (SearchOptions.observer_kind 0; a game's other kinds of observer may see less).
    public_chance: bool = False
    # False when a move's outcome hangs on hidden information, so a search may not continue below it.
    tree_reuse: bool = True
    # The one-ply heuristic's values of `moves` for the mover, `move_values(state, moves, seed=0)`, or None:
    # the game has none (the greedy bot and heuristic bot specs are refused).
    move_values: Callable[..., list[float]] | None = None
    # A fresh belief of a seat over its own hidden part, `new_belief(seat)`, or None: searches with
    # options.belief are refused.
    new_belief: Callable[[int], Any] | None = None

    @staticmethod
    def move_family(state: Any, move: Any) -> tuple:
        """The decision `move` is one form of (search/hints.py): moves with the same key are one choice for
        a player, told apart only by how it is paid or targeted. Default: every move its own family."""
        return ("move", move.code)

    @staticmethod
    def final_score_spread(state: Any) -> float:
        """One standard deviation of a seat's final score around the search's estimate from `state`, in
        points: the floor of a hint's score spread. Default 0 (the search's own spread alone)."""
        return 0.0

    @staticmethod
    def senseless_moves(state: Any, moves: list) -> list:
        """The moves no player who counts would make (weak levels never choose them; the absurd-move rate
        counts them). Default: none."""
        return []

    def absurd(self, state: Any, move: Any, loss: float) -> bool:
        """Whether a reviewed move is absurd, for the mistake profile of the levels (bench/level_profile.py,
        docs/search.md): `loss` is the win probability the review says it gave up against the best move.
        Default: a move the adapter calls senseless (`senseless_moves`)."""
        return move in self.senseless_moves(state, self.legal_moves(state))

    # ------------------------------------------------------------------ required conversions (abstract: a game
    # without one cannot be instantiated; engine_c.base.CompiledGameAdapter provides them all)
    @abc.abstractmethod
    def state_bytes(self, state: Any) -> bytes:
        ...

    @abc.abstractmethod
    def move(self, code: int) -> Any:
        ...

    @abc.abstractmethod
    def code(self, move: Any) -> int:
        ...

    @abc.abstractmethod
    def current_player(self, state: Any) -> int:
        ...

    @abc.abstractmethod
    def num_players(self, state: Any) -> int:
        ...

    @abc.abstractmethod
    def legal_moves(self, state: Any) -> list:
        ...

    @abc.abstractmethod
    def child(self, state: Any, move: Any) -> Any:
        """The state right after `move`, chance left pending (tree reuse, the review's estimator)."""
        ...

    @abc.abstractmethod
    def sample_outcome(self, state: Any, seed: int) -> Any:
        """A state with the pending chance resolved as it might fall for the seat that decided last."""
        ...

    @abc.abstractmethod
    def final_values(self, state: Any) -> tuple[list[float], list[float]]:
        """A finished game's win shares (ties shared) and final scores, by seat."""
        ...


def move_words(text: ModuleType) -> Callable[[str], str]:
    """A game's words for a move's text (the review's lists, the terminal): its text module's optional
    `move_words(move_text)`; the documented default says a move by its text, as it is."""
    return getattr(text, "move_words", str)


def _observation_view(state: Any, seat: int | None) -> dict:
    return {} if seat is None else {"observation": state.observation(seat)}


def seat_view(text: ModuleType) -> Callable[[Any, int | None], dict]:
    """A game's view of a state for one seat, or for a spectator (seat None), as a JSON-able dict of what it
    may see while the game runs (games.v1's `view_json`): its text module's optional `view(state, seat)`;
    the documented default gives a seat its observation text and a spectator nothing (the public fields of
    the answer carry whose turn it is and the scores)."""
    return getattr(text, "view", _observation_view)


def event_lines(text: ModuleType) -> Callable[..., list[str]]:
    """What the table saw of a move, in words, as `viewer` (a seat, None: a spectator) may read it: the
    text module's optional `event_lines(before, move, after, rolls, viewer)` (states before the move and
    after the chance it set off, the die rolls among that chance); the documented default: no lines."""
    return getattr(text, "event_lines", lambda before, move, after, rolls, viewer: [])


def tells_events(text: ModuleType) -> bool:
    """Whether the game tells what the table saw of a move (its text module has `event_lines`): the
    sessions then keep each move's context (the states around it, its die rolls) for `event_lines`."""
    return callable(getattr(text, "event_lines", None))


def request_setup(record: ModuleType) -> Callable[[Any], Any]:
    """The setup a remote client gives (a text, or a JSON value), checked by the game's record module's
    optional `request_setup(value)` (which refuses what would read a file on the server; ValueError says
    why); the documented default takes the value as it is, for the game's State.new to check."""
    return getattr(record, "request_setup", lambda value: value)


def command_setup(record: ModuleType) -> Callable[..., Any]:
    """The setup a command line names (the tournament, the ladder): the text of the game's setup flag and its
    further flags (Declaration.flags, by name), read by the record module's optional
    `command_setup(value, **flags)`, which may read the files they name (ValueError names the flag); what it
    gives, the record module's `new` takes. The documented default takes the setup flag's text as it is (for
    `new` to check); a game that declares further flags provides it."""
    return getattr(record, "command_setup", lambda value, **flags: value)


@dataclass(frozen=True)
class Declaration:
    """What a game folder's game.py declares of itself (`DECLARATION`); the registry adds the rest."""

    title: str                  # the game's name as players read it
    adapter: GameAdapter
    players: tuple[int, int]    # the fewest and most seats
    rules: str                  # the rules reference, relative to the repository's parent
    setup: str = ""             # the setup's field name in records and requests ("" for none), and its flag
    setup_default: str = ""     # the setup a command line gives when none is named
    setup_help: str = ""        # what the setup flag takes, for a command line's help
    order: int = 100            # where the game is listed (SpellBook 0, Abracada…What? 1; then by name)
    terminal: str = ""          # module paths; "" = the conventions of the module docstring
    service: str = ""
    openspiel: str = ""
    ladder: str = ""            # its level -> Elo table in the checkout; "" = data/ladder-NAME.json
    # further setup flags of the command lines that take the setup flag: (name, default, help) each, read by
    # the game's own terminal and by its record module's optional `command_setup` (Spellbook TCG's `--cards`,
    # the card file its decks draw from)
    flags: tuple[tuple[str, str, str], ...] = ()
    # the setup of games played to learn from or to measure (self-play, benches) when none is named; None:
    # `setup_default` (SpellBook's "classic": the spells drawn for each deal, so the games cover them all)
    varied_setup: str | None = None
    # True for the one game that older files name by leaving the game out (the project's first): a record
    # without a "game" field and the older record formats, a tournament key and a ladder's evaluation
    # without a game's name in front are this game's, and its new ones are written the same way, so files
    # already on disk stay readable and their keys stable. At most one game declares it (the registry checks).
    unnamed_in_older_files: bool = False


@dataclass(frozen=True)
class Game:
    """One game, as every layer receives it: `adapter` for search/ and bots, `State`/`Move`, its `notation`,
    `text` and `record` modules, the player counts it allows, the record/request field its setup goes by
    (`setup`: SpellBook's "spells", Abracada…What?'s "variants"), and the module paths of its terminal,
    its gRPC service and its OpenSpiel adapter (the module docstring's conventions)."""

    name: str
    title: str
    adapter: Any
    State: type
    Move: type
    notation: ModuleType
    min_players: int
    max_players: int
    rules: str
    text: ModuleType
    record: ModuleType
    reasons: ModuleType | None    # engine_c/NAME/reasons.py, or None: the game gives no reasons
    insight: ModuleType | None    # engine_c/NAME/insight.py, or None: no insight into the hidden part
    training: ModuleType | None   # engine_c/NAME/training.py (its PLAN: clients/train_plan.py), or None
    package: str
    setup: str
    setup_default: str
    setup_help: str
    terminal: str
    service: str
    openspiel: str
    ladder: str = ""
    order: int = 100
    flags: tuple[tuple[str, str, str], ...] = ()     # Declaration.flags
    varied_setup: str = ""                          # Declaration.varied_setup, its default resolved
    unnamed_in_older_files: bool = False            # Declaration.unnamed_in_older_files

    def layer(self, part: str) -> ModuleType | None:
        """The module of one of the other layers' parts (`terminal`, `service` or `openspiel`: the path this
        game declares or the convention's), or None when the game does not have it yet: each such part is
        optional, and a layer offers only the games that have theirs (the server serves, the terminal plays
        and OpenSpiel registers those). An import error inside an existing module is raised, never hidden."""
        import importlib

        path = getattr(self, part)
        try:
            return importlib.import_module(path)
        except ModuleNotFoundError as e:
            if e.name != path:
                raise
            return None
