"""Spellbook TCG rules, one or more tests per rule id of SPELLBOOK_TCG.md (TS setup, TT turn, TC casting, TR
resolution, TD damage, TK tokens, TB combat, TG end, TW decks, TF cards, TX readings), the id in each test's
name. Positions are state texts (tests/tcg_positions.py) played through the public State API."""
import json

import pytest

from engine_c.spellbooktcg import State
from engine_c.spellbooktcg import cards as C
from tcg_positions import position

MANA = ("mend",) * 3


def moves(st):
    return [str(m) for m in st.legal_moves()]


def play(st, *ms):
    """Applies the moves; `cast` (finish the spell) only where it is still a choice: a spell with no charm
    that fits, or with two charms, is finished at once (TX-47)."""
    for m in ms:
        if m == "cast" and "cast" not in moves(st):
            continue
        st.apply(m)
    return st


def pass_turn(st):
    """The active seat declines everything (no mana card, no attacker, no spell) until its turn ends."""
    a = st.active_player
    while st.active_player == a and not st.is_terminal() and not st.is_chance():
        ms = moves(st)
        st.apply(next(m for m in ("none", "done", "pass") if m in ms))
    return st


def cast_position(hand0, mana0=MANA, hand1=(), mana1=(), **kw):
    """Seat 0 to cast (turn 3, its spellcasting step); seat 1 holds `hand1` (by default nothing: it passes)."""
    return position(phase="cast", hand=(hand0, hand1), mana=(mana0, mana1), **kw)


# ------------------------------------------------------------------------------------- TS: setup
def test_TS1_TS4_new_game_setup():
    st = State.new(seed=3)
    assert st.turn == 1 and st.phase == "mana" and st.current_player == 0 and st.active_player == 0
    for p in range(2):
        assert st.spellbook_size(p) == 65 and len(st.mana(p)) == 3 and len(st.hand(p)) == 7   # TS-4, TX-18
        assert st.spellbook(p) == [None] * 65                                                # face down, unknown
        assert st.graveyard(p) == [] and st.summons(p) == []
    assert st.wizard_ids() == ["apprentice", "apprentice"]                                   # TW-2: both may pick it


def test_TS4_TX18_setup_is_chance_seat0_then_seat1_mana_then_hand():
    st = State.new(seed=0, deal=False)
    assert st.is_chance() and st.phase == "setup"
    seen = []
    while st.is_chance():
        outcomes = st.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
        before = [(len(st.mana(p)), len(st.hand(p))) for p in range(2)]
        st.apply(outcomes[0][0])
        after = [(len(st.mana(p)), len(st.hand(p))) for p in range(2)]
        seen.append(next((p, "mana" if a[0] > b[0] else "hand") for p, (a, b) in enumerate(zip(after, before))
                         if a != b))
    assert seen == [(0, "mana")] * 3 + [(0, "hand")] * 7 + [(1, "mana")] * 3 + [(1, "hand")] * 7


def test_TS4_same_seed_same_game():
    a, b = State.new(seed=11), State.new(seed=11)
    assert a == b and a.to_text() == b.to_text()
    for _ in range(60):
        if a.is_terminal():
            break
        m = a.legal_moves()[-1]
        a.play(m)
        b.play(m)
    assert a == b
    assert State.new(seed=12) != State.new(seed=11)


def test_TS3_wizard_health_is_its_spellbook():
    st = State.new(seed=1)
    assert st.wizard(0)["health"] == st.spellbook_size(0) == 65 and st.wizard(0)["damage"] == 1


def test_TS2_TX15_zones_and_what_is_public():
    st = State.new(seed=8)
    obs = st.observation(1)
    f = dict(w.split("=", 1) for w in obs.split()[1:])
    assert f["mana0"] == "?3" and f["hand0"] == "?7" and f["book0"] == "?65" and f["grave0"] == "-"
    assert f["deck0"].startswith("amplify*5,") and f["wizards"] == "apprentice,apprentice"    # TX-15: public
    assert f["summons0"] == "-" and f["queue"] == "-"


# ------------------------------------------------------------------------------------- TT: turn
def test_TT2_TX1_first_player_skips_turn_1_draw_then_refill_to_7():
    st = State.new(seed=5)
    st.play(f"mana {st.hand(0)[0]}")            # seat 0 puts a card: 6 in hand
    while st.current_player == 0:
        st.play("done" if "done" in moves(st) else "pass")
    assert st.turn == 2 and st.active_player == 1 and len(st.hand(1)) == 7          # at 7: no draw
    while st.active_player == 1 and not st.is_terminal():
        st.play("none" if "none" in moves(st) else "done" if "done" in moves(st) else "pass")
    assert st.turn == 3 and len(st.hand(0)) == 7 and st.spellbook_size(0) == 64    # drew one


