"""More Spellbook TCG rules tests (issue 49): each pins a rule of SPELLBOOK_TCG.md (its id in the test's name)
that a rule change injected into the engine (bench/mutation.py) slipped past tests/test_tcg_rules.py. The
expected values come from the rules text. Positions are state texts (tests/tcg_positions.py), played
through the public State API; user cards (a small lab file) where the starter set cannot show a rule."""
import json
from collections import Counter

import pytest

from engine_c.spellbooktcg import State
from engine_c.spellbooktcg import cards as C
from tcg_positions import position

MANA = ("mend",) * 3


def moves(st):
    return [str(m) for m in st.legal_moves()]


def play(st, *ms):
    """Applies the moves; `cast` only where it is still a choice (a spell that cannot take a charm is
    finished at once, TX-47)."""
    for m in ms:
        if m == "cast" and "cast" not in moves(st):
            continue
        st.apply(m)
    return st


def pass_turn(st):
    """The active seat declines everything until its turn ends."""
    a = st.active_player
    while st.active_player == a and not st.is_terminal() and not st.is_chance():
        ms = moves(st)
        st.apply(next(m for m in ("none", "done", "pass") if m in ms))
    return st


# -------------------------------------------------------------------------------------------------------- user cards
LAB_CARDS = [
    # TF-2: a fixed token count (not bold on the card): no charm raises it
    {"id": "hard_frost", "name": "Hard Frost", "type": "power", "cost": 1, "rarity": "common", "target": "character",
     "effects": [{"tokens": "ice", "n": 1, "fixed": ["n"]}]},
    # TF-3: add health, which the starter set lacks
    {"id": "soothe", "name": "Soothe", "type": "charm", "cost": 1, "rarity": "common", "modifier": "add_health 2"},
    # TF-2: a summon whose damage is fixed, its health modifiable
    {"id": "conjure_golem", "name": "Conjure Golem", "type": "power", "cost": 1, "rarity": "common",
     "target": "none", "effects": [{"summon": [2, 2], "fixed": ["damage"]}]},
    {"id": "conjure_wall", "name": "Conjure Wall", "type": "power", "cost": 1, "rarity": "common",
     "target": "none", "effects": [{"summon": [0, 3], "fixed": ["health"]}]},
    # TX-26: a token type with count 0 is no type
    {"id": "cinder", "name": "Cinder", "type": "power", "cost": 1, "rarity": "common", "target": "character",
     "effects": [{"tokens": "fire", "n": 0}]},
    # TD-2: a summon at 1 health is alive
    {"id": "conjure_sprite", "name": "Conjure Sprite", "type": "power", "cost": 1, "rarity": "common",
     "target": "none", "effects": [{"summon": [1, 1]}]},
    # TR-2: a summon-target power
    {"id": "smite", "name": "Smite", "type": "power", "cost": 1, "rarity": "common", "target": "summon",
     "effects": [{"damage": 3}]},
    # TX-27: a non-summon power with target none does nothing
    {"id": "dud", "name": "Dud", "type": "power", "cost": 1, "rarity": "common", "target": "none",
     "effects": [{"damage": 2}]},
    # TX-29: a summon entering with health 0 dies at once
    {"id": "conjure_shade", "name": "Conjure Shade", "type": "power", "cost": 1, "rarity": "common",
     "target": "none", "effects": [{"summon": [1, 0]}]},
    # TX-23: a fixed heal counts as present
    {"id": "soothe_bolt", "name": "Soothe Bolt", "type": "power", "cost": 1, "rarity": "common",
     "target": "character", "effects": [{"health": 1, "fixed": ["health"]}]},
]
LAB_WIZARDS = [
    # TF-4: abilities at their bounds
    {"id": "miser", "name": "Miser", "type": "wizard", "damage": 1, "ability": {"setup_mana": 70}},
    {"id": "hermit", "name": "Hermit", "type": "wizard", "damage": 2, "ability": {"hand_size": 0}},
]
LAB_DECK = {"hard_frost": 8, "soothe": 2, "conjure_golem": 10, "conjure_wall": 10, "cinder": 8, "conjure_sprite": 2,
            "smite": 2, "dud": 2, "conjure_shade": 2, "soothe_bolt": 5, "mend": 2, "kindle": 2, "arcane_bolt": 5,
            "conjure_familiar": 5, "frost": 4, "amplify": 3, "spellpower": 3}          # 75 cards, 3 rare


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    data = json.load(open(C.STARTER_CARDS))
    data["name"] = "lab"
    data["cards"] += LAB_CARDS + LAB_WIZARDS
    d = tmp_path_factory.mktemp("lab")
    (d / "lab.json").write_text(json.dumps(data))
    cs = C.load_cards(str(d / "lab.json"))
    decks = {"format": "spellbooktcg-decks/1",
             "decks": [{"id": "lab", "name": "Lab", "wizard": "apprentice", "cards": LAB_DECK}]}
    (d / "decks.json").write_text(json.dumps(decks))
    deck = C.load_decks(str(d / "decks.json"), cs)["lab"]
    return cs, (deck, deck)


