"""SpellBook, the first compiled game (engine_c.spellbook)."""
from engine_c.spellbook._engine import RULE_TABLES as RULE_TABLES, SPELL_NAMES as SPELL_NAMES, game_vtable as game_vtable
from engine_c.spellbook.state import (IllegalMoveError as IllegalMoveError, Move as Move,
                                      NotationError as NotationError, Score as Score, State as State,
                                      parse_token as parse_token, token_name as token_name)

__all__ = ["State", "Move", "Score", "IllegalMoveError", "NotationError", "SPELL_NAMES", "RULE_TABLES",
           "game_vtable", "token_name", "parse_token"]
