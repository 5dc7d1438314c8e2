"""Abracada…What? rules, one or more tests per rule id of ABRACADAWHAT.md: XS (setup), XT (a turn), XR (round
end, scoring), XG (game end), XI (information), XC (clarifications), XV (variants). The id is in each test's
name. Positions are dealt stone by stone (XC5's order) with explicit chance outcomes."""
from collections import Counter

import pytest

from engine_c.abracadawhat.state import IllegalMoveError, Move, NotationError, State

ALL = "".join(str(k) * k for k in range(1, 9))


def fields(st):
    return dict(w.split("=", 1) for w in st.to_text().split()[1:])


def undealt(n, variants=()):
    seats = ",".join(["-"] * n)
    return State.from_text(
        f"aw1 n={n} variants={','.join(variants) or '-'} phase=deal active=0 last=0 roll=- pending=0 "
        f"life={','.join(['6'] * n)} points={','.join(['0'] * n)} hands={seats} cast={seats} taken={seats} "
        f"secret=- pile={ALL} removed=- log=- results=- rng=0")


def dealt(hands, secret=None, removed=None, variants=()):
    """A fresh round with the given hands (lists of spells), dealt in XC5's order: the removed stones, 5 to
    each seat from seat 0 up, the 4 secret stones. Unspecified zones take the lowest stones left."""
    n = len(hands)
    left = Counter({k: k for k in range(1, 9)})
    for h in hands:
        left -= Counter(h)
    for z in (secret, removed):
        if z:
            left -= Counter(z)
    nr = {2: 12, 3: 6}.get(n, 0)
    pool = sorted(left.elements())
    if removed is None:                                  # every other stone: the pile keeps every spell
        removed = (pool[::2] + pool[1::2])[:nr]
        pool = sorted((Counter(pool) - Counter(removed)).elements())
    if secret is None:
        secret = pool[1::3][:4]
    st = undealt(n, variants)
    for k in list(removed) + [k for h in hands for k in h] + list(secret):
        assert st.is_chance() and st.phase == "deal"
        st.apply(f"stone {k}")
    assert st.phase == "decide" and st.current_player == 0
    return st


def refill(st, *stones):
    """The pending refill's stones: the given ones, or (none given) the lowest spell left each time."""
    for k in stones:
        assert st.phase == "refill"
        st.apply(f"stone {k}")
    while not stones and st.phase == "refill":
        st.apply(st.chance_outcomes()[0][0])


# ------------------------------------------------------------------------------------- XS
@pytest.mark.parametrize("n", (2, 3, 4, 5))
def test_XS1_XS2_thirty_six_stones_removed_hands_secret_pile(n):
    st = State.new(players=n, seed=n)
    f = fields(st)
    zones = Counter(ch for key in ("hands", "secret", "pile", "removed", "cast", "taken")
                    for ch in f[key] if ch.isdigit())
    assert zones == Counter({str(k): k for k in range(1, 9)})          # XS1: spell n has n stones
    assert len(f["removed"].strip("-")) == {2: 12, 3: 6}.get(n, 0)        # XS2
    assert all(len(h) == 5 for h in f["hands"].split(","))
    assert len(f["secret"]) == 4 and len(f["pile"].strip("-")) == 36 - {2: 12, 3: 6}.get(n, 0) - 5 * n - 4
    st.validate()


def test_XS1_player_counts():
    for bad in (1, 6, "2", True):
        with pytest.raises(ValueError, match="players"):
            State.new(players=bad)


def test_XS3_seat0_starts_with_six_life():
    st = State.new(players=4, seed=1)
    assert st.current_player == 0 and st.active_player == 0 and st.life == [6] * 4 and st.points == [0] * 4


def test_XC5_deal_order_and_stone_probabilities():
    """XC5: removed stones first (2-3 players), then 5 per seat from seat 0 up, then the secret stones; each
    deal step draws a stone with probability count / stones left."""
    st = undealt(3)
    outcomes = dict((m.value, p) for m, p in st.chance_outcomes())
    assert outcomes == {k: pytest.approx(k / 36) for k in range(1, 9)}
    for k in (8, 8, 8, 7, 7, 7):
        st.apply(f"stone {k}")
    assert fields(st)["removed"] == "777888" and fields(st)["hands"] == "-,-,-"
    st.apply("stone 2")
    assert fields(st)["hands"] == "2,-,-"
    assert dict((m.value, p) for m, p in st.chance_outcomes())[8] == pytest.approx(5 / 29)


