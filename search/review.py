"""Game review (game-agnostic): for each decision, the best move, the loss of the move played and its
mistake class; per player, an accuracy %, and the result split into luck (expected-score change across
chance events) and decisions (the change caused by choices); the win-probability graph; the key moments.

Two searches per decision, with different jobs (D46):

- the **review search** (the budget the caller gives) only proposes the best move: its most visited move;
- the **estimator** judges: a small search of fixed size (ESTIMATE_ITERATIONS, the learned value at its
  leaves when the game ships a model) whose seed depends on the review's seed and the decision's place,
  never on the review's budget. It gives the position's value V (the visit-weighted mean over its root
  moves, per seat) and a move's value Q (its root statistics when it has at least MIN_VISITS visits;
  else the estimator run again from the position right after the move: over OUTCOME_SAMPLES sampled
  draws when a draw is pending, with the game's `sample_outcome`).

The luck split (D157). A position's value V is the value of its best move as the estimator sees it: its
search's choice (the most visited move), or the move played when the estimator rates that higher for the
decider (in points for the split; in win probability for the graph and the key moments). So at a
decision the decider's own choice can only lose against V (Q - V <= 0), and a best move costs nothing:

    final_p = V_first_p + luck_p + own decisions_p + others' decisions_p

- expected at the start (V_first): what each player could expect at the first decision with best play;
- own decisions: the sum over p's decisions of Q(move played) - V, in p's points: never above 0, 0 for
  moves as good as the estimator's best, more negative the more a choice lost (the classes measure the
  same choices in win probability against the review search's proposal);
- others' decisions: the same sum over the other players' decisions, in p's points (another player's
  mistake may give p points or take some);
- luck: what happens between one decision's move and the next decision's V (draws, dice, stones, forced
  moves), and after the last decision the final score minus its Q.

Luck (V at a decision minus Q of the previous move played) and a decision's Q mean the same at every
review budget; the budget decides only which move is proposed as best. `loss_margin` is the estimator's
own noise (a ~95% half-width, search/hints.py, from the visits; the spread over the sampled draws of a
move estimated on its own is not in it).

Classes by the expected loss in win probability (lichess-like; search/hints.py MISTAKE_THRESHOLDS): the
best move is the better, for the decider's win probability as the estimator judges it, of the review
search's proposal and the estimator's own choice; loss = its Q minus the move played's Q (expected values
before any chance that follows, never the realized outcome: a good announcement that fails by chance
loses nothing; its bad luck is luck). good up to 5 points, inaccuracy up to 10, mistake up to 20, blunder
beyond. A move that takes the decider's chance from 64% to 0% where the best kept 64% is a blunder.
Accuracy is lichess's
103.1668·exp(-0.04354·loss%) - 3.1669 (clamped to 0..100), of a decision (DecisionReview.accuracy) and
of a turn (the seat's consecutive decisions, their losses summed: a SpellBook Day is what a chess move is
to lichess); a player's accuracy is the mean of the volatility-weighted mean and the harmonic mean of
their turns' accuracies, as lichess does with moves.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from search.hints import classify, difference_margin
from search.search import CancelToken, GameAdapter, SearchOptions, SearchResult, ismcts

ESTIMATE_ITERATIONS = 256     # the estimator's search: fixed, whatever the review's budget
MIN_VISITS = 64               # fewer visits in the estimator's search: the move is estimated on its own
OUTCOME_SAMPLES = 4           # sampled draws when the position after a move has one pending
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")


# A key moment moved its decider's win probability by at least this much (by the choice and the chance that
# followed); the same step decides whether its text says where chance took it.
KEY_MOMENT_MIN_MOVE = 0.05


def mistake_class(loss_win: float, is_best: bool) -> str:
    """The mistake class of a win-probability loss (thresholds in search/hints.py, docs/search.md)."""
    return classify(loss_win, is_best)


def move_accuracy(loss_win: float) -> float:
    """lichess's accuracy of one move from the win percentage it lost (0..100)."""
    return min(max(103.1668 * math.exp(-0.04354 * 100.0 * max(loss_win, 0.0)) - 3.1669, 0.0), 100.0)


def game_accuracy(losses: Sequence[float], volatility: Sequence[float]) -> float | None:
    """A player's accuracy: mean of the volatility-weighted mean and the harmonic mean of the per-move
    accuracies (lichess); None without a reviewed move. volatility: per move, the standard deviation of
    the win probability (in %) around it, the weight (clamped to 0.5..12 as lichess does)."""
    if not losses:
        return None
    acc = [move_accuracy(x) for x in losses]
    weights = [min(max(v, 0.5), 12.0) for v in volatility]
    weighted = sum(a * w for a, w in zip(acc, weights)) / sum(weights)
    harmonic = len(acc) / sum(1.0 / max(a, 1.0) for a in acc)
    return (weighted + harmonic) / 2.0



