"""Hints from a search result: top-k moves, their loss against the best move, a mistake class only where
the loss is clear beyond the search's own noise, and a search that grows until its top move is settled.

Game-agnostic: it reads only SearchResult / MoveStats (visits, mean_reward, win_probability,
expected_score, score_std), so it works for any evaluation behind the search, as long as a reward and a
win probability lie in [0, 1]. Why a move is good in the game's own terms is the game's business (for
SpellBook: engine_c/spellbook/reasons.py).

One ordering, one label (D45). The move shown first is the search's choice (its most visited move:
what a bot plays at temperature 0). The others are the moves the search examined (its runner-up by
visits, and any with at least EXAMINED_SHARE of its choice's visits; a move it barely tried has no
estimate worth comparing and is not a hint), by win probability, best first. Loss is measured in the
win probability of the seat to move: loss = p(first) - p(move), clamped at 0.

Noise. Each estimate is a mean over the move's visits of values in [0, 1]; its variance is at most
m(1 - m) (Bhatia-Davis), with m smoothed as (n·mean + 1) / (n + 2) so a move whose every visit was lost
is not called certain. The half-width of a ~95% interval of a difference of two such means is
Z · sqrt(v1/n1 + v2/n2) (Z = 1.96). Visits of a tree search are not independent draws, so this is a
yardstick for "clearly different", not an exact probability.

About equal: one rule for every move (D155). A move is `about_equal` to the first when its loss in win
probability is within the loss's own ~95% half-width (loss <= loss_margin: the interval of the difference
includes 0) and it does not score clearly fewer points (beyond the noise of the final score, D122). The
same rule, applied the same way to every move, is the analysis engine's `aboutEqual` and the terminal's,
the page's and GetHints' "about equal". The first move is `about_equal` when any other examined move is.

Order. The search's choice first; then the moves about equal to it (by win probability: the search cannot
tell these apart, so they share the first place: a player reads "1=" and "about equal", never "best" above
a "good" that shows a higher figure); then the moves clearly worse than it, by win probability. Labels
never contradict the order: among the clearly worse moves, going down the list a label never gets better
(a move the search rates lower than one called an inaccuracy is not called good). Their classes, by the
loss's lower bound (loss - half-width; inclusive upper bounds; lichess-like, in win probability):

    best        the move shown first (the search's choice)
    good        lower bound <= 0.05 (and every move about equal: the words say "about equal")
    inaccuracy  lower bound <= 0.10
    mistake     lower bound <= 0.20
    blunder     lower bound >  0.20

`verdict(hint, hints)` is each move's verdict in words, one text for the terminal, GetHints (`verdict`)
and the page.

`grow(run, budget, ...)` reruns a search with double the budget until its top move is separated, its
deadline would be passed, or its cap is reached; then the result says whether the moves were settled.

Families (issue 42). Moves that are the same decision for the player (SpellBook: one learning of one
spell at one level whatever pays for it, one Store 1 whatever token; the game adapter's
`move_family(state, move)`) form a family. With `family` given, hints rank families, not moves: a family
is represented by its most visited member (the search's own preference inside it: for the first family
that is the search's choice), its value is that member's, and its other members are the hint's
`variants`. "About equal" and the separation compare families only, so two forms of one decision never
make the top "about equal", and the growth stops once the top family is separated.

Measured noise. `merge_runs(runs)` merges independent searches of one position (other seeds; a hint's
search is made of such searches of half the asked budget each, and grows by adding more) and measures the
variance of one visit's win value from how far the searches' estimates of the same move differ: if a
move's mean over n_j visits in search j varies as sigma^2 / n_j, then sum_j n_j (w_j - w)^2 has expectation
(k - 1) sigma^2; pooled over the moves (those with MIN_NOISE_VISITS visits in a search) it is
`SearchResult.noise_variance`. Where it is measured (at least MIN_NOISE_MOVES degrees of freedom), margins
use it (never above the Bhatia-Davis bound above): a network's leaf values vary far less than m(1 - m),
which called nearly every pair "about equal" (issue 42: 26 of 30 first hints). The searches are not
independent draws of single visits, so this measures the estimator's real spread between searches,
including what tree search adds, rather than assuming it.

Notes. A hint whose figures could look out of order says why in `note`: a lower rank with a higher win
probability (only within the noise: about equal) or more expected points (hints rank by the chance to
win, not by points); the first hint says so too.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Optional

from search.search import MoveStats, SearchResult

BEST, GOOD, INACCURACY, MISTAKE, BLUNDER = "best", "good", "inaccuracy", "mistake", "blunder"
MISTAKE_CLASSES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
# class -> largest win-probability loss it covers (inclusive); "best" is only the search's choice.
MISTAKE_THRESHOLDS: dict[str, float] = {BEST: 0.0, GOOD: 0.05, INACCURACY: 0.10, MISTAKE: 0.20, BLUNDER: math.inf}
SEVERITY = {name: i for i, name in enumerate(MISTAKE_CLASSES)}
Z = 1.96                 # ~95% two-sided
MAX_DOUBLINGS = 3        # a hint's search grows to at most 8x its budget (and the caller's cap and time)
EXAMINED_SHARE = 0.1     # a move with this share of the most visited move's visits counts as examined
MIN_NOISE_MOVES = 3      # degrees of freedom (moves x searches) before a measured variance is used
MIN_NOISE_VISITS = 8     # visits a move needs in one search to count in the measurement
MIN_VARIANCE = 1e-4      # the measured variance's floor (halves that agree exactly measure no noise)
SCORE_NOTE_POINTS = 0.05  # expected points a lower rank must score above the first before a note says why


def classify(loss: float, is_best: bool = False) -> str:
    """The mistake class of a move losing `loss` win probability against the best move."""
    if is_best:
        return BEST
    for name in (GOOD, INACCURACY, MISTAKE):
        if loss <= MISTAKE_THRESHOLDS[name] + 1e-12:
            return name
    return BLUNDER


def _variance_bound(mean: float, n: int) -> float:
    """Upper bound on the variance of one visit's value in [0, 1] with this mean (smoothed, see above)."""
    m = (n * min(max(mean, 0.0), 1.0) + 1.0) / (n + 2.0)
    return m * (1.0 - m)


