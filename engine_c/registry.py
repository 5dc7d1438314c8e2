"""The games this project plays, found by folder: every engine_c/NAME/ with a game.py that declares
`DECLARATION` (engine_c.contract.Declaration) is a game, and nothing lists them by hand.

    from engine_c.registry import get_game
    g = get_game("abracadawhat")
    state = g.State.new(players=3, seed=1)
    search.ismcts(g.adapter, state, ...)

A name is resolved to its `Game` (engine_c.contract.Game) once, where it enters (a request, a CLI flag, a
record); the object travels from there. engine_c never imports clients/ or server/: the terminal, the
service and the OpenSpiel adapter are module paths each layer imports itself (the contract's conventions).
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

from engine_c.contract import Declaration, Game

_HERE = os.path.dirname(os.path.abspath(__file__))


def _folders() -> list[str]:
    """The game folders: engine_c's subfolders holding a game.py (hidden and private folders aside)."""
    return sorted(n for n in os.listdir(_HERE)
                  if n.isidentifier() and not n.startswith("_") and os.path.isfile(os.path.join(_HERE, n, "game.py")))


def _declaration(folder: str) -> Declaration:
    decl = getattr(importlib.import_module(f"engine_c.{folder}.game"), "DECLARATION", None)
    if not isinstance(decl, Declaration):
        raise TypeError(f"engine_c.{folder}.game must declare DECLARATION = engine_c.contract.Declaration(...)")
    return decl


_DECLARED = {folder: _declaration(folder) for folder in _folders()}
GAMES: tuple[str, ...] = tuple(sorted(_DECLARED, key=lambda n: (_DECLARED[n].order, n)))
# The game a command line or a call that names none plays: the first listed.
DEFAULT_GAME: str = GAMES[0]


def _unnamed_game() -> str | None:
    """The game older files name by leaving the game out (Declaration.unnamed_in_older_files), or None."""
    named = [n for n in GAMES if _DECLARED[n].unnamed_in_older_files]
    if len(named) > 1:
        raise TypeError(f"only one game may be unnamed in older files; {', '.join(named)} all declare it")
    return named[0] if named else None


# The game of a record without a "game" field (and of the older record formats), of a tournament key and a
# ladder evaluation without a game's name in front: see engine_c.records.game_of.
UNNAMED_GAME: str | None = _unnamed_game()
_cache: dict[str, Game] = {}


def _load(folder: str) -> Game:
    """The game's whole face, its modules imported (lazily: a game's record module imports engine_c.records,
    which imports this registry)."""
    package, decl = f"engine_c.{folder}", _DECLARED[folder]

    def part(module: str) -> ModuleType:
        return importlib.import_module(f"{package}.{module}")

    def optional(module: str) -> ModuleType | None:
        try:
            return part(module)
        except ModuleNotFoundError as e:
            if e.name != f"{package}.{module}":
                raise
            return None

    states = part("state")
    low, high = decl.players
    return Game(name=folder, title=decl.title, adapter=decl.adapter, State=states.State, Move=states.Move,
                notation=part("notation"), min_players=low, max_players=high, rules=decl.rules,
                text=part("text"), record=part("record"), reasons=optional("reasons"),
                insight=optional("insight"), training=optional("training"), package=package, setup=decl.setup,
                setup_default=decl.setup_default, setup_help=decl.setup_help,
                terminal=decl.terminal or f"clients.play_{folder}",
                service=decl.service or f"server.{folder}_service",
                openspiel=decl.openspiel or f"clients.openspiel_{folder}",
                ladder=decl.ladder or f"data/ladder-{folder}.json", order=decl.order, flags=decl.flags,
                varied_setup=decl.setup_default if decl.varied_setup is None else decl.varied_setup,
                unnamed_in_older_files=decl.unnamed_in_older_files)


def all_games() -> list[Game]:
    """Every game, in listing order."""
    return [get_game(name) for name in GAMES]


def get_game(name) -> Game:
    """The game called `name` (case-insensitive; 'abracada…what?' and 'abracadawhat' are the same), or
    `name` itself when it is a Game already. ValueError names the known games otherwise."""
    if isinstance(name, Game):
        return name
    if not isinstance(name, str):
        raise ValueError(f"game must be a name ({', '.join(GAMES)}), got {name!r}")
    key = "".join(ch for ch in name.lower() if ch.isalnum())
    if key not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}")
    if key not in _cache:
        _cache[key] = _load(key)
    return _cache[key]