def test_TT2_TX2_draws_are_chance_one_at_a_time_known_top_drawn_without_chance():
    # seat 0 ends its turn; seat 1 (hand 5) draws 2: its top card is a known mend (healed back, TX-31)
    st = position(phase="mana", hand=(("arcane_bolt",), ("arcane_bolt",) * 5), book=(("*",), ("*", "mend")))
    pass_turn(st)
    assert st.active_player == 1 and len(st.hand(1)) == 6 and st.hand(1).count("mend") == 1   # known: no chance
    assert st.is_chance() and st.phase == "draw"
    st.apply(st.chance_outcomes()[0][0])
    assert len(st.hand(1)) == 7 and not st.is_chance()


def test_TT2_TX37_draw_stops_when_spellbook_empties():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), grave=((), ("?70",)), book=(("*",), ("*",)))
    assert st.spellbook_size(1) == 2
    pass_turn(st)
    st.resolve_chance()
    assert len(st.hand(1)) == 2 and st.spellbook_size(1) == 0 and not st.is_terminal()   # no penalty mid-turn


def test_TT3_TX19_mana_one_card_at_a_time_or_none():
    st = position(phase="mana", hand=(("arcane_bolt", "arcane_bolt", "frost"), ()))
    assert moves(st) == ["mana arcane_bolt", "mana frost", "none"]           # copies are one choice (TX-47)
    st.apply("mana frost")
    assert st.mana(0).count("frost") == 1 and st.hand(0) == ["arcane_bolt", "arcane_bolt"]
    assert st.phase == "attack"                                                 # mana_discards_per_turn 1


def test_TX19_TF4_wizard_ability_changes_mana_discards(tmp_path):
    data = json.load(open(C.STARTER_CARDS))
    data["cards"].append({"id": "hoarder", "name": "Hoarder", "type": "wizard", "damage": 0,
                          "ability": {"mana_discards_per_turn": 2, "hand_size": 5, "setup_mana": 0}})
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data))
    cs = C.load_cards(str(path))
    d = C.starter_decks()
    st = State.new(seed=2, cards=cs, decks=(d["frost_ward"], d["fire_shock"]), wizards=("hoarder", "apprentice"))
    assert len(st.hand(0)) == 5 and st.mana(0) == [] and len(st.hand(1)) == 7 and len(st.mana(1)) == 3
    st.apply(st.legal_moves()[0])
    assert st.phase == "mana"                                                   # a second card may go
    st.apply(st.legal_moves()[0])
    assert st.phase != "mana" and len(st.mana(0)) == 2 and st.wizard(0)["damage"] == 0


def test_TT8_TT9_TX4_turn_passes_and_ticks_only_active():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), wiz=("ice2/-", "ice2/-"))
    pass_turn(st)
    assert st.active_player == 1
    assert st.wizard(0)["tokens"] == ("ice", 1) and st.wizard(1)["tokens"] == ("ice", 2)


# ------------------------------------------------------------------------------------- TB: combat
S0 = "conjure_familiar/2/2/-/u2/-"
S1 = "conjure_familiar/2/3/-/u3/-"


def combat_position(**kw):
    kw.setdefault("summons", ((S0,), (S1,)))
    kw.setdefault("hand", (("arcane_bolt",), ("arcane_bolt",)))
    return position(phase="attack", **kw)


def test_TB1_attackers_one_at_a_time_wizard_and_summons():
    st = combat_position()
    assert moves(st) == ["attack w0", "attack s0.0", "done"]
    st.apply("attack s0.0")
    assert moves(st) == ["attack w0", "done"]


def test_TB1_TK5_ice_holder_cannot_attack_or_block():
    st = combat_position(summons=(("conjure_familiar/2/2/ice1/u2/-",), ("conjure_familiar/2/3/ice1/u3/-",)))
    assert moves(st) == ["attack w0", "done"]
    st.apply("attack w0")            # the only attacker left: done is applied (TX-47)
    assert st.current_player == 1 and moves(st) == ["block w1", "done"]


def test_TX20_no_attacker_no_blocking_decision():
    st = combat_position()
    st.apply("done")
    assert st.phase == "cast" and st.current_player == 0


