"""The compiled games, one folder each; the top-level names are SpellBook's (engine_c.spellbook), kept as
the stable public API (docs/decisions.md D83)."""
from engine_c.spellbook import (IllegalMoveError as IllegalMoveError, Move as Move, NotationError as NotationError,
                                RULE_TABLES as RULE_TABLES, SPELL_NAMES as SPELL_NAMES, Score as Score,
                                State as State, game_vtable as game_vtable, parse_token as parse_token,
                                token_name as token_name)

__all__ = ["State", "Move", "Score", "IllegalMoveError", "NotationError", "SPELL_NAMES", "RULE_TABLES",
           "game_vtable", "token_name", "parse_token"]
