"""Rating and SPRT maths against known values.

Reference values: fishtest's published method (LLRcalc.LLR_logistic, stat_util.get_elo), recomputed
independently with scipy's brentq and norm.ppf when these tests were written, and the Brownian
approximation of the LLR (LLR_alt2) that must agree with the exact LLR for many games and small Elo.
"""
import math

import pytest

from clients import ratings as R


def test_elo_score_round_trip_and_known_points():
    assert R.expected_score(0) == 0.5
    assert R.elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)      # -400 log10(1/3)
    assert R.expected_score(400) == pytest.approx(10 / 11)
    for elo in (-300, -50, 0, 12.5, 700):
        assert R.elo_from_score(R.expected_score(elo)) == pytest.approx(elo)
    assert R.elo_from_score(1.0) == math.inf and R.elo_from_score(0.0) == -math.inf   # no cap


def test_elo_los_and_draw_ratio_as_fastchess_prints_them():
    """fastchess's published output for Ptnml(0-2) [2, 5, 49, 110, 334] (W 818, L 49, D 133):
    Elo: 353.65 +/- 27.86, LOS: 100.00 %, DrawRatio: 9.80 %, PairsRatio: 63.43. fastchess's DrawRatio of
    pairs is the share of pairs scoring 1 of 2 (`even_pairs` here); a draw ratio is drawn games only."""
    e = R.outcome_elo([2, 5, 49, 110, 334])
    assert (round(e.elo, 2), round(e.pm, 2)) == (353.65, 27.86)
    assert round(100 * e.los, 2) == 100.0 and round(100 * e.even_pairs, 2) == 9.8 and round(e.pairs_ratio, 2) == 63.43
    assert math.isnan(e.draw_ratio)          # pairs do not say how many games were drawn (D156)
    assert round(100 * R.outcome_elo([49, 133, 818]).draw_ratio, 2) == 13.3               # games: draws / games
    even = R.outcome_elo([10, 0, 10])
    assert even.elo == 0 and even.los == 0.5


def test_a_perfect_score_is_not_capped():
    """Ten wins in ten games: the Elo is unbounded above; the lower bound is the Wilson interval's."""
    e = R.outcome_elo([0, 0, 10])
    assert e.elo == math.inf and e.hi == math.inf and e.los == 1.0
    assert e.lo == pytest.approx(R.elo_from_score(R.wilson_interval(10, 10)[0]))
    assert 100 < e.lo < 400
    lost = R.outcome_elo([6, 0, 0, 0, 0])
    assert lost.elo == -math.inf and lost.lo == -math.inf and lost.hi < 0 and lost.games == 12


def test_wilson_interval_known_values():
    lo, hi = R.wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    lo, hi = R.wilson_interval(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.2775, abs=1e-4)
    assert R.wilson_interval(0, 0) == (0.0, 1.0)


# (pentanomial or trinomial, elo0, elo1, LLR by fishtest's method)
LLR_CASES = [
    ([10789, 19328, 33806, 19402, 10543], -3, 1, 2.1310678118),   # the example in fishtest's stat_util
    ([39, 2226, 31451, 2412, 40], 0.2, 0.9, 2.1625425800),
    ([5, 10, 20, 30, 15], 0, 10, 1.3753625769),
    ([3, 4, 10], 0, 20, 0.4924266915),
    ([0, 0, 0, 0, 3], -1.75, 0.25, 0.0173182131),                   # zero counts regularized to 1e-3
]


@pytest.mark.parametrize("counts,elo0,elo1,expected", LLR_CASES)
def test_sprt_llr_matches_fishtest(counts, elo0, elo1, expected):
    assert R.sprt_llr(counts, elo0, elo1) == pytest.approx(expected, abs=1e-7)


def test_llr_agrees_with_the_brownian_approximation_for_many_games():
    counts = [10789, 19328, 33806, 19402, 10543]
    assert R.sprt_llr_approx(counts, -3, 1) == pytest.approx(R.sprt_llr(counts, -3, 1), abs=1e-3)


def test_llr_is_antisymmetric_and_zero_without_games():
    counts = [3, 10, 22, 12, 4]
    assert R.sprt_llr(counts, 0, 10) == pytest.approx(-R.sprt_llr(counts, 10, 0))
    assert R.sprt_llr([0, 0, 0, 0, 0], 0, 10) == 0.0


def test_sprt_bounds_and_decisions():
    lo, hi = R.sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944439, abs=1e-6) and hi == pytest.approx(2.944439, abs=1e-6)
    test = R.SPRT(0, 10, 0.05, 0.05)
    assert test.decision([10789, 19328, 33806, 19402, 10543]) == "H0"     # about -1 Elo over 94k pairs
    assert test.decision([0, 1, 10, 40, 60]) == "H1"
    assert test.decision([1, 2, 3, 2, 1]) is None
    with pytest.raises(ValueError):
        R.SPRT(5, 5)


