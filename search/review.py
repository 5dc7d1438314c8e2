"""Game review (game-agnostic): for each decision, the best move, the loss of the move played and its
mistake class; per player, the result split into luck (expected-score change across chance events) and
decisions (the change caused by choices); and the key moments.

Values are the searching player's estimates at each decision: V = the best root move's statistics,
Q = the played move's. For every player p the identity
    final_p - V_first_p = own decisions_p + others' decisions_p + luck_p
holds by construction: a decision moves p's expectation from V to Q (own choice if p decided, someone
else's otherwise), and what happens between one decision's Q and the next decision's V (draws, forced
moves) — or the final score after the last decision — is luck.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from search.hints import classify, difference_margin
from search.search import CancelToken, GameAdapter, SearchOptions, flat_monte_carlo, ismcts

def mistake_class(loss_win: float, is_best: bool) -> str:
    """The mistake class of a win-probability loss (thresholds in search/hints.py, docs/search.md).
    review_game gives it the loss less its noise margin, as hints do."""
    return classify(loss_win, is_best)


@dataclass
class DecisionReview:
    index: int                    # position in the step list
    seat: int
    played: Any
    best: Any
    loss_win: float               # the seat's win probability: best minus played (>= 0)
    loss_points: float            # the seat's expected final score: best minus played
    mistake: str
    win_before: float             # the seat's win probability with best play
    win_after: float              # ... after the move played
    forced: bool = False
    iterations: int = 0           # iterations of the decision's search
    loss_margin: float = 0.0      # half-width of loss_win's ~95% interval (the search's noise)


@dataclass
class PlayerSplit:
    seat: int
    expected_start: float
    final: float
    luck: float
    decisions: float              # own choices
    others: float                 # other players' choices


@dataclass
class GameReview:
    decisions: list[DecisionReview] = field(default_factory=list)
    players: list[PlayerSplit] = field(default_factory=list)
    key_moments: list[DecisionReview] = field(default_factory=list)


def review_game(game: GameAdapter, steps: Sequence[tuple[Any, Any, int]], final_scores: Sequence[float],
                options: SearchOptions | None = None, key_moments: int = 5,
                cancel: CancelToken | None = None) -> GameReview:
    """steps: (state before, move, seat) for each decision of the game in order (chance events left
    out; they are what happens between decisions). final_scores: by seat. A cancelled `cancel` stops the
    review between decisions (the partial review is not meaningful; callers discard it)."""
    opts = options or SearchOptions(iterations=400)
    n = len(final_scores)
    review = GameReview()
    luck, own, others = [0.0] * n, [0.0] * n, [0.0] * n
    start: list[float] | None = None
    prev_q: list[float] | None = None
    swings = []
    for i, (state, move, seat) in enumerate(steps):
        legal = game.legal_moves(state)
        if len(legal) == 1:
            continue  # a forced move changes nothing in expectation
        if cancel is not None and cancel.cancelled:
            break
        res = ismcts(game, state, SearchOptions(**{**opts.__dict__, "seed": (opts.seed + i) % 2**64}), cancel)
        best = res.moves[0]
        played = res.stats_for(move)
        if played is None:  # never expanded within the budget: evaluate it on its own by rollouts
            played = flat_monte_carlo(game, state, replace(opts, iterations=max(opts.iterations // 4, 50),
                                                           time_ms=0.0, deadline=0.0, threads=1),
                                      moves=[move]).moves[0]
        v, q = best.expected_score, played.expected_score
        if start is None:
            start = list(v)
        if prev_q is not None:
            for p in range(n):
                luck[p] += v[p] - prev_q[p]
        for p in range(n):
            (own if p == seat else others)[p] += q[p] - v[p]
        prev_q = list(q)
        is_best = move == best.move
        loss_win = 0.0 if is_best else max(best.win_probability[seat] - played.win_probability[seat], 0.0)
        # a class only for the part of the loss that is clear beyond the search's own noise (search/hints.py)
        margin = 0.0 if is_best else min(difference_margin(best.win_probability[seat], best.visits,
                                                           played.win_probability[seat], played.visits), 1.0)
        dr = DecisionReview(i, seat, move, best.move, loss_win,
                            0.0 if is_best else best.expected_score[seat] - played.expected_score[seat],
                            mistake_class(max(loss_win - margin, 0.0), is_best), best.win_probability[seat],
                            played.win_probability[seat], iterations=res.iterations, loss_margin=margin)
        review.decisions.append(dr)
        swings.append(dr)
    if prev_q is not None:
        for p in range(n):
            luck[p] += final_scores[p] - prev_q[p]
    start = start or list(final_scores)
    review.players = [PlayerSplit(p, start[p], float(final_scores[p]), luck[p], own[p], others[p]) for p in range(n)]
    # key moments: the decisions whose choice moved the decider's win probability most
    review.key_moments = sorted(swings, key=lambda d: -abs(d.win_after - d.win_before))[:key_moments]
    return review


CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")


def format_review(review: GameReview, names: Sequence[str], where: Callable[[int], str] | None = None,
                  budget: str = "") -> str:
    """The review as text for a person: each decision's class and loss, each player's result split into
    luck and decisions, and the key moments. names: a label per seat; where(index): where decision
    `index` happened (e.g. "round 2 morning"); budget: how much each decision's search was given."""
    def loc(d: DecisionReview) -> str:
        return where(d.index) if where else f"decision {d.index + 1}"

    lines = [f"Decisions{f' ({budget})' if budget else ''}: the class of the move played and what it lost against "
             f"the search's best move (win probability ± the search's noise / expected points); a class worse than "
             f"good only for a loss clear beyond the noise; forced moves are left out."]
    width = max((len(str(d.played)) for d in review.decisions), default=10)
    nw = max((len(n) for n in names), default=10)
    for d in review.decisions:
        noise = f" ±{100 * d.loss_margin:.1f}" if d.loss_margin else ""
        loss = ("" if d.mistake == "best" else
                f"{-100 * d.loss_win:+.1f}%{noise} / {-d.loss_points:+.1f} pts   best: {d.best}")
        lines.append(f"  {d.index + 1:4d}  {loc(d):22s} {names[d.seat]:{nw}s} {str(d.played):{width}s}  "
                     f"{d.mistake:10s} {loss}".rstrip())
    lines.append("")
    lines.append("Each player's result = expected at the start + luck (the draws) + own decisions + the others' "
                 "decisions (points):")
    for p in review.players:
        counts = {c: sum(1 for d in review.decisions if d.seat == p.seat and d.mistake == c) for c in CLASSES}
        tally = ", ".join(f"{n} {c}" for c, n in counts.items() if n) or "no decisions reviewed"
        lines.append(f"  {names[p.seat]:{nw}s} {p.expected_start:5.1f} + luck {p.luck:+5.1f} + own {p.decisions:+5.1f} "
                     f"+ others' {p.others:+5.1f} = {p.final:g}    ({tally})")
    if review.key_moments:
        lines.append("")
        lines.append("Key moments (the decisions that moved the decider's own win probability most):")
        for d in review.key_moments:
            best = "" if d.mistake == "best" else f"; best was {d.best} ({d.mistake})"
            lines.append(f"  {d.index + 1:4d}  {loc(d)}: {names[d.seat]} played {d.played}: win probability "
                         f"{100 * d.win_before:.0f}% with best play, {100 * d.win_after:.0f}% after{best}")
    return "\n".join(lines)
