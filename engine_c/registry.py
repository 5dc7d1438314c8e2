"""The games this project plays, by name: each game's search adapter, State and Move classes and notation.

    from engine_c.registry import get_game
    g = get_game("abracadawhat")
    state = g.State.new(players=3, seed=1)
    search.ismcts(g.adapter, state, ...)

The compiled games live one folder each (engine_c/spellbook/, engine_c/abracadawhat/); search/ knows
none of them and reaches a game only through its adapter (search.GameAdapter).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Game:
    """One game: `adapter` for search/ and bots, `State`/`Move` (python-chess style, with `new`, `from_text`,
    `observation`, `determinize`...), its `notation` module and the player counts it allows."""

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


# name: (title, adapter module and attribute, state module, notation module, players, rules)
_GAMES = {
    "spellbook": ("SpellBook", "engine_c.spellbook.game", "SPELLBOOK", "engine_c.spellbook.state",
                  "engine_c.spellbook.notation", (2, 4),
                  "shared/rules/SPELLBOOK.md"),
    "abracadawhat": ("Abracada…What?", "engine_c.abracadawhat.game", "ABRACADAWHAT", "engine_c.abracadawhat.state",
                     "engine_c.abracadawhat.notation", (2, 5), "shared/rules/ABRACADAWHAT.md"),
}
# name: the game's text module (what the review and the terminal say that only the game knows)
_TEXTS = {"spellbook": "engine_c.spellbook.text", "abracadawhat": "engine_c.abracadawhat.text"}
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
        title, adapter_mod, adapter_attr, state_mod, notation_mod, (lo, hi), rules = _GAMES[key]
        states = importlib.import_module(state_mod)
        _cache[key] = Game(name=key, title=title, adapter=getattr(importlib.import_module(adapter_mod), adapter_attr),
                           State=states.State, Move=states.Move, notation=importlib.import_module(notation_mod),
                           min_players=lo, max_players=hi, rules=rules,
                           text=importlib.import_module(_TEXTS[key]))
    return _cache[key]
