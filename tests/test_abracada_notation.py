"""Abracada…What? notation: states, observations and moves round-trip; from_text refuses what breaks a rule
and names the field (XS1 36 stones, XT3 life 0-6, XS2/XT4 hands of at most 5, counters, seat counts, the
log replayed, XC6 consistency); random corruptions never crash it."""
import random
import re

import pytest

from engine_c.abracadawhat.state import Move, NotationError, State

DOC = ("aw1 n=3 variants=- phase=decide active=1 last=0 roll=- pending=0 life=1,5,5 points=4,3,1 "
       "hands=45777,35678,45568 cast=-,-,- taken=-,-,- secret=3788 pile=15666778888 removed=223446 "
       "log=1:4-,1/0,2:7-,2/0,0:1-r5,0/0 results=self:2:2:1.1.0:3.3.0,self:0:0:0.1.1:0.5.1,ko:0:0:3.1.0:6.5.0 "
       "rng=1f970b808ff3c44e")


def states(count=60, seed=0):
    rng = random.Random(seed)
    out = []
    for g in range(count):
        st = State.new(players=2 + g % 4, seed=g, variants=[(), ("xv1",), ("xv2",), ("xv1", "xv2")][g // 4 % 4])
        for _ in range(rng.randrange(1, 200)):
            if st.is_terminal():
                break
            st.apply(st.sample_chance() if st.is_chance() else rng.choice(st.legal_moves()))
        out.append(st)
    return out


def test_docs_example_parses_and_round_trips():
    st = State.from_text(DOC)
    assert st.to_text() == DOC and st.current_player == 1 and st.round == 4
    obs = st.observation(1)
    assert "hands=45777,?5,45568" in obs and "secret=?4" in obs and "pile=?11" in obs and obs.endswith("observer=1")


def test_states_and_observations_round_trip():
    for st in states():
        text = st.to_text()
        back = State.from_text(text)
        assert back == st and back.to_text() == text
        for p in range(st.players):
            obs = st.observation(p)
            assert State.from_observation(obs, seed=p).observation(p) == obs


def test_moves_round_trip():
    for st in states(20, seed=1):
        for m in st.legal_moves() + [m for m, _ in st.chance_outcomes()]:
            assert Move.from_text(str(m)) == m


@pytest.mark.parametrize("old,new,field", [
    ("n=3", "n=6", "n"),
    ("n=3", "n=1", "n"),
    ("variants=-", "variants=xv3", "variants"),
    ("phase=decide", "phase=lunch", "phase"),
    ("life=1,5,5", "life=1,7,5", "life"),
    ("life=1,5,5", "life=1,5", "life"),
    ("hands=45777,", "hands=457778,", "stones"),                          # 36 stones (XS1)
    ("hands=45777,35678", "hands=45777,356781", "stones"),
    ("secret=3788", "secret=378x", "secret"),
    ("points=4,3,1", "points=4,3,2", "points"),
    ("active=1", "active=2", "active"),
    ("log=1:4-,1/0", "log=2:4-,2/0", "log"),
    ("1/0,2:7-", "1/1,2:7-", "log"),
    ("0:1-r5", "0:1-", "log"),
    ("0:1-r5", "0:1-r7", "log"),
    ("results=self:2:2", "results=ko:2:2", "results"),
    ("self:0:0:0.1.1:0.5.1", "self:0:0:0.1.1:0.5.0", "results"),
    ("results=self:2:2:1.1.0", "results=self:2:2:1.1.1", "results"),
    ("rng=1f970b808ff3c44e", "rng=xyz", "rng"),
    ("rng=1f970b808ff3c44e", "observer=1", "unknown field"),
    ("hands=45777,35678,45568", "hands=45777,?5,45568", "hands"),
    (" last=0", " last=9", "last"),
    (" last=0", " last=4", "last"),
    ("roll=-", "roll=dragon", "roll"),
    ("pending=0", "pending=2", "pending"),
])
def test_from_text_rejects_naming_the_field(old, new, field):
    assert old in DOC
    with pytest.raises(NotationError, match=re.escape(field)):
        State.from_text(DOC.replace(old, new, 1))


def test_from_text_rejects_hands_above_five_and_duplicate_or_missing_fields():
    st = State.from_text(DOC)
    # a sixth stone moved from the pile into a hand
    with pytest.raises(NotationError, match="hands: seat 0 holds 6"):
        State.from_text(DOC.replace("hands=45777", "hands=145777").replace("pile=15666778888", "pile=5666778888"))
    with pytest.raises(NotationError, match="twice"):
        State.from_text(DOC + " n=3")
    with pytest.raises(NotationError, match="missing field life"):
        State.from_text(DOC.replace(" life=1,5,5", ""))
    with pytest.raises(NotationError, match="aw1"):
        State.from_text("sb1 " + DOC[4:])
    with pytest.raises(NotationError):
        State.from_text(None)
    assert st.to_text() == DOC


def test_from_text_rejects_a_seat_whose_announcements_fit_no_hand_XC6():
    """Seat 1 failed 4 this round with no refill since: a hand still holding a 4 is impossible (XC6)."""
    st = State.from_text(DOC)
    assert 4 not in st.hand(1)
    bad = DOC.replace("hands=45777,35678,45568", "hands=45777,34678,55568")
    with pytest.raises(NotationError, match="XC6"):
        State.from_text(bad)


def test_random_corruptions_never_crash():
    rng = random.Random(5)
    texts = [st.to_text() for st in states(30, seed=2)] + [DOC]
    alphabet = "0123456789-,:+/?=r abcdefghijklmnopqrstuvwxyz"
    accepted = 0
    for i in range(3000):
        text = rng.choice(texts)
        chars = list(text)
        for _ in range(rng.randrange(1, 3)):
            j = rng.randrange(len(chars))
            op = rng.random()
            if op < 0.4:
                chars[j] = rng.choice(alphabet)
            elif op < 0.7:
                del chars[j]
            else:
                chars.insert(j, rng.choice(alphabet))
        bad = "".join(chars)
        try:
            st = State.from_text(bad)
        except NotationError as e:
            assert str(e) and len(str(e)) < 400
            continue
        accepted += 1
        assert State.from_text(st.to_text()) == st               # anything accepted is a real state
        st.validate()
    assert accepted < 3000