def difference_margin(mean_a: float, n_a: int, mean_b: float, n_b: int, z: float = Z,
                      variance: float | None = None) -> float:
    """Half-width of the ~95% interval of mean_a - mean_b (values in [0, 1]); inf when one has no visits.
    `variance`: the measured variance of one visit's value (merge_halves), else the bound m(1 - m); never
    above the bound."""
    if n_a <= 0 or n_b <= 0:
        return math.inf
    va, vb = _variance_bound(mean_a, n_a), _variance_bound(mean_b, n_b)
    if variance is not None:
        va, vb = min(va, variance), min(vb, variance)
    return z * math.sqrt(va / n_a + vb / n_b)


def measured_variance(runs: list[SearchResult], player: int | None = None, score: bool = False) -> float | None:
    """The variance of one visit's win value for the seat to move, measured from independent searches of
    one position (see the module's docstring): for each move, the visit-weighted spread of its per-search
    means around their weighted mean (runs where it has at least MIN_NOISE_VISITS visits), pooled over the
    moves by degrees of freedom; None below MIN_NOISE_MOVES degrees of freedom."""
    if not runs:
        return None
    p = runs[0].player if player is None else player
    per_move: dict[Any, list[tuple[int, float]]] = {}
    for r in runs:
        for s in r.moves:
            if s.visits >= MIN_NOISE_VISITS:
                value = s.expected_score[p] if score else s.win_probability[p]
                per_move.setdefault(_key(s.move), []).append((s.visits, value))
    total, dof = 0.0, 0
    for obs in per_move.values():
        if len(obs) < 2:
            continue
        n = sum(v for v, _ in obs)
        mean = sum(v * w for v, w in obs) / n
        total += sum(v * (w - mean) ** 2 for v, w in obs)
        dof += len(obs) - 1
    if dof < MIN_NOISE_MOVES:
        return None
    return max(total / dof, MIN_VARIANCE * (400.0 if score else 1.0))


def _key(move: Any) -> Any:
    code = getattr(move, "code", None)
    return code if code is not None else move


def merge_halves(a: SearchResult, b: SearchResult) -> SearchResult:
    """merge_runs([a, b])."""
    return merge_runs([a, b])


