"""engine_c/abracadawhat/insight.py hand_insight (D59): what a seat probably holds and what each
announcement risks, from what the seat observes only (XI2, XC6)."""
import pytest

from engine_c.abracadawhat import State
from engine_c.abracadawhat.insight import hand_insight


def test_the_insight_depends_on_the_observation_only():
    st = State.new(players=3, seed=12)
    st.play("cast 6")
    seat = 1
    for k in range(5):        # other worlds with the same observation of seat 1: another own hand, pile, secrets
        other = st.determinize(seat, seed=k)
        assert other.observation(seat) == st.observation(seat)
        assert hand_insight(other, seat) == hand_insight(st, seat)


def test_chances_and_risks_follow_the_posterior_and_the_rules():
    st = State.new(players=2, seed=3)
    seat = st.current_player
    ins = hand_insight(st, seat)
    assert ins.holding == pytest.approx(st.holding_probabilities(seat))
    assert [a.move.value for a in ins.announcements] == sorted(
        (m.value for m in st.legal_moves() if m.kind == "cast"), key=lambda v: (-round(ins.holding[v], 12), v))
    for a in ins.announcements:
        p = ins.holding[a.move.value]
        assert a.success_probability == pytest.approx(p)
        if a.move.value == 1:       # XC8: a failed Ancient Dragon costs the die roll (mean 3.5 at 6 life)
            assert a.expected_life_loss == pytest.approx((1 - p) * 3.5)
            assert a.self_knockout_probability == pytest.approx((1 - p) / 6)     # a 6 at 6 life
        else:
            assert a.expected_life_loss == pytest.approx(1 - p) and a.self_knockout_probability == 0
    assert ins.hands_considered == sum(1 for v in st.posterior(seat).values() if v > 0)


def test_a_failure_at_one_life_knocks_the_seat_out():
    import random

    rng, st = random.Random(4), State.new(players=2, seed=4)
    while not (st.current_player >= 0 and st.life[st.current_player] == 1):      # play until a seat at 1 life decides
        if st.is_terminal():
            st = State.new(players=2, seed=rng.randrange(10**6))
        st.play(rng.choice(st.legal_moves()))
    ins = hand_insight(st, st.current_player)
    for a in ins.announcements:
        q = 1 - a.success_probability
        if a.move.value == 1:        # any roll takes the last life
            assert a.self_knockout_probability == pytest.approx(q) and a.expected_life_loss == pytest.approx(q)
        else:
            assert a.self_knockout_probability == pytest.approx(q)        # XR4
            assert a.expected_life_loss == pytest.approx(q)               # XT3: at most 1 left to lose
