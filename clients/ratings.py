"""Rating maths for tournaments: win rates, Elo with confidence intervals, Bradley-Terry, SPRT, Plackett-Luce.

Conventions
- A game between two bots gives each a score of 1 (win), 0.5 (shared win or equal rank) or 0 (loss).
- Elo is logistic Elo: an expected score s corresponds to elo = -400 log10(1/s - 1).
- Head-to-head in the duplicate format plays the same deal twice with the seats swapped: a *pair*. Its
  score (0, 0.5, ..., 2) is one of five outcomes, the *pentanomial* [LL, LD+DL, LW+DD+WL, DW+WD, WW]
  (D = a shared win). Pair statistics count the correlation the shared deal brings (fishtest's model).
- SPRT follows fishtest's published method (Michel Van den Bergh, "GSPRT" notes used by fishtest): the
  generalized log-likelihood ratio of "logistic Elo = elo1" against "= elo0" where, under each
  hypothesis, the outcome distribution is the maximum-likelihood one with the hypothesis' expected
  score (found by solving the secular equation); zero counts are regularized to 1e-3; the stopping
  bounds are log(beta / (1 - alpha)) and log((1 - beta) / alpha).

Nothing here needs scipy: the normal quantile comes from `statistics.NormalDist`, the secular equation
is solved by bisection, Bradley-Terry by minorization-maximization (Hunter 2004) and numpy.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Iterable, Sequence

import numpy as np

# Fewer games than this (of a pair, or of a bot in the rating table) are "too few games to rate": an
# interval from so few is the normal approximation's artefact (4 games printed "Elo -0.00 ± 17.00", D156).
MIN_RATED_GAMES = 10
ELO_PER_NAT = 400.0 / math.log(10.0)  # 173.7...: logistic Elo per unit of the Bradley-Terry log-strength
Z95 = NormalDist().inv_cdf(0.975)      # 1.95996...


# ----------------------------------------------------------------------------------------------
# Elo and score
# ----------------------------------------------------------------------------------------------
def expected_score(elo: float) -> float:
    """The expected score of a player `elo` points stronger (logistic)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score: +inf at 1 and -inf at 0 (no cap: a perfect score
    only bounds the difference from below, see outcome_elo)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (shared wins counted as half wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class EloEstimate:
    elo: float
    lo: float                  # 95% interval
    hi: float
    score: float               # mean score per game
    games: int
    los: float                 # likelihood of superiority: P(elo > 0)
    draw_ratio: float = math.nan    # drawn games / games (trinomial); NaN from pairs, which do not say (D156)
    pairs_ratio: float = math.nan   # fastchess's PairsRatio (pentanomial): (WW + WD) / (LL + LD)
    even_pairs: float = math.nan    # pentanomial: pairs scoring 1 of 2 (LW + DD + WL) / pairs, which fastchess
    #                                 prints as DrawRatio: a split pair of two decisive games is no draw
    too_few: str = ""               # why no Elo is given (too_few_to_rate), empty when it is

    @property
    def pm(self) -> float:
        """Half width of the interval (the "±" figure; inf when the interval is open)."""
        return (self.hi - self.lo) / 2.0

    def to_dict(self) -> dict:
        return {**asdict(self), "pm": self.pm}


def _regularize(counts: Sequence[float], eps: float = 1e-3) -> list[float]:
    return [c if c > 0 else eps for c in counts]


def _pdf(counts: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    """(N, [(value, probability)]) with values i/(k-1), i = 0..k-1: a per-game score in [0, 1]."""
    counts = _regularize(counts)
    n = sum(counts)
    k = len(counts)
    return n, [(i / (k - 1), c / n) for i, c in enumerate(counts)]


def _mean_var(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mu = sum(p * a for a, p in pdf)
    return mu, sum(p * (a - mu) ** 2 for a, p in pdf)


def outcome_elo(counts: Sequence[float]) -> EloEstimate:
    """Elo ± 95% CI from outcome counts: trinomial [L, D, W] (games) or pentanomial (game pairs).

    As fishtest: the mean score per game and its standard error (for pairs the variance of a pair's
    score, so the deal's correlation is counted), a normal interval on the score, mapped to Elo."""
    if len(counts) not in (3, 5):
        raise ValueError("counts must be a trinomial [L, D, W] or a pentanomial [LL, LD, LW+DD, DW, WW]")
    raw_n = sum(counts)
    per_unit = (len(counts) - 1) // 2          # games per counted unit: 1 or 2
    games = int(round(raw_n * per_unit))
    if raw_n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0, 0.5)
    draws, even = math.nan, math.nan
    pairs_ratio = math.nan
    if len(counts) == 5:
        even = counts[2] / raw_n
        lost = counts[0] + counts[1]
        pairs_ratio = (counts[3] + counts[4]) / lost if lost else math.inf
    else:
        draws = counts[1] / raw_n
    few = too_few_to_rate(counts)
    mu = sum(i * c for i, c in enumerate(counts)) / (raw_n * (len(counts) - 1))
    if mu in (0.0, 1.0):
        # a perfect (or null) score has no spread to estimate: the difference is unbounded on one side and
        # the other bound is the Wilson interval's over the counted units (pairs or games)
        lo_s, hi_s = wilson_interval(mu * raw_n, int(raw_n))
        lo, hi = (elo_from_score(lo_s), math.inf) if mu == 1.0 else (-math.inf, elo_from_score(hi_s))
        return EloEstimate(elo_from_score(mu), lo, hi, mu, games, 1.0 if mu == 1.0 else 0.0, draws, pairs_ratio,
                           even, few)
    n, pdf = _pdf(counts)
    mu_r, var = _mean_var(pdf)                 # per unit, score scaled to [0, 1]
    se = math.sqrt(var / n)                    # standard error of the mean score
    lo, hi = mu - Z95 * se, mu + Z95 * se
    if lo <= 0.0 or hi >= 1.0:
        # the normal interval leaves [0, 1] near a lopsided score: that side takes the Wilson bound instead
        w_lo, w_hi = wilson_interval(mu * raw_n, int(raw_n))
        lo, hi = (w_lo if lo <= 0.0 else lo), (w_hi if hi >= 1.0 else hi)
    los = NormalDist().cdf((mu - 0.5) / se) if se > 0 else (1.0 if mu > 0.5 else 0.0 if mu < 0.5 else 0.5)
    return EloEstimate(elo_from_score(mu), elo_from_score(lo), elo_from_score(hi), mu, games, los, draws,
                       pairs_ratio, even, few)


def too_few_to_rate(counts: Sequence[float]) -> str:
    """Why outcome counts (trinomial [L, D, W] or pentanomial) give no Elo worth printing, in words; empty
    when they do. Too few: fewer than MIN_RATED_GAMES games. Degenerate: every counted unit (game or pair)
    in one outcome between the extremes (e.g. every pair split 1-1): the spread is zero, and an interval
    would come from the regularization alone. A perfect (or null) score is rated: one side is open."""
    per_unit = (len(counts) - 1) // 2
    games = int(round(sum(counts) * per_unit))
    if games < MIN_RATED_GAMES:
        return f"too few games to rate ({games}; at least {MIN_RATED_GAMES})"
    used = [i for i, c in enumerate(counts) if c > 0]
    if len(used) == 1 and 0 < used[0] < len(counts) - 1:
        unit = "pair" if len(counts) == 5 else "game"
        return f"too few games to rate (every {unit} had the same result: no spread to measure)"
    return ""


# ----------------------------------------------------------------------------------------------
# SPRT (fishtest's generalized LLR, logistic Elo)
# ----------------------------------------------------------------------------------------------
def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """The root x of sum p_i a_i / (1 + x a_i) = 0 between -1/max(a) and -1/min(a) (min(a) < 0 < max(a))."""
    lo_a = min(a for a, _ in pdf)
    hi_a = max(a for a, _ in pdf)
    if not lo_a < 0 < hi_a:
        raise ValueError("the secular equation needs values of both signs")
    eps = 1e-12
    lo, hi = -1.0 / hi_a + eps, -1.0 / lo_a - eps

    def f(x: float) -> float:
        return sum(p * a / (1 + x * a) for a, p in pdf)

    # f is decreasing on the interval (each term's derivative is -p a^2 / (1 + x a)^2 < 0)
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return (lo + hi) / 2


def mle_with_mean(pdf: Sequence[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The distribution on the same values, closest in likelihood to `pdf`, whose mean is `s`."""
    shifted = [(a - s, p) for a, p in pdf]
    x = _secular(shifted)
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def sprt_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalized log-likelihood ratio of H1 (logistic Elo elo1) against H0 (elo0) for outcome counts
    (trinomial [L, D, W] or pentanomial pairs)."""
    if len(counts) not in (3, 5):
        raise ValueError("counts must be a trinomial or a pentanomial")
    if sum(counts) == 0:
        return 0.0
    n, pdf = _pdf(counts)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    p0, p1 = mle_with_mean(pdf, s0), mle_with_mean(pdf, s1)
    return n * sum(p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdf, p0, p1))


def sprt_llr_approx(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The Brownian approximation of the same LLR: N (s1 - s0)(2 mu - s0 - s1) / (2 var)."""
    n, pdf = _pdf(counts)
    mu, var = _mean_var(pdf)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): accept H0 below lower, H1 above upper."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must be within (0, 1)")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass
class SPRT:
    """A sequential probability ratio test between two Elo hypotheses (logistic Elo)."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if self.elo1 <= self.elo0:
            raise ValueError(f"SPRT needs elo0 < elo1, got {self.elo0} and {self.elo1}")
        self.lower, self.upper = sprt_bounds(self.alpha, self.beta)

    def llr(self, counts: Sequence[float]) -> float:
        return sprt_llr(counts, self.elo0, self.elo1)

    def decision(self, counts: Sequence[float]) -> str | None:
        """'H1' (elo1 accepted: the first bot is stronger by about elo1), 'H0', or None (continue)."""
        llr = self.llr(counts)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def to_dict(self, counts: Sequence[float] | None = None) -> dict:
        d = {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
             "lower": self.lower, "upper": self.upper}
        if counts is not None:
            d["llr"] = self.llr(counts)
            d["decision"] = self.decision(counts)
        return d


# ----------------------------------------------------------------------------------------------
# Bradley-Terry
# ----------------------------------------------------------------------------------------------
@dataclass
class BTRating:
    name: str
    elo: float
    se: float                      # standard error in Elo (relative to the anchor)
    games: int

    @property
    def lo(self) -> float:
        return self.elo - Z95 * self.se

    @property
    def hi(self) -> float:
        return self.elo + Z95 * self.se

    def to_dict(self) -> dict:
        return {"name": self.name, "elo": self.elo, "se": self.se, "lo": self.lo, "hi": self.hi,
                "pm": Z95 * self.se, "games": self.games}


def bradley_terry(names: Sequence[str], outcomes: Iterable[tuple[str, str, float]], anchor: str | None = None,
                  prior: float = 1.0, iterations: int = 10_000, tol: float = 1e-10) -> list[BTRating]:
    """Bradley-Terry strengths (as logistic Elo) fitted by minorization-maximization.

    outcomes: (a, b, score of a) with score 1, 0.5 or 0. `prior` virtual games, drawn, are added to every
    pair that met, so a bot that won (or lost) everything still gets a finite rating. Elo is relative to
    `anchor` (0 Elo), or centred on the mean when anchor is None. The standard errors come from the
    observed Fisher information (the inverse Hessian of the log-likelihood, under the same constraint).
    """
    names = list(names)
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = np.zeros((k, k))                       # wins[i, j]: score of i against j (ties half)
    games = np.zeros((k, k))
    for a, b, s in outcomes:
        i, j = idx[a], idx[b]
        if i == j:
            continue
        wins[i, j] += s
        wins[j, i] += 1.0 - s
        games[i, j] += 1
        games[j, i] += 1
    played = games.sum(axis=1).astype(int)
    met = games > 0
    wins = wins + met * (prior / 2.0)
    n = games + met * prior
    gamma = np.ones(k)
    w_tot = wins.sum(axis=1)
    for _ in range(iterations):
        denom = (n / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, w_tot / np.where(denom > 0, denom, 1.0), gamma)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    theta = np.log(gamma)
    # Hessian of the log-likelihood in theta: -sum_j n_ij p_ij p_ji on the diagonal, n_ij p_ij p_ji off it
    p = gamma[:, None] / (gamma[:, None] + gamma[None, :])
    w = n * p * p.T
    info = np.diag(w.sum(axis=1)) - w               # the observed information (= -Hessian)
    if anchor is not None:
        a = idx[anchor]
        keep = [i for i in range(k) if i != a]
        cov = np.zeros((k, k))
        if keep:
            cov[np.ix_(keep, keep)] = np.linalg.pinv(info[np.ix_(keep, keep)])
        rel = theta - theta[a]
    else:
        cov = np.linalg.pinv(info)                  # the minimum-norm inverse: the sum-zero constraint
        rel = theta - theta.mean()
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return [BTRating(names[i], float(rel[i] * ELO_PER_NAT), float(se[i] * ELO_PER_NAT), int(played[i]))
            for i in range(k)]


# ----------------------------------------------------------------------------------------------
# Multi-seat games: ranks, pairwise outcomes, Plackett-Luce
# ----------------------------------------------------------------------------------------------
def ranks_of(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """1-based ranks by seat: the winners (after the E4 tie-breaks) share rank 1; the others follow by
    final score, equal scores sharing a rank."""
    n = len(scores)
    win = set(winners)
    order = sorted(range(n), key=lambda s: (s not in win, -scores[s]))
    ranks = [0] * n
    for pos, seat in enumerate(order):
        prev = order[pos - 1] if pos else None
        if prev is not None and (prev in win) == (seat in win) and (seat in win or scores[prev] == scores[seat]):
            ranks[seat] = ranks[prev]
        else:
            ranks[seat] = pos + 1
    return ranks


def pairwise_outcomes(bots: Sequence[str], ranks: Sequence[int]) -> list[tuple[str, str, float]]:
    """(a, b, score of a) for every pair of seats of one game: the better rank scores 1, equal ranks 0.5."""
    out = []
    for i in range(len(bots)):
        for j in range(i + 1, len(bots)):
            s = 1.0 if ranks[i] < ranks[j] else 0.0 if ranks[i] > ranks[j] else 0.5
            out.append((bots[i], bots[j], s))
    return out


@dataclass
class PLRating:
    name: str
    mu: float
    sigma: float
    ordinal: float             # mu - 3 sigma: a conservative skill for ranking
    games: int = 0


def plackett_luce(games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> list[PLRating]:
    """openskill's Plackett-Luce ratings over games given as (bots by seat, ranks by seat), in order.
    Needs the `openskill` package (a main dependency)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, object] = {}
    counts: dict[str, int] = {}
    for bots, ranks in games:
        teams = [[ratings.setdefault(b, model.rating(name=b))] for b in bots]
        new = model.rate(teams, ranks=list(ranks))
        for b, team in zip(bots, new):
            ratings[b] = team[0]
            counts[b] = counts.get(b, 0) + 1
    out = [PLRating(b, r.mu, r.sigma, r.ordinal(), counts[b]) for b, r in ratings.items()]
    out.sort(key=lambda r: -r.ordinal)
    return out


@dataclass
class PairStats:
    a: str
    b: str
    games: int = 0
    score: float = 0.0          # a's points against b (wins + half the shared results)
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.5

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)

    def to_dict(self) -> dict:
        lo, hi = self.interval()
        return {"a": self.a, "b": self.b, "games": self.games, "score": self.score, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "rate": self.rate, "lo": lo, "hi": hi}


@dataclass
class Pentanomial:
    """Pair outcomes of bot `a` against bot `b` over duplicate pairs: counts[k] = pairs where a scored k/2."""

    a: str
    b: str
    counts: list[int] = field(default_factory=lambda: [0] * 5)

    def add(self, pair_score: float) -> None:
        self.counts[int(round(pair_score * 2))] += 1

    @property
    def pairs(self) -> int:
        return sum(self.counts)
