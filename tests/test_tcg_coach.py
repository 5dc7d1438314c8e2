"""The Spellbook TCG's coach: hint reasons measured from the engine, the belief over the other hand, the hint
families (engine_c/spellbooktcg/reasons.py, insight.py, game.py move_family)."""
from __future__ import annotations

import collections
import random
from math import comb

import pytest

from engine_c.registry import get_game
from engine_c.spellbooktcg import reasons as R
from engine_c.spellbooktcg.insight import analysis_insight, hand_belief
from engine_c.spellbooktcg.state import MAXSUM

G = get_game("spellbooktcg")
A = G.adapter


def walk(seed: int, decisions: int):
    """The decision states of a random game (fixed seed)."""
    s, rng, k = G.State.new(seed=seed), random.Random(seed), 0
    while not s.is_terminal() and k < decisions:
        if A.current_player(s) < 0:
            s = A.sample_outcome(s, k)
        else:
            yield s
            s = A.child(s, rng.choice(A.legal_moves(s)))
        k += 1


STATES = [s for seed in (1, 2) for s in walk(seed, 260)]


def test_every_reason_of_every_move_is_what_the_engine_measures():
    """audit re-derives each claim, and checks the figures one move settles against the engine's successor
    (a mana card's pool, a spell's final numbers, a target's health)."""
    kinds = collections.Counter()
    for s in STATES:
        moves = A.legal_moves(s)
        for m in moves:
            versus = next((o for o in moves if o != m), None)
            found = R.reasons(s, m, versus=versus)
            assert found, f"no reason for {m}"
            assert R.audit(s, m, found, versus=versus) == []
            assert R.audit(s, m, R.veiled(found, m), versus=versus) == []
            kinds.update(r.kind for r in found)
    # the walk reaches every kind of decision
    assert {"mana_pool", "keeps_hand", "attack_damage", "spell_now", "spell_grows", "spell_done", "keeps_mana",
            "target_damage", "block_can_stop"} <= set(kinds)


def test_a_false_claim_is_caught():
    s = next(s for s in STATES if any(m.kind == "power" for m in A.legal_moves(s)))
    m = next(m for m in A.legal_moves(s) if m.kind == "power")
    found = R.reasons(s, m)
    wrong = [R.Reason(r.kind, r.value + 1, r.items, r.text.replace("cost", "cost 1 +"), r.aspect) for r in found]
    assert R.audit(s, m, wrong)


def test_reasons_read_only_what_the_seat_may_see():
    """The same in every world the seat cannot tell apart (TI-2..TI-5): the other hand never shows through."""
    for s in STATES[::7]:
        seat = s.current_player
        other = s.determinize(seat, seed=11)
        for m in A.legal_moves(s):
            assert R.reasons(s, m) == R.reasons(other, m)


def test_a_hidden_hint_names_neither_card_nor_character():
    for s in STATES[::3]:
        for m in A.legal_moves(s):
            assert R.names_move(s, m, R.veiled(R.reasons(s, m), m)) == []


def test_a_spells_numbers_follow_its_cards_in_order():
    """TC-7's worked example, through the reasons' spell words: summon 2/2 + add 1 shield + spellpower +1."""
    s = G.State.new(seed=3)
    assert s.spell_of(["conjure_familiar", "ward", "spellpower"], 0)["effects"] == [
        ("summon_damage", None, 3), ("summon_health", None, 3), ("tokens", "shield", 2)]
    assert R._spell_words(s.spell_of(["conjure_familiar", "spellpower", "ward"], 0)) == \
        "a 3/3 summon, then 1 shield token"
    with pytest.raises(ValueError, match="power first"):
        s.spell_of(["ward"], 0)


def test_the_belief_over_their_hand_is_the_exact_uniform_posterior():
    """TI-5: the other seat's unseen cards fill its hidden places uniformly; the chance of holding a card is
    hypergeometric, agrees with the engine's own determinizations, and reads nothing the seat cannot see."""
    s = STATES[150]
    seat = s.current_player
    b = hand_belief(s, seat)
    assert b.hand_size == len(s.hand(1 - seat))
    assert b.unseen_total == sum(c.unseen for c in b.cards)
    for c in b.cards:
        assert c.chance == pytest.approx(1 - comb(b.unseen_total - c.unseen, b.hand_size) / comb(b.unseen_total, b.hand_size))
    assert hand_belief(s.determinize(seat, seed=4), seat) == b
    seen = collections.Counter()
    n = 1500
    for t in range(n):
        seen.update(set(s.determinize(seat, seed=t).hand(1 - seat)))
    for c in b.cards[:4]:
        assert abs(seen[c.card] / n - c.chance) < 0.05, c
    js = analysis_insight(s, seat)
    assert js["opponentHandSize"] == b.hand_size and js["opponentHand"][0]["card"] == b.cards[0].card


def test_copies_of_one_summon_are_one_decision():
    """Attacking with (blocking with, targeting) one or the other of two identical summons is one family;
    every other move is its own."""
    found = 0
    for s in STATES:
        fams = collections.defaultdict(list)
        for m in A.legal_moves(s):
            fams[A.move_family(s, m)].append(m)
        for ms in fams.values():
            if len(ms) > 1:
                found += 1
                assert all(m.kind == ms[0].kind and m.value >= 2 for m in ms)
                views = [s.summons((m.value - 2) // MAXSUM)[(m.value - 2) % MAXSUM] for m in ms]
                assert len({(tuple(v["cards"]), v["damage"], v["health"], v["tokens"], (m.value - 2) // MAXSUM)
                            for v, m in zip(views, ms)}) == 1
    assert found, "the walk meets two identical summons"