def test_TB2_TX11_blocks_one_to_one_and_wizard_blocks_TX36():
    st = combat_position(summons=((S0, "conjure_familiar/3/3/-/u4/-"), (S1,)))
    play(st, "attack s0.0", "attack s0.1", "done")
    assert st.current_player == 1 and moves(st) == ["block w1", "block s1.0", "done"]
    st.apply("block w1")
    assert st.phase == "blockon" and moves(st) == ["on s0.0", "on s0.1"]
    st.apply("on s0.1")
    assert moves(st) == ["block s1.0", "done"]
    st.apply("block s1.0")             # one unblocked attacker left: paired at once (TX-47)
    assert st.phase == "cast"
    assert st.wizard(1)["blocking"] == 4 and st.summons(1)[0]["blocking"] == 2


def test_TB4_TX30_TX36_combat_all_at_once_then_deaths():
    # s0.0 (2/2) blocked by s1.0 (2/3); s0.1 (3/3) blocked by wizard 1; wizard 0 unblocked
    st = combat_position(summons=((S0, "conjure_familiar/3/3/-/u4/-"), (S1,)))
    play(st, "attack w0", "attack s0.0", "attack s0.1", "block s1.0", "on s0.0", "block w1", "on s0.1")
    book1 = st.spellbook_size(1)
    st.apply("pass")                   # no spells: resolution, combat, end
    assert st.active_player == 1
    assert st.summons(0) == [{"damage": 3, "health": 2, "tokens": (None, 0), "uid": 4, "attacking": False,
                              "blocking": None, "cards": ["conjure_familiar"]}]       # s0.0 died, s0.1 took 1
    assert st.summons(1)[0]["health"] == 1
    assert st.spellbook_size(1) == book1 - 1 - 3 and st.is_chance()          # before seat 1's draws
    assert st.graveyard(0)[-1] == "conjure_familiar"                                   # TD-2: face down, known


def test_TB4_unblocked_attackers_hit_the_other_wizard():
    st = combat_position()
    play(st, "attack w0", "attack s0.0", "done")
    book1 = st.spellbook_size(1)
    assert st.phase == "cast"
    st.apply("pass")
    assert st.spellbook_size(1) == book1 - 3 and st.graveyard(1) == [None, None, None]     # TD-3: unseen


def test_TB3_TX12_attacker_whose_blocker_died_is_unblocked():
    st = combat_position(hand=(("arcane_bolt", "empower"), ("arcane_bolt",) * 7), mana=(MANA, ()))
    play(st, "attack s0.0", "done", "block s1.0")
    book1 = st.spellbook_size(1)
    play(st, "power arcane_bolt", "charm empower")     # seat 1 cannot afford: forced pass (TX-22)
    assert st.phase == "target" and st.current_player == 0
    st.apply("target s1.0")                            # 4 damage: the blocker dies before combat
    assert st.summons(1) == [] and st.spellbook_size(1) == book1 - 2


def test_TK5_TX33_ice_pulls_an_attacker_out():
    st = combat_position(hand=(("arcane_bolt", "frost"), ()), mana=(MANA, ()),
                         summons=(("conjure_familiar/2/3/-/u2/-",), ()))
    play(st, "attack s0.0", "done", "done")
    book1 = st.spellbook_size(1)
    play(st, "power arcane_bolt", "charm frost", "cast", "target s0.0")   # own attacker: 2 damage, then ice
    assert st.active_player == 1
    s = st.summons(0)[0]
    assert s["health"] == 1 and st.spellbook_size(1) == book1            # it left combat: no damage dealt


def test_TX45_ice_on_another_type_clears_and_stays_in_combat():
    st = combat_position(hand=(("arcane_bolt", "frost"), ()), mana=(MANA, ()),
                         summons=(("conjure_familiar/2/3/fire1/u2/-",), ()))
    play(st, "attack s0.0", "done", "done")
    book1 = st.spellbook_size(1)
    play(st, "power arcane_bolt", "charm frost", "cast", "target s0.0")
    s = st.summons(0)[0]
    assert s["tokens"] == (None, 0) and s["health"] == 1
    assert st.spellbook_size(1) == book1 - 2                            # still attacked


def test_TB5_TX13_summon_cast_this_turn_does_not_attack():
    st = combat_position(hand=(("conjure_familiar",), ()), mana=(MANA, ()), summons=((), ()))
    play(st, "done", "power conjure_familiar")
    assert st.active_player == 1 and len(st.summons(0)) == 1          # resolved after attackers were declared