def merge_runs(runs: list[SearchResult]) -> SearchResult:
    """One result from independent searches of one position (other seeds; root-parallel): visits summed,
    estimates weighted by visits, score spreads pooled; its `noise_variance` measured from how the
    searches differ; its move the most visited (what a bot plays at temperature 0)."""
    a = runs[0]
    n = len(a.moves[0].win_probability) if a.moves else 0
    merged: dict[Any, MoveStats] = {}
    for r in runs:
        for s in r.moves:
            k = _key(s.move)
            merged[k] = s if k not in merged else _merge_stats(merged[k], s, n)
    moves = sorted(merged.values(), key=lambda s: (-s.visits, -s.mean_reward))
    best = moves[0] if moves else None
    return SearchResult(move=best.move if best else a.move, moves=moves,
                        principal_variation=[best.move] if best else [],
                        iterations=sum(r.iterations for r in runs), elapsed_s=sum(r.elapsed_s for r in runs),
                        seed=a.seed, player=a.player, threads=a.threads, nodes=sum(r.nodes for r in runs),
                        mean_decisions=sum(r.mean_decisions for r in runs) / len(runs),
                        cut_short=any(r.cut_short for r in runs), stopped_early=all(r.stopped_early for r in runs),
                        evaluator=a.evaluator, model=a.model, noise_variance=measured_variance(runs),
                        score_noise_variance=measured_variance(runs, score=True))


def _merge_stats(s: MoveStats, t: MoveStats, n: int) -> MoveStats:
    v = s.visits + t.visits
    if v == 0:
        return s

    def mix(x: float, y: float) -> float:
        return (x * s.visits + y * t.visits) / v

    mean = [mix(s.expected_score[q], t.expected_score[q]) for q in range(n)]
    std = [math.sqrt(max(mix(s.score_std[q] ** 2 + s.expected_score[q] ** 2,
                             t.score_std[q] ** 2 + t.expected_score[q] ** 2) - mean[q] ** 2, 0.0))
           for q in range(n)] if s.score_std and t.score_std else []
    return MoveStats(move=s.move, visits=v, availability=s.availability + t.availability,
                     mean_reward=mix(s.mean_reward, t.mean_reward),
                     win_probability=[mix(s.win_probability[q], t.win_probability[q]) for q in range(n)],
                     expected_score=mean, score_std=std, prior=(s.prior + t.prior) / 2)


@dataclass
class Separation:
    """How clearly the search's choice beats the next move of the hints (by win probability for the
    seat to move)."""

    separated: bool
    gap: float             # win probability of the choice minus the next move's (0 with a single move)
    margin: float          # half-width of the gap's ~95% interval
    by_points: bool = False  # separated only on points: about equal in the chance to win
    alone: bool = False      # no other move got a visit: nothing to be separated from, no gap measured

    @property
    def text(self) -> str:
        if self.alone:
            return "the search spent every visit on its choice: no other move got one at this budget"
        if self.by_points:
            return ("the best move is about equal to the next in the chance to win, but clearly ahead on points "
                    "(beyond the search's noise)")
        if self.separated:
            return "the best move is clearly ahead of the others (beyond the search's noise)"
        return "the top moves are about equal: the search cannot tell them apart at this budget"


@dataclass
class Hint:
    """One ranked move: its estimates for the seat to move, its loss against the first, its class."""

    move: Any
    rank: int                      # 1 = the search's choice, then the examined moves by win probability
    win_probability: float
    expected_score: float          # mean final score of the seat to move in the search's simulated games
    loss: float                    # win probability lost against the first move (>= 0)
    loss_points: float             # expected points lost against the first move (negative: more points)
    mistake_class: str
    visits: int
    stats: MoveStats
    loss_margin: float = 0.0       # half-width of the loss's ~95% interval (the search's noise)
    about_equal: bool = False      # rank 1: not separated from rank 2; others: loss within the noise
    score_spread: float = 0.0      # standard deviation of the final score across the simulated games
    variants: list = field(default_factory=list)   # the family's other moves (most visited first)
    note: str = ""                 # why the figures may look out of order (see the module's docstring)
    family: Any = None             # the family's key (the move itself without families)
    verdict: str = ""              # the move's verdict in words (`verdict`): the terminal's, GetHints' and the page's
    examined: bool = True          # False: a move under EXAMINED_SHARE listed only to fill an analysis's topK


