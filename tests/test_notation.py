"""State and move notation, validation messages, illegal-move reasons, chance, the observation tensor."""
import numpy as np
import pytest

from engine_c import IllegalMoveError, Move, NotationError, State, parse_token
from engine_c.notation import OBSERVATION_SIZE
from positions import do, draw, moves, position, size


def edit(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


BASE = position(pools={0: "RcRt", 1: "Gs"}, altar="KcKt")
TEXT = BASE.to_text()


# ------------------------------------------------------------------------------------- state text
def test_state_text_round_trips():
    assert State.from_text(TEXT) == BASE and State.from_text(TEXT).to_text() == TEXT
    st = State.new(players=4, spells="classic", seed=9)
    assert State.from_text(st.to_text()) == st
    assert State.from_text(repr(st)[len("State.from_text('"):-2]) == st


def test_from_text_rejects_pool_over_limit_P1():
    raw = BASE._to_raw()
    raw["pool"][1] = [0] * 21
    raw["pool"][1][9] = 5
    raw["pool"][1][10] = 5
    raw["pouch"][9] -= 5
    raw["pouch"][10] -= 5
    from positions import _text_of
    with pytest.raises(NotationError, match=r"^player 1's pool holds 10 tokens; the limit is 9"):
        State.from_text(_text_of(raw))


def test_from_text_rejects_token_totals_S1():
    with pytest.raises(NotationError, match=r"^there are 6 Rc across the zones; the game has 5$"):
        State.from_text(edit(TEXT, "p1=pool:Gs;", "p1=pool:RcGs;"))
    with pytest.raises(NotationError, match=r"there are 4 Gs across the zones; the game has 5"):
        State.from_text(edit(TEXT, "p1=pool:Gs;", "p1=pool:-;"))


def test_from_text_rejects_familiar_over_16_and_bad_levels():
    from positions import _text_of
    raw = BASE._to_raw()
    raw["fam"][0][20] = 5
    raw["fam"][0][19] = 5
    raw["fam"][0][18] = 5
    raw["fam"][0][17] = 2
    for ty in (17, 18, 19, 20):
        raw["pouch"][ty] -= raw["fam"][0][ty]
    with pytest.raises(NotationError, match="player 0's familiar holds 17 tokens; it has 16 spaces"):
        State.from_text(_text_of(raw))
    with pytest.raises(NotationError, match="level 3-5"):
        State.from_text(edit(TEXT, "spells:- p1", "spells:Sacrifice2c@0 p1"))
    raw = BASE._to_raw()
    raw["level"][0][0] = 6
    raw["pouch"][0] -= 1
    from engine_c.notation import validate_raw
    with pytest.raises(NotationError, match="levels are 3 to 5"):
        validate_raw(raw)


@pytest.mark.parametrize("old,new,msg", [
    ("sb1 ", "sb2 ", "must start with 'sb1'"),
    ("n=2", "n=1", "solo mode"),
    ("n=2", "n=5", "out of range"),
    ("phase=morning", "phase=noon", "phase must be one of"),
    ("spells=Sacrifice,Levitation", "spells=Levitation,Sacrifice", "position 1 is Red"),
    ("altar=KcKt", "altar=KcXx", "not a token"),
    ("rng=", "rng=zz", "rng must be 16 hex digits"),
    (" taken=-", "", "missing field taken="),
    ("spells:- p1", "spells:Eruption3c@0 p1", "not in play"),
    ("spells:- p1", "spells:Sacrifice3c@9 p1", "after the current day"),
    ("over=0", "over=1", "over=1 needs end=1"),
    ("stack=endday:0,resupply:0,evening:0,midday:0,morning:0", "stack=endday:0,foo:0", "unknown step 'foo'"),
    ("stack=endday:0,resupply:0,evening:0,midday:0,morning:0", "stack=endday:0,morning:7", "names seat 7"),
])
def test_from_text_error_messages(old, new, msg):
    with pytest.raises(NotationError, match=msg):
        State.from_text(edit(TEXT, old, new))


def test_from_text_rejects_states_the_engine_never_rests_in():
    """Hand-written stacks: a deterministic step on top, a decision with no legal move, a draw from an
    empty Pouch are refused (they would crash the C engine's draw or move choice)."""
    with pytest.raises(NotationError, match="runs by itself"):
        State.from_text(edit(TEXT, ",evening:0,midday:0,morning:0", ""))
    with pytest.raises(NotationError, match="player 0 must decide \\(store\\) but has no legal move"):
        State.from_text(edit(TEXT, "morning:0 ", "morning:0,store:0:2 "))     # a store with no rune allowed
    st = position(altar="Rc", pouch="")
    with pytest.raises(NotationError, match="the Pouch is empty"):
        State.from_text(edit(st.to_text(), "morning:0 ", "morning:0,drawpool:0:2 "))


# ------------------------------------------------------------------------------------- moves
@pytest.mark.parametrize("text", [
    "pass", "take Rc", "draw", "store Ys", "learn Sacrifice 4 Rc : Rc Rt Gt Bt", "Transmutation Sacrifice 4 Rc : Rc Bt",
    "Transmutation/t Offering 3 Kc : Rt Gt", "Sacrifice Rc", "Eruption 4", "Blaze", "Levitation 5", "Sharing 3",
    "Divination 4", "Purification 2"[:-1] + "3", "swap Rc Gt", "Cure 3", "discard Rc Ks Ys", "Offering 4",
    "Feast 3 Rc", "Feast 4 Gs", "Growth 5", "Growth 3 Rc Kt", "Focus 4 store", "Focus/t 5 take",
    "TimeTravel Wc Sacrifice", "Storm 5", "Clone 3", "Clone 5 Wc", "drawn Rc"])
def test_move_text_round_trips(text):
    m = Move.from_text(text)
    assert str(m) == text and Move.from_text(str(m)) == m


@pytest.mark.parametrize("text,msg", [
    ("", "empty move"), ("jump", "unknown move"), ("take", "takes 1 argument"), ("take Zz", "not a token"),
    ("Eruption 6", "from 3 to 5"), ("Storm 3", "from 4 to 5"), ("Swiftness", "no action of its own"),
    ("learn Sacrifice 4 Gc : Rc", "must be Red"), ("Growth 3 Rc", "takes 3"), ("Focus/x 3 store", "rune after '/'"),
    ("Levitation/t 3", "only Focus and Transmutation"), ("Focus 3 take", "from 4 to 5"),
])
def test_move_text_errors(text, msg):
    with pytest.raises(NotationError, match=msg):
        Move.from_text(text)


@pytest.mark.parametrize("setup,move,msg", [
    (dict(), "Sacrifice Rc", "you have not learned Sacrifice"),
    (dict(active=1), "Sacrifice Rc", "you have not learned Sacrifice"),
    (dict(learned={0: {"Sacrifice": 3}}, pools={0: "Rt"}), "Sacrifice Rt",
     "Sacrifice at level 3 discards a token with rune c, not Rt"),
    (dict(learned={0: {"Sacrifice": (3, "c", 8)}}, day=8, pools={0: "Rc"}), "Sacrifice Rc", "from the next Day on"),
    (dict(learned={0: {"Levitation": 3}}), "Levitation 4", "is at level 3; the level-4 effect needs level 4"),
    (dict(learned={0: {"Levitation": 3}}, altar="Kt"), "Levitation 3", "no token with rune c"),
    (dict(spells="set2"), "Sacrifice Rc", "Sacrifice is not in play in this game"),
    (dict(), "store Rc", "is a Midday action; now it is your Morning"),
    (dict(), "learn Sacrifice 3 Rc : Rc Rc", "is an Evening action"),
    (dict(pools={0: "Rc5Rt4"}, altar="Gc"), "take Gc", "pool is full"),
    (dict(altar="Gc"), "take Gs", "there is no Gs on the Altar"),
    (dict(), "drawn Rc", "no draw is pending"),
    (dict(at="evening", pools={0: "RcRt"}), "learn Sacrifice 3 Rc : Rc Rt", "spends 2 Rc"),
    (dict(at="evening", pools={0: "RcRtPc"}), "learn Sacrifice 3 Rc : Rt Pc", "do not pay exactly"),
    (dict(at="evening", pools={0: "RcRcRc"}, learned={0: {"Sacrifice": 3}}), "learn Sacrifice 3 Rc : Rc Rc",
     "you have already learned Sacrifice"),
    (dict(at="evening", pools={0: "Rc"}, learned={0: {"TimeTravel": 5, "Sacrifice": 5}}), "TimeTravel Rc Sacrifice",
     "already at level 5"),
    (dict(at="evening", pools={0: "Rc"}, learned={0: {"TimeTravel": 5}}), "TimeTravel Rc TimeTravel",
     "cannot raise itself"),
    (dict(at="evening", pools={0: "Rc"}, learned={0: {"TimeTravel": 5}}), "TimeTravel Rc Sacrifice",
     "you have not learned Sacrifice; Time Travel raises a learned spell"),
    (dict(at="midday", learned={0: {"Purification": 3}}, pools={0: "Rc"}), "Purification 3", "move no token"),
])
def test_illegal_moves_have_reasons(setup, move, msg):
    st = position(**setup)
    with pytest.raises(IllegalMoveError, match=msg):
        st.parse_move(move)
    with pytest.raises(IllegalMoveError, match=msg):
        st.apply(move)
    assert not st.is_legal(move)


def test_illegal_in_subdecision_lists_legal_moves():
    st = position(spells="set2", altar="RcRt", learned={0: {"Sharing": 4}})
    do(st, "Sharing 4")
    with pytest.raises(IllegalMoveError, match="must now choose take"):
        st.apply("draw")
    do(st, "take Rc", "take Rt")
    with pytest.raises(IllegalMoveError, match="a Pouch draw must be resolved first"):
        st.apply("pass")


def test_illegal_after_game_over():
    st = position(over=True)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        st.apply("pass")


# ------------------------------------------------------------------------------------- chance
def test_chance_outcomes_match_pouch_counts():
    st = position(altar="Rc", pouch="GcGcGtKs")
    do(st, "draw")
    outs = {str(m): p for m, p in st.chance_outcomes()}
    assert outs == {"drawn Gc": 0.5, "drawn Gt": 0.25, "drawn Ks": 0.25}
    assert sum(outs.values()) == pytest.approx(1.0)
    with pytest.raises(IllegalMoveError, match="no Rc in the Pouch"):
        st.apply("drawn Rc")
    st.apply("drawn Gc")
    assert {str(m): p for m, p in st.chance_outcomes()} == pytest.approx({"drawn Gc": 1 / 3, "drawn Gt": 1 / 3,
                                                                          "drawn Ks": 1 / 3})


@pytest.mark.parametrize("seed", range(5))
def test_chance_probabilities_sum_to_one_on_fresh_draws(seed):
    st = State.new(players=3, spells="classic", seed=seed)
    st.apply("draw")
    outs = st.chance_outcomes()
    raw = st._to_raw()
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    for m, p in outs:
        ty = parse_token(str(m).split()[1])
        assert p == pytest.approx(raw["pouch"][ty] / sum(raw["pouch"]))


def test_same_seed_same_draws_and_sample_chance_errors():
    a, b = State.new(seed=42), State.new(seed=42)
    assert a == b and a.play("draw") == b.play("draw")
    assert State.new(seed=42) != State.new(seed=43)
    with pytest.raises(IllegalMoveError, match="no draw is pending"):
        a.sample_chance()


def test_pickle_and_copy():
    import copy
    import pickle
    st = State.new(players=3, seed=4)
    assert pickle.loads(pickle.dumps(st)) == st and copy.deepcopy(st) == st and st.clone() == st


# ------------------------------------------------------------------------------------- observations
def test_observation_hides_rng_and_unseen_view_D1():
    st = State.new(players=2, seed=5)
    st.play("draw")
    obs = st.observation(1)
    assert "rng=" not in obs and "pouch=" in obs and obs.endswith("observer=1")
    blind = st.observation(1, knows_discard=False)
    assert "unseen=" in blind and "pouchsize=" in blind and "pouch=" not in blind
    with pytest.raises(ValueError, match="seat from 0 to 1"):
        st.observation(2)


def test_determinize_without_discard_memory_resamples_split():
    st = position(altar="Rc", discard="GcGcGcGcGc", pools={0: "Kc"})
    seen = set()
    for seed in range(20):
        d = st.determinize(0, knows_discard=False, seed=seed)
        assert d.observation(0, knows_discard=False) == st.observation(0, knows_discard=False)
        assert size(d, "pouch") == size(st, "pouch")
        seen.add(tuple(d._to_raw()["discard"]))
    assert len(seen) > 1
    d = st.determinize(0, knows_discard=True, seed=1)
    assert d._to_raw()["discard"] == st._to_raw()["discard"] and d._to_raw()["rng"] != st._to_raw()["rng"]


def test_determinize_keeps_justdisc_visible():
    sp = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Transmutation", "Communion"]
    st = position(spells=sp, at="evening", pools={0: "RcRtRs"}, learned={0: {"Communion": 5}})
    do(st, "learn Sacrifice 3 Rc : Rt Rs")
    assert st.decision == "store"
    for seed in range(5):
        d = st.determinize(1, knows_discard=False, seed=seed)
        assert d.legal_moves() == st.legal_moves()
        d.validate()


def test_observation_array_layout():
    st = position(players=3, active=1, day=7, pools={1: "RcRc", 2: "Ys"}, fam={1: "Gt"}, altar="KcKt",
                  learned={1: {"Levitation": (4, "t", 1), "Sacrifice": (5, "s", 7)}}, end=True)
    v = st.observation_array(1)
    assert v.shape == (OBSERVATION_SIZE,) == (430,) and v.dtype == np.float32
    assert v[9] == 1 and v[10] == 1 and v[0:21].sum() == 2                  # Altar Kc Kt
    assert v[42:63].sum() == size(st, "pouch")                               # Pouch counts
    assert v[63 + 0] == 2 and v[63 + 21 + 7] == 1                            # self: pool Rc2, familiar Gt
    assert v[63 + 42 + 1] == pytest.approx(0.8) and v[63 + 42 + 0] == 1.0    # levels/5
    assert v[63 + 49 + 3 * 1 + 1] == 1 and v[63 + 49 + 0 + 2] == 1           # runes: Levitation t, Sacrifice s
    assert v[63 + 70 + 1] == 1 and v[63 + 70 + 0] == 0                       # usable today: learned earlier
    assert v[63 + 77 + 20] == 1                                              # next seat (2): Ys
    assert v[371 + 0] == 1 and v[371 + 3] == 1 and v[371:392].sum() == 7     # set ◇ in play
    assert v[392 + 1] == 1                                                   # phase morning
    assert v[398 + 2] == 1                                                   # pending step: morning
    assert v[415 + 0] == 1 and v[421 + 0] == 1                               # self decides, self active
    assert v[425] == 1 and v[426] == pytest.approx(0.07) and v[427 + 1] == 1
    w = st.observation_array(0)
    assert w[415 + 1] == 1 and w[63 + 77] == 2                               # seat 1 is offset 1 from seat 0
    do(st, "draw")
    assert st.observation_array(1)[415 + 4] == 1                             # chance
