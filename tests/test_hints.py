"""Hints to trust (issue 14): a search that grows until its top move is separated, mistake classes only
beyond the search's noise, reasons in a player's terms (engine_c/spellbook/reasons.py), all over gRPC too."""
import re

import pytest

from engine_c import State
from engine_c.spellbook.reasons import reasons, threats, veiled
from positions import position
from search.hints import (BEST, GOOD, INACCURACY, MISTAKE, contradictions, difference_margin, grow, hint_best,
                          separation, top_hints)
from search.search import MoveStats, SearchResult

RULE_ID = re.compile(r"\b(?:[STLPAEC]\d{1,2}|D\d{1,2})\b")


def stats(move, visits, reward, win, score=10.0, prior=0.0):
    return MoveStats(move=move, visits=visits, availability=visits, mean_reward=reward,
                     win_probability=[win, 1 - win], expected_score=[score, 9.0], score_std=[3.0, 3.0],
                     prior=prior)


def result(*moves):
    return SearchResult(move=moves[0].move, moves=list(moves), principal_variation=[moves[0].move],
                        iterations=sum(m.visits for m in moves), elapsed_s=0.01, seed=0, player=0)


def test_separation_needs_the_gap_beyond_the_noise():
    clear = result(stats("a", 4000, 0.62, 0.62), stats("b", 1000, 0.50, 0.50))
    close = result(stats("a", 300, 0.52, 0.52), stats("b", 250, 0.50, 0.50))
    assert separation(clear).separated and separation(clear).gap == pytest.approx(0.12)
    assert not separation(close).separated and "about equal" in separation(close).text
    assert separation(result(stats("only", 10, 0.5, 0.5))).separated     # one legal move: nothing to separate
    # a choice no other move got a visit beside (a sharp policy at a small budget): separated, but the words
    # say no rival was searched, not that the choice is "clearly ahead" of one
    alone = result(stats("a", 100, 0.54, 0.54), stats("b", 0, 0.0, 0.0), stats("c", 0, 0.0, 0.0))
    assert separation(alone).separated and separation(alone).alone and "clearly ahead" not in separation(alone).text
    [only] = top_hints(alone, 3)
    assert "only move it examined" in only.verdict and "clearly ahead" not in only.verdict
    assert not separation(clear).alone and "clearly ahead" in top_hints(clear, 2)[0].verdict
    # a bound of the variance for values in [0, 1]: more visits, a narrower interval; no visits, no claim
    assert difference_margin(0.5, 100, 0.5, 100) > difference_margin(0.5, 10_000, 0.5, 10_000)
    assert difference_margin(0.5, 0, 0.5, 10) == float("inf")


def test_a_mistake_class_only_where_the_loss_is_clear():
    noisy = top_hints(result(stats("a", 60, 0.6, 0.6), stats("b", 12, 0.45, 0.45)), 2)
    assert noisy[1].loss == pytest.approx(0.15) and noisy[1].about_equal and noisy[1].mistake_class == GOOD
    assert noisy[0].about_equal                                          # the best is not separated either
    sure = top_hints(result(stats("a", 20_000, 0.6, 0.6), stats("b", 8000, 0.39, 0.39)), 2)
    assert not sure[1].about_equal and sure[1].mistake_class == MISTAKE  # 0.21 - ~0.013: a mistake, not a blunder
    assert 0 < sure[1].loss_margin < 0.03 and sure[1].score_spread == 3.0
    assert not sure[0].about_equal and sure[0].loss_margin == 0


def test_the_first_hint_is_the_search_choice_and_the_labels_follow_the_order():
    # issue 26: the first hint is the move the search chose (most visited), whatever the policy prefers
    seed_a = result(stats("store x", 2300, 0.480, 0.480, prior=0.18), stats("store y", 1900, 0.479, 0.479, prior=0.20))
    assert hint_best(seed_a).move == "store x"
    first, second = top_hints(seed_a, 2)
    assert (first.move, first.rank, first.mistake_class, first.about_equal) == ("store x", 1, BEST, True)
    assert second.move == "store y" and second.about_equal and second.mistake_class == GOOD
    # the others by win probability, not by visits; a rival with a higher estimate makes the top about equal
    r = result(stats("a", 5000, 0.50, 0.50), stats("b", 3000, 0.40, 0.40), stats("c", 2000, 0.52, 0.52),
               stats("d", 900, 0.30, 0.30), stats("rare", 20, 0.99, 0.99))
    hints = top_hints(r, 5)
    assert [h.move for h in hints] == ["a", "c", "b", "d"]             # "rare" was barely examined: no hint
    assert hints[0].about_equal and hints[1].about_equal and hints[1].loss == 0.0
    assert [h.mistake_class for h in hints] == [BEST, GOOD, INACCURACY, MISTAKE] and not contradictions(hints)
    # a label never improves down the list, even where a rarer move's own noise is wider
    noisy = result(stats("a", 10_000, 0.60, 0.60), stats("b", 9000, 0.485, 0.485), stats("c", 1000, 0.48, 0.48))
    h = top_hints(noisy, 3)
    assert h[1].mistake_class == MISTAKE and h[2].mistake_class == MISTAKE and not h[2].about_equal
    assert not contradictions(h) and separation(noisy).separated