# What a review's three parts of a score mean, in one sentence (the CLI, the terminal, GetRules, the docs).
SCORE_SPLIT_TEXT = ("Each player's final score = what they could expect at the start with best play + luck "
                    "({luck}: what chance gave or took) + own decisions (points their own choices lost against "
                    "the best move the estimator saw at each decision: 0 at best, never above) + the others' "
                    "decisions (points the other players' choices, against their own best moves, gave them or "
                    "took from them).")


def score_split_text(luck: str = "the draws") -> str:
    """SCORE_SPLIT_TEXT with what luck is made of in the game (text.LUCK: SpellBook's Pouch draws...)."""
    return SCORE_SPLIT_TEXT.format(luck=luck)

@dataclass
class Estimate:
    """The estimator's value of a position or a move, per seat, and how many visits it rests on."""

    win: list[float]
    score: list[float]
    visits: int


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
    iterations: int = 0           # iterations of the decision's review search
    loss_margin: float = 0.0      # half-width of loss_win's ~95% interval (the estimator's noise)
    win_probabilities: list[float] = field(default_factory=list)   # every seat's, before the decision (V)
    accuracy: float = 100.0       # lichess's per-move accuracy of the move played
    win_next: float | None = None   # the seat's win probability once the chance that followed was drawn: at the
    #                                 next decision (V there), or the game's result after the last decision


@dataclass
class PlayerSplit:
    seat: int
    expected_start: float
    final: float
    luck: float
    decisions: float              # own choices
    others: float                 # other players' choices
    accuracy: float | None = None   # % (lichess's formula); None when none of the seat's decisions was reviewed


@dataclass
class GameReview:
    decisions: list[DecisionReview] = field(default_factory=list)
    players: list[PlayerSplit] = field(default_factory=list)
    key_moments: list[DecisionReview] = field(default_factory=list)
    estimator_iterations: int = ESTIMATE_ITERATIONS
    resigned: bool = False        # the game ended by a resignation: each final is the expectation there

    def graph(self) -> list[tuple[int, list[float]]]:
        """The win-probability graph: (decision index, every seat's win probability before it)."""
        return [(d.index, list(d.win_probabilities)) for d in self.decisions]


def _root_value(res: SearchResult) -> Estimate:
    """The position's value per seat: the value of its best move as the estimator sees it, its search's
    choice (D157; not the visit-weighted mean over every move tried, which a best move beats and which
    made best play look like points won)."""
    s = res.chosen
    return Estimate(list(s.win_probability), list(s.expected_score), s.visits)


def _better(a: Estimate, b: Estimate, seat: int, points: bool) -> Estimate:
    """The better of two estimates for `seat`: by points or by win probability (ties: the first)."""
    key = (lambda e: e.score[seat]) if points else (lambda e: e.win[seat])
    return b if key(b) > key(a) + 1e-12 else a


def _mean(estimates: list[Estimate]) -> Estimate:
    k = len(estimates)
    n = len(estimates[0].win)
    return Estimate([sum(e.win[p] for e in estimates) / k for p in range(n)],
                    [sum(e.score[p] for e in estimates) / k for p in range(n)],
                    sum(e.visits for e in estimates))


class Cancelled(Exception):
    """The review was cancelled inside a decision: that decision is dropped."""


class Estimator:
    """The review's judge: a fixed-size search (see the module's docstring). `seed` and `options` (its
    evaluator, model, deadline) come from the review; its budget never does."""

    def __init__(self, game: GameAdapter, options: SearchOptions, iterations: int = ESTIMATE_ITERATIONS,
                 cancel: CancelToken | None = None):
        # A time cap of the options (a server's per-decision share under a deadline) caps each of the
        # estimator's searches too; without one (the command line) the estimator is the same at every budget.
        self.game, self.cancel, self.iterations = game, cancel, iterations
        self.options = replace(options, iterations=iterations, temperature=0.0, threads=1,
                               stop_early=False, reuse_tree=False)

    def search(self, state: Any, seed: int) -> SearchResult:
        if self.cancel is not None and self.cancel.cancelled:
            raise Cancelled()
        return ismcts(self.game, state, replace(self.options, seed=seed % 2**64), self.cancel)

    def position(self, state: Any, seed: int) -> Estimate:
        """V of a decision state, a sampled-outcome average of a chance state, the result of a finished one."""
        player = self.game.current_player(state)
        if player == -2:
            wins, scores = self.game.final_values(state)
            return Estimate(list(wins), list(scores), 1_000_000)
        if player == -1:
            outcomes = [self.game.sample_outcome(state, seed + k) for k in range(OUTCOME_SAMPLES)]
            return _mean([self.position(st, seed + 7919 * (k + 1)) for k, st in enumerate(outcomes)])
        return _root_value(self.search(state, seed))

    def move(self, state: Any, move: Any, at: SearchResult, seed: int) -> Estimate:
        """Q of `move` at `state`: from the estimator's search `at` there when it visited the move enough,
        else the value of the position right after it."""
        s = at.stats_for(move)
        if s is not None and s.visits >= MIN_VISITS:
            return Estimate(list(s.win_probability), list(s.expected_score), s.visits)
        return self.position(self.game.child(state, move), seed)