def test_TT4_TT7_TX3_attack_block_cast_resolve_then_combat():
    """Attackers and blockers are declared first, spells resolve next, combat comes last (TX-3): a bolt on
    the attacking summon kills it before it deals its damage."""
    st = combat_position(hand=(("arcane_bolt",), ("arcane_bolt",)), mana=(MANA, MANA))
    play(st, "attack s0.0", "done", "done")
    assert st.phase == "cast"
    book1 = st.spellbook_size(1)
    play(st, "pass")
    assert st.active_player == 1 and st.spellbook_size(1) == book1 - 2      # no spell: it hit
    st = combat_position(hand=(("arcane_bolt",), ("arcane_bolt",)), mana=(MANA, MANA))
    play(st, "attack s0.0", "done", "done", "power arcane_bolt", "power arcane_bolt")
    book1 = st.spellbook_size(1)
    play(st, "target s0.0", "target w1")            # seat 1's bolt (cast last) resolves first (TR-1)
    assert st.summons(0) == [] and st.spellbook_size(1) == book1 - 2        # only seat 0's bolt reached w1


def test_TK1_TX9_four_token_types_shock_from_static():
    st = position(phase="cast", active=1, hand=((), ("arcane_bolt", "static")), mana=((), MANA),
                  summons=(("conjure_familiar/2/9/-/u2/-",), ()))
    play(st, "power arcane_bolt", "charm static", "target s0.0")
    assert st.summons(0)[0]["tokens"] == ("shock", 1) and st.summons(0)[0]["health"] == 7


# ------------------------------------------------------------------------------------- TC: casting
def test_TC1_spell_is_a_power_with_up_to_two_charms_never_charms_alone():
    st = cast_position(("empower", "frost", "arcane_bolt", "ward"), mana0=("mend",) * 6)
    assert moves(st) == ["power arcane_bolt", "pass"]                  # no charm alone
    st.apply("power arcane_bolt")
    assert moves(st) == ["charm empower", "charm frost", "charm ward", "cast"]      # TX-21: no take-back
    play(st, "charm frost", "charm empower")
    assert st.queue() == [(0, ["arcane_bolt", "frost", "empower"])]    # finished after the second (TX-47)
    assert st.phase == "target"


def test_TC2_TX6_mana_budget_per_step_cards_never_spent():
    st = cast_position(("conjure_familiar", "spellpower", "empower"), mana0=MANA)
    st.apply("power conjure_familiar")
    assert moves(st) == ["charm empower", "cast"]                      # spellpower (2) would make 4 > 3
    st.apply("charm empower")
    assert st.spent() == [3, 0] and len(st.mana(0)) == 3               # counted, not spent


def test_TX22_forced_pass_when_no_power_fits():
    st = position(phase="attack", hand=(("conjure_elemental", "empower"), ("arcane_bolt",)), mana=(MANA, MANA))
    st.apply("done")                                                     # seat 0 cannot afford: forced pass
    assert st.active_player == 1 and st.queue() == [] and st.hand(1)[0] == "arcane_bolt"   # TX-5: nothing cast

def test_TC3_TX5_strict_alternation_first_pass_ends_step():
    st = cast_position(("conjure_familiar", "conjure_familiar"), mana0=("mend",) * 4,
                       hand1=("conjure_familiar", "conjure_familiar"), mana1=("mend",) * 4)
    play(st, "power conjure_familiar", "cast")
    assert st.current_player == 1 and moves(st) == ["power conjure_familiar", "pass"]
    play(st, "power conjure_familiar", "cast")
    assert st.current_player == 0
    st.apply("pass")                                                     # ends the step: seat 1 cannot re-enter
    assert st.active_player == 1 and len(st.summons(0)) == 1 and len(st.summons(1)) == 1
    assert st.is_chance() and st.hand(1) == ["conjure_familiar"]          # its next turn's draws pending


def test_TC3_TX5_active_pass_first_casts_nothing():
    st = cast_position(("arcane_bolt",), hand1=("arcane_bolt",), mana1=MANA)
    st.apply("pass")
    assert st.active_player == 1 and st.queue() == [] and "arcane_bolt" in st.hand(1)