def lab_cast(lab, hand0, mana0=("cinder",) * 6, **kw):
    """Seat 0 to cast on its turn with the lab cards; seat 1 holds `hand1` (by default nothing)."""
    cs, decks = lab
    return position(phase="cast", hand=(hand0, kw.pop("hand1", ())), mana=(mana0, kw.pop("mana1", ())), cards=cs,
                    decks=decks, **kw)


def built(st, power, *charms):
    """Casts `power` with `charms` (seat 0) and returns the queued spell's final effects (TC-5)."""
    play(st, f"power {power}", *[f"charm {c}" for c in charms])
    if st.phase == "charm":
        st.apply("cast")
    return st.final_spell(0)["effects"] if st.queue() else None


# ------------------------------------------------------------------------------------------- TS-4, TX-1, TF-4: setup
def test_TX1_seat_0_starts_after_setup():
    """Whatever seat a setup state text calls active (it means nothing before turn 1), seat 0 plays first."""
    text = State.new(seed=4, deal=False).to_text()
    st = State.from_text(text.replace(" active=0 ", " active=1 ").replace(" caster=0 ", " caster=1 "))
    st.resolve_chance()
    assert st.turn == 1 and st.active_player == 0 and st.current_player == 0 and st.phase == "mana"


def test_TS4_TX18_TG1_setup_stops_when_the_spellbook_empties_and_that_player_loses_at_once(lab):
    cs, _ = lab
    d = C.starter_decks()
    st = State.new(seed=1, cards=cs, decks=(d["frost_ward"], d["fire_shock"]), wizards=("miser", "apprentice"))
    assert len(st.mana(0)) == 70 and len(st.hand(0)) == 5 and st.spellbook_size(0) == 0     # 75 = 70 + 5
    assert len(st.mana(1)) == 3 and len(st.hand(1)) == 7
    assert st.is_terminal() and st.winners() == [1] and st.turn == 1          # TT-1: seat 0 starts empty


# ---------------------------------------------------------------------------------------- TT-3, TX-19: the mana step
def test_TT3_TX19_a_single_card_in_hand_may_go_to_the_mana_pool():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), grave=((), ("?71",)))
    assert st.spellbook_size(1) == 1
    pass_turn(st)
    st.resolve_chance()                                      # seat 1 draws its last card
    assert st.phase == "mana" and st.current_player == 1 and len(st.hand(1)) == 1
    assert moves(st) == [f"mana {st.hand(1)[0]}", "none"]


def test_TT3_TX19_TX47_no_mana_decision_with_an_empty_hand(lab):
    cs, _ = lab
    d = C.starter_decks()
    st = State.new(seed=1, cards=cs, decks=(d["frost_ward"], d["fire_shock"]), wizards=("hermit", "apprentice"))
    assert st.hand(0) == [] and len(st.mana(0)) == 3                       # hand_size 0: nothing drawn
    assert st.phase == "attack" and moves(st) == ["attack w0", "done"]     # no mana step to decide


# --------------------------------------------------------------------------- TC-2, TC-3, TX-6, TX-20, TX-22: casting
def test_TC2_TX6_every_step_a_fresh_budget_for_both_players():
    """Seat 0 spends its 3 mana on its own turn; on seat 1's turn it answers with a full budget again."""
    st = position(phase="cast", hand=(("arcane_bolt", "arcane_bolt"), ("arcane_bolt",)), mana=(MANA, MANA))
    play(st, "power arcane_bolt", "cast", "pass")           # seat 0 spent 2 of 3; seat 1 passes
    assert st.spent() == [2, 0] and st.phase == "target"
    st.apply("target w1")
    st.resolve_chance()
    play(st, *["none"] * (st.phase == "mana"), "done")      # seat 1: no mana card, no attacker
    assert st.phase == "cast" and st.current_player == 1 and st.spent() == [0, 0]
    play(st, "power arcane_bolt", "cast")
    assert st.current_player == 0 and "power arcane_bolt" in moves(st)      # 2 <= 3: affordable again


