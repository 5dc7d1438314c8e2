"""SpellBook rules engine (compiled). Start with `State.new(players=2, spells="set1", seed=0)`."""
from engine_c.state import IllegalMoveError, Move, NotationError, Score, State, token_name, parse_token
from engine_c._engine import RULE_TABLES, SPELL_NAMES, game_vtable

__all__ = ["State", "Move", "Score", "IllegalMoveError", "NotationError", "SPELL_NAMES", "RULE_TABLES",
           "game_vtable", "token_name", "parse_token"]