def test_TC4_TR1_queue_in_order_resolved_last_first():
    st = cast_position(("arcane_bolt",), hand1=("mend",), mana1=MANA, grave=((), ("?3",)))
    play(st, "power arcane_bolt", "cast", "power mend", "cast")
    assert st.queue() == [(0, ["arcane_bolt"]), (1, ["mend"])]
    assert st.current_player == 1                                          # mend (last) resolves first
    book1 = st.spellbook_size(1)
    st.apply("target w1")
    assert st.spellbook_size(1) == book1 + 2 and st.current_player == 0
    st.apply("target w1")
    assert st.spellbook_size(1) == book1


# TC-5, TC-6, TC-7, TX-7, TX-8, TX-23..TX-26: the final spell
def final(hand, *cards, mana=8):
    st = cast_position(hand, mana0=("conjure_familiar",) * mana)
    play(st, f"power {cards[0]}", *[f"charm {c}" for c in cards[1:]])
    if st.phase == "charm":
        st.apply("cast")
    return st


def effects(st):
    return st.final_spell(0)["effects"]


def test_TC7_example_1_add_2_damage_gives_4():
    st = final(("arcane_bolt", "empower"), "arcane_bolt", "empower")
    assert effects(st) == [("damage", None, 4)]
    book1 = st.spellbook_size(1)
    st.apply("target w1")
    assert st.spellbook_size(1) == book1 - 4


def test_TC7_example_2_damage_then_ice():
    st = final(("arcane_bolt", "frost"), "arcane_bolt", "frost")
    assert effects(st) == [("damage", None, 2), ("tokens", "ice", 1)]
    st.apply("target w1")
    assert st.wizard(1)["tokens"] == ("ice", 1)


def test_TC7_example_3_shield_then_spellpower_is_3_3_with_2_shield():
    st = final(("conjure_familiar", "ward", "spellpower"), "conjure_familiar", "ward", "spellpower")
    s = st.summons(0)[0]
    assert (s["damage"], s["health"], s["tokens"]) == (3, 3, ("shield", 2))
    assert s["cards"] == ["conjure_familiar", "ward", "spellpower"]          # TR-3: its cards stay


def test_TC7_example_4_spellpower_then_shield_is_3_3_with_1_shield():
    st = final(("conjure_familiar", "ward", "spellpower"), "conjure_familiar", "spellpower", "ward")
    s = st.summons(0)[0]
    assert (s["damage"], s["health"], s["tokens"]) == (3, 3, ("shield", 1))


def test_TC7_example_5_heal_with_tokens_plus_is_unchanged():
    st = final(("mend", "amplify"), "mend", "amplify")
    assert effects(st) == [("health", None, 2)]


def test_TX23_appended_quantity_modified_by_later_charms():
    assert effects(final(("arcane_bolt", "frost", "frost"), "arcane_bolt", "frost", "frost")) == \
        [("damage", None, 2), ("tokens", "ice", 2)]
    assert effects(final(("arcane_bolt", "frost", "amplify"), "arcane_bolt", "frost", "amplify")) == \
        [("damage", None, 2), ("tokens", "ice", 3)]
    assert effects(final(("arcane_bolt", "frost", "amplify"), "arcane_bolt", "amplify", "frost")) == \
        [("damage", None, 2), ("tokens", "ice", 1)]


def test_TX24_add_charm_appends_on_same_target_after_power():
    st = final(("mend", "empower"), "mend", "empower")
    assert effects(st) == [("health", None, 2), ("damage", None, 2)]
    st = final(("conjure_familiar", "empower"), "conjure_familiar", "empower")
    s = st.summons(0)[0]
    assert (s["damage"], s["health"]) == (4, 2)                           # raises the summon's damage


def test_TX25_spellpower_scope_and_one_quantity():
    st = final(("conjure_familiar", "spellpower", "spellpower"), "conjure_familiar", "spellpower", "spellpower")
    s = st.summons(0)[0]
    assert (s["damage"], s["health"]) == (4, 4)
    assert effects(final(("arcane_bolt", "empower", "spellpower"), "arcane_bolt", "empower", "spellpower")) == \
        [("damage", None, 5)]
    assert effects(final(("arcane_bolt", "empower", "spellpower"), "arcane_bolt", "spellpower", "empower")) == \
        [("damage", None, 5)]


def test_TC6_TX26_two_token_types_deal_none():
    st = final(("arcane_bolt", "frost", "ward"), "arcane_bolt", "frost", "ward")
    assert st.final_spell(0)["no_tokens"]
    st.apply("target w1")
    assert st.wizard(1)["tokens"] == (None, 0)
    st = final(("conjure_familiar", "frost", "ward"), "conjure_familiar", "frost", "ward")
    s = st.summons(0)[0]
    assert (s["damage"], s["health"], s["tokens"]) == (2, 2, (None, 0))


