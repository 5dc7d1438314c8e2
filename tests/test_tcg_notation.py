"""Spellbook TCG notation and information (TI-1..TI-5, TX-31, TX-32): states, observations and moves round-trip
on random games; malformed text is refused naming the field; an observation hides exactly what TI hides;
determinization keeps every count and known slot and is uniform over the rest (exact counts, small positions)."""
import math
import random
from collections import Counter

import pytest

from engine_c.spellbooktcg import Move, NotationError, State
from tcg_positions import fields, position


def random_states(count=12, seed=0):
    rng = random.Random(seed)
    out = []
    for g in range(count):
        st = State.new(seed=100 + g)
        for _ in range(rng.randrange(1, 400)):
            if st.is_terminal():
                break
            st.apply(st.sample_chance() if st.is_chance() else rng.choice(st.legal_moves()))
        out.append(st)
    return out


STATES = random_states()


def test_states_round_trip():
    phases = set()
    for st in STATES:
        text = st.to_text()
        back = State.from_text(text)
        assert back == st and back.to_text() == text
        phases.add(st.phase)
    assert len(phases) >= 3


def test_TI_observations_round_trip_and_carry_no_history_TX32():
    for st in STATES:
        for p in range(2):
            obs = st.observation(p)
            assert "rng=" not in obs and obs.endswith(f"observer={p}")
            again = State.from_observation(obs, seed=p)
            assert again.observation(p) == obs
            assert State.from_observation(obs, seed=5).observation(p) == obs


def test_moves_round_trip():
    for st in STATES:
        for m in st.legal_moves() + [m for m, _ in st.chance_outcomes()]:
            assert Move.from_text(str(m)) == m
    for text in ("pass", "none", "done", "cast", "mana frost", "power arcane_bolt", "charm spellpower",
                 "attack w0", "block s1.3", "on s0.0", "target w1", "target s1.12", "target q2", "draw mend",
                 "draw #0000abcd"):
        assert str(Move.from_text(text)) == text


@pytest.mark.parametrize("text", ["", "fly", "power", "power Arcane", "attack x3", "target s2.0", "attack s0.99",
                                  "mana arcane_bolt extra", "target q"])
def test_bad_moves_refused(text):
    with pytest.raises(NotationError):
        Move.from_text(text)


BASE = STATES[3].to_text()


@pytest.mark.parametrize("field,value,named", [
    ("turn", "x", "turn"), ("phase", "lunch", "phase"), ("cards", "zzz", "cards"),
    ("cards", "0123456789ab", "cards"), ("active", "2", "active"), ("limit", "0", "limit"),
    ("deck0", "arcane_bolt*75,fireball", "deck0"), ("hand0", "fireball", "hand0"), ("hand1", "?7", "hand1"),
    ("pool0", "arcane_bolt*3", "pool0"), ("book0", "?0", "book0"), ("book1", "mend.?x", "book1"),
    ("wiz0", "ice/-", "wiz0"), ("wiz1", "-/c", "wiz1"), ("summons0", "conjure_familiar/2/2", "summons0"),
    ("queue", "0:arcane_bolt+frost+ward+empower", "queue"), ("queue", "2:mend", "queue"), ("rng", "xyz", "rng"),
    ("winners", "0", "winners"), ("wizards", "merlin,apprentice", "wizards"), ("spent", "1", "spent"),
])
def test_from_text_refuses_naming_the_field(field, value, named):
    f = fields(BASE)
    f[field] = value
    text = "tcg1 " + " ".join(f"{k}={v}" for k, v in f.items())
    with pytest.raises(NotationError) as e:
        State.from_text(text)
    assert named in str(e.value)


def test_from_text_refuses_unknown_missing_and_repeated_fields():
    with pytest.raises(NotationError, match="unknown field"):
        State.from_text(BASE + " observer=0")
    with pytest.raises(NotationError, match="missing field hand1"):
        State.from_text(BASE.replace(" hand1=" + fields(BASE)["hand1"], ""))
    with pytest.raises(NotationError, match="appears twice"):
        State.from_text(BASE + " turn=3")
    with pytest.raises(NotationError, match="must start with"):
        State.from_text(BASE.replace("tcg1", "tcg2"))


