"""One or more tests per rule id of SPELLBOOK.md: S (setup), T (the Day), P (pool), L (learning),
A (Altar resupply), E (end of game), C (clarifications). The id is in each test's name."""
import pytest

from engine_c import IllegalMoveError, State
from engine_c.spellbook.state import parse_token
from positions import do, draw, level, moves, pool, position, size, zone

SET1 = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Transmutation", "Abundance"]


def t(x):
    return parse_token(x)


def pass_day(st, draws="Ys"):
    """Pass the remaining phases of the current Day and resolve the resupply with `draws` outcomes."""
    p = st.active_player
    while st.active_player == p and not st.is_terminal():
        if st.is_chance():
            st.apply(f"drawn {st.chance_outcomes()[-1][0].__str__().split()[1]}")
        else:
            st.apply("pass")
    return st


# ------------------------------------------------------------------------------------- S
@pytest.mark.parametrize("n", (2, 3, 4))
def test_S1_S3_setup_altar5_pools2(n):
    """S1: all tokens in the Pouch, 5 drawn onto the Altar. S3: each player draws 2."""
    st = State.new(players=n, spells="set1", seed=11)
    assert size(st, "altar") == 5
    assert all(size(st, "pool", p) == 2 for p in range(n))
    assert size(st, "pouch") == 105 - 5 - 2 * n and size(st, "discard") == 0
    st.validate()


def test_S2_seat0_is_first_player_and_solo_refused_D2_D12():
    st = State.new(players=3, seed=1)
    assert st.current_player == 0 and st.active_player == 0 and st.phase == "morning" and st.day == 0
    with pytest.raises(ValueError, match="solo"):
        State.new(players=1)
    with pytest.raises(ValueError):
        State.new(players=5)


def test_S4_spell_sets_and_classic():
    """S4 [R]: set membership; classic picks one spell per color; explicit lists need one per color."""
    assert State.new(spells="set1").spells == SET1
    assert State.new(spells="set2").spells == ["Eruption", "Sharing", "Cure", "Focus", "Storm", "Swiftness", "Knowledge"]
    assert State.new(spells="set3").spells == ["Blaze", "Divination", "Growth", "Feast", "Clone", "Mirage", "Communion"]
    cl = State.new(spells="classic", seed=3).spells
    assert cl == State.new(spells="classic", seed=3).spells and len(cl) == 7
    mixed = ["Communion", "Blaze", "Sharing", "Cure", "Focus", "Clone", "Swiftness"]
    assert State.new(spells=mixed).spells == ["Blaze", "Sharing", "Cure", "Focus", "Clone", "Swiftness", "Communion"]
    with pytest.raises(ValueError, match="two Red spells"):
        State.new(spells=["Blaze", "Sacrifice", "Sharing", "Cure", "Focus", "Clone", "Swiftness"])
    with pytest.raises(ValueError, match="no spell chosen for Yellow"):
        State.new(spells=["Blaze", "Sharing", "Cure", "Focus", "Clone", "Swiftness"])


# ------------------------------------------------------------------------------------- T
def test_T1_day_phases_then_resupply_then_left():
    """T1: Morning, Midday, Evening, resupply, then the player on the left."""
    st = position(players=3, active=1, day=4, altar="RcRt")
    seen = []
    while st.active_player == 1:
        if st.is_chance():
            seen.append("resupply")
            draw(st, "Ys")
        else:
            seen.append(st.decision)
            st.apply("pass")
    assert seen == ["morning", "midday", "evening", "resupply", "resupply", "resupply"]
    assert st.active_player == 2 and st.day == 5 and st.decision == "morning"


def test_T2_one_action_per_phase_and_skip():
    """T2: at most one action per phase; any phase may be skipped."""
    st = position(altar="RcRt")
    do(st, "take Rc")
    assert st.decision == "midday"     # no second Morning action
    assert "pass" in moves(st)
    do(st, "pass")
    assert st.decision == "evening"


def test_T3_primary_actions():
    """T3: Morning Take 1 or Draw 2; Midday Store 1; Evening Learn 1 Spell."""
    st = position(altar="RcRt", pools={0: "RsRsRs"})
    assert moves(st) == {"pass", "take Rc", "take Rt", "draw"}
    do(st, "draw")
    draw(st, "GcGt")
    assert size(st, "pool", 0) == 5
    assert moves(st) == {"pass", "store Rs", "store Gc", "store Gt"}
    do(st, "store Gt")
    assert zone(st, "fam", 0)[t("Gt")] == 1
    assert "learn Sacrifice 3 Rs : Rs Rs" in moves(st)


