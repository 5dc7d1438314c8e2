"""How much does a decision by one seat say about the other seat's hand, under each model of its play?
(Abracada…What?, issue 24: what limits the belief against searchers.) Ends with one JSON line.

    python bench/abracada_moves_information.py                  # 24 games of 2,000-iteration rollout searches
    python bench/abracada_moves_information.py --games 10 --spec counting

In 2-player self-play of `--spec` (fixed seeds), at every decision with two or more moves by seat q, the
other seat o's hand has the count-only prior (engine_c/abracadawhat/belief.py's Belief with the uniform
policy: XC6's exact posterior from o's view). Each model gives P(q's move | o holds h) for every hand h,
from q's view with o's hand set to h; the decision's information about o's true hand is
log P(move | true hand) - log sum_h prior(h) P(move | h) (one step from the prior: the belief multiplies
such steps through a round). Models: `fitted`, D98's fitted searcher model (belief.searcher_policy, the
belief's fourth component), and `policy`, the shipped model's learned policy head. Means per decision
with standard errors, and the paired difference's.
"""
from __future__ import annotations

import os
import sys

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import math
import time

import numpy as np

from engine_c.abracadawhat import State
from engine_c.abracadawhat.belief import MULTISETS, Belief, hypothesis_of, searcher_policy
from engine_c.abracadawhat.game import ABRACADAWHAT
from search.bots import make_bot
from search.model import default_model

def with_hand(raw: dict, seat: int, hand: list[int]) -> State | None:
    """The state `raw` with `seat`'s hand replaced by `hand`, the difference moved to or from the pile
    (then the secret stones): stones `seat` cannot see. None when they cannot make up the difference."""
    r = dict(raw, hands=[list(h) for h in raw["hands"]], pile=list(raw["pile"]), secret=list(raw["secret"]))
    for k in range(8):
        r["pile"][k] += raw["hands"][seat][k] - hand[k]
        if r["pile"][k] < 0:
            r["secret"][k] += r["pile"][k]
            r["pile"][k] = 0
    if min(r["secret"]) < 0:
        return None
    r["hands"][seat] = list(hand)
    st = State()
    st._from_raw(r)
    return st


def decision_information(state: State, move, network) -> dict[str, float]:
    """Each model's information about the other seat's true hand in the mover's `move` (nats)."""
    q = state.current_player
    o = 1 - q
    raw = state._to_raw()
    moves = state.legal_moves()
    codes = [m.code for m in moves]
    true = hypothesis_of(raw["hands"][o])
    weights, fitted, policy, at = [], [], [], None
    for h, w in Belief(o, models=((1.0, 0.0),)).hypotheses(state):
        st = with_hand(raw, o, list(MULTISETS[h][1:]))
        if st is None:
            continue
        if h == true:
            at = len(weights)
        weights.append(w)
        fitted.append(searcher_policy(st)[move])
        policy.append(network.priors(ABRACADAWHAT.vtable, st._state_bytes(), q, codes)[moves.index(move)])
    w = np.array(weights) / sum(weights)
    return {name: math.log(lik[at]) - math.log(float(w @ np.array(lik)))
            for name, lik in (("fitted", fitted), ("policy", policy))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=50_000, help="first game seed")
    ap.add_argument("--spec", default="ismcts:iterations=2000,chance=open,rollout=heuristic,evaluator=rollout",
                    help="both seats' bot (search/bots.py spec or `counting`)")
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be at least 1")
    model = default_model(ABRACADAWHAT)
    if model is None:
        ap.error("no shipped Abracada…What? model to read the policy head from")
    network = model.network(ABRACADAWHAT)
    try:
        make_bot(a.spec, ABRACADAWHAT)
    except ValueError as e:
        ap.error(f"--spec: {e}")
    rows: dict[str, list[float]] = {"fitted": [], "policy": []}
    started = time.monotonic()
    for g in range(a.games):
        seed = a.seed + g
        state = State.new(players=2, seed=seed)
        bots = [make_bot(a.spec, ABRACADAWHAT, seed=seed * 7 + i) for i in range(2)]
        decisions = 0
        while not state.is_terminal() and decisions < 3000:
            if state.is_chance():
                state.resolve_chance()
                continue
            move, _ = bots[state.current_player].choose(state)
            if len(state.legal_moves()) >= 2:
                for name, nats in decision_information(state, move, network).items():
                    rows[name].append(nats)
            state.apply(move)
            decisions += 1
    n = len(rows["fitted"])

    def se(values) -> float:
        return round(float(np.std(values, ddof=1) / math.sqrt(len(values))), 4) if len(values) > 1 else 0.0

    out = {"bench": "abracada_moves_information", "spec": a.spec, "games": a.games, "decisions": n,
           "model": model.version, **{f"{k}_nats": round(float(np.mean(v)), 4) for k, v in rows.items()},
           **{f"{k}_se": se(v) for k, v in rows.items()},
           "difference_se": se(np.array(rows["fitted"]) - np.array(rows["policy"])),
           "seconds": round(time.monotonic() - started, 1)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