# ------------------------------------------------------------------------------------- XT
def test_XT1_success_casts_face_up_and_resolves_effect():
    st = dealt([[6, 6, 5, 4, 4], [7, 7, 8, 8, 3]])
    st.apply("cast 6")                                   # Blizzard: the player to the left loses 1
    assert fields(st)["cast"] == "6,-" and st.hand(0) == (4, 4, 5, 6) and st.life == [6, 5]
    assert st.log()[-1] == {"seat": 0, "kind": "cast", "spell": 6, "ok": True, "roll": 0}


def test_XT1_failure_costs_one_life_and_ends_turn_XC7():
    st = dealt([[6, 6, 5, 4, 4], [7, 7, 8, 8, 3]])
    st.apply("cast 8")                                   # XC7: a certain failure is legal
    assert st.life == [5, 6] and st.current_player == 1 and fields(st)["cast"] == "-,-"
    assert st.log()[-2:] == [{"seat": 0, "kind": "cast", "spell": 8, "ok": False, "roll": 0},
                             {"seat": 0, "kind": "end", "refilled": 0}]


def test_XT1_XC8_failed_ancient_dragon_costs_the_roll():
    st = dealt([[6, 6, 5, 4, 4], [7, 7, 8, 8, 3]])
    st.apply("cast 1")
    assert st.phase == "roll" and [str(m) for m, _ in st.chance_outcomes()] == [f"roll {d}" for d in range(1, 7)]
    st.apply("roll 4")
    assert st.life == [2, 6]                             # the roll, not 1 + roll


def test_XT2_XC1_after_success_end_or_equal_or_higher():
    st = dealt([[6, 6, 5, 4, 4], [7, 7, 8, 8, 3]])
    assert [str(m) for m in st.legal_moves()] == [f"cast {k}" for k in range(1, 9)]   # XC7: no end first
    st.apply("cast 6")
    assert [str(m) for m in st.legal_moves()] == ["end", "cast 6", "cast 7", "cast 8"]
    with pytest.raises(IllegalMoveError, match="the next must be 6 or higher"):   # XT2, XC1
        st.apply("cast 5")
    st.apply("cast 6")
    assert st.life == [6, 4] and st.current_player == 0


def test_XV1_easy_any_further_cast():
    st = dealt([[6, 6, 5, 4, 4], [7, 7, 8, 8, 3]], variants=("xv1",))
    st.apply("cast 6")
    assert [str(m) for m in st.legal_moves()] == ["end"] + [f"cast {k}" for k in range(1, 9)]
    st.apply("cast 5")
    assert st.life == [6, 4]                             # 2 players: Lightning Tempest costs 1 in total


def test_XT3_life_capped_at_six_and_floored_at_zero():
    st = dealt([[8, 8, 2, 5, 4], [7, 7, 8, 8, 3]])
    st.apply("cast 8")
    assert st.life == [6, 6]                             # Magic Drink at 6: the gain is lost


def test_XT3_XR3_damage_below_zero_counts_as_zero():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3], [6, 6, 6, 8, 8]])
    st.apply("cast 8")                                   # fail: 5 life
    refill_none = st.phase
    assert refill_none == "decide" and st.current_player == 1
    st.apply("cast 7")                                   # Fireball: seat 0 (to seat 1's right) loses 1
    assert st.life == [4, 6, 6]
    st.apply("end")
    refill(st)
    st.apply("cast 6")                                   # seat 2's Blizzard: seat 0 (left of 2) loses 1
    st.apply("end")
    refill(st)
    assert st.life == [3, 6, 6]
    st.apply("cast 1")                                   # seat 0's Ancient Dragon
    st.apply("roll 6")                                   # both others would go to 0 (6 - 6)
    assert st.round == 2 and st.results()[0]["life"] == [3, 0, 0]


