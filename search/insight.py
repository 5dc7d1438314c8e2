"""Game-agnostic insight into hidden information: how each candidate move's value spreads across the
worlds the searching player cannot tell apart."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from search import _mcts
from search.search import GameAdapter, SearchOptions


@dataclass
class MoveSpread:
    move: Any
    margin_q05: float          # final-score margin (own minus best other) quantiles across sampled worlds
    margin_q50: float
    margin_q95: float
    best_share: float          # fraction of sampled worlds in which this move is the best


def _quantile(sorted_values: list[float], q: float) -> float:
    if len(sorted_values) == 1:
        return sorted_values[0]
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def value_spread(game: GameAdapter, state: Any, moves: Sequence[Any] | None = None, worlds: int = 32,
                 rollouts: int = 8, options: SearchOptions | None = None) -> list[MoveSpread]:
    """For each candidate move (default: all legal moves), the 5/50/95% quantiles of the mover's mean
    final margin across `worlds` sampled determinizations, and how often it is the best move there."""
    if worlds < 1 or rollouts < 1:
        raise ValueError("worlds and rollouts must be at least 1")
    opts = options or SearchOptions()
    player = game.current_player(state)
    if player < 0:
        raise ValueError("value spread needs a player's decision (not a chance event or the end)")
    cands = list(moves) if moves is not None else game.legal_moves(state)
    base = {"iterations": 0, "deadline": 0.0, "exploration": 0.0, "objective": "margin", "blend": 0.5,
            "margin_scale": opts.margin_scale, "rollout": opts.rollout, "cutoff": opts.cutoff,
            "observer": player, "observer_kind": 0 if opts.knows_discard else 1, "seed": opts.seed}
    table = _mcts.run_worlds(game.vtable, game.state_bytes(state), [game.code(m) for m in cands], base,
                             worlds, rollouts)
    best_counts = [0] * len(cands)
    for row in table:
        best_counts[max(range(len(cands)), key=lambda k: (row[k], -k))] += 1
    out = []
    for k, move in enumerate(cands):
        values = sorted(row[k] for row in table)
        out.append(MoveSpread(move, _quantile(values, 0.05), _quantile(values, 0.5), _quantile(values, 0.95),
                              best_counts[k] / worlds))
    out.sort(key=lambda s: (-s.best_share, -s.margin_q50))
    return out


__all__ = ["MoveSpread", "value_spread"]
