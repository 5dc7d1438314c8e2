"""The games this project plays, by name, and where each game's parts are found.

    from engine_c.registry import get_game
    g = get_game("abracadawhat")
    state = g.State.new(players=3, seed=1)
    search.ismcts(g.adapter, state, ...)

The compiled games live one folder each (engine_c/spellbook/, engine_c/abracadawhat/), and one entry below
declares all of a game's parts:
- `adapter` (the folder's game.py) is what search/ and the bots reach a game through (search.GameAdapter):
  the search, the game's own bots (`adapter.bots`), its strength levels (`adapter.level_table`, or
  search/levels.py's default table) and its model file (`adapter.default_model_path`, None: rollouts);
- `State`/`Move` (state.py), `notation` (notation.py), `text` (text.py: the game in words for the
  shared clients: where(state), record_line(rec), LUCK) and `record` (record.py: its setup, chance
  events and views in the one record format of engine_c/records.py);
- `terminal` and `service` are module paths, not modules: the terminal game (clients/, imported by
  clients/play.py and the demo) and the gRPC service with its conversions (server/, imported by
  server/main.py). engine_c never imports clients/ or server/; each layer imports its own part by the
  path named here, so a new game is one entry and its folders.
search/ knows none of the games and reaches one only through its adapter.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Game:
    """One game: `adapter` for search/ and bots, `State`/`Move` (python-chess style, with `new`, `from_text`,
    `observation`, `determinize`...), its `notation`, `text` and `record` modules, the player counts it allows, the
    record/request field its setup goes by (`setup`: SpellBook's "spells", Abracada…What?'s "variants"),
    and the module paths of its terminal and its gRPC service (see the module docstring)."""

    name: str
    title: str
    adapter: Any
    State: type
    Move: type
    notation: ModuleType
    min_players: int
    max_players: int
    rules: str               # the rules reference, relative to the repository's parent
    text: ModuleType | None = None    # the game in words for the shared clients: where(state), record_line(rec), LUCK
    record: ModuleType | None = None  # the game's part of the record format (engine_c/records.py asks it)
    package: str = ""        # the compiled game's folder as a package (engine_c.spellbook)
    setup: str = ""          # the setup's field name in records and requests
    terminal: str = ""       # clients/: the terminal game, with run(args, inp, out) and demo(args, out)
    service: str = ""        # server/: the game's gRPC service (SERVICE_DESCRIPTOR, Servicer; its `conv`)


@dataclass(frozen=True)
class _Entry:
    title: str
    package: str             # modules: PACKAGE.game (adapter), .state, .notation, .text, .record
    adapter: str             # the adapter's name in PACKAGE.game
    players: tuple[int, int]
    rules: str
    setup: str
    terminal: str
    service: str


_GAMES = {
    "spellbook": _Entry("SpellBook", "engine_c.spellbook", "SPELLBOOK", (2, 4), "shared/rules/SPELLBOOK.md",
                        "spells", terminal="clients.play_spellbook", service="server.service"),
    "abracadawhat": _Entry("Abracada…What?", "engine_c.abracadawhat", "ABRACADAWHAT", (2, 5),
                           "shared/rules/ABRACADAWHAT.md", "variants", terminal="clients.play_abracadawhat",
                           service="server.aw_service"),
}
GAMES = tuple(_GAMES)
_cache: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The game called `name` (case-insensitive; 'abracada…what?' and 'abracadawhat' are the same).
    ValueError names the known games otherwise."""
    if not isinstance(name, str):
        raise ValueError(f"game must be a name ({', '.join(GAMES)}), got {name!r}")
    key = "".join(ch for ch in name.lower() if ch.isalnum())
    if key not in _GAMES:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}")
    if key not in _cache:
        e = _GAMES[key]

        def part(module: str) -> ModuleType:
            return importlib.import_module(f"{e.package}.{module}")

        states = part("state")
        _cache[key] = Game(name=key, title=e.title, adapter=getattr(part("game"), e.adapter), State=states.State,
                           Move=states.Move, notation=part("notation"), min_players=e.players[0],
                           max_players=e.players[1], rules=e.rules, text=part("text"), record=part("record"),
                           package=e.package,
                           setup=e.setup, terminal=e.terminal, service=e.service)
    return _cache[key]