def test_XT4_refill_to_five_unseen_and_pile_running_out():
    st = dealt([[6, 6, 5, 4, 4], [7, 7, 8, 8, 3]])
    pile = len(fields(st)["pile"])
    st.apply("cast 6")
    st.apply("end")
    assert st.phase == "refill" and st.is_chance()
    probs = dict((m.value, p) for m, p in st.chance_outcomes())
    pile_counts = Counter(int(c) for c in fields(st)["pile"])
    assert probs == {k: pytest.approx(c / pile) for k, c in pile_counts.items()}
    st.apply(f"stone {max(pile_counts)}")
    assert len(st.hand(0)) == 5 and st.log()[-1] == {"seat": 0, "kind": "end", "refilled": 1}
    assert st.current_player == 1                        # XT5


def test_XT4_empty_pile_takes_what_remains():
    # 5 players: 25 dealt, 4 secret, 7 in the pile
    hands = [[8, 8, 8, 8, 8], [7, 7, 7, 7, 7], [6, 6, 6, 6, 6], [5, 5, 5, 5, 5], [4, 4, 4, 4, 3]]
    st = dealt(hands, secret=[3, 3, 2, 2])
    assert fields(st)["pile"] == "1677888"
    for seat in range(5):
        k = hands[seat][0]
        st.apply(f"cast {k}")
        st.apply(f"cast {k}")
        st.apply("end")
        while st.phase == "refill":
            st.apply(str(st.chance_outcomes()[0][0]))
        if seat == 3:
            break
    assert fields(st)["pile"] == "-"
    st.apply("cast 4")                                   # seat 4: Night Singer takes a secret stone
    st.resolve_chance()
    st.apply("end")
    assert st.phase == "decide" and len(st.hand(4)) == 4 and st.log()[-1]["refilled"] == 0


def test_XT5_play_passes_to_seat_plus_one():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3], [6, 6, 6, 8, 8]])
    seen = []
    for _ in range(4):
        seen.append(st.current_player)
        st.apply("cast 2" if st.current_player else "cast 8")
        st.resolve_chance()
    assert seen == [0, 1, 2, 0]


# ------------------------------------------------------------------------------------- effects
def test_spell2_dark_wanderer_XC8_gain_lost_at_six():
    st = dealt([[2, 5, 6, 7, 8], [7, 7, 8, 8, 3], [6, 6, 3, 8, 8]])
    st.apply("cast 2")
    assert st.life == [6, 5, 5]


def test_spell3_sweet_dream_rolls_and_gains():
    st = dealt([[8, 3, 3, 7, 6], [2, 7, 7, 7, 7]])
    st.apply("cast 6")
    st.apply("end")
    refill(st)
    st.apply("cast 2")
    assert st.life == [5, 6]
    st.apply("end")
    refill(st)
    st.apply("cast 3")
    st.apply("roll 3")
    assert st.life == [6, 6]


def test_spell4_night_singer_takes_a_secret_stone():
    st = dealt([[4, 5, 6, 7, 8], [7, 7, 8, 8, 3]], secret=[1, 2, 3, 4])
    st.apply("cast 4")
    assert st.phase == "secret" and dict((m.value, p) for m, p in st.chance_outcomes()) == \
        {k: pytest.approx(0.25) for k in (1, 2, 3, 4)}
    st.apply("stone 2")
    assert fields(st)["taken"] == "2,-" and fields(st)["secret"] == "134"


def test_XC3_night_singer_never_finds_the_secret_stones_gone():
    """XC3 cannot arise: emptying the 4 secret stones takes 4 Night Singers, every stone of spell 4."""
    st = dealt([[4, 4, 4, 4, 5], [7, 7, 8, 8, 3]], secret=[1, 2, 3, 8])
    for i in range(4):
        st.apply("cast 4")
        assert st.phase == "secret"
        st.resolve_chance()
    assert fields(st)["secret"] == "-" and 4 not in st.hand(0)


