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


def test_move_code_holds_eight_spent_tokens_of_any_type():
    """L1/L2: a pool of 9 spends up to 8 tokens besides the placed one; every type must survive encoding
    (regression: the 8th token of a learn lost its top bit, turning Ys into Pt)."""
    for t in range(21):
        name = "RPGKWBY"[t // 3] + "cts"[t % 3]
        text = f"learn Abundance 5 Yc : {' '.join([name] * 8)}"
        assert str(Move.from_text(text)) == text
    text = "learn Abundance 5 Yc : Ps Gt Gs Kt Wt Yc Yc Ys"
    assert str(Move.from_text(text)) == text
