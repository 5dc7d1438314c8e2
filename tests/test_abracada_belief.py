"""The belief over the own hand (engine_c/abracadawhat/belief.py) and the searches that use it (issue 24).

Rules: ../shared/rules/ABRACADAWHAT.md (XI2: a seat sees every hand but its own; XC6: the exact posterior
from the counts and the seat's own announcements; inferring from others' announcements is the search's).
"""
from __future__ import annotations

import math

import pytest

from engine_c.abracadawhat import State
from engine_c.abracadawhat.belief import Belief
from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.abracadawhat.heuristic import CountingBot
from engine_c.spellbook.game import SPELLBOOK
from engine_c import State as SpellBookState
from search import SearchOptions, ismcts
from search.bots import make_bot
from search.levels import describe_levels, level_options
from search.search import SearchOptionError


def play_counting(players: int, seed: int, decisions: int, beliefs: list[Belief] | None = None) -> State:
    """A count-heuristic game for `decisions` decisions, every belief shown every decision state; ends at
    a decision of the game's second round or later only if the first ends that soon."""
    state = State.new(players=players, seed=seed)
    bots = [CountingBot(seed=i) for i in range(players)]
    done = 0
    while done < decisions and not state.is_terminal():
        if state.is_chance():
            state.resolve_chance()
            continue
        for b in beliefs or []:
            b.observe(state)
        move, _ = bots[state.current_player].choose(state)
        state.apply(move)
        done += 1
    state.resolve_chance()
    return state


def mid_round(players: int = 2, seed: int = 3) -> tuple[State, list[Belief]]:
    """A decision with at least 8 entries in the round's log, every seat's belief fed all the way."""
    beliefs = [Belief(i) for i in range(players)]
    state = State.new(players=players, seed=seed)
    bots = [CountingBot(seed=i) for i in range(players)]
    while True:
        state.resolve_chance()
        for b in beliefs:
            b.observe(state)
        if len(state._to_raw()["log"]) >= 8:
            return state, beliefs
        state.apply(bots[state.current_player].choose(state)[0])


def test_probabilities_add_up_to_one_and_keep_the_posteriors_support():
    state, beliefs = mid_round(3, seed=5)
    for seat, b in enumerate(beliefs):
        hands = b.hands(state)
        assert math.isclose(sum(hands.values()), 1.0, abs_tol=1e-9)
        assert set(hands) == set(state.posterior(seat))        # the floor: no possible hand ruled out (XC6)
        assert b.updates > 0


def test_uniform_policy_gives_the_exact_posterior():
    """With a policy that ignores the hand (an infinite temperature, or floor 1) the belief is XC6's."""
    state = play_counting(2, seed=11, decisions=12)
    for models in (((0.05, 1e12),), ((1.0, 0.0),)):
        b = Belief(state.current_player, models=models)
        exact = state.posterior(state.current_player)
        got = b.hands(state)
        assert set(got) == set(exact)
        assert max(abs(got[h] - exact[h]) for h in exact) < 1e-6


def test_the_floor_keeps_a_hand_a_surprising_move_contradicts():
    """temperature 0: the modelled seat always plays the heuristic's move, so any other move has policy
    probability 0; the floor keeps every possible hand alive, at a likelihood no lower than the floor."""
    state, _ = mid_round(2, seed=7)
    sharp = Belief(state.current_player, models=((0.01, 0.0),))
    hands = sharp.hands(state)
    assert set(hands) == set(state.posterior(state.current_player))
    assert min(hands.values()) > 0
    with pytest.raises(ValueError, match="floor"):
        Belief(0, models=((0.0, 0.1),))


def test_the_belief_learns_from_announcements():
    """In count-heuristic self-play, a belief whose model is that policy (sharp: temperature 0.02) gives
    the true hand more probability than the count-only prior, on average over positions; the default
    mixture learns that the seat plays the sharp model."""
    total, count = 0.0, 0
    for seed in range(6):
        state, _ = mid_round(2, seed=seed)
        seat = state.current_player
        truth = tuple(k + 1 for k, c in enumerate(state._to_raw()["hands"][seat]) for _ in range(c))
        sharp = Belief(seat, models=((0.05, 0.02),))
        total += math.log(sharp.hands(state)[truth]) - math.log(state.posterior(seat)[truth])
        count += 1
    assert total / count > 0.2
    mixture = Belief(seat)
    mixture.observe(state)
    weights = mixture.model_weights(1 - seat)
    assert weights.argmax() == 0 and math.isclose(weights.sum(), 1.0)