Family = Optional[Callable[[Any], Hashable]]


def _grouped(result: SearchResult, family: Family, examined_share: float = EXAMINED_SHARE
             ) -> list[tuple[MoveStats, list[MoveStats], Any]]:
    """(representative, other members, key) per family: the first family is the search's choice's (it is
    the representative), then the others the search examined (see `examined`; `examined_share` 0: every
    family with a visit)."""
    if not result.moves:
        return []
    lead, p = result.chosen, result.player
    keyf = family if family is not None else (lambda m: ("move", _key(m)))
    groups: dict[Any, list[MoveStats]] = {}
    for s in result.moves:                       # by visits: a family's first member is its most visited
        groups.setdefault(keyf(s.move), []).append(s)
    lead_key = keyf(lead.move)
    out = [(lead, [s for s in groups[lead_key] if s is not lead], lead_key)]
    rest = [(members[0], members[1:], k) for k, members in groups.items() if k != lead_key]
    rest.sort(key=lambda g: -g[0].visits)
    others = [g for i, g in enumerate(rest) if g[0].visits > 0 and
              (i == 0 or g[0].visits >= examined_share * lead.visits)]
    others.sort(key=lambda g: (-g[0].win_probability[p], -g[0].visits))
    return out + others


def examined(result: SearchResult, family: Family = None) -> list[MoveStats]:
    """The search's choice (SearchResult.chosen: most visited, or proven better by its lower confidence
    bound), then the other moves it examined (the runner-up by visits, and any with at least
    EXAMINED_SHARE of the choice's visits) by win probability for the seat to move, best first (ties:
    more visits). With `family` (move -> key), one move per family: its most visited member."""
    return [rep for rep, _members, _k in _grouped(result, family)]


def _label(result: SearchResult, groups: list[tuple[MoveStats, list[MoveStats], Any]],
           spread_floor: float = 0.0) -> list[Hint]:
    """Every family of `groups` as a Hint against the first (see the module's docstring): about equal by
    one rule for every move, the moves about equal first (by win probability), then the clearly worse by
    win probability with labels that never improve down the list."""
    p, lead = result.player, groups[0][0]
    var = result.noise_variance
    equal, worse = [], []
    for s, members, key in groups[1:]:
        loss = max(0.0, lead.win_probability[p] - s.win_probability[p])
        margin = min(difference_margin(lead.win_probability[p], lead.visits, s.win_probability[p], s.visits,
                                       variance=var), 1.0)
        about = is_about_equal(loss, margin, points_behind(result, lead, s))
        h = Hint(move=s.move, rank=0, win_probability=s.win_probability[p],
                 expected_score=s.expected_score[p], loss=loss,
                 loss_points=lead.expected_score[p] - s.expected_score[p],
                 mistake_class=GOOD if about else classify(max(loss - margin, 0.0)),
                 visits=s.visits, stats=s, loss_margin=margin, about_equal=about,
                 score_spread=max(_spread(s, p), spread_floor), variants=[m.move for m in members], family=key)
        (equal if about else worse).append(h)
    worst = GOOD
    for h in worse:                       # already by win probability (_grouped): labels never improve
        worst = h.mistake_class if SEVERITY[h.mistake_class] > SEVERITY[worst] else worst
        h.mistake_class = worst
    first = Hint(move=lead.move, rank=1, win_probability=lead.win_probability[p],
                 expected_score=lead.expected_score[p], loss=0.0, loss_points=0.0, mistake_class=BEST,
                 visits=lead.visits, stats=lead, about_equal=bool(equal),
                 score_spread=max(_spread(lead, p), spread_floor), variants=[m.move for m in groups[0][1]],
                 family=groups[0][2])
    out = [first] + equal + worse
    for rank, h in enumerate(out, start=1):
        h.rank = rank
    _notes(out)
    for h in out:
        h.verdict = verdict(h, out)
    return out


