"""Property tests (hypothesis) over whole random games: 2-4 players, every spell choice, random seeds.

Invariants checked at every step: all 105 tokens accounted for and every limit held (validate: S1, P1,
familiar 16 spaces), the notation round-trips (state and moves), legal moves are distinct and each one
parses back legal, a determinization leaves both observers' observations unchanged (§8), the game ends,
and the same seed gives the same game.
"""
import random

from hypothesis import given, settings, strategies as st_

from engine_c import Move, State
from engine_c.spellbook.state import SPELL_NAMES

MAX_DECISIONS = 4000
SPELL_CHOICES = ["set1", "set2", "set3", "classic"]


def spells_strategy():
    custom = st_.tuples(*[st_.sampled_from(SPELL_NAMES[3 * c:3 * c + 3]) for c in range(7)]).map(list)
    return st_.one_of(st_.sampled_from(SPELL_CHOICES), custom)


def play_random(players, spells, seed, check=True, det_every=7):
    state = State.new(players=players, spells=spells, seed=seed)
    rng = random.Random(seed)
    history = []
    decisions = 0
    while not state.is_terminal():
        if check:
            state.validate()
            raw = state._to_raw()
            assert all(sum(raw["pool"][p]) <= 9 for p in range(players))
            assert all(sum(raw["fam"][p]) <= 16 for p in range(players))
            text = state.to_text()
            assert State.from_text(text) == state and State.from_text(text).to_text() == text
        if state.is_chance():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            m = state.sample_chance()
        else:
            legal = state.legal_moves()
            assert legal, f"no legal move at a decision: {state.to_text()}"
            if check:
                assert len(set(legal)) == len(legal)
                for lm in legal:
                    assert Move.from_text(str(lm)) == lm
            m = rng.choice(legal)
            decisions += 1
            assert decisions < MAX_DECISIONS, "the game does not end"
            if check and decisions % det_every == 0:
                check_determinization(state, seed + decisions)
        if check:
            assert state.parse_move(str(m)) == m
        state.apply(m)
        history.append(m.code)
    assert state.winners()
    assert len(state.scores()) == players
    return history, state


def check_determinization(state, seed):
    """§8: a determinization changes nothing an observer sees (with or without Discard-box memory)."""
    for p in range(state.players):
        for knows in (True, False):
            obs = state.observation(p, knows_discard=knows)
            det = state.determinize(p, knows_discard=knows, seed=seed)
            det.validate()
            assert det.observation(p, knows_discard=knows) == obs
            back = State.from_observation(obs, seed=seed)
            back.validate()
            assert back.observation(p, knows_discard=knows) == obs
            assert det.legal_moves() == state.legal_moves()


@settings(max_examples=12, deadline=None)
@given(players=st_.integers(2, 4), spells=spells_strategy(), seed=st_.integers(0, 2**32))
def test_random_games_keep_invariants_and_round_trip(players, spells, seed):
    play_random(players, spells, seed)


@settings(max_examples=25, deadline=None)
@given(players=st_.integers(2, 4), spells=spells_strategy(), seed=st_.integers(0, 2**32))
def test_random_games_end_and_same_seed_same_game(players, spells, seed):
    h1, s1 = play_random(players, spells, seed, check=False)
    h2, s2 = play_random(players, spells, seed, check=False)
    assert h1 == h2 and s1 == s2 and s1.to_text() == s2.to_text()


def test_compiled_random_playouts_end():
    """Whole games in C (the search's playout loop) end, from many seeds and every set."""
    from engine_c.spellbook import _engine

    for players in (2, 3, 4):
        for spells in ("set1", "set2", "set3"):
            from engine_c.spellbook.state import resolve_spells
            decisions, days = _engine.random_playouts(players, resolve_spells(spells), 40, 7 + players)
            assert decisions > 0 and days > 0


def test_compiled_playout_state_valid_at_end():
    for seed in range(30):
        st = State.new(players=2 + seed % 3, spells=SPELL_CHOICES[seed % 4], seed=seed)
        st._random_playout(seed)
        assert st.is_terminal()
        st.validate()
