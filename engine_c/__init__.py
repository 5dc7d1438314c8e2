"""The compiled games, one folder each: engine_c/spellbook/ (SpellBook) and engine_c/abracadawhat/
(Abracada…What?); base.py (what every game's Python face shares), registry.py (every game by name:
`get_game("abracadawhat")`) and records.py (the one game-record format) know no game's rules.

The names exported here (`from engine_c import State, Move, ...`) are SpellBook's, the first game, kept
as the stable public API documented since the first release (docs/decisions.md D83); they are the same
objects as engine_c.spellbook's. Start with `State.new(players=2, spells="set1", seed=0)`."""
from engine_c.spellbook import (RULE_TABLES, SPELL_NAMES, IllegalMoveError, Move, NotationError, Score, State,
                                game_vtable, parse_token, token_name)

__all__ = ["State", "Move", "Score", "IllegalMoveError", "NotationError", "SPELL_NAMES", "RULE_TABLES",
           "game_vtable", "token_name", "parse_token"]