def is_about_equal(loss: float, margin: float, behind_on_points: bool = False) -> bool:
    """The one rule of "about equal" (D155), for every move of hints, the analysis engine and the coach: the
    loss in win probability against the first move is within its ~95% half-width (the interval of the
    difference includes 0), and the move does not score clearly fewer points (D122)."""
    return loss <= margin + 1e-12 and not behind_on_points


def rank_label(h: Hint) -> str:
    """The place a player reads: "1=" for the moves the search cannot tell apart from its choice (they
    share the first place), else the rank."""
    return "1=" if h.about_equal else str(h.rank)


def verdict(h: Hint, hints: list[Hint], unlisted: int = 0) -> str:
    """A move's verdict in words, consistent with its figures and its place (one text for the terminal,
    GetHints' `verdict` and the page): the search's choice; about equal to it (no loss shown: within the
    noise, a figure of a loss or a gain means nothing); or its class and what it loses beyond the noise.
    `hints`: the moves listed with it; `unlisted`: the moves about equal to the first that are not listed
    (a top 3 names no "#4")."""
    if h.rank == 1:
        if len(hints) == 1 and not unlisted:
            return "the search's choice, the only move it examined: no other got a visit at this budget"
        if not h.about_equal:
            return "the search's choice, clearly ahead of the other moves it examined"
        equal = [f"#{o.rank}" for o in hints[1:] if o.about_equal]
        if unlisted:
            equal.append(f"{unlisted} more move{'s' if unlisted > 1 else ''} not listed")
        named = (", ".join(equal[:-1]) + " and " + equal[-1]) if len(equal) > 1 else equal[0] if equal else "another move"
        return f"the search's choice; about equal to {named}: the search can't tell these apart"
    if not h.examined:
        return (f"barely examined ({h.visits} visits): " + ("the search can't tell it from #1" if h.about_equal else
                f"{h.mistake_class}, loses {h.loss:.0%} of win probability against #1 (± {h.loss_margin:.0%})"))
    if h.about_equal:
        return "about equal to #1: the search can't tell these apart"
    if h.loss <= h.loss_margin:          # about equal in the chance to win, clearly behind on points (D122)
        return (f"{h.mistake_class}: about equal to #1 in the chance to win, but it scores clearly fewer points "
                f"({h.expected_score:.1f} against {hints[0].expected_score:.1f})")
    return (f"{h.mistake_class}: loses {h.loss:.0%} of win probability against #1 (± {h.loss_margin:.0%}, the "
            f"search's noise)")


def points_behind(result: SearchResult, lead: MoveStats, s: MoveStats) -> bool:
    """Whether `s` scores fewer points than `lead` beyond the noise of the final score: measured between
    the searches (SearchResult.score_noise_variance), else each move's spread of final scores within the
    search (score_std); never when either has no visits. Two families about equal in the chance to win
    (e.g. in a game already lost or won) are not about equal when one clearly scores more."""
    p = result.player
    if lead.visits <= 0 or s.visits <= 0:
        return False
    if result.score_noise_variance is not None:
        va = vb = result.score_noise_variance
    elif lead.score_std and s.score_std:
        va, vb = lead.score_std[p] ** 2, s.score_std[p] ** 2
    else:
        return False
    gap = lead.expected_score[p] - s.expected_score[p]
    return gap > Z * math.sqrt(va / lead.visits + vb / s.visits) and gap > SCORE_NOTE_POINTS


def _notes(hints: list[Hint]) -> None:
    """Say why where a lower rank shows a higher win probability or more points than the first, or where
    a lower rank is about equal in the chance to win but not on points."""
    if len(hints) < 2:
        return
    first = hints[0]
    above: list[str] = []
    for h in hints[1:]:
        if not h.about_equal and h.mistake_class == GOOD and h.loss <= h.loss_margin \
                and first.expected_score - h.expected_score > SCORE_NOTE_POINTS:
            h.note = (f"about equal in the chance to win, but it scores fewer points "
                      f"({h.expected_score:.1f} against {first.expected_score:.1f}, beyond the search's noise)")
            if h.rank == 2:
                above.append("ahead of #2 on points beyond the search's noise, though about equal in the chance "
                             "to win")
            continue
        if h.win_probability > first.win_probability + 1e-12:
            h.note = ("its estimate is higher than the first move's, but within the search's noise: the two are "
                      "about equal and the search chose the first by its visits")
            above.append(f"#{h.rank} shows a higher chance to win, within the search's noise")
        elif h.expected_score > first.expected_score + SCORE_NOTE_POINTS:
            h.note = ("it scores more points on average, but its chance to win is lower: hints rank by the "
                      "chance to win")
            above.append(f"#{h.rank} scores more points on average but wins less often")
    if above:
        first.note = "; ".join(above) + " (hints rank by the chance to win)"


