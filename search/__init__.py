"""Game-agnostic search: determinized ISMCTS, flat Monte Carlo, greedy and random bots, strength levels.

Nothing here knows a game: a game plugs in through the game contract (engine_c/contract.py: the C interface
engine_c/game.pxd behind a GameAdapter whose optional parts have documented defaults).
"""
from search._mcts import CancelToken
from search.search import (GameAdapter, MoveStats, SearchOptionError, SearchOptions, SearchResult,
                           flat_monte_carlo, ismcts, raw_playout_rate)

__all__ = ["CancelToken", "GameAdapter", "MoveStats", "SearchOptionError", "SearchOptions", "SearchResult",
           "flat_monte_carlo", "ismcts", "raw_playout_rate"]