def test_TX8_add_is_additive():
    assert effects(final(("arcane_bolt", "apocalypse"), "arcane_bolt", "apocalypse")) == [("damage", None, 5)]


# ------------------------------------------------------------------------------------- TR: resolution
def test_TR2_TX28_character_targets_in_listing_order_own_included():
    st = cast_position(("arcane_bolt",), summons=(("conjure_familiar/2/2/-/u2/-", "conjure_familiar/2/2/-/u3/-"),
                                                  ("conjure_familiar/2/2/-/u4/-",)))
    play(st, "power arcane_bolt", "cast")
    assert moves(st) == ["target w0", "target w1", "target s0.0", "target s0.1", "target s1.0"]


def test_TR3_TX44_resolved_spell_to_graveyard_power_first():
    st = final(("arcane_bolt", "frost", "empower"), "arcane_bolt", "frost", "empower")
    st.apply("target w1")
    assert st.graveyard(0) == ["arcane_bolt", "frost", "empower"]


def test_TR3_mend_on_own_wizard_cannot_heal_itself_back():
    st = cast_position(("mend",), grave=(("arcane_bolt",), ()))
    play(st, "power mend", "cast", "target w0")
    assert st.graveyard(0) == ["mend"] and st.spellbook(0)[0] == "arcane_bolt"


def test_TX27_target_died_midway_rest_does_nothing_its_cards_first():
    st = cast_position(("arcane_bolt", "frost"), summons=(("conjure_familiar+ward/2/2/-/u2/-",), ()))
    play(st, "power arcane_bolt", "charm frost", "cast", "target s0.0")
    assert st.summons(0) == []
    assert st.graveyard(0) == ["conjure_familiar", "ward", "arcane_bolt", "frost"]


# ------------------------------------------------------------------------------------- TD: damage and healing
@pytest.mark.parametrize("tokens,health", [("shield1", 8), ("shock1", 6), ("shield3", 9)])
def test_TD1_TK3_TX10_shield_and_shock_per_event_not_used_up(tokens, health):
    st = cast_position(("arcane_bolt",), summons=((), (f"conjure_familiar/2/9/{tokens}/u2/-",)))
    play(st, "power arcane_bolt", "target s1.0")
    assert st.summons(1)[0]["health"] == health and st.summons(1)[0]["tokens"][1] == int(tokens[-1])

def test_TD2_TX11_summon_damage_permanent_and_healing_uncapped():
    st = cast_position(("mend",), summons=(("conjure_familiar/2/2/-/u2/-",), ()))
    play(st, "power mend", "target s0.0")
    assert st.summons(0)[0]["health"] == 4                               # above its printed 2

def test_TD3_TX43_wizard_damage_moves_top_cards_one_at_a_time():
    st = cast_position(("arcane_bolt",), book=(("*",), ("*", "mend")))     # seat 1's top card is a known mend
    play(st, "power arcane_bolt", "cast", "target w1")
    assert st.graveyard(1) == ["mend", None]                               # the top landed first


def test_TD3_damage_beyond_spellbook_is_lost():
    st = cast_position(("arcane_bolt", "empower"), grave=((), ("?72",)))
    play(st, "power arcane_bolt", "charm empower", "target w1")
    assert st.spellbook_size(1) == 0 and len(st.graveyard(1)) == 75


def test_TD4_TX43_healing_moves_graveyard_top_first_to_spellbook_bottom():
    st = cast_position(("mend",), grave=(("arcane_bolt", "empower", "frost"), ()))
    play(st, "power mend", "cast", "target w0")
    assert st.spellbook(0)[:2] == ["empower", "frost"] and st.graveyard(0) == ["arcane_bolt", "mend"]


# ------------------------------------------------------------------------------------- TK: tokens
@pytest.mark.parametrize("held,after", [("ice1", ("ice", 2)), ("fire1", (None, 0)), ("-", ("ice", 1))])
def test_TK2_tokens_same_type_add_other_type_clears(held, after):
    st = cast_position(("arcane_bolt", "frost"), summons=((), (f"conjure_familiar/2/9/{held}/u2/-",)))
    play(st, "power arcane_bolt", "charm frost", "target s1.0")
    assert st.summons(1)[0]["tokens"] == after