@pytest.mark.parametrize("counts,elo,lo,hi", [
    ([10789, 19328, 33806, 19402, 10543], -0.7735773, -2.0511677, 0.5039921),
    ([5, 10, 20, 30, 15], 88.7394998, 44.5412410, 135.9585411),
    ([3, 4, 10], 152.0844967, 15.6594567, 361.8617966),
])
def test_elo_with_interval_matches_fishtest_get_elo(counts, elo, lo, hi):
    e = R.outcome_elo(counts)
    assert (e.elo, e.lo, e.hi) == (pytest.approx(elo, abs=1e-5), pytest.approx(lo, abs=1e-5),
                                   pytest.approx(hi, abs=1e-5))
    assert e.games == sum(counts) * (2 if len(counts) == 5 else 1)


def test_pentanomial_interval_is_wider_than_trinomial_when_pairs_disagree():
    # every pair split 1-1 (each bot wins its own seat) carries less evidence than 2n independent games
    penta = R.outcome_elo([0, 0, 20, 0, 0])
    assert penta.elo == pytest.approx(0.0) and penta.pm < R.outcome_elo([20, 0, 20]).pm


def test_bradley_terry_recovers_known_strengths():
    # expected scores from strengths 0, 100, 300 Elo, with exact fractional "results"
    true = {"a": 0.0, "b": 100.0, "c": 300.0}
    outcomes = []
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        p = R.expected_score(true[x] - true[y])
        outcomes += [(x, y, 1.0)] * round(1000 * p) + [(x, y, 0.0)] * round(1000 * (1 - p))
    fit = {r.name: r for r in R.bradley_terry(["a", "b", "c"], outcomes, anchor="a", prior=0.0)}
    assert fit["a"].elo == 0.0 and fit["a"].se == 0.0
    assert fit["b"].elo == pytest.approx(100, abs=2) and fit["c"].elo == pytest.approx(300, abs=2)
    assert 0 < fit["b"].se < 20 and fit["b"].games == 2000


def test_bradley_terry_two_players_matches_the_score_formula():
    outcomes = [("x", "y", 1.0)] * 30 + [("x", "y", 0.0)] * 10
    fit = {r.name: r for r in R.bradley_terry(["x", "y"], outcomes, anchor="y", prior=0.0)}
    assert fit["x"].elo == pytest.approx(R.elo_from_score(0.75), abs=1e-3)
    # the delta-method standard error: 400/ln10 / sqrt(n p (1-p))
    assert fit["x"].se == pytest.approx(R.ELO_PER_NAT / math.sqrt(40 * 0.75 * 0.25), rel=1e-3)


def test_bradley_terry_stays_finite_for_a_perfect_record():
    fit = {r.name: r for r in R.bradley_terry(["w", "l"], [("w", "l", 1.0)] * 8)}
    assert math.isfinite(fit["w"].elo) and fit["w"].elo > 200 and fit["w"].elo == pytest.approx(-fit["l"].elo)


def test_ranks_and_pairwise_outcomes():
    assert R.ranks_of([20, 25, 18], [1]) == [2, 1, 3]
    assert R.ranks_of([20, 20, 18, 20], [0, 1]) == [1, 1, 4, 3]       # shared win; seat 3 lost the tie-break
    assert R.ranks_of([10, 12, 12], [2]) == [3, 2, 1]                   # E4 tie-break gave seat 2 the win
    assert R.pairwise_outcomes(["a", "b", "c"], [1, 1, 3]) == [("a", "b", 0.5), ("a", "c", 1.0), ("b", "c", 1.0)]


def test_plackett_luce_orders_consistent_winners():
    games = [(["a", "b", "c"], [1, 2, 3]), (["b", "c", "a"], [2, 3, 1]), (["c", "a", "b"], [3, 1, 2])] * 5
    order = [r.name for r in R.plackett_luce(games)]
    assert order == ["a", "b", "c"]


def test_a_lopsided_score_keeps_a_finite_interval():
    """99 of 100: the normal interval would reach below a score of 0; the Wilson bound takes that side."""
    e = R.outcome_elo([49, 0, 1, 0, 0])
    assert math.isfinite(e.lo) and e.lo < e.elo < e.hi < -500 and math.isfinite(e.pm)


def test_small_samples_are_too_few_to_rate_and_split_pairs_are_no_draws():
    """Issue 51: 4 games printed "Elo -0.00 ± 17.00" and "DrawRatio 100%" with no draw. Fewer than
    MIN_RATED_GAMES games, or every pair alike, give no Elo; a draw ratio counts drawn games only."""
    four = R.outcome_elo([0, 0, 2, 0, 0])                  # two pairs, each split 1-1 by decisive games
    assert four.too_few.startswith("too few games to rate") and math.isnan(four.draw_ratio)
    alike = R.outcome_elo([0, 0, 6, 0, 0])                 # 12 games, every pair split: no spread at all
    assert "same result" in alike.too_few
    assert R.outcome_elo([3, 4, 10]).too_few == "" and R.outcome_elo([2, 5, 49, 110, 334]).too_few == ""
    assert R.outcome_elo([0, 0, 10]).too_few == ""         # a perfect score is rated: one side open
