"""State and move notation, validation messages, illegal-move reasons, chance, the observation tensor."""
import numpy as np
import pytest

from engine_c import IllegalMoveError, Move, NotationError, State, parse_token
from engine_c.spellbook.notation import OBSERVATION_SIZE
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
    from engine_c.spellbook.notation import validate_raw
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
    offering = position(at="midday", learned={0: {"Offering": 3}}).to_text()
    with pytest.raises(NotationError, match="player 0 must decide \\(store\\) but has no legal move"):
        State.from_text(edit(offering, "midday:0 ", "store:0:2:8:7:127 "))     # Offering 3, empty pool
    with pytest.raises(NotationError, match="pending above the Day's Morning step, which is still to be decided"):
        State.from_text(edit(TEXT, "morning:0 ", "morning:0,store:0:2 "))
    st = position(altar="Rc", pouch="")
    with pytest.raises(NotationError, match="the Pouch is empty"):
        State.from_text(edit(st.to_text(), "midday:0,morning:0 ", "midday:0,drawpool:0:2 "))   # Draw 2


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


# ------------------------------------------------------------------------------------- whole-state validation (issue 12)
def test_counts_above_255_are_value_errors_naming_the_field():
    """Token counts that would overflow the C state (uint8) are refused before the conversion, naming the
    field (they used to raise OverflowError)."""
    for old, new, msg in [(" taken=-", " taken=Rc300", r"^taken: 300 Rc; the game has 5 of each token$"),
                          (" given=-", " given=Gt256", r"^given: 256 Gt"),
                          (" justdisc=-", " justdisc=Ys999", r"^justdisc: 999 Ys"),
                          ("p1=pool:Gs;", "p1=pool:Gs300;", r"^player 1's pool: 300 Gs"),
                          ("altar=KcKt", "altar=Kc260Kt", r"^altar: 260 Kc"),
                          ("altar=KcKt", "altar=Kc2600Kt", r"^altar: cannot read 'Kc2600Kt'")]:
        with pytest.raises(NotationError, match=msg) as e:
            State.from_text(edit(TEXT, old, new))
        assert isinstance(e.value, ValueError)


def test_error_messages_quote_at_most_100_characters():
    long = "x" * 5000
    for text in [edit(TEXT, "altar=KcKt", "altar=Kc" + long), edit(TEXT, "phase=morning", "phase=" + long),
                 edit(TEXT, "rng=", "rng=" + long), edit(TEXT, " taken=-", f" {long}=1"),
                 edit(TEXT, "p0=pool:", "p0=pool:" + long), edit(TEXT, "day=4", "day=" + "9" * 5000),
                 edit(TEXT, "stack=endday:0", "stack=" + long), "sb2" + long, TEXT + " " + long]:
        with pytest.raises(NotationError) as e:
            State.from_text(text)
        assert len(str(e.value)) < 300 and long not in str(e.value)
    with pytest.raises(NotationError, match="at most 20000"):
        State.from_text(TEXT + " " * 30_000)
    for move in ["take " + long, long, "Eruption " + "9" * 5000, "learn " + long + " 3 Rc : Rc",
                 "Focus 3 " + long]:
        with pytest.raises(NotationError) as e:
            BASE.parse_move(move)
        assert len(str(e.value)) < 300 and long not in str(e.value)