def test_TK4_TX35_fire_ticks_at_end_of_controllers_turn_death_at_once():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), wiz=("fire2/-", "fire3/-"),
                  summons=(("conjure_familiar/2/1/fire1/u2/-", "conjure_familiar/2/5/fire2/u3/-"),
                           ("conjure_familiar/2/1/fire1/u4/-",)))
    book0 = st.spellbook_size(0)
    pass_turn(st)
    assert st.spellbook_size(0) == book0 - 2 and st.wizard(0)["tokens"] == ("fire", 1)
    assert [(s["health"], s["tokens"]) for s in st.summons(0)] == [(3, ("fire", 1))]
    assert st.graveyard(0)[-1] == "conjure_familiar"
    assert st.summons(1)[0]["tokens"] == ("fire", 1) and st.wizard(1)["tokens"] == ("fire", 3)   # TX-4


def test_TX41_tick_to_zero_leaves_no_tokens():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), wiz=("ice1/-", "-/-"))
    pass_turn(st)
    assert st.wizard(0)["tokens"] == (None, 0)


def test_TX34_ice_on_enemy_waits_for_its_owners_turn_end():
    st = final(("arcane_bolt", "frost"), "arcane_bolt", "frost")
    st.apply("target w1")                                # seat 1's wizard: ice 1, its turn next
    st.resolve_chance()
    assert st.active_player == 1 and st.wizard(1)["tokens"] == ("ice", 1)
    while st.phase == "mana":
        st.play("none")
    assert "attack w1" not in moves(st)


# ------------------------------------------------------------------------------------- TG: end
def test_TG1_TT1_empty_spellbook_at_turn_start_loses():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), grave=((), ("?72",)))
    pass_turn(st)
    assert st.is_terminal() and st.winners() == [0]


def test_TG2_only_the_starting_player_is_checked():
    st = position(phase="mana", hand=(("arcane_bolt",), ("arcane_bolt",)), grave=(("?71",), ("?71",)))
    assert st.spellbook_size(0) == 0 and st.spellbook_size(1) == 0
    pass_turn(st)
    assert st.is_terminal() and st.winners() == [0]


def test_TX37_healed_before_turn_start_saves():
    st = cast_position(("mend",), grave=(("?71",), ()))
    assert st.spellbook_size(0) == 0
    play(st, "power mend", "cast", "target w0")
    assert st.spellbook_size(0) == 2 and not st.is_terminal()


def test_TG3_TX14_TX37_turn_limit_is_a_draw():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), turn=10, limit=10)
    pass_turn(st)
    assert st.is_terminal() and st.winners() == [0, 1] and st.turn == 11


# ------------------------------------------------------------------------------------- user data: TF-2, TX-27..TX-29, TX-42
@pytest.fixture(scope="module")
def custom(tmp_path_factory):
    data = json.load(open(C.STARTER_CARDS))
    data["name"] = "custom"
    data["cards"] += [
        {"id": "fixed_bolt", "name": "Fixed Bolt", "type": "power", "cost": 1, "rarity": "common",
         "target": "character", "effects": [{"damage": 2, "fixed": ["damage"]}]},
        {"id": "zap", "name": "Zap", "type": "power", "cost": 1, "rarity": "common", "target": "character",
         "effects": [{"damage": 0}]},
        {"id": "conjure_wisp", "name": "Conjure Wisp", "type": "power", "cost": 1, "rarity": "common",
         "target": "none", "effects": [{"summon": [1, 0]}, {"tokens": "fire", "n": 1}]},
        {"id": "blaze", "name": "Blaze", "type": "power", "cost": 1, "rarity": "common", "target": "character",
         "effects": [{"tokens": "fire", "n": 1}, {"tokens": "fire", "n": 2}]},
        {"id": "sever", "name": "Sever", "type": "power", "cost": 1, "rarity": "common", "target": "spell",
         "effects": [{"damage": 2}]},
        {"id": "fizzle", "name": "Fizzle", "type": "power", "cost": 1, "rarity": "common", "target": "none",
         "effects": [{"damage": 2}]},
        {"id": "cull", "name": "Cull", "type": "power", "cost": 1, "rarity": "common", "target": "summon",
         "effects": [{"damage": 5}]},
    ]
    d = tmp_path_factory.mktemp("cards")
    (d / "custom.json").write_text(json.dumps(data))
    cs = C.load_cards(str(d / "custom.json"))
    deck = {"format": "spellbooktcg-decks/1", "decks": [{"id": "lab", "name": "Lab", "wizard": "apprentice", "cards": {
        "fixed_bolt": 10, "zap": 10, "conjure_wisp": 10, "blaze": 10, "sever": 10, "fizzle": 5, "cull": 5,
        "empower": 7, "spellpower": 3, "static": 3, "conjure_familiar": 2}}]}
    (d / "decks.json").write_text(json.dumps(deck))
    lab = C.load_decks(str(d / "decks.json"), cs)["lab"]
    return cs, (lab, lab)