@pytest.mark.parametrize("n,left,right", [(3, 1, 2), (4, 1, 3), (5, 1, 4)])
def test_spells_5_6_7_target_left_and_right(n, left, right):
    hands = [[5, 6, 7, 8, 8]] + [[8, 7, 7, 6, 6]] * (n - 1)
    hands = [[5, 6, 7, 8, 8], [7, 7, 6, 6, 8], [7, 7, 6, 6, 8], [7, 6, 5, 5, 5], [5, 4, 4, 4, 3]][:n]
    st = dealt(hands)
    st.apply("cast 5")
    want = [6] * n
    want[left] -= 1
    want[right] -= 1
    assert st.life == want
    st.apply("cast 6")
    want[left] -= 1
    assert st.life == want
    st.apply("cast 7")
    want[right] -= 1
    assert st.life == want


# ------------------------------------------------------------------------------------- XR, XG
def test_XR1_XR2_XC9_emptied_hand_wins_3_others_to_zero():
    st = dealt([[8, 8, 8, 8, 8], [7, 7, 7, 7, 3]])
    for _ in range(4):
        st.apply("cast 8")
    assert st.round == 1
    st.apply("cast 8")                                   # the last stone: Magic Drink resolves, then XR2
    r = st.results()[0]
    assert r["reason"] == "empty" and r["seat"] == 0 and r["scores"] == [3, 0] and r["life"] == [6, 0]
    assert st.points == [3, 0] and st.round == 2 and st.life == [6, 6] and st.phase == "deal"


def test_XC9_XR5_last_stone_night_singer_still_takes_and_scores():
    st = dealt([[3, 4, 4, 4, 4], [7, 7, 7, 7, 8]], secret=[1, 2, 5, 6])
    st.apply("cast 3")
    st.apply("roll 1")
    for k in (1, 2, 5):
        st.apply("cast 4")
        st.apply(f"stone {k}")
    st.apply("cast 4")                                   # the last stone: Night Singer still takes (XC9)
    assert st.phase == "secret" and st.round == 1
    st.apply("stone 6")
    assert st.round == 2 and st.results()[0]["scores"] == [7, 0]     # 3 + 4 secret stones (XR2, XR5)
    dream = dealt([[2, 2, 3, 3, 3], [7, 7, 7, 7, 8]])
    for k in (2, 2, 3, 3):
        dream.apply(f"cast {k}")
        dream.resolve_chance()
    dream.apply("cast 3")                                # the last stone: Sweet Dream still rolls (XC9)
    assert dream.phase == "roll"
    dream.apply("roll 2")
    assert dream.results()[0]["reason"] == "empty"
    st2 = dealt([[8, 8, 8, 8, 4], [7, 7, 7, 7, 3]], secret=[1, 2, 3, 5])
    st2.apply("cast 4")
    st2.apply("stone 1")
    for _ in range(4):
        st2.apply("cast 8")
    assert st2.results()[0]["scores"] == [4, 0]          # 3 + 1 secret stone (XR5)


def test_XR3_XC2_knockout_by_another_several_at_once():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3], [6, 6, 3, 8, 8]])
    st.apply("cast 1")
    st.apply("roll 6")                                   # both others fall at once: the caster wins
    r = st.results()[0]
    assert r["reason"] == "ko" and r["seat"] == 0 and r["scores"] == [3, 0, 0] and r["life"] == [6, 0, 0]


def test_XR3_survivors_score_one():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3], [6, 6, 3, 8, 8]])
    st.apply("cast 8")                                   # seat 0 fails: 5
    st.apply("cast 7")                                   # seat 1's Fireball on seat 0: 4
    st.apply("end")
    refill(st, 7)
    st.apply("cast 6")                                   # seat 2's Blizzard on seat 0: 3
    st.apply("end")
    refill(st)
    st.apply("cast 5")                                   # seat 0's Lightning Tempest: seats 1 and 2 to 5
    st.apply("cast 8")                                   # seat 0 fails again: 2
    refill(st)
    st.apply("cast 7")                                   # seat 1's Fireball: seat 0 to 1
    st.apply("cast 7")                                   # and again: seat 0 knocked out by seat 1
    r = st.results()[0]
    assert r["reason"] == "ko" and r["seat"] == 1 and r["scores"] == [0, 3, 1] and r["life"] == [0, 5, 5]