def test_TX20_TX22_no_attacker_and_forced_pass_go_to_the_other_players_draw():
    st = position(phase="attack", hand=(("conjure_elemental",), ("arcane_bolt",)), mana=(MANA, MANA))
    st.apply("done")                                        # no attacker; seat 0 cannot afford: forced pass
    assert st.active_player == 1 and st.phase == "draw" and st.is_chance() and st.queue() == []
    st.resolve_chance()
    assert len(st.hand(1)) == 7 and st.phase == "mana" and st.current_player == 1


# --------------------------------------------------------------------------------- TC-5, TC-6, TF-2: the final spell
def test_TF2_TC5_fixed_token_count_is_not_raised(lab):
    assert built(lab_cast(lab, ("hard_frost", "amplify")), "hard_frost", "amplify") == [("tokens", "ice", 1)]
    assert built(lab_cast(lab, ("hard_frost", "spellpower")), "hard_frost", "spellpower") == [("tokens", "ice", 1)]
    # TX-23: a fixed number counts as present: an add of its kind neither raises nor appends it
    assert built(lab_cast(lab, ("hard_frost", "frost")), "hard_frost", "frost") == [("tokens", "ice", 1)]


def test_TF2_TX24_summon_fixed_damage_modifiable_health(lab):
    st = lab_cast(lab, ("conjure_golem", "spellpower"))
    built(st, "conjure_golem", "spellpower")
    s = st.summons(0)[0]
    assert (s["damage"], s["health"]) == (2, 3)
    st = lab_cast(lab, ("conjure_wall", "spellpower", "soothe"))
    built(st, "conjure_wall", "spellpower", "soothe")
    s = st.summons(0)[0]
    assert (s["damage"], s["health"]) == (1, 3)             # health fixed: neither spellpower nor add health


def test_TC5_TX24_add_health_raises_heal_summon_health_or_appends(lab):
    assert built(lab_cast(lab, ("mend", "soothe"), mana0=("cinder",) * 3), "mend", "soothe") == [("health", None, 4)]
    assert built(lab_cast(lab, ("arcane_bolt", "soothe")), "arcane_bolt", "soothe") == \
        [("damage", None, 2), ("health", None, 2)]                       # appended after the power's effects
    st = lab_cast(lab, ("conjure_familiar", "soothe"))
    built(st, "conjure_familiar", "soothe")
    assert (st.summons(0)[0]["damage"], st.summons(0)[0]["health"]) == (2, 4)
    # a fixed heal counts as present: add health neither raises it nor appends one (TX-23)
    assert built(lab_cast(lab, ("soothe_bolt", "soothe")), "soothe_bolt", "soothe") == [("health", None, 1)]


def test_TC5_TX23_a_powers_token_count_is_raised_by_tokens_plus_and_spellpower(lab):
    assert built(lab_cast(lab, ("cinder", "amplify")), "cinder", "amplify") == [("tokens", "fire", 2)]
    assert built(lab_cast(lab, ("cinder", "spellpower")), "cinder", "spellpower") == [("tokens", "fire", 1)]


def test_TC5_TX8_add_tokens_of_another_type_appends_it(lab):
    st = lab_cast(lab, ("arcane_bolt", "frost", "kindle"))
    assert built(st, "arcane_bolt", "frost", "kindle") == [("damage", None, 2), ("tokens", "ice", 1),
                                                         ("tokens", "fire", 1)]
    assert st.final_spell(0)["no_tokens"]                                  # TC-6: two types


def test_TC6_TX26_two_token_types_deal_none_on_a_holder_either():
    """Frost and ward on one spell deal no tokens at all: a shielded target keeps its shield 2 (dealing ice
    then shield one by one would clear it and leave shield 1)."""
    st = position(phase="cast", hand=(("arcane_bolt", "frost", "ward"), ()), mana=(("mend",) * 4, ()),
                  summons=((), ("conjure_familiar/2/9/shield2/u2/-",)))
    assert built(st, "arcane_bolt", "frost", "ward") == [("damage", None, 2), ("tokens", "ice", 1),
                                                       ("tokens", "shield", 1)]
    st.apply("target s1.0")
    assert st.summons(1)[0]["tokens"] == ("shield", 2) and st.summons(1)[0]["health"] == 9     # 2 - 2 shield