def test_T4_learned_today_no_action_and_lower_levels():
    """T4/C11: a spell's action is available from the next Day on, at its level or any lower."""
    st = position(day=6, pools={0: "PcPtPs"}, altar="RcRc", learned={0: {"Levitation": (5, "c", 6)}})
    assert not any(m.startswith("Levitation") for m in moves(st))
    st = position(day=6, pools={0: "PcPtPs"}, altar="RcRc", learned={0: {"Levitation": (5, "c", 4)}})
    assert "Levitation 5" in moves(st)
    st = position(spells="set2", day=6, learned={0: {"Sharing": (5, "c", 2)}}, altar="Rc")
    assert {m for m in moves(st) if m.startswith("Sharing")} == {"Sharing 3", "Sharing 4", "Sharing 5"}


def test_T4_spell_without_phase_symbol_gives_exact_level_only():
    """T4: Swiftness (no phase symbol) at L5 gives the L5 effect only: no instant Morning action."""
    st = position(spells="set2", at="evening", pools={0: "Bc5"}, altar="Rc")
    do(st, "learn Swiftness 5 Bc : Bc Bc Bc Bc")
    assert st.is_chance()


def test_T5_instant_effect_only_when_learned_and_permanent_only_own_day():
    """T5: Abundance draws once on learning, never when raised; Mirage only on its owner's Day."""
    st = position(at="evening", pools={0: "YcYcYcRc"}, learned={0: {"TimeTravel": 3}})
    do(st, "learn Abundance 3 Yc : Yc Yc")
    draw(st, "GcGc")
    assert size(st, "pool", 0) == 3
    st = position(at="evening", pools={0: "Wc"}, learned={0: {"TimeTravel": 3, "Abundance": 3}})
    do(st, "TimeTravel Wc Abundance")
    assert size(st, "pool", 0) == 0 and level(st, 0, "Abundance") == 4


# ------------------------------------------------------------------------------------- P
def test_P1_pool_limit_take_draw_partial():
    """P1: no Take at 9; Draw 2 at 8 draws only 1; swaps allowed at 9 (see Purification test)."""
    st = position(pools={0: "Rc5Rt4"}, altar="Gc")
    assert moves(st) == {"pass"}
    st = position(pools={0: "Rc5Rt3"}, altar="Gc")
    do(st, "draw")
    draw(st, "Gt")
    assert size(st, "pool", 0) == 9 and st.decision == "midday"


def test_P2_excess_store_stays_in_pool():
    """P2: storing more than the free familiar spaces: the excess stays in the pool."""
    st = position(at="midday", pools={0: "KcKtKs"}, fam={0: "Rc5Rt5Rs4Pc"}, learned={0: {"Offering": 5}})
    assert size(st, "fam", 0) == 15
    do(st, "Offering 5", "store Kc")
    assert size(st, "fam", 0) == 16 and pool(st, 0) == "KtKs" and st.decision == "evening"


def test_P2_growth_with_one_free_space_takes_one():
    st = position(spells="set3", at="evening", altar="KcKtKs", fam={0: "Rc5Rt5Rs4Pc"}, learned={0: {"Growth": 5}})
    do(st, "Growth 5", "take Kc")
    assert size(st, "fam", 0) == 16 and size(st, "altar") == 2 and level(st, 0, "Growth") == 4


def test_P3_take_is_from_altar_draw_is_from_pouch():
    st = position(altar="Rc", pouch="Gs", discard="")
    do(st, "take Rc")
    assert size(st, "altar") == 0 and pool(st, 0) == "Rc"
    st = position(altar="Rc", pouch="GsGs")
    do(st, "draw")
    assert st.chance_outcomes()[0][0].__str__() == "drawn Gs"
    draw(st, "GsGs")
    assert size(st, "altar") == 1 and pool(st, 0) == "Gs2" and size(st, "pouch") == 0


