"""Every one of the 21 spells (§7) at every level 3, 4 and 5, through the public API.

Positions are built with tests/positions.py; Pouch draws are resolved with explicit outcomes
(`drawn Xx`) so every test is deterministic.
"""
import pytest

from positions import do, draw, level, moves, pool, position, size, zone
from engine_c.spellbook.state import parse_token

LEVELS = (3, 4, 5)
ALL7 = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Transmutation", "Abundance"]


def spells_with(*names):
    """Set ◇ with the named spells swapped in (one per color)."""
    from engine_c.spellbook.state import spell_id
    out = list(ALL7)
    for n in names:
        out[spell_id(n) // 3] = n
    return out


def t(text):
    return parse_token(text)


def spell_moves(st, head):
    return sorted(m for m in moves(st) if m.split()[0].split("/")[0] == head)


# ------------------------------------------------------------------------------------- Red
@pytest.mark.parametrize("lvl,runes", [(3, "c"), (4, "ct"), (5, "cts")])
def test_sacrifice_levels_rune_of_discard(lvl, runes):
    """§7 Sacrifice [R]: L3 discards a `c`, L4 `c`/`t`, L5 any; then draws 4 (D3)."""
    st = position(pools={0: "RcPtGs"}, learned={0: {"Sacrifice": lvl}})
    allowed = {f"Sacrifice {tok}" for tok in ("Rc", "Pt", "Gs") if tok[1] in runes}
    assert set(spell_moves(st, "Sacrifice")) == allowed
    do(st, f"Sacrifice {'Gs' if lvl == 5 else 'Rc'}")
    assert size(st, "pool", 0) == 2 and size(st, "discard") == 1
    draw(st, "KcKcKcKc")
    assert size(st, "pool", 0) == 6 and st.decision == "midday"
    assert st.scores()[0].spells["Sacrifice"] == {3: 1, 4: 2, 5: 3}[lvl]


def test_sacrifice_pool_limit_partial_C9_P1():
    """C9/P1: Sacrifice at pool 7 discards 1 and draws only 3; at pool 6 it draws all 4."""
    st = position(pools={0: "Rc2Pt2Gs2Kt"}, learned={0: {"Sacrifice": 5}})
    do(st, "Sacrifice Rc")
    draw(st, "WcWcWc")
    assert size(st, "pool", 0) == 9 and not st.is_chance() and st.decision == "midday"
    st = position(pools={0: "Rc2Pt2Gs2"}, learned={0: {"Sacrifice": 5}})
    do(st, "Sacrifice Rc")
    draw(st, "WcWcWcWc")
    assert size(st, "pool", 0) == 9 and not st.is_chance()


@pytest.mark.parametrize("lvl", LEVELS)
def test_eruption_draws_until_target(lvl):
    """§7 Eruption: draw until the pool holds 4/5/6 (any lower effect level too, T4; C13)."""
    st = position(spells="set2", pools={0: "PcPc"}, learned={0: {"Eruption": lvl}})
    assert spell_moves(st, "Eruption") == [f"Eruption {L}" for L in range(3, lvl + 1)]
    do(st, f"Eruption {lvl}")
    draw(st, "Kc" * (lvl + 1 - 2))
    assert size(st, "pool", 0) == lvl + 1 and not st.is_chance()
    assert st.scores()[0].spells["Eruption"] == {3: 2, 4: 3, 5: 4}[lvl]


def test_eruption_no_effect_when_pool_already_holds_target():
    """§7 Eruption: no effect (so not offered, C6) if the pool already holds that many."""
    st = position(spells="set2", pools={0: "PcPcPcPcPc"}, learned={0: {"Eruption": 5}})
    assert spell_moves(st, "Eruption") == ["Eruption 5"]
    st = position(spells="set2", pools={0: "Pc5Pt"}, learned={0: {"Eruption": 5}})
    assert spell_moves(st, "Eruption") == []


@pytest.mark.parametrize("lvl", LEVELS)
def test_blaze_draw4_then_others_take_clockwise(lvl):
    """§7 Blaze / C14: draw 4, then each other player from the left takes 1 Altar token of their choice."""
    st = position(players=3, spells="set3", pools={0: "Pc"}, altar="GcKtWs",
                  learned={0: {"Blaze": lvl}})
    assert "Blaze" in moves(st)
    do(st, "Blaze")
    draw(st, "YcYcYcYc")
    assert size(st, "pool", 0) == 5
    assert st.current_player == 1 and st.decision == "blaze"
    assert moves(st) == {"take Gc", "take Kt", "take Ws"}
    do(st, "take Kt")
    assert st.current_player == 2
    do(st, "take Ws")
    assert pool(st, 1) == "Kt" and pool(st, 2) == "Ws"
    assert st.current_player == 0 and st.decision == "midday"
    assert st.scores()[0].spells["Blaze"] == {3: 0, 4: 2, 5: 5}[lvl]


def test_blaze_partial_at_pool6_and_empty_altar_C9():
    """C9: Blaze at pool 6 draws only 3; with an empty Altar the others' takes are skipped."""
    st = position(players=3, spells="set3", pools={0: "Pc4Pt2"}, altar="", learned={0: {"Blaze": 3}})
    do(st, "Blaze")
    draw(st, "YcYcYc")
    assert size(st, "pool", 0) == 9 and st.current_player == 0 and st.decision == "midday"


def test_blaze_full_pools_skip_and_not_offered_when_nothing_moves_C6():
    """§7 Blaze: a player with a full pool is skipped; Blaze moving nothing at all is not offered."""
    st = position(players=3, spells="set3", pools={0: "Pc3", 1: "Kc5Kt4"}, altar="Gc",
                  learned={0: {"Blaze": 4}})
    do(st, "Blaze")
    draw(st, "YcYcYcYc")
    assert st.current_player == 2 and st.decision == "blaze"   # seat 1 is full: skipped
    do(st, "take Gc")
    assert st.decision == "midday"
    st = position(players=2, spells="set3", pools={0: "Pc4Pt5", 1: "Kc5Kt4"}, altar="Gc",
                  learned={0: {"Blaze": 4}})
    assert "Blaze" not in moves(st)


# ------------------------------------------------------------------------------------- Purple
@pytest.mark.parametrize("lvl,runes", [(3, "c"), (4, "ct"), (5, "cts")])
def test_levitation_two_of_one_rune(lvl, runes):
    """§7 Levitation [R]: take 2 Altar tokens of the same rune (L3 c; L4 c/t; L5 any; D3)."""
    st = position(altar="RcGcPtKtWsBs", learned={0: {"Levitation": lvl}})
    assert spell_moves(st, "Levitation") == [f"Levitation {lvl}"]
    do(st, f"Levitation {lvl}")
    allowed = {f"take {x}" for x in ("Rc", "Gc", "Pt", "Kt", "Ws", "Bs") if x[1] in runes}
    assert moves(st) == allowed
    first = sorted(allowed)[-1]
    do(st, first)
    # the second token has the first one's rune (C10), never a different rune
    assert all(m[-1] == first[-1] for m in moves(st))
    do(st, sorted(moves(st))[0])
    assert size(st, "pool", 0) == 2 and st.decision == "midday"
    assert st.scores()[0].spells["Levitation"] == {3: 3, 4: 4, 5: 5}[lvl]


def test_levitation_not_offered_without_allowed_rune():
    st = position(altar="PtKs", learned={0: {"Levitation": 3}})
    assert spell_moves(st, "Levitation") == []


@pytest.mark.parametrize("lvl", LEVELS)
def test_sharing_take_then_others_draw(lvl):
    """§7 Sharing / C14: L3 take 1 then draw 1; L4 take 2; L5 take 3; then others draw 1 from the left."""
    st = position(players=3, spells="set2", altar="RcGcKcWc", learned={0: {"Sharing": lvl}})
    assert spell_moves(st, "Sharing") == [f"Sharing {L}" for L in range(3, lvl + 1)]
    do(st, f"Sharing {lvl}")
    for tok in ("Rc", "Gc", "Kc")[: (1 if lvl == 3 else lvl - 2)]:
        assert st.decision == "take"
        do(st, f"take {tok}")
    if lvl == 3:
        draw(st, "Bs")
    # the others draw, seat 1 then seat 2
    assert st.is_chance()
    draw(st, "Ys")
    assert pool(st, 1) == "Ys"
    draw(st, "Yt")
    assert pool(st, 2) == "Yt"
    assert size(st, "pool", 0) == (2 if lvl == 3 else lvl - 2)
    assert st.decision == "midday"
    assert st.scores()[0].spells["Sharing"] == 4


def test_sharing_other_full_pool_skipped():
    st = position(players=2, spells="set2", altar="Rc", pools={1: "Kc5Kt4"}, learned={0: {"Sharing": 4}})
    do(st, "Sharing 4", "take Rc")
    assert st.decision == "midday" and size(st, "pool", 1) == 9


@pytest.mark.parametrize("lvl", LEVELS)
def test_divination_levels(lvl):
    """§7 Divination: draw 2 onto the Altar, then L3 take 2 + discard 1; L4 up to 2 of one color; L5 take 2."""
    st = position(spells="set3", altar="GcKt", pools={0: "Ys"}, learned={0: {"Divination": lvl}})
    do(st, f"Divination {lvl}")
    draw(st, "GtRs")
    assert size(st, "altar") == 4
    if lvl == 4:
        assert moves(st) == {"pass", "take Gc", "take Kt", "take Gt", "take Rs"}
        do(st, "take Gc")
        assert moves(st) == {"pass", "take Gt"}       # the first one's color (C10)
        do(st, "take Gt")
    else:
        assert "pass" not in moves(st)
        do(st, "take Kt", "take Rs")
    if lvl == 3:
        assert st.decision == "discard"
        assert moves(st) == {"discard Ys", "discard Kt", "discard Rs"}
        do(st, "discard Ys")
        assert size(st, "pool", 0) == 2 and zone(st, "discard")[t("Ys")] == 1
    else:
        assert size(st, "pool", 0) == 3
    assert st.decision == "midday"
    assert st.scores()[0].spells["Divination"] == {3: 2, 4: 3, 5: 4}[lvl]


def test_divination_L4_may_stop_early():
    st = position(spells="set3", altar="GcKt", learned={0: {"Divination": 4}})
    do(st, "Divination 4")
    draw(st, "GtRs")
    do(st, "pass")
    assert size(st, "pool", 0) == 0 and size(st, "altar") == 4 and st.decision == "midday"


def test_divination_past_10_altar_tokens_A2_A1():
    """A2: Divination may push the Altar above 10; A1 then discards all of it and draws 5."""
    st = position(spells="set3", altar="Rc2Rt2Rs2Pc2Pt", pools={0: "Gc5Gt4"}, learned={0: {"Divination": 5}})
    do(st, "Divination 5")
    draw(st, "KcKt")
    assert size(st, "altar") == 11       # pool full: nothing can be taken
    assert st.decision == "midday"
    do(st, "pass", "pass")
    assert st.is_chance() and size(st, "altar") == 0 and size(st, "discard") == 11
    draw(st, "YcYcYcYcYc")
    assert size(st, "altar") == 5 and st.current_player == 1


# ------------------------------------------------------------------------------------- Green
@pytest.mark.parametrize("lvl", LEVELS)
def test_purification_swaps(lvl):
    """§7 Purification: 1/2/3 swaps (Altar token in, pool token out); C5 no token moves twice; D8."""
    st = position(at="midday", altar="RcRtRs", pools={0: "GcGtGs"}, learned={0: {"Purification": lvl}})
    assert spell_moves(st, "Purification") == [f"Purification {L}" for L in range(3, lvl + 1)]
    do(st, f"Purification {lvl}")
    do(st, "swap Rc Gc")
    if lvl >= 4:
        ms = moves(st)
        assert "swap Gc Rc" not in ms and not any(m.startswith("swap Gc") or m.endswith("Rc") for m in ms)
        do(st, "swap Rt Gt")
    if lvl == 5:
        do(st, "swap Rs Gs")
    assert st.decision == "evening"
    assert size(st, "pool", 0) == 3 and size(st, "altar") == 3
    assert st.scores()[0].spells["Purification"] == {3: 1, 4: 2, 5: 3}[lvl]


def test_purification_allowed_at_full_pool_P1():
    st = position(at="midday", altar="Rc", pools={0: "Gt5Gs4"}, learned={0: {"Purification": 3}})
    do(st, "Purification 3", "swap Rc Gt")
    assert size(st, "pool", 0) == 9 and zone(st, "altar")[t("Gt")] == 1


@pytest.mark.parametrize("lvl", LEVELS)
def test_cure_draw_then_discard(lvl):
    """§7 Cure: draw 1/2/3, then discard 1/2/3."""
    k = lvl - 2
    st = position(spells="set2", at="midday", pools={0: "Pc"}, learned={0: {"Cure": lvl}})
    do(st, f"Cure {lvl}")
    draw(st, "Kc" * k)
    assert st.decision == "discard"
    assert all(len(m.split()) == k + 1 for m in moves(st))
    do(st, "discard " + " ".join(["Kc"] * k))
    assert pool(st, 0) == "Pc" and st.decision == "evening"
    assert st.scores()[0].spells["Cure"] == {3: 3, 4: 4, 5: 5}[lvl]


def test_cure_discards_more_than_drawn_at_full_pool_C10():
    """Cure at a full pool draws nothing but still discards 3 (C10: limited only by the pool)."""
    st = position(spells="set2", at="midday", pools={0: "Pc5Pt4"}, learned={0: {"Cure": 5}})
    do(st, "Cure 5")
    assert st.decision == "discard"
    do(st, "discard Pc Pc Pt")
    assert size(st, "pool", 0) == 6


def test_growth_L5_take3_store_then_level4():
    """§7 Growth L5 / C3: take 3 Altar tokens, store them directly, move down to level 4."""
    st = position(spells="set3", at="evening", altar="RcPcKc", learned={0: {"Growth": 5}})
    assert spell_moves(st, "Growth") == ["Growth 4", "Growth 5"]
    do(st, "Growth 5", "take Rc", "take Pc", "take Kc")
    assert size(st, "fam", 0) == 3 and size(st, "pool", 0) == 0
    assert level(st, 0, "Growth") == 4
    assert st.scores()[0].spells["Growth"] == 4


def test_growth_L4_take2_store_then_level3():
    st = position(spells="set3", at="evening", altar="RcPcKc", learned={0: {"Growth": 4}})
    do(st, "Growth 4", "take Rc", "take Pc")
    assert size(st, "fam", 0) == 2 and level(st, 0, "Growth") == 3
    assert st.scores()[0].spells["Growth"] == 3


def test_growth_L4_effect_used_at_level5_sets_level3_C3():
    st = position(spells="set3", at="evening", altar="RcPcKc", learned={0: {"Growth": 5}})
    do(st, "Growth 4", "take Rc", "take Pc")
    assert level(st, 0, "Growth") == 3


def test_growth_L3_swap_pool_and_familiar_no_level_change():
    """§7 Growth L3: swap 1 pool token with 1 stored token (D10: different types), level unchanged."""
    st = position(spells="set3", at="evening", pools={0: "Rc"}, fam={0: "KcKt"}, learned={0: {"Growth": 3}})
    assert spell_moves(st, "Growth") == ["Growth 3 Rc Kc", "Growth 3 Rc Kt"]
    do(st, "Growth 3 Rc Kt")
    assert pool(st, 0) == "Kt" and zone(st, "fam", 0)[t("Rc")] == 1
    assert level(st, 0, "Growth") == 3 and st.scores()[0].spells["Growth"] == 3


@pytest.mark.parametrize("lvl", LEVELS)
def test_offering_store_of_one_color(lvl):
    """§7 Offering: store 2/3/4 pool tokens of one color (runes irrelevant)."""
    st = position(at="midday", pools={0: "KcKtKsKcRc"}, learned={0: {"Offering": lvl}})
    do(st, f"Offering {lvl}")
    do(st, "store Kc")
    assert moves(st) == {"store Kc", "store Kt", "store Ks"}
    for tok in ("Kt", "Ks", "Kc")[: lvl - 2]:
        do(st, f"store {tok}")
    assert size(st, "fam", 0) == lvl - 1 and st.decision == "evening"
    assert st.scores()[0].spells["Offering"] == {3: 2, 4: 4, 5: 6}[lvl]


def test_offering_stops_when_color_runs_out_C10():
    st = position(at="midday", pools={0: "KcRcRt"}, learned={0: {"Offering": 5}})
    do(st, "Offering 5", "store Kc")
    assert st.decision == "evening" and size(st, "fam", 0) == 1


@pytest.mark.parametrize("lvl", LEVELS)
def test_focus_store_or_take_with_its_rune(lvl):
    """§7 Focus: uses its rune. L3 store 1; L4 store 2 or take 1; L5 store 3 or take 2."""
    st = position(spells="set2", at="evening", pools={0: "RtPtGtRc"}, altar="WtBtYtYc",
                  learned={0: {"Focus": (lvl, "t")}})
    expected = [f"Focus {L} store" for L in range(3, lvl + 1)] + [f"Focus {L} take" for L in range(4, lvl + 1)]
    assert spell_moves(st, "Focus") == sorted(expected)
    s2 = st.clone()
    do(s2, f"Focus {lvl} store")
    assert moves(s2) == {"store Rt", "store Pt", "store Gt"}
    do(s2, "store Rt", *[f"store {x}" for x in ("Pt", "Gt")[: lvl - 3]])
    assert size(s2, "fam", 0) == lvl - 2 and s2.is_chance()     # then the resupply
    if lvl >= 4:
        do(st, f"Focus {lvl} take")
        assert moves(st) == {"take Wt", "take Bt", "take Yt"}
        do(st, "take Wt", *[f"take {x}" for x in ("Bt",)[: lvl - 4]])
        assert size(st, "pool", 0) == 4 + lvl - 3
    assert st.scores()[0].spells["Focus"] == {3: 3, 4: 4, 5: 5}[lvl]


@pytest.mark.parametrize("lvl", LEVELS)
def test_feast_levels(lvl):
    """§7 Feast: L3 take a token whose color is stored (D11); L4 take and store; L5 +1 per stored color."""
    st = position(spells="set3", at="midday", fam={0: "RcRtGc"}, altar="RsPs", learned={0: {"Feast": lvl}})
    expected = {"Feast 3 Rs"} | ({"Feast 4 Rs", "Feast 4 Ps"} if lvl >= 4 else set())
    assert set(spell_moves(st, "Feast")) == expected
    s3 = do(st.clone(), "Feast 3 Rs")
    assert pool(s3, 0) == "Rs"
    if lvl >= 4:
        s4 = do(st.clone(), "Feast 4 Ps")
        assert size(s4, "fam", 0) == 4 and size(s4, "pool", 0) == 0
    sc = st.scores()[0]
    assert sc.spells["Feast"] == {3: 2, 4: 2, 5: 0}[lvl]
    assert sc.feast == (2 if lvl == 5 else 0)      # Red and Green stored


# ------------------------------------------------------------------------------------- White
@pytest.mark.parametrize("lvl,runes", [(3, "c"), (4, "ct"), (5, "cts")])
def test_time_travel_discard_and_raise(lvl, runes):
    """§7 Time Travel [R]: discard a token (L3 c; L4 c/t; L5 any), raise another spell one level."""
    st = position(at="evening", pools={0: "RcRtRs"},
                  learned={0: {"TimeTravel": lvl, "Sacrifice": 3, "Levitation": 5}})
    ms = spell_moves(st, "TimeTravel")
    assert ms == sorted(f"TimeTravel {x} Sacrifice" for x in ("Rc", "Rt", "Rs") if x[1] in runes)
    do(st, f"TimeTravel Rc Sacrifice")
    assert level(st, 0, "Sacrifice") == 4 and size(st, "discard") == 1
    assert st.scores()[0].spells["TimeTravel"] == {3: 2, 4: 4, 5: 6}[lvl]


def test_time_travel_not_offered_without_raisable_spell_D5():
    st = position(at="evening", pools={0: "Rc"}, learned={0: {"TimeTravel": 5, "Levitation": 5}})
    assert spell_moves(st, "TimeTravel") == []


def test_time_travel_raises_abundance_without_instant_effect():
    """Raising never triggers instant effects; points use the final level (§7 Time Travel)."""
    st = position(at="evening", pools={0: "Rc"}, learned={0: {"TimeTravel": 3, "Abundance": 3}})
    do(st, "TimeTravel Rc Abundance")
    assert level(st, 0, "Abundance") == 4 and size(st, "pool", 0) == 0
    assert st.scores()[0].spells["Abundance"] == 5


def test_time_travel_raises_growth_to_reuse_it():
    """Growth (and Storm) may be raised again to reuse their higher effect."""
    sp = spells_with("Growth")
    st = position(spells=sp, at="evening", altar="RcPcKc", pools={0: "Wc"},
                  learned={0: {"TimeTravel": 3, "Growth": 4}})
    do(st, "Growth 4", "take Rc", "take Pc")
    assert level(st, 0, "Growth") == 3
    st = position(spells=sp, at="evening", pools={0: "Wc"}, learned={0: {"TimeTravel": 3, "Growth": 3}})
    do(st, "TimeTravel Wc Growth")
    assert level(st, 0, "Growth") == 4


@pytest.mark.parametrize("lvl", (4, 5))
def test_storm_discard_replace_take3_move_down(lvl):
    """§7 Storm / C13 / D9: discard Altar tokens in type order, replace them by draws, take 3, move down."""
    st = position(spells="set2", at="evening", altar="RcPcGcKc", learned={0: {"Storm": lvl}})
    assert spell_moves(st, "Storm") == [f"Storm {L}" for L in range(4, lvl + 1)]
    do(st, f"Storm {lvl}")
    assert moves(st) == {"pass", "discard Rc", "discard Pc", "discard Gc", "discard Kc"}
    do(st, "discard Pc")
    assert moves(st) == {"pass", "discard Gc", "discard Kc"}     # type order: no Rc after Pc
    do(st, "discard Kc", "pass")
    assert size(st, "discard") == 2
    draw(st, "YcYt")
    assert size(st, "altar") == 4
    do(st, "take Yc", "take Yt", "take Rc")
    assert size(st, "pool", 0) == 3
    assert level(st, 0, "Storm") == lvl - 1
    assert st.scores()[0].spells["Storm"] == {4: 4, 5: 6}[lvl]


def test_storm_L3_has_no_effect():
    st = position(spells="set2", at="evening", altar="RcPcGcKc", learned={0: {"Storm": 3}})
    assert spell_moves(st, "Storm") == []
    assert st.scores()[0].spells["Storm"] == 4


def test_storm_L5_points_8():
    st = position(spells="set2", learned={0: {"Storm": 5}})
    assert st.scores()[0].spells["Storm"] == 8


@pytest.mark.parametrize("lvl", LEVELS)
def test_clone_copies_by_level(lvl):
    """§7 Clone: L3 a Midday action, L4 an Evening action, L5 discard (Clone's rune) + a Morning action."""
    sp = spells_with("Clone", "Eruption", "Cure")
    st = position(spells=sp, at="midday", pools={0: "WcRcRtRs"},
                  learned={0: {"Clone": (lvl, "c")}, 1: {"Eruption": 4, "Cure": 3}})
    expected = {"Clone 3", "Clone 4", "Clone 5 Wc", "Clone 5 Rc"}
    expected = {m for m in expected if int(m.split()[1]) <= lvl}
    assert set(spell_moves(st, "Clone")) == expected
    s3 = do(st.clone(), "Clone 3")
    assert s3.decision == "clone"
    assert "Cure 3" in moves(s3) and "store Rc" in moves(s3)   # a primary Midday action too
    do(s3, "Cure 3")
    draw(s3, "Kc")
    do(s3, "discard Kc")
    assert s3.decision == "evening"
    if lvl >= 4:
        s4 = do(st.clone(), "Clone 4")
        assert any(m.startswith("learn Eruption") for m in moves(s4))   # Learn 1 Spell copied
    if lvl == 5:
        s5 = do(st.clone(), "Clone 5 Wc")
        assert zone(s5, "discard")[t("Wc")] == 1
        assert moves(s5) >= {"Eruption 3", "Eruption 4", "draw"}
        do(s5, "Eruption 4")
        draw(s5, "KcKc")
        assert size(s5, "pool", 0) == 5 and s5.decision == "evening"
    assert st.scores()[0].spells["Clone"] == {3: 4, 4: 5, 5: 6}[lvl]


def test_clone_restrictions_own_spells_and_instants():
    """§7 Clone: never one's own spells (unless another player learned it too), nor instants/permanents."""
    sp = spells_with("Clone", "Cure", "Mirage")
    st = position(spells=sp, at="midday", pools={0: "Rc"}, altar="Gc",
                  learned={0: {"Clone": 3, "Cure": 5}, 1: {"Mirage": 5, "Abundance": 5}})
    do(st, "Clone 3")
    assert not any(m.startswith("Cure") for m in moves(st))   # own spell only
    st = position(spells=sp, at="midday", pools={0: "Rc"}, altar="Gc",
                  learned={0: {"Clone": 3, "Cure": 5}, 1: {"Cure": 3}})
    do(st, "Clone 3")
    assert {m for m in moves(st) if m.startswith("Cure")} == {"Cure 3"}   # at the other's level


def test_clone_copies_other_players_level_or_lower_C4():
    sp = spells_with("Clone", "Eruption")
    st = position(spells=sp, at="midday", pools={0: "WcRc"},
                  learned={0: {"Clone": 5}, 1: {"Eruption": 4}})
    do(st, "Clone 5 Wc")
    assert {m for m in moves(st) if m.startswith("Eruption")} == {"Eruption 3", "Eruption 4"}


def test_clone_copying_growth_moves_clone_down_C3():
    """C3: Clone copying another player's Growth (L4/L5) lowers Clone by one level, not Growth."""
    sp = spells_with("Clone", "Growth")
    st = position(spells=sp, at="midday", altar="RcPcKc",
                  learned={0: {"Clone": 5}, 1: {"Growth": 5}})
    do(st, "Clone 4", "Growth 5", "take Rc", "take Pc", "take Kc")
    assert level(st, 0, "Clone") == 4 and level(st, 1, "Growth") == 5
    assert size(st, "fam", 0) == 3
    st = position(spells=sp, at="midday", altar="RcPcKc", learned={0: {"Clone": 4}, 1: {"Growth": 4}})
    do(st, "Clone 4", "Growth 4", "take Rc", "take Pc")
    assert level(st, 0, "Clone") == 3


def test_clone_focus_uses_other_players_rune_C4():
    sp = spells_with("Clone", "Focus")
    st = position(spells=sp, at="midday", pools={0: "RsRcGs"},
                  learned={0: {"Clone": 4, "Focus": (3, "c")}, 1: {"Focus": (3, "s")}})
    do(st, "Clone 4")
    assert {m for m in moves(st) if m.startswith("Focus")} == {"Focus/s 3 store"}
    do(st, "Focus/s 3 store")
    assert moves(st) == {"store Rs", "store Gs"}


def test_clone_never_copies_clone():
    sp = spells_with("Clone", "Cure")
    st = position(spells=sp, at="midday", pools={0: "Rc"}, learned={0: {"Clone": 3}, 1: {"Clone": 5}})
    do(st, "Clone 3")
    assert not any(m.startswith("Clone") for m in moves(st))


# ------------------------------------------------------------------------------------- Blue
def test_transmutation_L3_no_effect():
    st = position(at="evening", pools={0: "RcRcPc"}, learned={0: {"Transmutation": (3, "c")}})
    assert spell_moves(st, "Transmutation") == []
    assert st.scores()[0].spells["Transmutation"] == 4


@pytest.mark.parametrize("lvl", (4, 5))
def test_transmutation_rune_wilds(lvl):
    """§7 Transmutation / L4: 1 (L4) or up to 2 (L5) pool tokens of another color with its rune count as wilds."""
    st = position(at="evening", pools={0: "RcRcPcGcKt"}, learned={0: {"Transmutation": (lvl, "c")}})
    ms = spell_moves(st, "Transmutation")
    assert "Transmutation Sacrifice 3 Rc : Rc Pc" in ms
    assert ("Transmutation Sacrifice 4 Rc : Rc Pc Gc" in ms) == (lvl == 5)
    assert not any("Kt" in m for m in ms if "Sacrifice" in m)   # a wrong-rune token is no wild
    do(st, "Transmutation Sacrifice 3 Rc : Rc Pc")
    assert level(st, 0, "Sacrifice") == 3 and pool(st, 0) == "GcKt"
    assert st.scores()[0].spells["Transmutation"] == 4


def test_transmutation_not_combined_with_rune_triples_L4():
    """L4: Transmutation's wilds replace L2 — a 3-rune triple may not be added to the same learning."""
    st = position(at="evening", pools={0: "RcPtGtKtBc"}, learned={0: {"Transmutation": (4, "c")}})
    tm = spell_moves(st, "Transmutation")
    # Rc + Pt Gt Kt (triple) + Bc (wild) would be 3 Materia only if combined
    assert not any("Pt" in m for m in tm)
    assert "learn Sacrifice 3 Rc : Bc Gt Kt Pt" not in moves(st)    # Bc can't be in a triple of t's either


@pytest.mark.parametrize("lvl", (3, 4))
def test_swiftness_instant_morning_action(lvl):
    """§7 Swiftness L3/L4 ⚡: on learning, perform 1 Morning action (optional, C6)."""
    st = position(spells="set2", at="evening", altar="Gc",
                  pools={0: "Bc" * lvl})
    do(st, f"learn Swiftness {lvl} Bc : " + " ".join(["Bc"] * (lvl - 1)))
    assert st.decision == "morning" and st.phase == "evening"
    assert "take Gc" in moves(st) and "pass" in moves(st)
    do(st, "take Gc")
    assert pool(st, 0) == "Gc"
    assert st.scores()[0].spells["Swiftness"] == {3: 3, 4: 6}[lvl]


def test_swiftness_L5_no_instant_two_mornings_next_day_C11():
    """Swiftness L5 ∞: two Morning actions every Day, from the Day after it reached L5 (C11)."""
    st = position(spells="set2", at="evening", altar="GcGt", pools={0: "Bc" * 5})
    do(st, "learn Swiftness 5 Bc : Bc Bc Bc Bc")
    assert st.is_chance()            # resupply: no instant Morning action at L5
    assert st.scores()[0].spells["Swiftness"] == 0
    st = position(spells="set2", altar="GcGt", learned={0: {"Swiftness": 5}}, swift_mornings=2)
    do(st, "take Gc")
    assert st.decision == "morning" and st.current_player == 0
    do(st, "take Gt")
    assert st.decision == "midday" and pool(st, 0) == "GcGt"


def test_swiftness_L5_second_morning_is_pushed_by_the_day():
    """The engine gives an L5 Swiftness owner two Mornings when their Day starts (T1)."""
    st = position(spells="set2", active=1, at="evening", learned={0: {"Swiftness": 5}})
    do(st, "pass")
    draw(st, "Yc" * 5)
    assert st.current_player == 0
    do(st, "pass")
    assert st.decision == "morning"
    do(st, "pass")
    assert st.decision == "midday"


@pytest.mark.parametrize("lvl", LEVELS)
def test_mirage_draws_per_matching_take(lvl):
    """§7 Mirage / C1: each taken Altar token with its rune draws 1 (L3) / 2 (L4, L5), right after it."""
    st = position(spells="set3", altar="RtPtGc", learned={0: {"Mirage": (lvl, "t")}})
    do(st, "take Rt")
    k = 1 if lvl == 3 else 2
    draw(st, "Yc" * k)
    assert size(st, "pool", 0) == 1 + k and st.decision == "midday"
    st = position(spells="set3", altar="RtPtGc", learned={0: {"Mirage": (lvl, "t")}})
    do(st, "take Gc")
    assert st.decision == "midday" and size(st, "pool", 0) == 1
    assert st.scores()[0].spells["Mirage"] == {3: 2, 4: 3, 5: 6}[lvl]


def test_mirage_triggers_twice_in_one_action_C1():
    """C1: Levitation taking two matching tokens triggers Mirage twice, each draw right after its token."""
    sp = spells_with("Mirage")
    st = position(spells=sp, altar="RcPc", learned={0: {"Mirage": (3, "c"), "Levitation": 3}})
    do(st, "Levitation 3", "take Rc")
    assert st.is_chance()           # Mirage's draw before the second take
    draw(st, "Ys")
    do(st, "take Pc")
    draw(st, "Ys")
    assert size(st, "pool", 0) == 4 and st.decision == "midday"


def test_mirage_draw_can_fill_pool_before_next_take_C1_P1():
    sp = spells_with("Mirage")
    st = position(spells=sp, altar="RcPc", pools={0: "Kt4Ks2"},
                  learned={0: {"Mirage": (4, "c"), "Levitation": 3}})
    do(st, "Levitation 3", "take Rc")
    draw(st, "YsYs")
    assert size(st, "pool", 0) == 9 and st.decision == "midday"   # the second take is not done


def test_mirage_never_on_another_players_day():
    """§7 Blaze / Mirage: Mirage triggers only during its owner's own Day."""
    sp = spells_with("Mirage", "Blaze")
    st = position(spells=sp, altar="RcPc", learned={0: {"Blaze": 3}, 1: {"Mirage": (5, "c")}})
    do(st, "Blaze")
    draw(st, "YsYsYsYs")
    do(st, "take Rc")
    assert not st.is_chance() and pool(st, 1) == "Rc" and st.decision == "midday"


# ------------------------------------------------------------------------------------- Yellow
@pytest.mark.parametrize("lvl", LEVELS)
def test_abundance_draws_on_learning(lvl):
    """§7 Abundance ⚡: on learning, draw 2/3/4."""
    st = position(at="evening", pools={0: "Yc" * lvl})
    do(st, f"learn Abundance {lvl} Yc : " + " ".join(["Yc"] * (lvl - 1)))
    draw(st, "Rc" * (lvl - 1))
    assert pool(st, 0) == ("Rc" + (str(lvl - 1) if lvl > 2 else ""))
    assert st.scores()[0].spells["Abundance"] == {3: 3, 4: 5, 5: 7}[lvl]


@pytest.mark.parametrize("lvl,bonus", [(3, 3), (4, 1 + 2 + 2), (5, 6)])
def test_knowledge_end_bonus(lvl, bonus):
    """§7 Knowledge: L3 +1 per other spell; L4 +2 per other at ≥4, +1 below; L5 +2 per other (C15)."""
    st = position(spells="set2", learned={0: {"Knowledge": lvl, "Eruption": 3, "Sharing": 4, "Cure": 5}})
    sc = st.scores()[0]
    assert sc.spells["Knowledge"] == 0 and sc.knowledge == bonus


def test_communion_L3_takes3_and_stores():
    """§7 Communion L3 ⚡: take 3 Altar tokens and store them directly."""
    st = position(spells="set3", at="evening", altar="RcPcGcKc", pools={0: "Yc3"})
    do(st, "learn Communion 3 Yc : Yc Yc")
    assert st.decision == "take"
    do(st, "take Rc", "take Pc", "take Gc")
    assert size(st, "fam", 0) == 3 and size(st, "pool", 0) == 0
    assert st.scores()[0].spells["Communion"] == 0


def test_communion_L4_end_bonus_per_stored_rune():
    st = position(spells="set3", fam={0: "RtPtGcKs"}, learned={0: {"Communion": (4, "t")}})
    assert st.scores()[0].communion == 2 and st.scores()[0].spells["Communion"] == 0


def test_communion_L5_stores_two_discarded_tokens_including_itself_C7_C12():
    """§7 Communion L5 ∞: learning (this spell included) stores 2 of the discarded tokens (D6)."""
    st = position(spells="set3", at="evening", pools={0: "YcYcYtYs"})
    do(st, "learn Communion 4 Yc : Yc Yt Ys")          # L4: no storage
    assert size(st, "fam", 0) == 0
    st = position(spells="set3", at="evening", pools={0: "YcYcYtYsYs"})
    do(st, "learn Communion 5 Yc : Yc Ys Ys Yt")
    assert st.decision == "store"
    assert moves(st) == {"store Yc", "store Ys", "store Yt"}
    do(st, "store Ys", "store Ys")
    assert zone(st, "fam", 0)[t("Ys")] == 2 and size(st, "discard") == 2
    assert zone(st, "justdisc") == [0] * 21


def test_communion_L5_stores_before_instant_effect_C7():
    """C7: Communion L5 stores its 2 tokens before the learned spell's own instant effect (Abundance)."""
    st = position(spells=["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel",
                          "Transmutation", "Communion"], at="evening", pools={0: "RcRtRsPc"},
                  learned={0: {"Communion": 5}})
    do(st, "learn Sacrifice 3 Rc : Rt Rs")
    assert st.decision == "store"
    do(st, "store Rt", "store Rs")
    assert size(st, "fam", 0) == 2


def test_communion_L5_with_abundance_order_C7():
    st = position(spells=["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel",
                          "Swiftness", "Communion"], at="evening", pools={0: "BcBtBs"}, altar="Gc",
                  learned={0: {"Communion": 5}})
    do(st, "learn Swiftness 3 Bc : Bt Bs")
    assert st.decision == "store"          # before Swiftness' instant Morning action
    do(st, "store Bt", "store Bs")
    assert st.decision == "morning"


def test_sharing_L4_L5_not_offered_when_they_move_nothing_C6():
    """C6 (bug fix): with an empty Altar and every other pool full, Sharing 4/5 would move no token
    (they only take); Sharing 3 still draws 1 and is offered."""
    st = position(spells="set2", altar="", pools={1: "Kc5Kt4"}, learned={0: {"Sharing": 5}})
    assert spell_moves(st, "Sharing") == ["Sharing 3"]
    st = position(spells="set2", altar="", pools={1: "Kc5Kt3"}, learned={0: {"Sharing": 5}})
    assert spell_moves(st, "Sharing") == ["Sharing 3", "Sharing 4", "Sharing 5"]   # the other player draws
    st = position(spells="set2", altar="", pools={0: "Kc5Kt4"}, learned={0: {"Sharing": 5}})
    assert spell_moves(st, "Sharing") == ["Sharing 3", "Sharing 4", "Sharing 5"]


# ------------------------------------------------------------------------------------- issue 12 (rules)
def test_clone_focus_any_other_player_at_their_level_C4():
    """C4 (bug fix): two other players hold Focus with the same rune at levels 3 and 5: Clone copies it at
    the higher level or lower, whichever of them comes first in seat order."""
    sp = spells_with("Clone", "Focus")
    for first, second in ((3, 5), (5, 3)):
        st = position(players=3, spells=sp, at="midday", pools={0: "RsRcGs"}, altar="Ks",
                      learned={0: {"Clone": 4}, 1: {"Focus": (first, "s")}, 2: {"Focus": (second, "s")}})
        do(st, "Clone 4")
        assert spell_moves(st, "Focus") == ["Focus/s 3 store", "Focus/s 4 store", "Focus/s 4 take",
                                            "Focus/s 5 store", "Focus/s 5 take"]
        do(st, "Focus/s 5 store", "store Rs", "store Gs")
        assert size(st, "fam", 0) == 2 and st.decision == "evening"


def test_clone_focus_two_runes_each_at_its_players_level_C4():
    """C4: different runes give different copies, each at the level of the player holding that rune."""
    sp = spells_with("Clone", "Focus")
    st = position(players=3, spells=sp, at="midday", pools={0: "RsRc"},
                  learned={0: {"Clone": 4}, 1: {"Focus": (4, "s")}, 2: {"Focus": (3, "c")}})
    do(st, "Clone 4")
    assert spell_moves(st, "Focus") == ["Focus/c 3 store", "Focus/s 3 store", "Focus/s 4 store"]


def test_clone_transmutation_any_other_player_at_their_level_C4():
    """C4 (bug fix): Transmutation held by two other players with the same rune at levels 4 and 5: the copy
    may use up to 2 rune wilds (L5) whichever player comes first in seat order."""
    sp = spells_with("Clone")
    one_wild, two_wilds = "Transmutation/s Sacrifice 3 Rc : Rt Gs", "Transmutation/s Sacrifice 3 Rc : Gs Ks"
    for levels, expected in (((4, 5), {one_wild, two_wilds}), ((5, 4), {one_wild, two_wilds}),
                             ((3, 4), {one_wild}), ((4, 3), {one_wild})):
        st = position(players=3, spells=sp, at="midday", pools={0: "RcRtGsKs"},
                      learned={0: {"Clone": 4}, 1: {"Transmutation": (levels[0], "s")},
                               2: {"Transmutation": (levels[1], "s")}})
        do(st, "Clone 4")
        assert {one_wild, two_wilds} & moves(st) == expected, levels


SET3 = ["Blaze", "Divination", "Growth", "Feast", "Clone", "Mirage", "Communion"]


def _table(pool_sizes, fam_sizes, learned, **kw):
    """All 105 tokens out of the Pouch and Discard box: pools and familiars of the given sizes (tokens in
    type order), the learned spells' tokens (rune c), the rest on the Altar."""
    from engine_c.spellbook.state import spell_id, token_name
    supply = [token_name(ty) for ty in range(21) for _ in range(5)]
    for spells_p in learned.values():
        for name in spells_p:
            supply.remove("RPGKWBY"[spell_id(name) // 3] + "c")
    zones = {}
    for name, sizes in (("pools", pool_sizes), ("fam", fam_sizes)):
        zones[name] = {}
        for p, k in enumerate(sizes):
            zones[name][p], supply = "".join(supply[:k]), supply[k:]
    return position(players=len(pool_sizes), spells="set3", learned=learned, altar="".join(supply), pouch="",
                    **zones, **kw)


def test_divination_L3_offered_when_only_its_discard_moves_C6_C10():
    """C6/C10 (bug fix): empty Pouch and Discard box and a full pool: Divination draws and takes nothing,
    but L3 still discards 1 pool token, so Divination 3 is offered; L4/L5 (take only) are not."""
    st = _table([9, 9, 9, 9], [15, 15, 15, 15], {0: {"Divination": 5}})
    assert size(st, "pouch") == 0 and size(st, "discard") == 0 and size(st, "pool", 0) == 9
    assert size(st, "altar") > 0                     # an Altar token, but no room to take it
    assert spell_moves(st, "Divination") == ["Divination 3"]
    do(st, "Divination 3")
    assert not st.is_chance() and st.decision == "discard"      # no draw, no take: straight to the discard
    do(st, sorted(moves(st))[0])
    assert size(st, "pool", 0) == 8 and size(st, "discard") == 1 and st.decision == "midday"
    st.validate()


def test_divination_offered_only_when_something_moves_C6():
    """C6: with an empty pool, nothing to draw and no Altar token no level of Divination moves a token;
    one Altar token makes every level take it."""
    learned = {0: {"Divination": 5}, 1: {n: 3 for n in SET3}, 2: {n: 3 for n in SET3 if n != "Divination"}}
    st = _table([0, 9, 9, 9], [16, 16, 16, 16], learned, end=True)
    assert size(st, "altar") == 0 and spell_moves(st, "Divination") == []
    st = _table([0, 9, 9, 8], [16, 16, 16, 16], learned, end=True)
    assert size(st, "altar") == 1
    assert spell_moves(st, "Divination") == ["Divination 3", "Divination 4", "Divination 5"]


def test_storm_offered_whenever_the_altar_holds_a_token_C17():
    """C17: Storm is offered whenever the Altar holds a token, even at a full pool with nothing to discard:
    its take moves nothing, but its own token moves down (C3), which counts as a move (C6)."""
    st = position(spells="set2", at="evening", altar="Gc", pools={0: "Rc5Rt4"}, learned={0: {"Storm": 5}})
    assert spell_moves(st, "Storm") == ["Storm 4", "Storm 5"]
    do(st, "Storm 5")
    assert moves(st) == {"pass", "discard Gc"}
    do(st, "pass")
    assert level(st, 0, "Storm") == 4 and size(st, "pool", 0) == 9 and size(st, "altar") == 1
    st = position(spells="set2", at="evening", altar="", pools={0: "Rc"}, learned={0: {"Storm": 5}})
    assert spell_moves(st, "Storm") == []


def test_growth_offered_at_a_full_familiar_like_storm_D16_C17():
    """D16 (as C17 for Storm): Growth L4/L5 is offered whenever the Altar holds a token; at a full familiar
    it stores nothing (P2) but its token still moves down (C3), so it moves a token (C6)."""
    full = "Rc5Rt5Rs5Pc"
    st = position(spells="set3", at="evening", altar="Gc", fam={0: full}, end=True, learned={0: {"Growth": 5}})
    assert spell_moves(st, "Growth") == ["Growth 4", "Growth 5"]
    do(st, "Growth 5")
    assert level(st, 0, "Growth") == 4 and size(st, "fam", 0) == 16 and size(st, "altar") == 1
    st = position(spells="set3", at="evening", altar="", fam={0: full}, end=True, learned={0: {"Growth": 5}})
    assert spell_moves(st, "Growth") == []
    # Clone copying Growth moves Clone's token down instead (C3)
    st = position(spells="set3", at="midday", altar="Gc", fam={0: full}, end=True,
                  learned={0: {"Clone": 5}, 1: {"Growth": 4}})
    do(st, "Clone 4")
    assert "Growth 4" in moves(st)
    do(st, "Growth 4")
    assert level(st, 0, "Clone") == 4 and level(st, 1, "Growth") == 4 and size(st, "fam", 0) == 16
