"""Other seats' decisions by PUCT over the game's move prior (SearchOptions.opponent_prior; issue 24's
`opponent_fail_rate_gap`): simulated opponents stop trying every cast once, so in Abracada…What? they fail
about as often as a player reasoning from the counts, and the searcher's own decisions are unchanged."""
from __future__ import annotations

import math

import pytest

from engine_c import State as SpellBookState
from engine_c.abracadawhat import State
from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.abracadawhat.heuristic import CountingBot
from engine_c.spellbook.game import SPELLBOOK
from search import SearchOptions, ismcts
from search.search import SearchOptionError


def positions(count: int) -> list[State]:
    """Fixed-seed 2-player positions a few count-heuristic decisions into a game, the searcher to move."""
    out = []
    for seed in range(count):
        s = State.new(players=2, seed=seed)
        bots = [CountingBot(seed=seed), CountingBot(seed=seed + 1)]
        done = 0
        while not s.is_terminal() and done < 6 + seed % 5:
            if s.is_chance():
                s.resolve_chance()
                continue
            s.apply(bots[s.current_player].choose(s)[0])
            done += 1
        while s.is_chance():
            s.resolve_chance()
        if not s.is_terminal():
            out.append(s)
    return out


def tree_fail_rate(states: list[State], **fields) -> float:
    moves = fails = 0
    for i, s in enumerate(states):
        r = ismcts(ABRACADAWHAT, s, SearchOptions(iterations=1500, seed=i, chance="open", rollout="heuristic",
                                                  evaluator="rollout", **fields))
        moves += r.opponent_tree_moves
        fails += r.opponent_tree_fails
    return fails / moves


def test_simulated_opponents_fail_less_often_with_the_prior():
    states = positions(8)
    plain = tree_fail_rate(states)
    with_prior = tree_fail_rate(states, opponent_prior=1.0)
    # measured on 20 such positions: 0.47 without, 0.32 with (the count heuristic's real rate is 0.30-0.34)
    assert with_prior < plain - 0.05


def test_own_view_opponents_fail_less_often_with_the_prior():
    states = positions(8)
    plain = tree_fail_rate(states, redeterminize=True)
    with_prior = tree_fail_rate(states, redeterminize=True, opponent_prior=2.0)
    # measured on 20 such positions: 0.52 without, 0.34 with
    assert with_prior < plain - 0.05


def test_the_prior_at_tree_decisions_is_the_count_heuristics():
    # decision_prior weighs casts by the decider's exact posterior (its own announcements count), so a
    # cast the decider's own failure ruled out gets the floor, unlike move_weight's hypergeometric
    from engine_c.abracadawhat import _engine as E
    for s in positions(6):
        seat = s.current_player
        chances = s.holding_probabilities(seat)
        got = E.decision_priors(ABRACADAWHAT.state_bytes(s))
        for k in range(1, 9):
            assert got[k] == pytest.approx(max(chances[k], 0.02), abs=1e-9)
        assert got["end"] == 0.2


def test_it_is_deterministic_and_changes_only_the_other_seats_decisions():
    s = positions(3)[2]
    opts = SearchOptions(iterations=800, seed=9, chance="open", rollout="heuristic", evaluator="rollout",
                         opponent_prior=1.0)
    first, again = ismcts(ABRACADAWHAT, s, opts), ismcts(ABRACADAWHAT, s, opts)
    assert [(m.move, m.visits) for m in first.moves] == [(m.move, m.visits) for m in again.moves]
    off = ismcts(ABRACADAWHAT, s, SearchOptions(iterations=800, seed=9, chance="open", rollout="heuristic",
                                                evaluator="rollout"))
    assert [(m.move, m.visits) for m in first.moves] != [(m.move, m.visits) for m in off.moves]
    assert first.iterations == off.iterations == 800
    assert sum(m.visits for m in first.moves) == 800


def test_the_network_search_and_spellbook_are_untouched_when_off():
    sb = SpellBookState.new(players=2, spells="set1", seed=3)
    a = ismcts(SPELLBOOK, sb, SearchOptions(iterations=300, seed=1, evaluator="rollout"))
    b = ismcts(SPELLBOOK, sb, SearchOptions(iterations=300, seed=1, evaluator="rollout", opponent_prior=0.0))
    assert [(m.move, m.visits, m.mean_reward) for m in a.moves] == [(m.move, m.visits, m.mean_reward) for m in b.moves]


@pytest.mark.parametrize("value", ["high", -1.0, math.nan, math.inf, True])
def test_bad_values_name_the_field(value):
    with pytest.raises(SearchOptionError, match="opponent_prior"):
        SearchOptions(opponent_prior=value).validate()