# ------------------------------------------------------------------------------------- L
def test_L1_learn_places_one_token_discards_the_rest():
    """L1: spend N tokens of the spell's color; one goes on the card at level N, the rest are discarded."""
    st = position(at="evening", pools={0: "RcRtRsRc"})
    ms = {m for m in moves(st) if m.startswith("learn Sacrifice")}
    assert "learn Sacrifice 4 Rc : Rc Rt Rs" in ms and "learn Sacrifice 3 Rt : Rc Rs" in ms
    assert not any(m.startswith("learn Sacrifice 5") for m in ms)
    do(st, "learn Sacrifice 4 Rt : Rc Rc Rs")
    assert level(st, 0, "Sacrifice") == 4 and st._to_raw()["rune"][0][0] == 1
    assert size(st, "pool", 0) == 0 and size(st, "discard") == 3
    assert st._to_raw()["learned_day"][0][0] == st.day


def test_L2_rune_wild_triples_need_one_real_token():
    """L2: 3 tokens sharing a rune count as 1 Materia of any color; at least one real token is spent."""
    st = position(at="evening", pools={0: "RcPtGtKtWt"})
    ms = moves(st)
    assert "learn Sacrifice 3 Rc : Pt Gt Kt" not in ms   # 1 + 1 = 2 Materia only
    st = position(at="evening", pools={0: "RcRcPtGtKt"})
    assert "learn Sacrifice 3 Rc : Rc Pt Gt Kt" in moves(st)
    st = position(at="evening", pools={0: "PtGtKtPcGcKc"})
    assert not any(m.startswith("learn Sacrifice") for m in moves(st))   # no real Red token
    st = position(at="evening", pools={0: "PtGtKtPcGcKcRs"})
    assert "learn Sacrifice 3 Rs : Pc Pt Gc Gt Kc Kt" in moves(st)


def test_L2_wilds_repeatable_for_level5():
    st = position(at="evening", pools={0: "RcPtGtKtPsGsKsWc"})
    assert "learn Sacrifice 3 Rc : Pt Ps Gt Gs Kt Ks" in moves(st)
    st = position(at="evening", pools={0: "RcRtPtGtKtPsGsKsRs"})
    assert "learn Sacrifice 5 Rc : Rt Rs Pt Ps Gt Gs Kt Ks" in moves(st)


def test_L3_learned_once_never_upgraded():
    st = position(at="evening", pools={0: "RcRcRcRtRt"}, learned={0: {"Sacrifice": 3}})
    assert not any(m.startswith("learn Sacrifice") for m in moves(st))
    with pytest.raises(IllegalMoveError, match="already learned"):
        st.apply("learn Sacrifice 5 Rc : Rc Rc Rt Rt")


def test_L4_transmutation_replaces_L2():
    """L4: a Transmutation learning uses only rune wilds (D4: at least one); 3-rune triples are not added."""
    st = position(at="evening", pools={0: "RcBcPsGsKs"}, learned={0: {"Transmutation": (4, "c")}})
    ms = moves(st)
    assert not any(m.startswith("Transmutation Sacrifice") and "Ps" in m for m in ms)
    assert "learn Sacrifice 3 Rc : Ps Gs Ks" not in ms   # 2 Materia: not enough
    assert not any(m.startswith("Transmutation") and m.count(" ") < 5 for m in ms)


# ------------------------------------------------------------------------------------- A
@pytest.mark.parametrize("altar,draws,after_discard", [("", 5, 0), ("RcRt", 3, 0), ("Rc5", 1, 0),
                                                      ("Rc5Rt4", 1, 0), ("Rc5Rt5", 5, 10), ("Rc5Rt5Rs", 5, 11)])
def test_A1_resupply(altar, draws, after_discard):
    """A1: < 5 → draw to 5; 5..9 → draw 1; ≥ 10 → discard all, draw 5."""
    st = position(at="evening", altar=altar)
    do(st, "pass")
    n = 0
    while st.is_chance():
        draw(st, "Ys")
        n += 1
    assert n == draws and size(st, "discard") == after_discard
    assert st.active_player == 1


