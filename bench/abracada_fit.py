"""Fit the belief's model of searchers' play (issue 24; docs/search.md "Abracada…What?", D98). One JSON line.

    python bench/abracada_fit.py [--games 40] [--seed0 20000] [--iterations 2000]
    python bench/abracada_fit.py --gain 21000:21025 [--gain-spec SPEC]   # the belief with and without it

Plays 2-player self-play of the rollout search (level 8's fields at `iterations`, no belief, fixed seeds:
deterministic), logs every decision as (the decider's chance of holding each legal spell under its own
exact posterior, XC6; the legal moves; the move played), and fits by maximum likelihood the policy

    P(move | view) ∝ exp(a * log p_hold(move) + c_move),  a = 1 / T,  c = b / T

(p_hold of `end` taken as 1: its c is its whole weight; c of cast k and of `end` one constant each, a small
L2 pull to 0 so the fit is unique). The log-likelihood is concave in (a, c): Newton's method. Prints the
constants (T, b per spell 1-8, b of `end`) as engine_c/abracadawhat/belief.py's SEARCHER_MODEL stores them,
and the mean log-likelihood per decision of the fit, the count heuristic's softmax models and the uniform
policy on the fitting games and on held-out games (`--holdout` more seeds after them).

`--gain A:B`: instead, self-play of `--gain-spec` (default: the fitted search) on seeds A..B-1, and at every
mid-round decision (4+ log entries) the log-likelihood of the mover's true hand under the belief minus
under the count-only prior (bench/abracada.py's belief_gain_nats), with the three-model mixture of D71 and
with the default mixture (D98: plus SEARCHER_MODEL); means, 95% half-widths and the paired difference.
"""
from __future__ import annotations

import os
import sys

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import math

import numpy as np

from engine_c.abracadawhat import State
from engine_c.abracadawhat.game import ABRACADAWHAT
from search.bots import make_bot

NF = 10          # features: a (log p_hold), c_1..c_8, c_end


def spec(iterations: int) -> str:
    return f"ismcts:iterations={iterations},chance=open,rollout=heuristic,belief=false,evaluator=rollout"


def decisions(seed: int, iterations: int) -> list[tuple[np.ndarray, int]]:
    """One self-play game's decisions: (feature matrix over the legal moves, index of the move played)."""
    state = State.new(players=2, seed=seed)
    bots = [make_bot(spec(iterations), ABRACADAWHAT, seed=seed * 7 + i) for i in range(2)]
    out, n = [], 0
    while not state.is_terminal() and n < 3000:
        if state.is_chance():
            state.resolve_chance()
            continue
        seat = state.current_player
        chances = state.holding_probabilities(seat)
        moves = state.legal_moves()
        x = np.zeros((len(moves), NF))
        for i, m in enumerate(moves):
            if m.kind == "end":
                x[i, 9] = 1.0
            else:
                x[i, 0] = math.log(max(chances[m.value], 1e-3))
                x[i, m.value] = 1.0
        move, _ = bots[seat].choose(state)
        out.append((x, moves.index(move)))
        state.apply(move)
        n += 1
    return out


def loglik(theta: np.ndarray, data) -> tuple[float, np.ndarray, np.ndarray]:
    ll, g, h = 0.0, np.zeros(NF), np.zeros((NF, NF))
    for x, j in data:
        z = x @ theta
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        ll += math.log(p[j])
        mu = p @ x
        g += x[j] - mu
        h -= (x * p[:, None]).T @ x - np.outer(mu, mu)
    return ll, g, h


def fit(data, l2: float = 1e-2) -> np.ndarray:
    theta = np.zeros(NF)
    theta[0] = 1.0
    for _ in range(50):
        ll, g, h = loglik(theta, data)
        g -= l2 * theta
        h -= l2 * np.eye(NF)
        step = np.linalg.solve(h, g)
        theta -= step
        if np.abs(step).max() < 1e-9:
            break
    return theta