def lab_cast(custom, hand0, **kw):
    cs, decks = custom
    kw.setdefault("mana", (("zap",) * 4, ()))
    return position(phase="cast", hand=(hand0, kw.pop("hand1", ())), cards=cs, decks=decks, **kw)


def test_TF2_TX23_fixed_number_is_present_not_raised(custom):
    st = lab_cast(custom, ("fixed_bolt", "empower", "spellpower"))
    play(st, "power fixed_bolt", "charm empower", "charm spellpower")
    assert st.final_spell(0)["effects"] == [("damage", None, 2)]


def test_TX29_zero_damage_against_shock_deals_shock(custom):
    st = lab_cast(custom, ("zap",), summons=((), ("conjure_familiar/2/5/shock2/u2/-",)))
    play(st, "power zap", "cast", "target s1.0")
    assert st.summons(1)[0]["health"] == 3


def test_TX29_summon_entering_with_health_0_dies_after_its_tokens(custom):
    st = lab_cast(custom, ("conjure_wisp",))
    play(st, "power conjure_wisp", "cast")
    assert st.summons(0) == [] and st.graveyard(0)[-1] == "conjure_wisp"


def test_TX42_token_effects_dealt_one_at_a_time(custom):
    st = lab_cast(custom, ("blaze",), summons=((), ("conjure_familiar/2/5/ice1/u2/-",)))
    play(st, "power blaze", "cast", "target s1.0")
    assert st.summons(1)[0]["tokens"] == ("fire", 2)


def test_TX27_spell_target_is_another_queued_spell_and_does_nothing(custom):
    st = lab_cast(custom, ("zap", "sever"), hand1=("fizzle",), mana=(("zap",) * 4, ("zap",) * 2))
    play(st, "power zap", "power fizzle", "power sever")
    assert st.current_player == 0 and moves(st) == ["target q0", "target q1"]      # never a character
    b0, b1 = st.spellbook_size(0), st.spellbook_size(1)
    st.apply("target q0")
    assert st.queue() == [(0, ["zap"])] and st.graveyard(0) == ["sever"] and st.graveyard(1) == ["fizzle"]
    assert moves(st) == ["target w0", "target w1"] and (st.spellbook_size(0), st.spellbook_size(1)) == (b0, b1)

def test_TX27_power_with_target_none_does_nothing_and_goes_to_graveyard(custom):
    st = lab_cast(custom, ("fizzle",))
    b0, b1 = st.spellbook_size(0), st.spellbook_size(1)
    play(st, "power fizzle", "cast")
    assert (st.spellbook_size(0), st.spellbook_size(1)) == (b0, b1) and st.graveyard(0) == ["fizzle"]


def test_TR2_summon_target_kind_and_no_target_does_nothing(custom):
    st = lab_cast(custom, ("cull", "cull"), summons=((), ("conjure_familiar/2/9/-/u2/-", "conjure_familiar/2/9/-/u3/-")))
    play(st, "power cull", "cast")
    assert moves(st) == ["target s1.0", "target s1.1"]
    st = lab_cast(custom, ("cull",))
    play(st, "power cull", "cast")
    assert st.graveyard(0) == ["cull"] and st.active_player == 1            # no target: nothing


# ------------------------------------------------------------------------------------- TX-47, invariants
def test_TX47_single_option_decisions_applied_and_random_games_keep_every_card():
    import random

    rng = random.Random(7)
    for g in range(30):
        st = State.new(seed=g)
        steps = 0
        while not st.is_terminal() and steps < 3000:
            if st.is_chance():
                st.apply(st.sample_chance())
            else:
                ms = st.legal_moves()
                assert len(ms) >= 2                   # one legal option is applied at once
                st.apply(rng.choice(ms))
            steps += 1
            if steps % 97 == 0:
                st.validate()                     # each player's 75 cards across its zones, sizes, combat
                assert State.from_text(st.to_text()) == st
        assert st.is_terminal()
        st.validate()