def review_game(game: GameAdapter, steps: Sequence[tuple[Any, Any, int]], final_scores: Sequence[float],
                options: SearchOptions | None = None, key_moments: int = 5,
                cancel: CancelToken | None = None, estimate_iterations: int = ESTIMATE_ITERATIONS,
                end_state: Any = None, seat: int | None = None, final_wins: Sequence[float] | None = None
                ) -> GameReview:
    """steps: (state before, move, seat) for each decision of the game in order (chance events left
    out; they are what happens between decisions). final_scores: by seat. options: the review search's
    (its budget proposes the best move; the estimator takes its evaluator, model, deadline and time cap).
    A cancelled `cancel` stops the review (a decision under way is dropped; the partial review covers
    the decisions before it). `end_state`: a game that ended by resignation ends there, and its final
    scores are the estimator's expectation at that position (so luck, own and others' decisions still add
    up to them). `seat`: review that seat's decisions only (the others' are still judged by the estimator
    for the luck split, which stays the same for every seat, but not searched, listed or counted).
    `final_wins`: each seat's result as a win value (1 the winner; shared 1/k), for what followed the last
    decision (default: from the final scores)."""
    opts = options or SearchOptions(iterations=400)
    judge = Estimator(game, opts, estimate_iterations, cancel)
    end_win: list[float] | None = None
    if end_state is not None:
        end = judge.position(end_state, opts.seed * 1_000_003 + len(steps) * 7_777 + 5)
        final_scores, end_win = end.score, end.win
    n = len(final_scores)
    if end_win is None:
        end_win = list(final_wins) if final_wins is not None else _wins_from_scores(final_scores)
    review = GameReview(estimator_iterations=estimate_iterations)
    luck, own, others = [0.0] * n, [0.0] * n, [0.0] * n
    judged: list[DecisionReview] = []     # every decision judged (the seat's reviewed, the others' estimated)
    start: list[float] | None = None
    prev_q: list[float] | None = None
    for i, (state, move, who) in enumerate(steps):
        if len(game.legal_moves(state)) == 1:
            continue  # a forced move changes nothing in expectation
        if cancel is not None and cancel.cancelled:
            break
        mine = seat is None or who == seat
        res = ismcts(game, state, replace(opts, seed=(opts.seed + i) % 2**64, temperature=0.0), cancel) if mine else None
        seed = opts.seed * 1_000_003 + i * 7_777 + 1
        try:
            at = judge.search(state, seed)
            q = judge.move(state, move, at, seed + 1)
            choice = at.chosen
            own_best = q if choice.move == move else judge.move(state, choice.move, at, seed + 3)
            proposal = res.move if mine else move
            qb = (q if proposal == move else own_best if proposal == choice.move
                  else judge.move(state, proposal, at, seed + 2))
        except Cancelled:
            break
        # V: the best move's value, the estimator's choice or the move played (D157); in points for the
        # split, in win probability for the graph and the key moments
        v_points = _better(own_best, q, who, points=True)
        v_win = _better(own_best, q, who, points=False)
        if start is None:
            start = list(v_points.score)
        if prev_q is not None:
            for p in range(n):
                luck[p] += v_points.score[p] - prev_q[p]
        for p in range(n):
            (own if p == who else others)[p] += q.score[p] - v_points.score[p]
        prev_q = list(q.score)
        if judged:
            judged[-1].win_next = v_win.win[judged[-1].seat]
        if not mine:     # for the turns and volatility of the seat's accuracy, as in a review of every seat
            judged.append(DecisionReview(i, who, move, move, 0.0, 0.0, "best", q.win[who], q.win[who],
                                         win_probabilities=list(v_win.win)))
            continue
        # the best move: the better (for the decider's win probability) of the review search's proposal and
        # the estimator's own choice; the move played is never "worse than best" when judged at least as good
        best_move, best = (proposal, qb) if qb.win[who] >= own_best.win[who] else (choice.move, own_best)
        is_best = move == best_move or q.win[who] >= best.win[who]
        if is_best:
            best_move, best = move, q
        loss_win = 0.0 if is_best else best.win[who] - q.win[who]
        margin = 0.0 if is_best else min(difference_margin(best.win[who], best.visits, q.win[who], q.visits), 1.0)
        review.decisions.append(DecisionReview(
            i, who, move, best_move, loss_win, 0.0 if is_best else best.score[who] - q.score[who],
            mistake_class(loss_win, is_best), best.win[who], q.win[who], iterations=res.iterations,
            loss_margin=margin, win_probabilities=list(v_win.win), accuracy=move_accuracy(loss_win)))
        judged.append(review.decisions[-1])
    if judged and not (cancel is not None and cancel.cancelled):
        judged[-1].win_next = end_win[judged[-1].seat]
    if prev_q is not None:
        for p in range(n):
            luck[p] += final_scores[p] - prev_q[p]
    start = start or list(final_scores)
    accuracy = _accuracies(judged, n)
    if seat is not None:
        accuracy = [a if p == seat else None for p, a in enumerate(accuracy)]
    review.players = [PlayerSplit(p, start[p], float(final_scores[p]), luck[p], own[p], others[p], accuracy[p])
                      for p in range(n)]
    review.resigned = end_state is not None
    # key moments: the decisions after which the decider's win probability moved most, by its choice and the
    # chance that followed (from before the decision to the next decision, or the result), biggest first
    # (a decision that moved it by less than KEY_MOMENT_MIN_MOVE is no key moment: in a one-sided game there
    # may be fewer than asked, or none)
    def moved(d: DecisionReview) -> float:
        after = d.win_next if d.win_next is not None else d.win_after
        return abs(after - d.win_probabilities[d.seat])
    review.key_moments = [d for d in sorted(review.decisions, key=lambda d: -moved(d))
                          if moved(d) >= KEY_MOMENT_MIN_MOVE][:key_moments]
    return review