def test_TX26_a_token_type_with_count_0_does_not_count(lab):
    st = lab_cast(lab, ("cinder", "frost"), summons=((), ("conjure_familiar/2/9/-/u2/-",)))
    assert built(st, "cinder", "frost") == [("tokens", "fire", 0), ("tokens", "ice", 1)]
    assert not st.final_spell(0)["no_tokens"]
    st.apply("target s1.0")
    assert st.summons(1)[0]["tokens"] == ("ice", 1)                       # fire 0 does nothing (TK-2)


# ------------------------------------------------------------------------ TR-2, TX-27, TX-47: targets and resolution
def test_TR2_TX47_a_single_legal_target_is_taken_at_once(lab):
    st = lab_cast(lab, ("smite",), summons=((), ("conjure_familiar/2/5/-/u2/-",)))
    play(st, "power smite", "cast")
    assert st.active_player == 1 and st.summons(1)[0]["health"] == 2      # no decision: the only summon


def test_TX27_a_target_none_power_does_nothing_after_a_spell_with_one_target(lab):
    """Seat 0's Dud (target none) resolves right after seat 1's Smite took the only summon: Dud hits nothing."""
    st = lab_cast(lab, ("dud",), hand1=("smite",), mana1=("cinder",) * 3,
                  summons=((), ("conjure_familiar/2/9/-/u2/-",)))
    b0, b1 = st.spellbook_size(0), st.spellbook_size(1)
    play(st, "power dud", "power smite")                   # seat 0 has nothing left: a forced pass
    assert st.summons(1)[0]["health"] == 6 and (st.spellbook_size(0), st.spellbook_size(1)) == (b0, b1)
    assert st.graveyard(0) == ["dud"] and st.graveyard(1) == ["smite"]


def test_TX47_no_legal_move_at_a_chance_event_or_at_the_end_and_no_chance_at_a_decision():
    st = State.new(seed=2, deal=False)
    assert st.is_chance() and st.legal_moves() == []
    st.resolve_chance()
    assert st.current_player == 0 and st.chance_outcomes() == []
    st = position(phase="mana", hand=(("arcane_bolt",), ()), grave=((), ("?72",)))
    pass_turn(st)
    assert st.is_terminal() and st.legal_moves() == [] and st.chance_outcomes() == []


# ------------------------------------------------------------------------------ TD-1, TD-2, TX-29: damage and deaths
def test_TD1_TK3_a_shielded_wizard_takes_less_from_an_unblocked_attacker():
    st = position(phase="attack", hand=(("arcane_bolt",), ()), summons=(("conjure_familiar/3/3/-/u2/-",), ()),
                  wiz=("-/-", "shield1/-"))
    book1 = st.spellbook_size(1)
    play(st, "attack s0.0", "done", "done", "pass")          # seat 1 does not block
    assert st.spellbook_size(1) == book1 - 2                 # 3 - shield 1: one damage event


def test_TD2_TX29_a_summon_entering_with_health_1_lives_with_0_dies_at_once(lab):
    st = lab_cast(lab, ("conjure_sprite",))
    built(st, "conjure_sprite")
    assert [(s["damage"], s["health"]) for s in st.summons(0)] == [(1, 1)]
    # seat 1's Shade (1/0) resolves before seat 0's bolt: dead at once, so no target when the bolt resolves
    st = lab_cast(lab, ("arcane_bolt",), hand1=("conjure_shade",), mana1=("cinder",) * 3)
    play(st, "power arcane_bolt", "power conjure_shade")     # seat 0 has nothing left: a forced pass
    assert st.phase == "target" and moves(st) == ["target w0", "target w1"]
    assert st.summons(1) == [] and st.graveyard(1) == ["conjure_shade"]


# -------------------------------------------------------------------------------------------------- TB, TK-5: combat
S0 = "conjure_familiar/2/2/-/u2/-"
S1 = "conjure_familiar/2/9/-/u3/-"


def test_TT4_TB2_TX5_the_non_active_player_blocks_on_either_seats_turn():
    st = position(phase="attack", active=1, hand=(("arcane_bolt",), ("arcane_bolt",)), summons=((S1,), (S0,)))
    play(st, "attack s1.0", "done")
    assert st.phase == "block" and st.current_player == 0 and moves(st) == ["block w0", "block s0.0", "done"]


