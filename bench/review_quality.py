"""Whether the review and the hints can be trusted (issue 26): one JSON line.

    .venv/bin/python bench/review_quality.py [--quick] [--strong-level 10]

On games the bench plays itself (fixed seeds; 2 players, set1):
- planted_blunder_recall: positions of the strong games where a move that loses >= 20 points of win
  probability by a long estimate (search/review.py's estimator at --long iterations; the worst of up to
  10 sampled legal moves) is put in place of the move played; the share the review at its default
  budget (400 iterations) calls a mistake or blunder.
- false_alarm_rate: the strong players' moves that the long estimate says lose < 5 points; the share the
  review calls a mistake or blunder.
- accuracy_gap: mean accuracy % of the strong games' players minus the random games' (review at 400;
  lichess's formula by turns, search/review.py).
- luck_budget_drift: the largest change of a seat's luck total between the review at 400 and at 1,600
  iterations, over the games (0 by construction on the command line: one estimator judges at every
  budget, search/review.py; the key shows that it holds). luck_seed_spread: the same with the review's
  seed changed instead, the estimator's own noise in a luck total (points).
- hint_consistency: hints (search/hints.py at 500 iterations) whose labels, ranks and win probabilities
  contradict each other (`contradictions`), counted over the positions.
- hint_matches_search: the share of positions where the first hint is the search's choice (the move a
  bot at temperature 0 plays from the same search), or the hint says the top moves are about equal and
  lists it.
--quick: fewer games and positions, a weaker "strong" player; the keys are the same. The strong players
are the learned search's levels 10 and 5 as they were before D104 (20,000 iterations with a 1 s cap, and
400 iterations), so the games stay those of the earlier lines; `--strong-level N` plays today's level N.
Timings are of whatever machine runs it.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine_c.spellbook import State  # noqa: E402
from engine_c.spellbook.game import SPELLBOOK  # noqa: E402
from search import SearchOptions, ismcts  # noqa: E402
from search.hints import contradictions, top_hints  # noqa: E402
from search.review import Estimator, review_game  # noqa: E402

DEFAULT_BUDGET = 400


def play_game(spec: str, seed: int) -> tuple[list, list[float]]:
    """(steps, final scores) of a 2-player game between two bots of `spec`."""
    from clients.bots import make_bot

    st = State.new(players=2, spells="set1", seed=seed)
    bots = [make_bot(spec, seed=seed * 10 + i, players=2) for i in range(2)]
    steps = []
    while not st.is_terminal():
        if st.is_chance():
            st.resolve_chance()
            continue
        move, _ = bots[st.current_player].choose(st)
        steps.append((st.clone(), move, st.current_player))
        st.apply(move)
    return steps, [float(s.total) for s in st.scores()]


def flagged(state, move, seat) -> bool:
    d = review_game(SPELLBOOK, [(state, move, seat)], [0.0, 0.0], SearchOptions(iterations=DEFAULT_BUDGET, seed=3))
    return bool(d.decisions) and d.decisions[0].mistake in ("mistake", "blunder")


def long_losses(long: Estimator, state, moves, seed: int) -> tuple[object, dict]:
    at = long.search(state, seed)
    best = at.moves[0].move
    qb = long.move(state, best, at, seed + 1)
    p = state.current_player
    return best, {m: max(qb.win[p] - long.move(state, m, at, seed + 2 + k).win[p], 0.0) for k, m in enumerate(moves)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--strong-level", type=int, default=None)
    ap.add_argument("--long", type=int, default=None, help="the long estimate's iterations")
    ap.add_argument("--games", type=int, default=None, help="games of each kind (quick 2, else 6)")
    ap.add_argument("--positions", type=int, default=None, help="positions for planted blunders (quick 40, else 60)")
    args = ap.parse_args()
    quick = args.quick
    level = args.strong_level or (5 if quick else 10)
    strong_spec = (f"ismcts:level={level}" if args.strong_level else
                   "ismcts:iterations=400,temperature=0.15" if quick else
                   "ismcts:iterations=20000,temperature=0,time_ms=1000,stop_early=true,reuse_tree=true")
    n_games = args.games or (2 if quick else 6)
    n_hint_positions = 40 if quick else 200
    long_its = args.long or (1500 if quick else 3000)
    t0 = time.monotonic()
    rng = random.Random(26)
    strong = [play_game(strong_spec, 100 + g) for g in range(n_games)]
    weak = [play_game("random", 200 + g) for g in range(n_games)]
    t_games = time.monotonic() - t0

    # accuracy and luck drift
    acc_strong, acc_weak, drift, seed_spread = [], [], 0.0, 0.0
    mistakes_weak = mistakes_strong = decisions_weak = decisions_strong = 0
    for games, acc, kind in ((strong, acc_strong, "strong"), (weak, acc_weak, "weak")):
        for steps, scores in games:
            r = review_game(SPELLBOOK, steps, scores, SearchOptions(iterations=DEFAULT_BUDGET, seed=1))
            r4 = review_game(SPELLBOOK, steps, scores, SearchOptions(iterations=4 * DEFAULT_BUDGET, seed=1))
            other_seed = review_game(SPELLBOOK, steps, scores, SearchOptions(iterations=DEFAULT_BUDGET, seed=2))
            acc += [p.accuracy for p in r.players if p.accuracy is not None]
            drift = max(drift, max(abs(a.luck - b.luck) for a, b in zip(r.players, r4.players)))
            seed_spread = max(seed_spread, max(abs(a.luck - b.luck) for a, b in zip(r.players, other_seed.players)))
            bad = sum(d.mistake in ("mistake", "blunder") for d in r.decisions)
            if kind == "strong":
                mistakes_strong, decisions_strong = mistakes_strong + bad, decisions_strong + len(r.decisions)
            else:
                mistakes_weak, decisions_weak = mistakes_weak + bad, decisions_weak + len(r.decisions)
    t_review = time.monotonic() - t0 - t_games

    # planted blunders and false alarms, on positions of the strong games
    long = Estimator(SPELLBOOK, SearchOptions(iterations=long_its), long_its)
    planted = caught = clean = alarms = 0
    positions = [(s, m, p) for steps, _ in strong for s, m, p in steps if len(s.legal_moves()) > 2]
    rng.shuffle(positions)
    for k, (state, move, seat) in enumerate(positions[:args.positions or (40 if quick else 60)]):
        others = [m for m in state.legal_moves() if m != move]
        candidates = rng.sample(others, min(10, len(others)))
        _best, losses = long_losses(long, state, [move] + candidates, 1000 + k)
        if losses[move] < 0.05:
            clean += 1
            alarms += flagged(state, move, seat)
        worst = max(candidates, key=lambda m: losses[m]) if candidates else None
        if worst is not None and losses[worst] >= 0.20:     # the position's worst sampled move, planted
            planted += 1
            caught += flagged(state, worst, seat)
    t_planted = time.monotonic() - t0 - t_games - t_review

    # hints
    hint_states = [s for steps, _ in strong + weak for s, _, _ in steps if len(s.legal_moves()) > 1]
    rng.shuffle(hint_states)
    contradicting = matches = 0
    hint_states = hint_states[:n_hint_positions]
    for k, st in enumerate(hint_states):
        res = ismcts(SPELLBOOK, st, SearchOptions(iterations=500, seed=k))
        hints = top_hints(res, 3)
        contradicting += bool(contradictions(hints))
        chosen = res.move          # the search's move at temperature 0: what a bot plays
        matches += hints[0].move == chosen or (hints[0].about_equal and chosen in [h.move for h in hints])
    out = {
        "bench": "review_quality", "quick": quick, "strong_level": level, "strong": strong_spec, "games_each": n_games,
        "default_budget": DEFAULT_BUDGET, "long_iterations": long_its,
        "planted_blunder_recall": round(caught / planted, 3) if planted else None, "planted": planted,
        "false_alarm_rate": round(alarms / clean, 3) if clean else None, "clean_moves": clean,
        "accuracy_strong": round(sum(acc_strong) / len(acc_strong), 1),
        "accuracy_random": round(sum(acc_weak) / len(acc_weak), 1),
        "accuracy_gap": round(sum(acc_strong) / len(acc_strong) - sum(acc_weak) / len(acc_weak), 1),
        "mistake_or_blunder_share_strong": round(mistakes_strong / max(decisions_strong, 1), 3),
        "mistake_or_blunder_share_random": round(mistakes_weak / max(decisions_weak, 1), 3),
        "luck_budget_drift": round(drift, 3), "luck_seed_spread": round(seed_spread, 3),
        "hint_consistency": contradicting, "hint_positions": len(hint_states),
        "hint_matches_search": round(matches / len(hint_states), 3),
        "seconds": {"games": round(t_games, 1), "reviews": round(t_review, 1), "planted": round(t_planted, 1),
                    "total": round(time.monotonic() - t0, 1)},
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