def test_deterministic_and_derivable_from_the_log():
    """Two players: the belief built from the last state alone equals the one fed every state, and the
    same calls give the same numbers."""
    state, beliefs = mid_round(2, seed=9)
    seat = state.current_player
    once = Belief(seat)
    assert once.hands(state) == beliefs[seat].hands(state)
    assert Belief(seat).hands(state) == once.hands(state)
    assert once.skipped == 0


def test_same_observation_same_belief():
    """The belief reads only what its seat sees (XI2, XI3): a state resampled from the seat's view (its
    own hand, the pile, the secret stones changed) gives the same belief."""
    state, _ = mid_round(3, seed=4)
    seat = state.current_player
    other = state.determinize(seat, seed=99)
    assert other != state
    assert Belief(seat).hands(other) == Belief(seat).hands(state)


def test_search_with_belief_and_own_view_is_deterministic_and_sees_only_the_observation():
    state, _ = mid_round(2, seed=6)
    seat = state.current_player
    opts = SearchOptions(iterations=300, seed=5, chance="open", redeterminize=True, belief=True)
    first = ismcts(ABRACADAWHAT, state, opts)
    again = ismcts(ABRACADAWHAT, state, opts)
    resampled = ismcts(ABRACADAWHAT, state.determinize(seat, seed=1), opts)
    assert [(m.move, m.visits) for m in first.moves] == [(m.move, m.visits) for m in again.moves]
    assert [(m.move, m.visits) for m in first.moves] == [(m.move, m.visits) for m in resampled.moves]
    assert first.opponent_tree_moves > 0 and 0 <= first.opponent_tree_fails <= first.opponent_tree_moves


def test_own_view_changes_how_simulated_opponents_play():
    state, _ = mid_round(2, seed=6)
    base = dict(iterations=400, seed=5, chance="open")
    searcher = ismcts(ABRACADAWHAT, state, SearchOptions(**base))
    own = ismcts(ABRACADAWHAT, state, SearchOptions(**base, redeterminize=True))
    assert [(m.move, m.visits) for m in searcher.moves] != [(m.move, m.visits) for m in own.moves]


def test_options_are_checked():
    with pytest.raises(SearchOptionError, match="redeterminize"):
        SearchOptions(redeterminize="sometimes").validate()
    with pytest.raises(SearchOptionError, match="belief"):
        SearchOptions(belief="yes").validate()
    sb = SpellBookState.new(players=2, spells="set1", seed=0)
    with pytest.raises(SearchOptionError, match="belief"):
        ismcts(SPELLBOOK, sb, SearchOptions(iterations=10, belief=True))


def test_levels_come_from_the_game():
    low, top = level_options(1, game=ABRACADAWHAT), level_options(10, game=ABRACADAWHAT)
    assert top.belief and top.rollout == "heuristic" and top.time_ms == 1000.0
    # levels 3-8 pool chance outcomes (D33); the top two key them (D154: they keep gaining to 16x so)
    assert level_options(8, game=ABRACADAWHAT).chance == "open" and top.chance == "keyed"
    assert low.iterations < top.iterations and not low.belief
    assert not top.redeterminize and not top.opponent_prior      # D97: measured, not adopted
    assert [d["level"] for d in describe_levels(ABRACADAWHAT)] == list(range(1, 11))
    assert not level_options(10, game=SPELLBOOK).redeterminize and not level_options(10, game=SPELLBOOK).belief


def test_a_level_bot_keeps_a_belief_per_seat():
    bot = make_bot("ismcts:level=6,iterations=60", ABRACADAWHAT, seed=1)
    state, _ = mid_round(2, seed=2)
    move, info = bot.choose(state)
    assert move in state.legal_moves()
    assert set(bot.beliefs) == {state.current_player}