def test_contradictions_names_what_disagrees():
    hints = top_hints(result(stats("a", 5000, 0.50, 0.50), stats("b", 3000, 0.40, 0.40)), 2)
    assert contradictions(hints) == []
    hints[1].about_equal = True
    assert any("about equal" in c for c in contradictions(hints))


def test_the_search_grows_until_separated_and_stops_at_its_cap():
    def run(budget):    # the gap's noise shrinks with the budget: separated from 4x on
        n = int(budget)
        return result(stats("a", n, 0.55, 0.55), stats("b", n // 2, 0.50, 0.50))

    g = grow(run, 400)
    assert g.separation.separated and g.stopped_by == "separated" and g.budgets == [400, 800, 1600]
    capped = grow(run, 400, cap=1000)
    assert capped.budgets == [400, 800, 1000] and capped.stopped_by == "cap" and not capped.separation.separated
    assert grow(run, 400, deadline=0.0).budgets == [400]                 # no time for a second search
    never = grow(lambda b: result(stats("a", 10, 0.5, 0.5), stats("b", 10, 0.5, 0.5)), 10)
    assert never.budgets == [10, 20, 40, 80] and never.stopped_by == "cap"      # MAX_DOUBLINGS = 3 (issue 42)


def test_a_store_that_breaks_tonights_learn_is_called_out():
    st = position(players=2, spells="set1", active=0, day=2, pools={0: "RcRcRtGt", 1: "PcPt"},
                  altar="PsGcKsWtBc", at="midday")
    breaks = reasons(st, "store Rc")
    harmless = reasons(st, "store Gt")
    assert [r.items for r in breaks if r.kind == "learn_broken"] == [("Sacrifice",)]
    assert any(r.aspect == "gives_up" and "gives up learning Sacrifice this Evening" in r.text for r in breaks)
    assert not [r for r in harmless if r.kind == "learn_broken"]


def test_a_take_says_what_it_makes_possible_and_what_it_leaves_the_next_player():
    st = position(players=2, spells="set1", active=0, day=2, pools={0: "RcRt", 1: "PcPt"},
                  altar="PsRsKsWtBc", at="morning")
    take_rs = {r.kind: r for r in reasons(st, "take Rs")}
    assert take_rs["learn_tonight"].items == ("Sacrifice",) and take_rs["learn_tonight"].aspect == "enables"
    assert take_rs["altar_left"].items == ("Ps:Levitation",) and "the next player" in take_rs["altar_left"].text
    take_ps = {r.kind: r for r in reasons(st, "take Ps")}
    assert take_ps["altar_denied"].items == ("Ps:Levitation",) and take_ps["altar_left"].value == 0
    evening = position(players=2, spells="set1", active=0, day=2, pools={0: "RcRtRs"}, at="evening")
    assert [r.kind for r in reasons(evening, "pass")] == ["learn_broken"]


def test_reasons_speak_to_the_player_without_rule_ids():
    st = State.new(players=3, spells="set2", seed=11)
    seen = 0
    for _ in range(120):
        if st.is_terminal():
            break
        if st.is_chance():
            st.resolve_chance()
            continue
        for m in st.legal_moves()[:6]:
            for r in reasons(st, m):
                seen += 1
                assert r.text and r.aspect in ("gains", "enables", "gives_up", "leaves")
                assert not RULE_ID.search(r.text), r.text
                assert not re.search(r"\bplayer \d", r.text)   # "you", "the next player (seat 1)"
        st.apply(st.legal_moves()[len(st.legal_moves()) // 2])
    assert seen > 50


def test_get_hints_over_grpc_grows_labels_and_explains():
    from clients.client import SpellBookClient
    from server.main import ServerConfig, ServerThread

    st = position(players=2, spells="set1", active=0, day=2, pools={0: "RcRt", 1: "PcPt"},
                  altar="PsRsKsWtBc", at="morning")
    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv, \
            SpellBookClient(f"127.0.0.1:{srv.port}", timeout=30) as client:
        grown = client.hints(st, iterations=100, top_k=3, seed=1)
        fixed = client.hints(st, iterations=100, top_k=3, seed=1, fixed_budget=True)
        conf = grown.confidence
        assert conf.budgets[0] == 100 and list(fixed.confidence.budgets) == [100]
        assert fixed.confidence.stopped_by == "fixed" and fixed.stats.iterations == 100
        assert conf.stopped_by in ("separated", "cap", "deadline") and conf.text
        assert grown.stats.iterations == conf.budgets[-1]
        if conf.stopped_by == "separated":
            assert conf.separated and not grown.hints[0].about_equal
            if len(grown.hints) == 1:       # no rival got a visit: the texts say so, not "clearly ahead"
                assert "no other move got one" in conf.text and "only move it examined" in grown.hints[0].verdict
            else:
                assert conf.gap > conf.margin or "ahead on points" in conf.text      # issue 42: or on points
        for h in grown.hints[1:]:
            assert h.loss_margin > 0 and (h.mistake_class == "good" or not h.about_equal)
        assert all(r.aspect for h in grown.hints for r in h.reasons)
        assert any(r.kind in ("learn_tonight", "altar_left", "altar_denied") for h in grown.hints for r in h.reasons)
        # issue 26: a hidden best move's reasons do not restate it (the same search, the move shown)
        shown = client.hints(st, iterations=100, top_k=3, seed=1, fixed_budget=True)
        hidden = client.hints(st, iterations=100, top_k=3, seed=1, fixed_budget=True, hide_best=True)
        best = shown.hints[0].move
        assert hidden.hints[0].move is None and hidden.hints[0].reasons
        for r in hidden.hints[0].reasons:
            assert not set(str(best).split()) & set(r.text.split()), r.text
        ranks = [h.rank for h in shown.hints]
        assert ranks == list(range(1, len(ranks) + 1)) and shown.hints[0].mistake_class == "best"


def test_the_why_level_neither_names_nor_restates_the_move():
    st = position(players=2, spells="set1", active=0, day=2, pools={0: "RcRt", 1: "PcPt"},
                  altar="PsRsKsWtBc", at="morning")
    for move in ("take Rs", "take Ps", "draw"):
        found = reasons(st, move)
        hidden = veiled(found)
        assert hidden and len(hidden) <= len(found)
        for r in hidden:
            words = r.text.split()
            assert not {"take", "draw", "Rs", "Ps", "store"} & set(words), r.text
            assert not [i for i in r.items if len(i) == 2 and i[1] in "cts"], r.items     # no token names
    assert [r.items for r in veiled(reasons(st, "take Rs")) if r.kind == "learn_tonight"] == [("Sacrifice",)]
    danger = threats(position(players=2, spells="set1", active=0, day=2, pools={0: "Gc", 1: "RcRtRs"},
                              at="morning"))
    assert danger and danger[0].aspect == "threatens" and "The next player can learn" in danger[0].text


def test_hints_of_real_searches_never_contradict_themselves_and_lead_with_the_search_choice():
    """Issue 26 through the public API: over positions of a seeded game, the first hint is the move the
    search chose and nothing in the list contradicts anything else."""
    import random

    from engine_c.spellbook.game import SPELLBOOK
    from search import SearchOptions, ismcts

    rng, st, checked = random.Random(5), State.new(players=2, spells="set1", seed=9), 0
    while not st.is_terminal() and checked < 12:
        if st.is_chance():
            st.resolve_chance()
            continue
        if len(st.legal_moves()) > 2:
            res = ismcts(SPELLBOOK, st, SearchOptions(iterations=150, seed=checked))
            hints = top_hints(res, 4)
            assert hints[0].move == res.move and contradictions(hints) == [], contradictions(hints)
            checked += 1
        st.apply(rng.choice(st.legal_moves()))
    assert checked == 12


def test_about_equal_is_one_rule_for_every_move_and_the_words_never_contradict_the_figures():
    """Issue 51: "cast 6" (loss 0.007 ± 0.015) was about equal and "cast 5" (0.009 ± 0.015) not, because
    a run of about-equal moves had been broken above it; "draw 53% — best" sat above "take 54% — good, loses
    0% ± 15%"; "loses 8% ± 33%" read as a loss. One rule now (D155): loss <= loss_margin, for every move."""
    from search.hints import rank_label

    r = result(stats("a", 5000, 0.60, 0.60), stats("b", 4000, 0.50, 0.50), stats("c", 600, 0.59, 0.59),
               stats("d", 900, 0.61, 0.61))
    hints = top_hints(r, 4)
    for h in hints[1:]:
        assert h.about_equal == (h.loss <= h.loss_margin), (h.move, h.loss, h.loss_margin)
    assert [h.move for h in hints] == ["a", "d", "c", "b"]          # the moves about equal share the first place
    assert [rank_label(h) for h in hints] == ["1=", "1=", "1=", "4"] and hints[0].about_equal
    assert "best" not in hints[0].verdict and "can't tell" in hints[0].verdict and "#2 and #3" in hints[0].verdict
    for h in hints[1:3]:     # about equal: no loss figure (within the noise it means nothing), no class word
        assert h.verdict == "about equal to #1: the search can't tell these apart"
    assert hints[3].verdict.startswith("inaccuracy: loses 10%") and hints[3].loss > hints[3].loss_margin
    assert not contradictions(hints)
    # a top 2 of the same: the first's verdict names only what is listed ("#2"), and counts the rest
    top2 = top_hints(r, 2)
    assert "#3" not in top2[0].verdict and top2[0].verdict.endswith(
        "about equal to #2 and 1 more move not listed: the search can't tell these apart"), top2[0].verdict
    # a move within its own (wide) noise below one clearly worse: about equal all the same, and shown first
    broken = top_hints(result(stats("a", 10_000, 0.60, 0.60), stats("b", 9000, 0.58, 0.58),
                              stats("c", 1000, 0.575, 0.575)), 3)
    assert [(h.move, h.about_equal) for h in broken] == [("a", True), ("c", True), ("b", False)]
    assert broken[1].loss <= broken[1].loss_margin and broken[2].loss > broken[2].loss_margin
    assert not contradictions(broken)
    # a clear winner: "clearly ahead", and each loss shown is beyond its noise
    sure = top_hints(result(stats("a", 20_000, 0.6, 0.6), stats("b", 8000, 0.39, 0.39)), 2)
    assert sure[0].verdict.startswith("the search's choice, clearly ahead") and "mistake: loses 21%" in sure[1].verdict
    assert separation(r).separated is False and separation(result(stats("a", 20_000, 0.6, 0.6),
                                                                  stats("b", 8000, 0.39, 0.39))).separated


def test_the_terminal_hint_shows_the_shared_verdicts():
    """The terminal's hint 3 list prints search/hints.py's verdicts (GetHints sends the same `verdict`)."""
    from types import SimpleNamespace

    from clients.play import ranked_lines
    from search.hints import Separation

    r = result(stats("draw", 5000, 0.53, 0.53), stats("take P", 4800, 0.54, 0.54), stats("pass", 3000, 0.30, 0.30))
    hints = top_hints(r, 3)
    text = "\n".join(ranked_lines(SimpleNamespace(result=r, separation=Separation(False, 0, 0.1)), hints))
    assert "1=. draw" in text and "1=. take P" in text and "about equal to #1: the search can't tell these apart" in text
    assert " best" not in text and "loses 0%" not in text
    assert "note on #2" in text and "within the search's noise" in text


def test_analysis_top_k_fills_with_visited_moves():
    """Issue 51: `topK: 5` returned 2 moves where others had visits (an unstated 10% floor). The examined moves
    come first, then the barely visited ones to fill topK, `examined` False, judged by the same rule."""
    r = result(stats("a", 1000, 0.5, 0.5), stats("b", 400, 0.45, 0.45), stats("c", 60, 0.4, 0.4),
               stats("d", 30, 0.7, 0.7), stats("e", 0, 0.5, 0.5))
    assert [h.move for h in top_hints(r, 5)] == ["a", "b"]                     # GetHints: the examined moves
    filled = top_hints(r, 5, fill=True)
    assert [h.move for h in filled] == ["a", "b", "c", "d"]                    # every move with a visit
    assert [h.examined for h in filled] == [True, True, False, False] and [h.rank for h in filled] == [1, 2, 3, 4]
    for h in filled[1:]:
        assert h.about_equal == (h.loss <= h.loss_margin) and "barely examined" in (h.verdict if not h.examined else "barely examined")
    assert not contradictions(filled)
