"""A search that reports as it goes: ISMCTS run in time segments whose root statistics are merged.

The compiled search frees its tree when it returns, so a progress report cannot peek into a running
tree. Instead the budget is spent in segments of `every_s` seconds; each segment is an independent
ISMCTS tree (its own seed), and the cumulative root statistics are the visit-weighted merge of all
segments so far, the same way root parallelism merges threads. Trees are shallower than one tree of
the same total size, so a streamed analysis is a little weaker than GetBestMove for the same budget;
its reports are what it would answer if stopped there. Game-agnostic.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from typing import Any, Iterator

from search.search import CancelToken, GameAdapter, MoveStats, SearchOptions, SearchResult, choose_final, ismcts


def merge_stats(game: GameAdapter, parts: list[list[MoveStats]]) -> list[MoveStats]:
    """Visit-weighted merge of root move statistics from independent searches (most visits first)."""
    acc: dict[int, dict] = {}
    for stats in parts:
        for s in stats:
            a = acc.setdefault(game.code(s.move), {"move": s.move, "v": 0, "avail": 0, "r": 0.0,
                                                    "w": None, "m": None, "sq": None, "prior": 0.0})
            v = s.visits
            a["v"] += v
            a["avail"] += s.availability
            a["r"] += s.mean_reward * v
            a["prior"] = max(a["prior"], s.prior)     # the policy's prior at the root: every segment's is the same
            sq = [sd * sd + mu * mu for sd, mu in zip(s.score_std, s.expected_score)]
            for key, vals in (("w", s.win_probability), ("m", s.expected_score), ("sq", sq)):
                weighted = [x * v for x in vals]
                a[key] = weighted if a[key] is None else [x + y for x, y in zip(a[key], weighted)]
    out = []
    for a in acc.values():
        v = max(a["v"], 1)
        mean = [x / v for x in a["m"]]
        std = [math.sqrt(max(sq / v - mu * mu, 0.0)) for sq, mu in zip(a["sq"], mean)]
        out.append(MoveStats(move=a["move"], visits=a["v"], availability=a["avail"], mean_reward=a["r"] / v,
                             win_probability=[x / v for x in a["w"]], expected_score=mean, score_std=std,
                             prior=a["prior"]))
    out.sort(key=lambda s: (-s.visits, -s.mean_reward, game.code(s.move)))
    return out


def ismcts_progress(game: GameAdapter, state: Any, options: SearchOptions, every_s: float,
                    cancel: CancelToken | None = None) -> Iterator[tuple[SearchResult, bool]]:
    """Yields (cumulative result, final) after each segment of about `every_s` seconds; exactly one
    final result last. Stops at the iteration budget, the time budget / deadline, or a cancel."""
    options.validate()
    if every_s <= 0:
        raise ValueError("every_s must be positive")
    cancel = cancel or CancelToken()
    start = time.monotonic()
    end = options.absolute_deadline(start)
    seeds = random.Random(options.seed)
    parts: list[list[MoveStats]] = []
    iterations = nodes = 0
    decisions = 0.0
    pv: list[Any] = []
    best_segment = -1
    while True:
        seg_end = time.monotonic() + every_s
        if end:
            seg_end = min(seg_end, end)
        remaining = options.iterations - iterations if options.iterations else 0
        seg = ismcts(game, state, replace(options, iterations=remaining, time_ms=0.0, deadline=seg_end,
                                          seed=seeds.getrandbits(64)), cancel)
        parts.append(seg.moves)
        iterations += seg.iterations
        nodes += seg.nodes
        decisions += seg.mean_decisions * seg.iterations
        if seg.iterations > best_segment:
            best_segment, pv = seg.iterations, seg.principal_variation
        now = time.monotonic()
        done = (cancel.cancelled or (options.iterations and iterations >= options.iterations)
                or (end and now >= end))
        moves = merge_stats(game, parts) if iterations else seg.moves
        best = choose_final(moves, options.temperature, options.seed,
                            options.lcb_stdevs if seg.evaluator == "network" else 0.0)
        result = SearchResult(move=best.move, moves=moves, principal_variation=pv, iterations=iterations,
                              elapsed_s=now - start, seed=options.seed, player=seg.player,
                              threads=options.threads, nodes=nodes,
                              mean_decisions=decisions / max(iterations, 1),
                              cut_short=bool(cancel.cancelled or (options.iterations and iterations < options.iterations)))
        yield result, bool(done)
        if done:
            return