def test_XR4_knockout_of_oneself_no_winner():
    st = dealt([[2, 2, 3, 4, 5], [7, 7, 8, 8, 3]])
    st.apply("cast 1")
    st.apply("roll 6")
    r = st.results()[0]
    assert r["reason"] == "self" and r["seat"] == 0 and r["scores"] == [0, 1] and r["life"] == [0, 6]


def test_XR5_secret_stones_score_for_survivors_only():
    st = dealt([[4, 4, 2, 8, 8], [4, 5, 6, 7, 3]], secret=[1, 2, 3, 5])
    st.apply("cast 4")
    st.apply("stone 1")
    st.apply("cast 4")
    st.apply("stone 2")
    st.apply("end")
    refill(st)
    st.apply("cast 4")                                   # seat 1 takes one too
    st.apply("stone 3")
    st.apply("end")
    refill(st)
    st.apply("cast 1")                                   # seat 0 fails Ancient Dragon: 6 -> knocked out
    st.apply("roll 6")
    r = st.results()[0]
    assert r["reason"] == "self" and r["scores"] == [0, 2]   # the loser's 2 secret stones count nothing


def test_XR6_XC11_new_round_reshuffled_next_seat_starts():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3], [6, 6, 3, 8, 8]])
    st.apply("cast 8")
    st.apply("cast 1")                                   # seat 1 fails the Dragon and knocks itself out
    st.apply("roll 6")
    assert st.results()[0]["actor"] == 1
    assert st.phase == "deal" and st.active_player == 2 and st.life == [6, 6, 6]
    assert fields(st)["pile"] == ALL and fields(st)["log"] == "-"
    st.resolve_chance()
    assert st.current_player == 2


def test_XG1_game_end_and_winner_rule_over_random_games():
    """XG1 (XC10): the game ends after the first round leaving a seat at 8+; among those, the most points in
    that round, then the most life at its end, then shared."""
    import random
    rng = random.Random(3)
    several = 0
    for g in range(150):
        st = State.new(players=2 + g % 4, seed=g)
        while not st.is_terminal():
            st.play(rng.choice(st.legal_moves()))
        res = st.results()
        pts = [0] * st.players
        for r in res[:-1]:
            pts = [a + b for a, b in zip(pts, r["scores"])]
            assert max(pts) < 8
        assert st.points == [a + b for a, b in zip(pts, res[-1]["scores"])] and max(st.points) >= 8
        top = [p for p in range(st.players) if st.points[p] >= 8]
        several += len(top) > 1
        key = {p: (res[-1]["scores"][p], res[-1]["life"][p]) for p in top}
        assert st.winners() == [p for p in top if key[p] == max(key.values())]
        assert st.legal_moves() == [] and st.phase == "over"
    assert several > 0


# ------------------------------------------------------------------------------------- XI
def test_XI1_XI2_public_and_hidden_in_observations():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3], [6, 6, 3, 8, 8]])
    st.apply("cast 5")
    obs = dict(w.split("=", 1) for w in st.observation(1).split()[1:])
    assert obs["hands"] == "1234,?5,36688" and obs["cast"] == "5,-,-" and obs["life"] == "6,5,5"
    assert obs["removed"] == fields(st)["removed"] and obs["pile"] == f"?{len(fields(st)['pile'])}"
    assert obs["log"] == "0:5+" and obs["secret"] == "?4"


def test_XI4_unseen_counts():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3], [6, 6, 3, 8, 8]])
    unseen = st.unseen(0)
    assert sum(unseen.values()) == 36 - 6 - 10                 # removed and the two other hands
    assert unseen[8] == 8 - 4 - fields(st)["removed"].count("8")


# ------------------------------------------------------------------------------------- XC
def test_XC4_die_is_fair():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3]])
    st.apply("cast 1")
    assert [p for _, p in st.chance_outcomes()] == [pytest.approx(1 / 6)] * 6