@pytest.mark.parametrize("altar_size", range(0, 13))
def test_A1_resupply_every_size(altar_size):
    """A1 at every Altar size a resupply can meet: 0-4 draw up to exactly 5; 5-9 draw exactly 1; 10 or more
    discard the whole Altar, then draw 5. The Altar ends at 5, 6-10 or 5 tokens."""
    altar = "".join(f"{tok}{k}" for tok, k in zip(("Rc", "Rt", "Gc"), (min(altar_size - 4 * i, 4) for i in range(3)))
                    if k > 0)
    st = position(at="evening", altar=altar)
    discard_before = size(st, "discard")
    do(st, "pass")
    n = 0
    while st.is_chance():
        draw(st, "Ys")
        n += 1
    expected = 5 - altar_size if altar_size < 5 else 1 if altar_size < 10 else 5
    assert n == expected
    assert size(st, "altar") == (altar_size + 1 if 5 <= altar_size < 10 else 5)
    assert size(st, "discard") - discard_before == (altar_size if altar_size >= 10 else 0)


def test_A2_altar_may_exceed_10_during_a_day():
    st = position(spells="set3", altar="Rc5Rt4", learned={0: {"Divination": 3}})
    do(st, "Divination 3")
    draw(st, "GcGt")
    assert size(st, "altar") == 11
    st.validate()


def test_A3_empty_pouch_refilled_from_discard_box():
    """A3: a draw that finds the Pouch empty puts the Discard box back into the Pouch first."""
    st = position(altar="Rc", pouch="Gs", pools={})
    assert size(st, "discard") > 90
    do(st, "draw")
    draw(st, "Gs")
    assert st.is_chance() and size(st, "pouch") > 90 and size(st, "discard") == 0
    outs = dict((str(m), p) for m, p in st.chance_outcomes())
    assert abs(sum(outs.values()) - 1) < 1e-12 and len(outs) == 21
    draw(st, "Kc")
    assert pool(st, 0) == "GsKc"


def test_A3_both_empty_draw_not_done():
    """A3: with Pouch and Discard box both empty the draw is simply not done (Draw 2 not offered, C6)."""
    st = State.new(players=4, seed=0)
    raw = st._to_raw()
    alt = [0] * 21
    alt[20] = 5                                   # Ys x5 on the Altar
    fams = [[0] * 21 for _ in range(4)]
    pools = [[0] * 21 for _ in range(4)]
    k = 0
    for ty in range(20):
        for _ in range(5):
            p = k % 4
            (fams if sum(fams[p]) < 16 else pools)[p][ty] += 1
            k += 1
    assert all(sum(x) <= 9 for x in pools)
    raw.update(fam=fams, pool=pools, altar=alt, pouch=[0] * 21, discard=[0] * 21, end_triggered=1)  # full familiars (E1)
    from positions import _text_of
    st = State.from_text(_text_of(raw))
    st.validate()
    assert "draw" not in moves(st)
    do(st, "pass", "pass", "pass")
    assert not st.is_chance() and st.active_player == 1   # the resupply draw (Altar at 5: 1) is not done


# ------------------------------------------------------------------------------------- E
def test_E1_seventh_spell_triggers_end():
    st = position(at="evening", pools={0: "YcYcYc"},
                  learned={0: {n: 3 for n in SET1[:6]}})
    assert not st._to_raw()["end_triggered"]
    do(st, "learn Abundance 3 Yc : Yc Yc")
    assert st._to_raw()["end_triggered"] == 1 and not st.is_terminal()


def test_E1_sixteenth_familiar_space_triggers_end():
    st = position(at="midday", pools={0: "Kc"}, fam={0: "Rc5Rt5Rs5"})
    do(st, "store Kc")
    assert st._to_raw()["end_triggered"] == 1 and size(st, "fam", 0) == 16


def test_E2_round_completed_after_trigger():
    """E2: after the trigger by seat 0, seats 1 and 2 still play their Day; the game ends after seat 2."""
    st = position(players=3, active=0, at="midday", pools={0: "Kc"}, fam={0: "Rc5Rt5Rs5"})
    do(st, "store Kc")
    pass_day(st)
    assert st.active_player == 1 and not st.is_terminal()
    pass_day(st)
    assert st.active_player == 2 and not st.is_terminal()
    pass_day(st)
    assert st.is_terminal() and st.phase == "over" and st.current_player == -2


