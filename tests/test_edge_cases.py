"""Edge cases named in the test plan that cross several rules (Time Travel raises, Swiftness L5,
decisions D13/D14), and a check that every rule id of SPELLBOOK.md is cited by some test."""
import os
import re

from positions import do, draw, level, moves, pool, position, size

SWIFT_TT = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Swiftness", "Abundance"]


def test_time_travel_raises_swiftness_to_L5_two_mornings_next_day_C11():
    """§7 Time Travel + Swiftness: raised to L5 in the Evening, no instant action; two Mornings from
    the owner's next Day (C11), and its points become 0 (final level)."""
    st = position(spells=SWIFT_TT, at="evening", pools={0: "Wc"}, altar="RcRtRs",
                  learned={0: {"TimeTravel": 3, "Swiftness": (4, "c")}})
    do(st, "TimeTravel Wc Swiftness")
    assert level(st, 0, "Swiftness") == 5 and st.is_chance()        # no instant Morning action
    assert st.scores()[0].spells["Swiftness"] == 0
    while st.is_chance():                                            # resupply: Altar 3 -> 5
        draw(st, "Yc")
    assert st.active_player == 1
    do(st, "pass", "pass", "pass")
    draw(st, "Ys")
    assert st.active_player == 0 and st.decision == "morning"
    do(st, "take Rc")
    assert st.decision == "morning"                                  # the second Morning action
    do(st, "take Rc" if "take Rc" in moves(st) else "take Rt")
    assert st.decision == "midday" and size(st, "pool", 0) == 2


def test_swiftness_L5_same_morning_action_twice():
    st = position(spells=SWIFT_TT, altar="Rc", learned={0: {"Swiftness": 5, "Sacrifice": 5}},
                  pools={0: "GcGt"}, swift_mornings=2)
    do(st, "Sacrifice Gc")
    draw(st, "KcKcKcKc")
    assert st.decision == "morning" and "Sacrifice Gt" in moves(st)
    do(st, "Sacrifice Gt")
    draw(st, "KtKtKtKt")
    assert size(st, "pool", 0) == 8 and st.decision == "midday"


def test_time_travel_never_meets_storm_or_clone_C4():
    """C4: Time Travel, Storm and Clone are all White, so with one spell per color (S4) no game has two
    of them: 'Time Travel raising Storm' (§7) cannot happen. The engine refuses such a choice."""
    import pytest
    from engine_c import State
    with pytest.raises(ValueError, match="two White spells"):
        State.new(spells=["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Storm",
                          "Abundance"])


def test_time_travel_raises_growth_from_3_to_4_then_growth_4_next_day():
    sp = ["Sacrifice", "Levitation", "Growth", "Offering", "TimeTravel", "Transmutation", "Abundance"]
    st = position(spells=sp, at="evening", pools={0: "Wc"}, altar="RcPcKc",
                  learned={0: {"TimeTravel": 3, "Growth": 3}})
    do(st, "TimeTravel Wc Growth")
    assert level(st, 0, "Growth") == 4 and st.scores()[0].spells["Growth"] == 4
    st2 = position(spells=sp, at="evening", altar="RcPcKc", learned={0: {"Growth": 4}})
    do(st2, "Growth 4", "take Rc", "take Pc")
    assert level(st2, 0, "Growth") == 3


def test_D13_divination_L4_may_take_none():
    """D13: Divination L4 ('up to 2') may stop before its first take (its 2 Altar draws still happen)."""
    st = position(spells="set3", altar="Gc", learned={0: {"Divination": 4}})
    do(st, "Divination 4")
    draw(st, "KcKt")
    assert "pass" in moves(st)
    do(st, "pass")
    assert size(st, "altar") == 3 and size(st, "pool", 0) == 0


def test_D14_swiftness_instant_action_excludes_spells_learned_today():
    """D14: Swiftness L3/L4's instant Morning action uses the Morning actions available today: a spell
    learned this Day (T4) gives none, so only the primary actions (and older spells) are offered."""
    sp = ["Sacrifice", "Levitation", "Purification", "Offering", "TimeTravel", "Swiftness", "Abundance"]
    st = position(spells=sp, at="evening", pools={0: "BcBcBcRc"}, altar="Gc",
                  learned={0: {"Sacrifice": (3, "c", 6), "Levitation": (3, "t", 0)}}, day=6)
    do(st, "learn Swiftness 3 Bc : Bc Bc")
    ms = moves(st)
    assert "take Gc" in ms and "draw" in ms and not any(m.startswith("Sacrifice") for m in ms)


def test_every_rule_id_is_cited_by_a_test():
    """Each rule id of SPELLBOOK.md (S1..S4, T1..T5, P1..P3, L1..L4, A1..A3, E1..E4, C1..C16) appears in
    some test name or docstring of this suite."""
    here = os.path.dirname(__file__)
    text = ""
    for name in os.listdir(here):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(here, name), encoding="utf-8") as f:
                text += f.read()
    ids = [f"S{i}" for i in range(1, 5)] + [f"T{i}" for i in range(1, 6)] + [f"P{i}" for i in range(1, 4)]
    ids += [f"L{i}" for i in range(1, 5)] + [f"A{i}" for i in range(1, 4)] + [f"E{i}" for i in range(1, 5)]
    ids += [f"C{i}" for i in range(1, 17)]
    missing = [r for r in ids if not re.search(rf"(?<![A-Za-z0-9]){r}(?![0-9])", text)]
    assert not missing, f"rule ids never cited: {missing}"