def test_TB2_TX47_a_lone_attacking_wizard_is_blocked_at_once():
    st = position(phase="attack", hand=(("arcane_bolt",), ("arcane_bolt",)), summons=((), (S1,)))
    play(st, "attack w0")                                    # its only attacker: declared, then blocks
    assert st.phase == "block" and moves(st) == ["block w1", "block s1.0", "done"]
    st.apply("block s1.0")
    assert st.phase == "cast" and st.summons(1)[0]["blocking"] == 0


def test_TB2_TX13_a_summon_cast_by_the_defender_does_not_block():
    st = position(phase="attack", hand=(("arcane_bolt",), ("conjure_familiar",)), mana=(MANA, MANA))
    play(st, "attack w0", "done")                          # wizard 0 attacks; seat 1 does not block
    book0, book1 = st.spellbook_size(0), st.spellbook_size(1)
    play(st, "power arcane_bolt", "power conjure_familiar")  # seat 0 then has nothing: a forced pass
    assert st.phase == "target" and st.summons(1)[0]["blocking"] is None      # the summon resolved first
    st.apply("target w0")
    assert st.active_player == 1 and st.summons(1)[0]["health"] == 2
    assert (st.spellbook_size(0), st.spellbook_size(1)) == (book0 - 2, book1 - 1)  # the bolt; the attack


def test_TK5_TB3_TX12_ice_on_a_blocker_takes_it_out_and_its_attacker_is_unblocked():
    st = position(phase="attack", hand=(("arcane_bolt", "frost"), ()), mana=(MANA, ()), summons=((S0,), (S1,)))
    play(st, "attack s0.0", "done", "block s1.0")
    assert st.summons(1)[0]["blocking"] == 2
    book1 = st.spellbook_size(1)
    play(st, "power arcane_bolt", "charm frost", "target s1.0")
    assert st.active_player == 1
    assert st.summons(1)[0]["health"] == 7 and st.summons(1)[0]["tokens"] == ("ice", 1)   # the bolt only
    assert st.summons(0)[0]["health"] == 2                                                 # no blocker hit it
    assert st.spellbook_size(1) == book1 - 2                                               # it hit the wizard


# ------------------------------------------------------------------------------------------ TT-8, TK-5, TX-35: ticks
def test_TT8_TK5_TX35_ice_ticks_on_the_wizard_and_each_summon():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), wiz=("ice2/-", "-/-"),
                  summons=(("conjure_familiar/2/2/-/u2/-", "conjure_familiar/2/2/ice1/u3/-",
                            "conjure_familiar/2/2/ice3/u4/-"), ()))
    pass_turn(st)
    assert st.wizard(0)["tokens"] == ("ice", 1)
    assert [s["tokens"] for s in st.summons(0)] == [(None, 0), (None, 0), ("ice", 2)]


# ------------------------------------------------------------------------------------------------------- TG: the end
def test_TG3_TX14_the_last_turn_is_played():
    st = position(phase="mana", hand=(("arcane_bolt",), ("arcane_bolt",)), turn=9, limit=10)
    pass_turn(st)
    assert st.turn == 10 and not st.is_terminal() and st.active_player == 1


def test_TG3_TX37_the_turn_limit_draw_comes_before_the_loss_check():
    st = position(phase="mana", hand=(("arcane_bolt",), ()), grave=((), ("?72",)), turn=10, limit=10)
    assert st.spellbook_size(1) == 0
    pass_turn(st)
    assert st.is_terminal() and st.phase == "over" and st.winners() == [0, 1]       # not seat 0's win


# --------------------------------------------------------------------------------------- TI-4, TI-5: determinization
def test_TI5_determinizing_for_seat_1_deals_seat_0s_hidden_cards():
    st = State.new(seed=6)
    hands = {tuple(st.determinize(1, seed=k).hand(0)) for k in range(10)}
    assert len(hands) > 1                                                   # seat 0's hand is hidden from seat 1
    for k in range(3):
        d = st.determinize(1, seed=k)
        assert d.hand(1) == st.hand(1) and d.observation(1) == st.observation(1)


def test_TI4_TI5_a_determinization_does_not_carry_the_real_order_of_ones_own_spellbook():
    """The order of a seat's unknown spellbook cards is hidden from that seat too (TI-4): determinized
    copies draw different cards, not the real next ones."""
    st = position(phase="mana", hand=(("arcane_bolt",), ("arcane_bolt",) * 3))
    pass_turn(st)
    assert st.active_player == 1 and st.is_chance()
    draws = set()
    for k in range(8):
        d = st.determinize(1, seed=k)
        d.resolve_chance()
        draws.add(tuple(sorted(Counter(d.hand(1)).items())))
    assert len(draws) > 1