def test_XC7_end_only_after_success_and_refill_after_failure():
    st = dealt([[6, 6, 5, 4, 4], [7, 7, 8, 8, 3]])
    with pytest.raises(IllegalMoveError, match="end is offered only after a success"):   # XC7
        st.apply("end")
    st.apply("cast 6")
    st.apply("cast 7")                                   # fails: the turn ends and the refill follows
    assert st.phase == "refill" and st.life == [5, 5]
    refill(st)
    assert st.current_player == 1


def test_XC8_lightning_tempest_two_players_costs_one():
    st = dealt([[5, 5, 4, 4, 6], [7, 7, 8, 8, 3]])
    st.apply("cast 5")
    assert st.life == [6, 5]


def test_XC2_emptied_hand_and_knockout_is_XR2():
    """The last stone's Blizzard both empties the caster's hand and knocks the other out: XR2, not XR3."""
    st = dealt([[6] * 5, [7] * 5])
    st.apply("cast 8")                                   # seat 0 fails: 5
    st.apply("cast 8")                                   # seat 1 fails: 5
    for _ in range(5):
        st.apply("cast 6")
    r = st.results()[0]
    assert r["reason"] == "empty" and r["seat"] == 0 and r["scores"] == [3, 0] and r["life"] == [5, 0]


def test_XC10_tie_break_life_is_after_XR2():
    st = dealt([[8, 8, 8, 8, 8], [7, 7, 7, 7, 3]])
    for _ in range(5):
        st.apply("cast 8")
    assert st.results()[0]["life"] == [6, 0]


# ------------------------------------------------------------------------------------- XV2, XC13
def test_XV2_XC13_knocked_out_seats_are_skipped_and_targets_move():
    st = dealt([[1, 2, 3, 4, 5], [6, 6, 6, 6, 6], [7, 7, 7, 7, 7], [7, 8, 8, 8, 8]], variants=("xv2",))
    st.apply("cast 1")
    st.apply("roll 3")                                   # seats 1-3 to 3
    st.apply("end")
    refill(st, *[c.value for c, _ in st.chance_outcomes()][:1])
    for _ in range(3):
        st.apply("cast 6")                               # seat 1's Blizzards: seat 2 out (XC13)
    assert st.life == [6, 3, 0, 3] and st.round == 1
    st.apply("cast 6")                                   # seat 2 is out: Blizzard now hits seat 3
    assert st.life == [6, 3, 0, 2]
    st.apply("end")
    refill(st)
    assert st.phase == "decide" and st.current_player == 3   # seat 2 is out: skipped
    st.apply("cast 7")                                   # Fireball: the nearest seat in on the right is seat 1
    assert st.life == [6, 2, 0, 2]


def test_XV2_last_magician_standing_scores_two_plus_secrets():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3]], variants=("xv2",), secret=[2, 4, 5, 6])
    st.apply("cast 4")
    st.apply("stone 2")
    st.apply("cast 5")                                   # seat 1: 5
    st.apply("end")
    refill(st)
    st.apply("cast 8")
    st.apply("end")
    refill(st)
    st.apply("cast 1")
    st.apply("roll 6")                                   # seat 1 out; one survivor
    r = st.results()[0]
    assert r["reason"] == "last" and r["seat"] == 0 and r["scores"] == [3, 0]


def test_XV2_XC13_failed_cast_leaving_one_survivor_makes_it_the_winner():
    st = dealt([[1, 2, 3, 4, 5], [7, 7, 8, 8, 3]], variants=("xv2",))
    st.apply("cast 8")                                   # seat 0 fails
    st.apply("cast 1")                                   # seat 1 fails the Dragon
    st.apply("roll 6")
    r = st.results()[0]
    assert r["reason"] == "last" and r["seat"] == 0 and r["actor"] == 1 and r["scores"] == [2, 0]
    assert st.active_player == 0                         # XC11: the seat after the one acting


# ------------------------------------------------------------------------------------- moves and text
def test_move_text_round_trip_and_errors():
    for text in ("cast 1", "cast 8", "end", "stone 3", "roll 6"):
        assert str(Move.from_text(text)) == text
    assert Move.from_text("5") == Move.from_text("cast 5")
    for bad in ("cast 9", "roll 7", "stone 0", "pass", "", "cast", 5):
        with pytest.raises(NotationError):
            Move.from_text(bad)