def test_corrupted_texts_never_crash():
    """A corrupted state or observation text is refused with a NotationError, or loads as a playable state."""
    rng = random.Random(3)
    for i in range(400):
        base = BASE if i % 2 else STATES[i % len(STATES)].observation(i % 2)
        chars = list(base)
        for _ in range(rng.randrange(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice("0123456789?-*.,+/=abs ")
        try:
            st = State.from_text("".join(chars)) if i % 2 else State.from_observation("".join(chars), seed=i)
        except NotationError:
            continue
        for _ in range(20):
            if st.is_terminal():
                break
            st.apply(st.sample_chance() if st.is_chance() else st.legal_moves()[0])


# ------------------------------------------------------------------------------------- TI: what a seat knows
def test_TI1_TI2_TI4_observation_hides_exactly_the_opponents_hand_mana_and_unknown_cards():
    st = STATES[5]
    full = fields(st.to_text())
    for p in range(2):
        obs = fields(st.observation(p))
        x = 1 - p
        for k in full:
            if k == "rng":
                assert k not in obs
            elif k in (f"hand{x}", f"mana{x}", f"pool{x}"):
                n = len(st.hand(x)) if k.startswith("hand") else len(st.mana(x)) if k.startswith("mana") else \
                    sum(st.pool(x).values())
                assert obs[k] == f"?{n}"                                 # sizes only (TI-2)
            else:
                assert obs[k] == full[k]                                 # everything else public (TI-1, TI-3)


def test_TI3_TX31_graveyard_knowledge_same_for_both_seats_and_follows_the_card():
    st = position(phase="cast", hand=(("arcane_bolt",), ()), book=(("*",), ("*", "mend")),
                  grave=((), ("frost",)) if False else ((), ("kindle",)))
    st.play("power arcane_bolt")
    st.play("target w1")
    for p in range(2):
        assert fields(st.observation(p))["grave1"] == "kindle.mend.?1"   # known stays known in its new slot


def test_TX31_known_card_entering_opponents_hand_is_no_longer_placed():
    st = position(phase="mana", hand=(("arcane_bolt",), ("arcane_bolt",) * 6), book=(("*",), ("*", "mend")))
    while st.active_player == 0:
        st.apply(next(m for m in ("none", "done", "pass") if m in [str(x) for x in st.legal_moves()]))
    assert "mend" in st.hand(1) and fields(st.observation(0))["hand1"] == "?7"
    seen = Counter("mend" in st.determinize(0, seed=s).hand(1) for s in range(200))
    assert seen[True] and seen[False]                                     # dealt with the unplaced cards


# ------------------------------------------------------------------------------------- TI-5: determinization
def small_position():
    """Seat 1 (fire_shock): hand 2, mana 1 and two unknown slots; its 70 other cards known in its graveyard.
    Its hidden cards, seen from seat 0, are {arcane_bolt x2, kindle, static, mend}."""
    deck = Counter({"arcane_bolt": 18, "conjure_familiar": 14, "mend": 6, "conjure_elemental": 4, "empower": 8,
                    "kindle": 8, "static": 6, "spellpower": 3, "amplify": 5, "apocalypse": 3})
    hidden = Counter({"arcane_bolt": 2, "kindle": 1, "static": 1, "mend": 1})
    known = sorted((deck - hidden).elements())
    return position(phase="mana", hand=(("arcane_bolt", "frost"), ("arcane_bolt", "kindle")), mana=(("mend",) * 3, ("mend",)),
                    grave=((), tuple(known) + ("?2",)), book=(("*",), ()))


def test_TI5_determinization_keeps_counts_known_slots_and_own_zones():
    st = small_position()
    obs0 = st.observation(0)
    for s in range(50):
        d = st.determinize(0, seed=s)
        assert d.observation(0) == obs0
        assert d.hand(0) == st.hand(0) and d.mana(0) == st.mana(0) and d.pool(0) == st.pool(0)
        hidden = Counter(d.hand(1)) + Counter(d.mana(1)) + Counter(d.pool(1))
        assert hidden == Counter({"arcane_bolt": 2, "kindle": 1, "static": 1, "mend": 1})
        assert len(d.hand(1)) == 2 and len(d.mana(1)) == 1 and d.graveyard(1) == st.graveyard(1)
        d.validate()
    for st in STATES[:6]:
        for p in range(2):
            if st.is_terminal():
                continue
            d = st.determinize(p, seed=9)
            assert d.observation(p) == st.observation(p)
            d.validate()


def test_TI5_determinization_uniform_against_exact_counts():
    st = small_position()
    n = 6000
    hands = Counter(tuple(st.determinize(0, seed=s).hand(1)) for s in range(n))
    pool = Counter({"arcane_bolt": 2, "kindle": 1, "static": 1, "mend": 1})
    total = math.comb(5, 2)
    exact = {}
    for h in hands:
        c = Counter(h)
        exact[h] = math.prod(math.comb(pool[k], c[k]) for k in c) / total
    assert abs(sum(exact.values()) - 1) < 1e-9 and len(hands) == 7        # every possible hand appears
    chi2 = sum((hands[h] - n * p) ** 2 / (n * p) for h, p in exact.items())
    assert chi2 < 30                                                         # 6 degrees of freedom: p < 1e-4
    mana = Counter(st.determinize(0, seed=s).mana(1)[0] for s in range(2000))
    for k, c in pool.items():
        assert abs(mana[k] / 2000 - c / 5) < 0.04


def test_TI5_own_view_needs_no_dealing_and_vtable_determinize_agrees():
    from engine_c.spellbooktcg.game import TCG

    st = small_position()
    d = st.determinize(1, seed=3)                 # seat 1 knows its own hand and mana; seat 0's are dealt
    assert d.hand(1) == st.hand(1) and d.mana(1) == st.mana(1)
    assert Counter(d.hand(0)) + Counter(d.mana(0)) + Counter(d.pool(0)) == \
        Counter(st.hand(0)) + Counter(st.mana(0)) + Counter(st.pool(0))
    assert TCG.state_from_bytes(TCG.state_bytes(st)) == st
