"""SpellBook (Phil Walker-Harding), the first compiled game: `State.new(players=2, spells="set1", seed=0)`;
rules in ../shared/rules/SPELLBOOK.md, notation in docs/notation.md, the search adapter in game.py."""
from engine_c.spellbook._engine import RULE_TABLES, SPELL_NAMES, game_vtable
from engine_c.spellbook.state import IllegalMoveError, Move, NotationError, Score, State, parse_token, token_name

__all__ = ["State", "Move", "Score", "IllegalMoveError", "NotationError", "SPELL_NAMES", "RULE_TABLES",
           "game_vtable", "token_name", "parse_token"]