def test_E2_trigger_by_last_seat_ends_after_its_day_C8():
    """E2/C8: triggered by the last seat, the game ends after that Day's resupply."""
    st = position(players=2, active=1, at="midday", pools={1: "Kc"}, fam={1: "Rc5Rt5Rs5"}, altar="Gc")
    do(st, "store Kc", "pass")
    assert st.is_chance()            # C8: the last Day ends with its resupply
    draw(st, "YcYcYcYc")
    assert st.is_terminal() and size(st, "altar") == 5


def test_E3_score_sum():
    """E3: spells at their final level + familiar + bonuses."""
    st = position(spells="set2", fam={0: "RcRc"},
                  learned={0: {"Knowledge": 3, "Eruption": 5, "Storm": 4}}, over=True)
    sc = st.scores()[0]
    assert sc.familiar == 3 and sc.spells["Eruption"] == 4 and sc.spells["Storm"] == 6
    assert sc.knowledge == 2 and sc.total == 3 + 4 + 6 + 2


def test_E3_rulebook_scoring_example_26_points():
    """The rulebook's example: Sacrifice L4, Levitation L5, Purification L3, Time Travel L4,
    Abundance L5 and 6 stored tokens score 26 (2+5+1+4+7 + familiar 7)."""
    st = position(fam={0: "KcKtKsWcWtWs"}, over=True,
                  learned={0: {"Sacrifice": 4, "Levitation": 5, "Purification": 3, "TimeTravel": 4, "Abundance": 5}})
    sc = st.scores()[0]
    assert sc.spells == {"Sacrifice": 2, "Levitation": 5, "Purification": 1, "Offering": 0,
                         "TimeTravel": 4, "Transmutation": 0, "Abundance": 7}
    assert sc.familiar == 7 and sc.total == 26


@pytest.mark.parametrize("n,value", [(0, 1), (1, 2), (6, 7), (15, 16), (16, 18)])
def test_E3_familiar_track_R(n, value):
    fam = ("Rc5Rt5Rs5Pc" if n == 16 else "Rc5Rt5Rs5"[: 0] + "".join(["Kc", "Kt", "Ks", "Wc", "Wt", "Ws", "Bc", "Bt",
                                                                   "Bs", "Gc", "Gt", "Gs", "Pc", "Pt", "Ps"][:n]))
    st = position(fam={0: fam}, over=True)
    assert st.scores()[0].familiar == value


def test_E4_most_points_wins():
    st = position(fam={0: "Kc", 1: "KcKt"}, over=True)
    assert st.winners() == [1]


def test_E4_tie_broken_by_spells_learned():
    # p0: Sacrifice L5 (3) + familiar 1 = 4 ; p1: Sacrifice L3 (1) + Purification L4 (2) + 1 = 4
    st = position(over=True, learned={0: {"Sacrifice": 5}, 1: {"Sacrifice": (3, "t"), "Purification": 4}})
    assert [s.total for s in st.scores()] == [4, 4]
    assert st.winners() == [1]


def test_E4_tie_then_pool_tokens():
    st = position(over=True, pools={0: "GcGc", 1: "Gc"}, learned={0: {"Sacrifice": 4}, 1: {"Purification": 4}})
    assert [s.total for s in st.scores()] == [3, 3]
    assert st.winners() == [0]


def test_E4_full_tie_shared_win():
    st = position(players=3, over=True, pools={0: "Gc", 1: "Gt", 2: "GtGs"},
                  learned={0: {"Sacrifice": 4}, 1: {"Purification": 4}, 2: {"Purification": (3, "t")}})
    assert [s.total for s in st.scores()] == [3, 3, 2]
    assert st.winners() == [0, 1]