def _spread(s: MoveStats, p: int) -> float:
    return s.score_std[p] if s.score_std else 0.0


def separation(result: SearchResult, family: Family = None) -> Separation:
    """Whether the search's choice (its family) is ahead of every other examined family beyond the noise
    (the first hint's `about_equal`, negated: no other examined family is about equal to it); a choice with
    no rival is separated and `alone` (no other family got a visit: its text says so, not that it is ahead).
    `gap` and `margin`: against the next family by win probability."""
    groups = _grouped(result, family)
    if len(groups) < 2:
        return Separation(True, 0.0, 0.0, alone=True)
    hints = _label(result, groups)
    first, second = hints[0], hints[1]
    nxt = max(hints[1:], key=lambda h: h.win_probability)
    gap = first.win_probability - nxt.win_probability
    return Separation(not first.about_equal, gap, nxt.loss_margin,
                      by_points=not first.about_equal and any(h.loss <= h.loss_margin for h in hints[1:]))


def hint_best(result: SearchResult) -> MoveStats:
    """The move a hint shows first: the search's choice (SearchResult.chosen)."""
    return result.chosen


def top_hints(result: SearchResult, top_k: int = 3, spread_floor: float = 0.0, family: Family = None,
              fill: bool = False) -> list[Hint]:
    """The search's choice, then up to top_k - 1 other examined moves (families, with `family`): those about
    equal to it, then the others by win probability (see above); fewer when the search examined fewer.
    `spread_floor`: the least score spread to report (the game's measured spread of final scores around the
    estimate: the search's simulated games, ending in a learned value's expected scores, vary less than
    real games do). `fill` (the analysis engine's topK): when fewer than top_k moves were examined, the
    moves the search barely visited (under EXAMINED_SHARE of its choice's visits, at least one visit) follow,
    most visited first, `examined` False, each judged by the same rule against the first."""
    if top_k < 1 or not result.moves:
        return []
    labelled = _label(result, _grouped(result, family), spread_floor)
    out = labelled[:top_k]
    if out[0].about_equal:               # its verdict names the moves listed, and counts the others
        out[0].verdict = verdict(out[0], out, sum(1 for h in labelled[top_k:] if h.about_equal))
    if fill and len(out) < top_k:
        shown = {h.family for h in out}
        every = _label(result, _grouped(result, family, examined_share=0.0), spread_floor)
        rest = sorted((h for h in every if h.family not in shown and h.visits > 0), key=lambda h: -h.visits)
        for h in rest[:top_k - len(out)]:
            h.examined, h.rank = False, len(out) + 1
            if not h.about_equal:
                worst = max((o.mistake_class for o in out if not o.about_equal and o.rank > 1),
                            key=SEVERITY.get, default=GOOD)
                h.mistake_class = max(h.mistake_class, worst, key=SEVERITY.get)
            h.note = h.note or (f"barely examined ({h.visits} visits, under a tenth of the choice's): listed to "
                                f"fill topK")
            h.verdict = verdict(h, out + [h])
            if h.win_probability > out[0].win_probability + 1e-12 or \
                    h.expected_score > out[0].expected_score + SCORE_NOTE_POINTS:
                extra = f"#{h.rank} shows more on few visits (barely examined)"
                out[0].note = f"{out[0].note}; {extra}" if out[0].note else extra
            out.append(h)
    return out


def assess(result: SearchResult, move: Any, family: Family = None) -> Hint | None:
    """The hint for one given move (e.g. the move a player made) among the examined ones, or None if the
    search did not examine it (with `family`: the hint of its family, when it is that family's shown move)."""
    for h in _label(result, _grouped(result, family)) if result.moves else []:
        if h.move == move:
            return h
    return None


