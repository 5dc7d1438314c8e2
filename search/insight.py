"""Game-agnostic insight into hidden information: how each candidate move's value spreads across the
worlds the searching player cannot tell apart, and what each outcome of the next chance event would mean
(a what-if, over the game contract: a game folder never calls the search itself)."""
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
            "observer": player, "observer_kind": opts.observer_kind, "seed": opts.seed}
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


@dataclass
class ChanceOutcome:
    """One outcome of a chance event: its probability, who decides after it (-2: the game is over), that
    decision's best move (None when the game is over) and the values after it, by seat."""

    outcome: Any
    probability: float
    decider: int
    best_reply: Any
    win_probability: list[float]
    expected_score: list[float]


def what_if_chance(game: GameAdapter, world: Any, move: Any = None, options: SearchOptions | None = None,
                   cancel: Any = None) -> list[ChanceOutcome]:
    """For the next chance event of `world` (after `move`, if given): each outcome with its probability, and
    the best reply and values after it. `world` is a determinization for the player asking (the caller's:
    it decides what that player may see), so the answer never uses what the player cannot see; later chance
    events of the same step are sampled once in that world. `cancel` (a CancelToken) stops it: the outcomes
    not reached yet are left out. [] when no chance event follows."""
    from search.search import ismcts

    opts = options or SearchOptions(iterations=300)
    world = world.clone()
    if move is not None:
        world.apply(move)
    if not world.is_chance():
        return []
    out = []
    for outcome, prob in world.chance_outcomes():
        if cancel is not None and cancel.cancelled:
            break
        after = world.clone()
        after.apply(outcome)
        after.resolve_chance()
        if after.is_terminal():
            wins, scores = game.final_values(after)
            out.append(ChanceOutcome(outcome, prob, -2, None, list(wins), list(scores)))
            continue
        best = ismcts(game, after, opts, cancel=cancel).chosen
        out.append(ChanceOutcome(outcome, prob, game.current_player(after), best.move, best.win_probability,
                                 best.expected_score))
    return out
