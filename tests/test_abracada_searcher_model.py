"""The belief's fitted model of searchers' play (engine_c/abracadawhat/belief.py SEARCHER_MODEL, D98;
fitted by bench/abracada_fit.py)."""
from __future__ import annotations

import math

import pytest

from engine_c.abracadawhat import State
from engine_c.abracadawhat.belief import DEFAULT_MODELS, MULTISETS, SEARCHER_MODEL, Belief, searcher_policy
from engine_c.abracadawhat.game import ABRACADAWHAT
from search.bots import make_bot

SEARCHER = "ismcts:iterations=2000,chance=open,rollout=heuristic,belief=false,evaluator=rollout"


def first_decision(seed: int) -> State:
    s = State.new(players=2, seed=seed)
    while s.is_chance():
        s.resolve_chance()
    return s


def test_the_c_likelihood_is_the_fitted_policy():
    # at a round's first decision the decider's view is what the believing seat can rebuild (no secret
    # stones yet), so the likelihood of the believer's true hand is the fitted policy's probability
    for seed in range(4):
        s = first_decision(seed)
        q = s.current_player
        o = 1 - q
        policy = searcher_policy(s)
        hand = s._to_raw()["hands"][o]
        idx = next(i for i, c in enumerate(MULTISETS) if list(c[1:]) == list(hand))
        for move, p in policy.items():
            b = Belief(o, models=(SEARCHER_MODEL,))
            st = State.new(players=2, seed=seed)
            while st.is_chance():
                st.resolve_chance()
            st.apply(move)
            assert b.observe(st) == 1
            assert float(b._rows[0][0][idx]) == pytest.approx(p, rel=1e-5)


def test_the_fit_describes_searchers_better_than_the_count_heuristic_or_chance():
    # two games of the search the model was fitted to (held out: the fit used seeds 20000-20039); over the
    # fit's 10 held-out games: -1.50 nats a decision, the count heuristic's softmax (T 0.02) -2.87, uniform -1.71
    from engine_c.abracadawhat.heuristic import move_values

    fitted = uniform = sharp = 0.0
    n = 0
    for seed in (20090, 20091):
        s = State.new(players=2, seed=seed)
        bots = [make_bot(SEARCHER, ABRACADAWHAT, seed=seed * 7 + i) for i in range(2)]
        while not s.is_terminal() and n < 800:
            if s.is_chance():
                s.resolve_chance()
                continue
            policy = searcher_policy(s)
            moves = s.legal_moves()
            values = move_values(s, moves)
            z = [math.exp((v - max(values)) / 0.02) for v in values]
            move, _ = bots[s.current_player].choose(s)
            fitted += math.log(policy[move])
            uniform += math.log(1 / len(policy))
            sharp += math.log(0.05 / len(moves) + 0.95 * z[moves.index(move)] / sum(z))
            s.apply(move)
            n += 1
    assert n > 40 and fitted > uniform and fitted > sharp


def test_it_is_part_of_the_default_mixture_and_checked():
    assert SEARCHER_MODEL in DEFAULT_MODELS and len(DEFAULT_MODELS) == 4
    policy = searcher_policy(first_decision(1))
    assert sum(policy.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="9 finite biases"):
        Belief(0, models=((0.05, 1.0, (0.0,) * 8),))
    with pytest.raises(ValueError, match="temperature > 0"):
        Belief(0, models=((0.05, 0.0, (0.0,) * 9),))