def contradictions(hints: list[Hint]) -> list[str]:
    """What in a list of hints contradicts itself (empty when nothing does): ranks out of order, a label
    better than one above it among the clearly worse moves, a win probability above the one before it
    there, a move about equal after one that is not, `about_equal` that disagrees with the labels, the
    rule (D155) or the first hint, a loss shown within the noise without "about equal". The check
    bench/review_quality.py counts."""
    out = []
    for i, h in enumerate(hints):
        if h.rank != i + 1:
            out.append(f"rank {h.rank} at position {i + 1}")
        if (h.rank == 1) != (h.mistake_class == BEST):
            out.append(f"rank {h.rank} labelled {h.mistake_class}")
        if h.about_equal and h.rank > 1 and h.mistake_class != GOOD:
            out.append(f"rank {h.rank} about equal but labelled {h.mistake_class}")
        if h.rank > 1 and h.about_equal != is_about_equal(h.loss, h.loss_margin) and not (h.note and not h.about_equal):
            out.append(f"rank {h.rank}: about equal is {h.about_equal} but its loss {h.loss:.3f} ± {h.loss_margin:.3f} "
                       f"says otherwise")
    examined = [h for h in hints if h.examined]
    for prev, h in zip(examined[1:], examined[2:]):
        if h.about_equal and not prev.about_equal:
            out.append(f"rank {h.rank} about equal after rank {prev.rank} that is not")
        if prev.about_equal or h.about_equal:
            continue
        if SEVERITY[h.mistake_class] < SEVERITY[prev.mistake_class]:
            out.append(f"rank {h.rank} ({h.mistake_class}) better than rank {prev.rank} ({prev.mistake_class})")
        if h.win_probability > prev.win_probability + 1e-12:
            out.append(f"rank {h.rank} wins more often than rank {prev.rank}")
    if len(hints) > 1:
        first = hints[0]
        if first.about_equal != any(h.about_equal for h in examined[1:]):
            out.append("the first hint's 'about equal' disagrees with the others'")
        for h in hints[1:]:
            if h.family is not None and h.family == first.family:
                out.append(f"rank {h.rank} is of the first move's family")
            if (h.win_probability > first.win_probability + 1e-12 and not h.about_equal) and not (h.note and first.note):
                out.append(f"rank {h.rank} wins more often than rank 1 and is not about equal")
            if (h.win_probability > first.win_probability + 1e-12
                    or h.expected_score > first.expected_score + SCORE_NOTE_POINTS) and not (h.note and first.note):
                out.append(f"rank {h.rank} shows more than rank 1 and no note says why")
    return out


# ----------------------------------------------------------------------------------------------
# A search that grows until its top move is settled
# ----------------------------------------------------------------------------------------------
@dataclass
class Grown:
    """The last (largest) search of `grow`, whether its top move is separated, and the budgets run."""

    result: SearchResult
    separation: Separation
    budgets: list[float] = field(default_factory=list)
    stopped_by: str = ""           # "separated", "cap", "deadline" or "cut_short"


def grow(run: Callable[[float], SearchResult], budget: float, cap: float | None = None,
         deadline: float | None = None, max_doublings: int = MAX_DOUBLINGS, family: Family = None) -> Grown:
    """Run `run(budget)` (a fresh search with that budget: iterations or milliseconds), doubling the budget
    (never beyond `cap`) until the top move (family, with `family`) is separated from the second, the
    budget reached `cap`, the next run would probably end after `deadline` (time.monotonic() seconds; a run
    is assumed to take about twice the last one), or `max_doublings` doublings were run. Returns the last
    search: deterministic for a deterministic `run`, except where the deadline decides how far it grows."""
    budgets: list[float] = []
    while True:
        start = time.monotonic()
        result = run(budget)
        took = time.monotonic() - start
        budgets.append(budget)
        sep = separation(result, family)
        if sep.separated:
            return Grown(result, sep, budgets, "separated")
        if result.cut_short:
            return Grown(result, sep, budgets, "cut_short")
        if len(budgets) > max_doublings or (cap is not None and budget >= cap):
            return Grown(result, sep, budgets, "cap")
        nxt = budget * 2 if cap is None else min(budget * 2, cap)
        if deadline is not None and time.monotonic() + 2.2 * took > deadline:
            return Grown(result, sep, budgets, "deadline")
        budget = nxt
