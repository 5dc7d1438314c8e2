"""Abracada…What? (Gary Kim), the second compiled game: `State.new(players=3, seed=0)`; rules in
../shared/rules/ABRACADAWHAT.md, notation in docs/notation.md, the search adapter in game.py."""
from engine_c.abracadawhat.state import SPELLS, IllegalMoveError, Move, NotationError, State

__all__ = ["State", "Move", "NotationError", "IllegalMoveError", "SPELLS"]
