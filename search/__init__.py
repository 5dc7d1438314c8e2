"""Game-agnostic search: determinized ISMCTS, flat Monte Carlo, greedy and random bots, strength levels.

Nothing here knows SpellBook: a game plugs in through the C interface in search/game.pxd and a small
Python adapter (see search.search.GameAdapter; SpellBook's is engine_c.spellbook.game.SPELLBOOK).
"""
from search._mcts import CancelToken
from search.search import (GameAdapter, MoveStats, SearchOptionError, SearchOptions, SearchResult,
                           flat_monte_carlo, ismcts, raw_playout_rate)

__all__ = ["CancelToken", "GameAdapter", "MoveStats", "SearchOptionError", "SearchOptions", "SearchResult",
           "flat_monte_carlo", "ismcts", "raw_playout_rate"]
