"""10,000 random Abracada…What? games, 2-5 players, with and without XV1/XV2, played in C with every invariant
checked after every move and chance outcome (XS1: 36 stones, spell n has n; XT3: life 0..6; XS2/XT4: hands of
at most 5; XR2-XR5: points add up; XG1: termination and the end at 8 points; XC6: every seat's own announcements
leave a hand it could hold). One state per game, taken at a random decision, then goes through the text
(round trip) and every seat's observation (never its own hand, the pile or the others' secret stones)."""
import pytest

from engine_c.abracadawhat import _engine as E
from engine_c.abracadawhat.state import State

GAMES = 10_000
CONFIGS = [(n, v) for n in (2, 3, 4, 5) for v in (0, 1, 2, 3)]


def fields(text):
    return dict(w.split("=", 1) for w in text.split()[1:])


@pytest.mark.parametrize("players,variants", CONFIGS)
def test_random_games_keep_the_invariants(players, variants):
    games = GAMES // len(CONFIGS)
    decisions, rounds, failures, samples = E.random_games_checked(players, variants, games, 1000 * players + variants)
    assert failures == [], [(g, step, E.INVARIANT_ERRORS.get(err, "did not end")) for g, step, err in failures[:3]]
    assert rounds >= games and decisions > 10 * games           # every game ends (XG1) after real play
    for i, data in enumerate(samples):
        st = State()
        st._load_state_bytes(data)
        text = st.to_text()
        assert State.from_text(text) == st                      # the text round-trips and validates
        if i % 4:
            continue                                             # observations on a quarter of the states
        for p in range(players):
            obs = st.observation(p)
            f = fields(obs)
            hands, taken = f["hands"].split(","), f["taken"].split(",")
            assert hands[p] == f"?{len(st.hand(p))}"             # XI2: never its own hand
            assert f["pile"][0] == "?" and f["secret"][0] == "?" and "rng" not in f      # XI3
            assert all(t == "-" or t[0] == "?" for q, t in enumerate(taken) if q != p)   # XI3
            assert st.determinize(p, seed=i).observation(p) == obs                       # XI4