@pytest.mark.parametrize("old,new,msg", [
    # the Day's frame: endday at the bottom, then resupply (A1), then the phases in order (T1)
    ("stack=endday:0,resupply:0,", "stack=resupply:0,", "a Day's steps start with endday:0"),
    ("stack=endday:0,resupply:0,", "stack=endday:1,resupply:0,", "a Day's steps start with endday:0"),
    ("endday:0,resupply:0,", "endday:0,", "after endday:0 comes resupply:0"),
    ("evening:0,midday:0,morning:0", "midday:0,evening:0,morning:0", "not what any Evening action"),
    ("morning:0 ", "morning:0,morning:0 ", "two Morning steps need player 0's Swiftness at level 5"),
    ("morning:0 ", "morning:0:1 ", "not what any Morning action"),
    # frames below the top with numbers out of range
    ("midday:0,morning:0 ", "midday:0,setlevel:0:9:4,take:0:2 ", "not what any Morning action"),
    ("midday:0,morning:0 ", "midday:0,drawpool:0:200 ", "not what any Morning action"),
    ("midday:0,morning:0 ", "midday:0,clone:0:2:9,drawpool:0:2 ", "not what any Morning action"),
    ("midday:0,morning:0 ", "midday:0,drawpool:1:1,drawpool:0:2 ", "not what any Morning action"),
    ("evening:0,midday:0,morning:0 ", "storm:0:0:0:4:4 ", "not what any Evening action"),
    ("stack=endday:0,resupply:0,evening:0,midday:0,morning:0", "stack=" + ",".join(["endday:0"] * 33),
     "at most 32"),
    # counters
    ("day=4 active=0", "day=5 active=0", "active=0 does not match day=5"),
    ("day=4", "day=30000", "day=30000 needs end=1"),
    ("day=4", "day=40000", "out of range 0..30001"),
    ("phase=morning", "phase=midday", "phase=midday does not match the stack"),
    ("phase=morning", "phase=over", "phase=over needs over=1"),
    ("phase=morning", "phase=setup", "phase=setup needs day=0, active=0 and end=0"),
    ("day=4 active=0 phase=morning end=0 over=0", "day=5 active=1 phase=over end=1 over=1",
     "stack: the game is over"),
    (" taken=-", " taken=Rc", "no swap is pending"),
    (" justdisc=-", " justdisc=Gs", "no Communion L5 storage is pending"),
])
def test_from_text_validates_the_whole_stack_and_every_counter(old, new, msg):
    """Issue 12: not only the top step: every frame, the Day's structure, the phase, the Day counter (int16)
    and the bookkeeping must be what the engine reaches in play."""
    text = edit(TEXT, old, new)
    if "justdisc=Gs" in text:
        text = edit(edit(text, "p1=pool:Gs;", "p1=pool:-;"), "discard=-", "discard=Gs")
    if "taken=Rc" in text:
        text = edit(text, "given=-", "given=Rc")
    with pytest.raises(NotationError, match=msg):
        State.from_text(text)


def test_full_familiar_or_seven_spells_needs_the_end_triggered_E1():
    st = position(at="midday", fam={0: "Rc5Rt5Rs5Pc"}, end=True)
    with pytest.raises(NotationError, match="end=0, but player 0 has a full familiar"):
        State.from_text(edit(st.to_text(), "end=1", "end=0"))
    with pytest.raises(NotationError, match="over=1 needs phase=over and active=1"):
        State.from_text(edit(edit(st.to_text(), "over=0", "over=1"), "phase=midday", "phase=over"))


def test_frames_below_the_top_that_play_in_the_engine_are_accepted():
    """Steps under way below the top, as play leaves them: a Mirage draw on a Levitation take with one
    token left, Divination 3's discard under its takes, Blaze's takes under its draw (C1, C14)."""
    sp = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Mirage", "Abundance"]
    st = position(spells=sp, altar="RcPc", learned={0: {"Levitation": 5, "Mirage": (4, "c")}})
    do(st, "Levitation 5", "take Rc")
    assert [f[0] for f in st._to_raw()["stack"][-2:]] == [6, 12]   # take (1 left), Mirage draw
    assert State.from_text(st.to_text()) == st
    st = position(players=4, spells="set3", altar="GcKt", pools={0: "Ys"}, learned={0: {"Divination": 3, "Blaze": 3}})
    do(st, "Divination 3")
    assert State.from_text(st.to_text()) == st
    st = position(players=4, spells="set3", learned={0: {"Blaze": 3}})
    do(st, "Blaze")
    assert st.to_text().count("blaze:") == 3 and State.from_text(st.to_text()) == st


def test_setup_states_round_trip_and_bad_setup_stacks_are_refused():
    """S1-S3: every state during setup (the Altar's draws, then each seat's 2) is accepted; others not."""
    st = State()
    st._init(3, [0, 3, 6, 9, 12, 15, 18], 7)
    seen = 0
    while st.is_chance():
        assert State.from_text(st.to_text()) == st
        st._apply_code(st._sample_chance_code())
        seen += 1
    assert seen == 5 + 3 * 2
    st = State()
    st._init(2, [0, 3, 6, 9, 12, 15, 18], 7)
    text = st.to_text()
    with pytest.raises(NotationError, match="during setup"):
        State.from_text(edit(text, "drawpool:1:2,drawpool:0:2", "drawpool:0:2,drawpool:1:2"))
    with pytest.raises(NotationError, match="during setup"):
        State.from_text(edit(text, "start:0,", "start:1,"))


