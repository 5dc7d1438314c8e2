"""Whole games through the public API: the notation round-trips and invariants hold at every step."""
import random

from engine_c import Move, State


def test_random_game_round_trips_and_ends():
    state = State.new(players=3, spells="classic", seed=5)
    rng = random.Random(5)
    steps = 0
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        assert Move.from_text(str(move)) == move
        state.play(move)
        assert State.from_text(state.to_text()) == state
        state.validate()
        steps += 1
    assert steps > 50
    assert state.winners()