# ------------------------------------------------------------------------------------- C
@pytest.mark.parametrize("action,setup", [
    ("purification", dict(spells=SET1[:5] + ["Mirage", "Abundance"], at="midday", pools={0: "Rs"}, altar="Gc",
                          learned={0: {"Purification": 3}})),
    ("growth", dict(spells=["Sacrifice", "Levitation", "Growth", "Offering", "TimeTravel", "Mirage", "Abundance"],
                    at="evening", altar="Gc", learned={0: {"Growth": 4}})),
    ("feast", dict(spells="set3", at="midday", altar="Gc", fam={0: "Gt"}, learned={0: {"Feast": 4}})),
    ("focus", dict(spells=["Sacrifice", "Levitation", "Purification", "Focus", "TimeTravel", "Mirage", "Abundance"],
                   at="evening", altar="Gc", learned={0: {"Focus": 4}})),
    ("storm", dict(spells=["Sacrifice", "Levitation", "Purification", "Offering", "Storm", "Mirage", "Abundance"],
                   at="evening", altar="Gc", learned={0: {"Storm": 4}})),
    ("divination", dict(spells="set3", altar="Gc", learned={0: {"Divination": 5}})),
    ("sharing", dict(spells=["Sacrifice", "Sharing", "Purification", "Offering", "TimeTravel", "Mirage", "Abundance"],
                     altar="Gc", learned={0: {"Sharing": 4}})),
    ("communion", dict(spells="set3", at="evening", altar="Gc", pools={0: "YcYcYt"})),
])
def test_C1_every_take_triggers_mirage(action, setup):
    """C1: every token taken from the Altar on its owner's Day triggers Mirage, whatever the action."""
    setup["learned"] = {0: {**setup.get("learned", {}).get(0, {}), "Mirage": (3, "c")}}
    st = position(**setup)
    first = {"purification": ["Purification 3", "swap Gc Rs"], "growth": ["Growth 4", "take Gc"],
             "feast": ["Feast 4 Gc"], "focus": ["Focus 4 take", "take Gc"],
             "storm": ["Storm 4", "pass", "take Gc"], "sharing": ["Sharing 4", "take Gc"],
             "divination": ["Divination 5"], "communion": ["learn Communion 3 Yc : Yc Yt", "take Gc"]}[action]
    do(st, *first)
    if action == "divination":
        draw(st, "RtRt")
        do(st, "take Gc")
    assert st.is_chance()
    before = size(st, "pool", 0)
    draw(st, "Ks")
    assert size(st, "pool", 0) == before + 1


def test_C2_effect_level_chosen_when_action_starts():
    """C2: the effect level is part of the move (chosen before any draw)."""
    st = position(spells="set2", pools={0: "Pc"}, learned={0: {"Eruption": 5}})
    do(st, "Eruption 3")
    draw(st, "KcKcKc")
    assert size(st, "pool", 0) == 4 and not st.is_chance()


def test_C3_growth_moves_down_literally():
    st = position(spells="set3", at="evening", altar="RcPc", learned={0: {"Growth": 5}})
    do(st, "Growth 5", "take Rc", "take Pc")    # only 2 on the Altar: still moves to 4
    assert level(st, 0, "Growth") == 4


def test_C4_clone_uses_other_players_level():
    sp = ["Eruption", "Levitation", "Purification", "Offering", "Clone", "Transmutation", "Abundance"]
    st = position(spells=sp, at="midday", pools={0: "WcPc"}, learned={0: {"Clone": 5, "Eruption": 5}, 1: {"Eruption": 3}})
    do(st, "Clone 5 Wc")
    assert {m for m in moves(st) if m.startswith("Eruption")} == {"Eruption 3"}


def test_C5_purification_token_moves_once():
    st = position(at="midday", altar="RcRt", pools={0: "Gc"}, learned={0: {"Purification": 5}})
    do(st, "Purification 5", "swap Rc Gc")
    # Rc was taken: it may not be given back; Gc was given: it may not be taken back -> no swap left
    assert st.decision == "evening"


def test_C6_actions_that_move_nothing_are_not_offered_pass_always_is():
    st = position(pools={0: "Rc5Rt4"}, altar="Gc", learned={0: {"Levitation": 5}})
    assert moves(st) == {"pass"}
    st = position(at="midday", pools={}, altar="Gc", learned={0: {"Purification": 5, "Offering": 5}})
    assert moves(st) == {"pass"}


def test_C6_swiftness_instant_action_is_optional():
    st = position(spells="set2", at="evening", altar="Gc", pools={0: "Bc3"})
    do(st, "learn Swiftness 3 Bc : Bc Bc", "pass")
    assert st.is_chance() and pool(st, 0) == "-"


def test_C7_communion_stores_before_instant():
    st = position(spells=["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Transmutation",
                          "Communion"], at="evening", pools={0: "YcYcYt"}, altar="Rc", learned={0: {}})
    do(st, "learn Communion 3 Yc : Yc Yt")     # Communion L3: no storage (not L5)
    assert st.decision == "take"