def _wins_from_scores(scores: Sequence[float]) -> list[float]:
    """Each seat's result as a win value from final scores alone: 1/k for the k seats with the most points."""
    top = max(scores) if len(scores) else 0.0
    k = sum(1 for x in scores if x == top)
    return [1.0 / k if x == top else 0.0 for x in scores]


def turns(decisions: list[DecisionReview]) -> list[list[DecisionReview]]:
    """The reviewed decisions grouped into turns: runs of consecutive decisions by the same seat (in
    SpellBook a seat's Morning, Midday and Evening choices of its Day, and their sub-decisions)."""
    out: list[list[DecisionReview]] = []
    for d in decisions:
        if out and out[-1][-1].seat == d.seat:
            out[-1].append(d)
        else:
            out.append([d])
    return out


def _accuracies(decisions: list[DecisionReview], players: int) -> list[float | None]:
    """Each seat's game accuracy, by turns (D47): a turn's loss is the sum of its decisions' losses (what a
    chess move is to lichess, a SpellBook Day is here: one take-or-draw, store and learn decision each
    lose a little where a chess move loses it at once); a turn's weight is the volatility of the seat's
    win probability over a window of the game around it (lichess: a tenth of the game)."""
    runs = turns(decisions)
    window = max(2, len(runs) // 10)
    out: list[float | None] = []
    for p in range(players):
        losses, vol = [], []
        for k, run in enumerate(runs):
            if run[0].seat != p:
                continue
            around = [100.0 * r[0].win_probabilities[p] for r in runs[max(0, k - window // 2):k + window // 2 + 1]]
            mean = sum(around) / len(around)
            losses.append(sum(d.loss_win for d in run))
            vol.append(math.sqrt(sum((x - mean) ** 2 for x in around) / len(around)))
        out.append(game_accuracy(losses, vol))
    return out


def key_moment_text(d: DecisionReview, name: str, say: Callable[[Any], str] = str) -> str:
    """A key moment in words that say what happened (issue 51): the decider's win probability before the
    decision (its best move's), with the move played (its expectation, before the chance that follows),
    the better move when the move played lost enough to be an inaccuracy or worse, then where chance took
    it (at the next decision, or the game's result). `name`: "You" or the player's name; `say(move)`: a move
    in the game's words (its text module's move_words; by default the move's text)."""
    before = 100 * d.win_probabilities[d.seat] if d.win_probabilities else 100 * d.win_before
    after = 100 * d.win_after
    cls = "the best move" if d.mistake == "best" else d.mistake
    text = f"{name} played {say(d.played)} ({cls}): win probability {before:.0f}% before, {after:.0f}% with it"
    if d.mistake not in ("best", "good"):
        text += f"; {say(d.best)} would have given {100 * d.win_before:.0f}%"
    if d.win_next is not None:
        nxt = 100 * d.win_next
        who = "you" if name == "You" else name
        if nxt < after - 100 * KEY_MOMENT_MIN_MOVE:
            text += f"; then chance went against {who}: {nxt:.0f}% once it played out"
        elif nxt > after + 100 * KEY_MOMENT_MIN_MOVE:
            text += f"; then chance went {'your' if who == 'you' else who + chr(39) + 's'} way: {nxt:.0f}% once it played out"
    return text


def format_review(review: GameReview, names: Sequence[str], where: Callable[[int], str] | None = None,
                  budget: str = "", luck: str = "chance", move_words: Callable[[str], str] | None = None) -> str:
    """The review as text for a person: each decision's class and loss, each player's accuracy and result
    split into luck and decisions, and the key moments. names: a label per seat; where(index): where
    decision `index` happened (e.g. "round 2 morning"); budget: how much each decision's search was given;
    luck: what luck is made of in the game (SpellBook: "the draws"); move_words(move_text): a move in the
    game's words (its text module's, where it has one: engine_c/contract.py), else the move's text."""
    def loc(d: DecisionReview) -> str:
        return where(d.index) if where else f"decision {d.index + 1}"

    def say(move: Any) -> str:
        return move_words(str(move)) if move_words else str(move)

    lines = [f"Decisions{f' ({budget})' if budget else ''}: the class of the move played and what it lost against "
             f"the search's best move (win probability ± the estimator's noise / expected points), both judged "
             f"by the same {review.estimator_iterations}-iteration estimator at every budget; inaccuracy from "
             f"5 points of win probability, mistake from 10, blunder from 20; forced moves are left out."]
    width = max((len(say(d.played)) for d in review.decisions), default=10)
    nw = max((len(n) for n in names), default=10)
    lw = max((len(loc(d)) for d in review.decisions), default=22)
    for d in review.decisions:
        noise = f" ±{100 * d.loss_margin:.1f}" if d.loss_margin else ""
        loss = ("" if d.mistake == "best" else
                f"{-100 * d.loss_win:+.1f}%{noise} / {-d.loss_points:+.1f} pts   best: {say(d.best)}")
        lines.append(f"  {d.index + 1:4d}  {loc(d):{lw}s} {names[d.seat]:{nw}s} {say(d.played):{width}s}  "
                     f"{d.mistake:10s} {loss}".rstrip())
    lines.append("")
    lines.append(score_split_text(luck))
    result = ("score expected when the game was resigned (the split ends there)" if review.resigned
              else "final score")
    lines.append(f"Each player's accuracy (lichess's formula, 100% = every move as good as the best) and {result} = "
                 "expected at the start + luck + own decisions + the others' decisions (points):")
    for p in review.players:
        counts = {c: sum(1 for d in review.decisions if d.seat == p.seat and d.mistake == c) for c in CLASSES}
        # a review of one seat measures every seat's decisions for the split but lists and classes that seat's
        tally = ", ".join(f"{n} {c}" for c, n in counts.items() if n) or (
            "decisions measured for the split, not listed: this review lists one seat's"
            if any(d.seat != p.seat for d in review.decisions) else "no decision with a choice")
        acc = f"accuracy {p.accuracy:5.1f}%" if p.accuracy is not None else "accuracy   -  "
        final = f"{p.final:.1f} (expected)" if review.resigned else f"{p.final:g}"
        lines.append(f"  {names[p.seat]:{nw}s} {acc}   {p.expected_start:5.1f} + luck {p.luck:+5.1f} + own "
                     f"{p.decisions:+5.1f} + others' {p.others:+5.1f} = {final}    ({tally})")
    lines.append("")
    if review.key_moments:
        lines.append("Key moments (the decisions after which the decider's own win probability moved most, by "
                     f"the choice and the chance that followed; {100 * KEY_MOMENT_MIN_MOVE:.0f} points or more):")
        lines += [f"  {d.index + 1:4d}  {loc(d)}: {key_moment_text(d, names[d.seat], say)}" for d in review.key_moments]
    else:
        lines.append(f"No key moments: no decision moved its player's win probability by {100 * KEY_MOMENT_MIN_MOVE:.0f} "
                     "points or more, by the choice and the chance that followed.")
    return "\n".join(lines)
