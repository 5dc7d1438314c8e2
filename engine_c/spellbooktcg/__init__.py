"""The Spellbook Trading Card Game (Oskar Potocki), the third compiled game: `State.new(seed=0)`; rules in
../shared/rules/SPELLBOOK_TCG.md, cards as data in cards/ (docs/tcg-cards.md), the search adapter and declaration in
game.py (a game of the registry: engine_c/registry.py)."""
from engine_c.spellbooktcg.state import IllegalMoveError, Move, NotationError, State

__all__ = ["State", "Move", "NotationError", "IllegalMoveError"]