def counting_ll(data, temperature: float, floor: float) -> float:
    """Mean log-likelihood of the count heuristic's softmax (linear chances, `end` 0.2) with a floor."""
    total = 0.0
    for x, j in data:
        vals = np.where(x[:, 9] > 0, 0.2, np.exp(x[:, 0]))
        z = (vals - vals.max()) / temperature
        p = np.exp(z) / np.exp(z).sum()
        p = floor / len(p) + (1 - floor) * p
        total += math.log(p[j])
    return total / len(data)


def gain(spec_: str, seeds: range) -> dict:
    from engine_c.abracadawhat.belief import DEFAULT_MODELS, MULTISETS, Belief
    from engine_c.abracadawhat.heuristic import CountingBot

    def make(s: str, seed: int):
        return CountingBot(seed=seed) if s == "counting" else make_bot(s, ABRACADAWHAT, seed=seed)

    sets = {"three_models": DEFAULT_MODELS[:3], "default": DEFAULT_MODELS}
    gains: dict[str, list[float]] = {k: [] for k in sets}
    for seed in seeds:
        state = State.new(players=2, seed=seed)
        bots = [make(spec_, seed * 7 + i) for i in range(2)]
        beliefs = {k: [Belief(i, models=m) for i in range(2)] for k, m in sets.items()}
        n = 0
        while not state.is_terminal() and n < 3000:
            if state.is_chance():
                state.resolve_chance()
                continue
            for bs in beliefs.values():
                for b in bs:
                    b.observe(state)
            seat = state.current_player
            raw = state._to_raw()
            if len(raw["log"]) >= 4:
                truth = tuple(raw["hands"][seat])
                prior = {tuple(c): p for c, p in state._posterior(seat)}[truth]
                for k, bs in beliefs.items():
                    bp = {tuple(MULTISETS[i][1:]): p for i, p in bs[seat].hypotheses(state)}
                    gains[k].append(math.log(max(bp.get(truth, 0.0), 1e-300)) - math.log(prior))
            move, _ = bots[seat].choose(state)
            state.apply(move)
            n += 1

    def mean_hw(xs: list[float]) -> list[float]:
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
        return [round(m, 4), round(1.96 * sd / math.sqrt(len(xs)), 4)]

    out = {"spec": spec_, "seeds": [seeds.start, seeds.stop], "positions": len(gains["default"])}
    out.update({f"gain_{k}": mean_hw(v) for k, v in gains.items()})
    out["gain_paired_difference"] = mean_hw([a - b for a, b in zip(gains["default"], gains["three_models"])])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--holdout", type=int, default=10)
    ap.add_argument("--seed0", type=int, default=20000)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--gain", default="", help="A:B: the belief's gain on self-play seeds A..B-1 instead of the fit")
    ap.add_argument("--gain-spec", default="", help="the self-play bot of --gain: a bot spec or `counting` (default: the fitted search)")
    args = ap.parse_args(argv)
    if args.gain:
        a, b = (int(x) for x in args.gain.split(":"))
        print(json.dumps(gain(args.gain_spec or spec(args.iterations), range(a, b))))
        return 0
    train = [d for s in range(args.seed0, args.seed0 + args.games) for d in decisions(s, args.iterations)]
    test = [d for s in range(args.seed0 + args.games, args.seed0 + args.games + args.holdout)
            for d in decisions(s, args.iterations)]
    theta = fit(train)
    a = theta[0]
    out = {"games": args.games, "decisions": len(train), "holdout_decisions": len(test), "seed0": args.seed0,
           "iterations": args.iterations, "temperature": round(1 / a, 4),
           "bias": [round(float(c / a), 4) for c in theta[1:9]], "bias_end": round(float(theta[9] / a), 4)}
    for name, data in (("train", train), ("holdout", test)):
        out[f"ll_fit_{name}"] = round(loglik(theta, data)[0] / len(data), 4)
        out[f"ll_uniform_{name}"] = round(sum(-math.log(len(x)) for x, _ in data) / len(data), 4)
        for t, f in ((0.02, 0.05), (0.2, 0.1)):
            out[f"ll_counting_T{t:g}_{name}"] = round(counting_ll(data, t, f), 4)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