def test_day_counter_end_is_triggered_at_the_day_limit_D21():
    """D21: the Day counter is 16-bit; the engine triggers the end at Day 30000, so it never overflows."""
    from engine_c.spellbook import _engine
    limit = _engine.LIMITS["day"]
    st = position(day=limit - 1, active=1, at="evening")
    assert not st._to_raw()["end_triggered"]
    do(st, "pass")
    st.resolve_chance()
    assert st.day == limit and st._to_raw()["end_triggered"] == 1 and st.active_player == 0
    for _ in range(200):
        if st.is_terminal():
            break
        st.play("pass") if not st.is_chance() else st.resolve_chance()
    assert st.is_terminal() and st.day == limit + 1
    assert State.from_text(st.to_text()) == st


def test_observation_fields_are_validated():
    obs = BASE.observation(0)
    for text, msg in [(obs.replace("observer=0", "observer=2"), r"observer=2 is out of range 0\.\.1"),
                      (obs.replace("observer=0", "observer=x"), "observer must be a number"),
                      (obs + " rng=00", "unknown field 'rng'="),
                      (BASE.observation(0, knows_discard=False).replace("unseen=", "unseen=Rc300"), "unseen: 30"),
                      (obs.replace("altar=KcKt", "altar=KcKt300"), "altar: 300 Kt")]:
        with pytest.raises(NotationError, match=msg):
            State.from_observation(text)


def test_compiled_random_playout_stops_at_its_decision_cap():
    """A second guard (issue 12): a state the validation would refuse (full familiars, end not triggered,
    nobody can ever trigger it) loaded unchecked: the compiled playout still returns, at its cap."""
    from engine_c.spellbook import _engine
    st = position(players=2, spells="set1", at="morning", end=True, fam={0: "Rt5Rs5Pt5Gt", 1: "Ps5Gs5Kt5Ks"},
                  learned={0: {n: 5 for n in ("Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel",
                                              "Transmutation", "Abundance")},
                           1: {n: 5 for n in ("Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel",
                                              "Transmutation", "Abundance")}})
    raw = st._to_raw()
    raw["end_triggered"] = 0
    with pytest.raises(NotationError, match="end=0, but player 0 has a full familiar"):
        from engine_c.spellbook.notation import validate_raw
        validate_raw(raw)
    bad = State()
    bad._from_raw(raw)                      # unchecked: the C core only
    decisions = bad._random_playout(3)
    assert decisions == _engine.LIMITS["playout_decisions"] and not bad.is_terminal()
    st.clone()._random_playout(3)           # the valid one ends
    good = st.clone()
    assert good._random_playout(3) < _engine.LIMITS["playout_decisions"] and good.is_terminal()


def test_nested_actions_round_trip_at_every_step():
    """The deepest nesting play reaches: Clone 4 copies Learn 1 Spell at Midday, the learned Swiftness gives
    its instant Morning action, which is Blaze (the others' takes under Blaze's draw); a Mirage draw
    after a take (C1): every state on the way is accepted as it is."""
    sp = ["Blaze", "Levitation", "Purification", "Offering", "Clone", "Swiftness", "Abundance"]
    st = position(players=3, spells=sp, at="midday", pools={0: "BcBcBc"}, altar="RcPtGs",
                  learned={0: {"Clone": 4, "Blaze": 3}})
    seen = []
    for move in ["Clone 4", "learn Swiftness 3 Bc : Bc Bc", "Blaze"]:
        do(st, move)
        seen.append(st.to_text())
        assert State.from_text(st.to_text()) == st
    assert st.phase == "midday" and st.to_text().count("blaze:") == 2
    for token in ("Kc", "Kc", "Kc", "Kc"):
        draw(st, token)
        assert State.from_text(st.to_text()) == st
    assert st.decision == "blaze" and st.current_player == 1
    sp = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Mirage", "Abundance"]
    st = position(spells=sp, altar="RcRt", learned={0: {"Levitation": 5, "Mirage": (4, "c")}})
    do(st, "Levitation 5", "take Rc")
    assert st.is_chance() and State.from_text(st.to_text()) == st
    draw(st, "Gc")
    assert State.from_text(st.to_text()) == st