def test_C8_last_day_ends_with_resupply():
    st = position(players=2, active=1, at="evening", end=True, altar="Rc")
    do(st, "pass")
    assert st.is_chance()
    draw(st, "Yc" * 4)
    assert st.is_terminal() and size(st, "altar") == 5


def test_C9_partial_completion_examples():
    st = position(players=2, spells="set3", pools={0: "Pc4Pt2"}, altar="Rc", learned={0: {"Blaze": 3}})
    do(st, "Blaze")
    draw(st, "YcYcYc")
    assert size(st, "pool", 0) == 9 and st.current_player == 1 and st.decision == "blaze"


def test_C10_take_as_far_as_possible():
    st = position(spells="set2", altar="Rc", learned={0: {"Sharing": 5}})
    do(st, "Sharing 5", "take Rc")
    assert st.is_chance()      # no token left to take: the others draw
    draw(st, "Yc")
    assert st.decision == "midday"


def test_C11_learned_today_no_action_permanent_at_once():
    """C11: Mirage learned this Day applies at once (e.g. Swiftness's instant take triggers it)."""
    sp = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Mirage", "Abundance"]
    st = position(spells=sp, at="evening", pools={0: "BcBcBc"}, altar="Rc")
    do(st, "learn Mirage 3 Bc : Bc Bc")
    assert st.is_chance()   # straight to the resupply
    st = position(spells=["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Swiftness",
                          "Communion"], at="evening", pools={0: "BcBcBc"}, altar="Rc", learned={})
    do(st, "learn Swiftness 3 Bc : Bc Bc")
    assert st.decision == "morning"


def test_C12_triple_may_include_own_color_and_placed_token_chooses_rune():
    st = position(at="evening", pools={0: "RcRtPtGt"})
    assert "learn Sacrifice 3 Rc : Rt Pt Gt" not in moves(st)     # Rc + (Rt Pt Gt) = 2 Materia
    st = position(at="evening", pools={0: "RcRcRtPtGt"})
    ms = moves(st)
    assert "learn Sacrifice 3 Rc : Rc Rt Pt Gt" in ms      # Rc real, Rc real, (Rt Pt Gt) wild
    do(st, "learn Sacrifice 3 Rc : Rc Rt Pt Gt")
    assert st._to_raw()["rune"][0][0] == 0
    st = position(at="evening", pools={0: "RcRcRs"})
    assert {"learn Sacrifice 3 Rs : Rc Rc", "learn Sacrifice 3 Rc : Rc Rs"} <= moves(st)


def test_C13_eruption_count_fixed_at_start():
    st = position(spells="set2", pools={0: "Pc"}, learned={0: {"Eruption": 3}})
    do(st, "Eruption 3")
    draw(st, "KcKcKc")
    assert size(st, "pool", 0) == 4


def test_C14_sharing_order_take_draw_then_others():
    st = position(players=3, spells="set2", altar="Rc", learned={0: {"Sharing": 3}})
    do(st, "Sharing 3", "take Rc")
    draw(st, "Ys")
    assert pool(st, 0) == "RcYs" and size(st, "pool", 1) == 0
    assert st.is_chance()
    draw(st, "Yc")
    assert pool(st, 1) == "Yc" and size(st, "pool", 2) == 0
    draw(st, "Yt")
    assert pool(st, 2) == "Yt"


def test_C15_dash_points_are_zero():
    st = position(spells="set3", learned={0: {"Feast": 5, "Communion": 4}, 1: {"Communion": 3}}, over=True)
    assert st.scores()[0].spells["Feast"] == 0 and st.scores()[0].spells["Communion"] == 0
    st = position(spells="set2", learned={0: {"Knowledge": 5}}, over=True)
    assert st.scores()[0].spells["Knowledge"] == 0


def test_C16_end_checked_mid_action_day_completes():
    st = position(at="midday", pools={0: "KcKtKs"}, fam={0: "Rc5Rt5Rs4"}, learned={0: {"Offering": 5}})
    do(st, "Offering 5", "store Kc")
    assert not st._to_raw()["end_triggered"] and st.decision == "store"
    do(st, "store Kt")
    assert st._to_raw()["end_triggered"] == 1     # the 16th space: triggered in the middle of Offering
    assert pool(st, 0) == "Ks" and st.decision == "evening" and not st.is_terminal()
