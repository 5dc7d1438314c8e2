"""Strength benchmark of the learned evaluation (issue 11). Ends with one JSON line.

    python bench/strength.py            # the full run (hours on 2 cores)
    python bench/strength.py --quick    # the same keys from fewer games, at most ~15 minutes on 2 cores
    python bench/strength.py --game abracadawhat [--quick]   # another game's own bench (bench/strength_NAME.py)

Every match plays seat-rotated deals on fixed seeds (a deal = the same seed with every seat order), with
both sides given the same time per move (pure time budgets, tree reuse on: level 10's way of playing,
without its early stop, so neither side answers sooner than the other):
- `elo_vs_rollout_level10` (2 players; `_3p`, `_4p`): the learned search against the rollout search,
  Elo with its 95% interval from the pair (2 seats) or deal scores, games, LOS, and at 2 seats the
  SPRT(0, 50) log-likelihood ratio and decision over the pentanomial pair counts (clients/ratings.py);
  with more seats the score is the learned seat's mean pairwise score against each rollout seat.
- `win_rate_vs_flatmc_equal_time`: against flat Monte Carlo (2 players), with its 95% Wilson interval.
- `hint_top1_agreement`: 50 fixed mid-game positions; hints at the service's default budget with 5 seeds,
  grown as GetHints grows them (doubling until the best move is separated, at most 16x); the share of
  positions where all 5 seeds give the same top move (`_single_search`: one search at the default budget;
  `_rollout`: the same with evaluator=rollout, the search before the learned one). Where they disagree:
  `hint_disagreements_about_equal`, the share of those positions where every seed's first hint said the
  top moves are about equal, and `hint_disagreement_gap_median`, the median spread of win probability
  (within one seed's search) among the moves the seeds put first.
- `calibration_ece`: expected calibration error (10 bins) of the win probability hints report for the
  move played, against the mover's result, over held-out self-play games (seeds never trained on);
  `--plot FILE` draws the reliability diagram.
- `eval_us` (features + network, one evaluation, one core) and `iterations_per_s` at the 2-player start
  (`iterations_per_s_rollout` beside it).
"""
from __future__ import annotations

import os
import sys

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import math
import multiprocessing as mp
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from engine_c.spellbook import State
from engine_c.spellbook.game import SPELLBOOK
from search import SearchOptions, ismcts
from search.arena import play_game, wilson_interval
from search.bots import make_bot
from search.hints import top_hints
from search.levels import default_level, level_options
from search.model import default_model, load_cached

SPELLS = "classic"


# ----------------------------------------------------------------------------------------------
# Matches
# ----------------------------------------------------------------------------------------------
def spec(kind: str, time_ms: float, model: str, options: str = "") -> str:
    if kind == "flatmc":
        return f"flatmc:iterations=0,time_ms={time_ms}"
    extra = f",model={model}" if (kind == "network" and model) else ""
    extra += f",{options}" if (kind == "network" and options) else ""
    return f"ismcts:iterations=0,time_ms={time_ms},evaluator={kind},reuse_tree=true{extra}"


def _play(task: tuple) -> dict:
    seed, seats = task
    n = len(seats)
    bots = [make_bot(s, SPELLBOOK, seed=seed * 31 + i) for i, s in enumerate(seats)]
    for b, s in zip(bots, seats):
        b.name = s
    rec = play_game(lambda sd: State.new(players=n, spells=SPELLS, seed=sd), bots, seed)
    return {"seed": seed, "seats": list(seats), "scores": rec.scores, "winners": rec.winners}


def deals(challenger: str, opponent: str, players: int, count: int, seed0: int) -> list[tuple]:
    """Every rotation of one challenger among players-1 opponents, per deal seed."""
    tasks = []
    for d in range(count):
        table = [challenger] + [opponent + (f",seed={k}" if k else "") for k in range(players - 1)]
        for r in range(players):
            tasks.append((seed0 + d, tuple(table[(i + r) % players] for i in range(players))))
    return tasks


def run_match(pool, challenger: str, opponent: str, players: int, count: int, seed0: int) -> list[dict]:
    return list(pool.map(_play, deals(challenger, opponent, players, count, seed0)))


def deal_scores(records: list[dict], challenger: str) -> list[float]:
    """Per deal: the challenger's mean pairwise score (win 1, tie ½, loss 0 on final rank) against every
    other seat, averaged over the deal's rotations."""
    by_deal: dict[int, list[float]] = {}
    for rec in records:
        seats, winners, scores = rec["seats"], rec["winners"], rec["scores"]
        me = seats.index(challenger)
        vals = []
        for o in range(len(seats)):
            if o == me:
                continue
            mine, theirs = (me in winners), (o in winners)
            if mine and theirs:
                vals.append(0.5)
            elif mine:
                vals.append(1.0)
            elif theirs:
                vals.append(0.0)
            else:   # neither won: compare final scores
                vals.append(1.0 if scores[me] > scores[o] else 0.0 if scores[me] < scores[o] else 0.5)
        by_deal.setdefault(rec["seed"], []).append(sum(vals) / len(vals))
    return [sum(v) / len(v) for _, v in sorted(by_deal.items())]


def elo_summary(records: list[dict], challenger: str, players: int) -> dict:
    from clients import ratings as R

    per_deal = deal_scores(records, challenger)
    games = len(records)
    if players == 2:
        penta = [0] * 5
        for s in per_deal:
            penta[int(round(s * 4))] += 1     # a pair's score (0, ¼ … 1) in halves of a game
        est = R.outcome_elo(penta)
        sprt = R.SPRT(0.0, 50.0)
        return {"elo": round(est.elo, 1), "elo_95": [round(est.lo, 1), round(est.hi, 1)], "games": games,
                "score": round(est.score, 4), "los": round(est.los, 4), "pentanomial": penta,
                "sprt_llr": round(sprt.llr(penta), 3), "sprt_bounds": [round(sprt.lower, 3), round(sprt.upper, 3)],
                "sprt": sprt.decision(penta) or "continue"}
    mu = statistics.mean(per_deal)
    se = statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else 0.5
    return {"elo": round(R.elo_from_score(mu), 1),
            "elo_95": [round(R.elo_from_score(max(mu - 1.96 * se, 1e-3)), 1),
                       round(R.elo_from_score(min(mu + 1.96 * se, 1 - 1e-3)), 1)],
            "games": games, "score": round(mu, 4)}


# ----------------------------------------------------------------------------------------------
# Hints, calibration, speed
# ----------------------------------------------------------------------------------------------
def hint_positions(count: int = 50) -> list[State]:
    """Fixed mid-game positions: games of rollout level 2 bots, stopped at a decision between the 20th
    and the 60th with at least two moves."""
    out = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        st = State.new(players=2 + seed % 3, spells=SPELLS, seed=10_000 + seed)
        stop = rng.randrange(20, 60)
        bots = [make_bot("ismcts:level=2,evaluator=rollout", SPELLBOOK, seed=seed * 7 + i) for i in range(st.players)]
        decisions = 0
        while not st.is_terminal():
            if st.is_chance():
                st.resolve_chance()
                continue
            if decisions >= stop and len(st.legal_moves()) >= 2:
                out.append(st.clone())
                break
            move, _ = bots[st.current_player].choose(st)
            st.apply(move)
            decisions += 1
        seed += 1
    return out


def default_hint_options(seed: int, evaluator: str, model: str = "") -> SearchOptions:
    """What GetHints searches with when the request gives no level or limits: the server's default level;
    `model`: the model file under test (--model) instead of the shipped one."""
    from server.service import ServiceConfig

    level = ServiceConfig().default_level or default_level(SPELLBOOK, evaluator)
    opts = level_options(level, seed, evaluator=evaluator, game=SPELLBOOK)
    opts.temperature = 0.0
    if model and opts.evaluator != "rollout":
        opts.model = model
    return opts


def _agreement_one(task: tuple) -> dict:
    """Whether all 5 seeds' top moves agree with one search at the default budget (`single`), and with the
    budget grown as GetHints grows it: doubling until the best move is separated, at most 16x (`grown`).
    Where the grown hints disagree: each seed's spread of win probability among the moves the seeds put
    first (`gaps`), and whether every seed's first hint said "about equal" (`about_equal`)."""
    from dataclasses import replace

    from search.hints import MAX_DOUBLINGS, assess, grow

    idx, text, evaluator, model = task
    st = State.from_text(text)
    single, results = set(), []
    for seed in range(5):
        opts = default_hint_options(seed, evaluator, model)
        single.add(str(top_hints(ismcts(SPELLBOOK, st, opts), 1)[0].move))
        g = grow(lambda b: ismcts(SPELLBOOK, st, replace(opts, iterations=int(b))), opts.iterations,
                 cap=opts.iterations * 2 ** MAX_DOUBLINGS)
        results.append(g.result)
    firsts = [top_hints(r, 1)[0] for r in results]
    out = {"single": len(single) == 1, "grown": len({str(h.move) for h in firsts}) == 1}
    if not out["grown"]:
        moves = list({str(h.move): h.move for h in firsts}.values())
        out["gaps"] = [max(w) - min(w) for r in results
                       if len(w := [a.win_probability for m in moves if (a := assess(r, m)) is not None]) > 1]
        out["about_equal"] = all(h.about_equal for h in firsts)
    return out


def hint_agreement(pool, positions: list[State], evaluator: str, model: str = "") -> dict:
    """The share of positions where the 5 seeds agree (`grown`, `single`), and where they disagree: the
    share whose every first hint said "about equal" and the median gap between the moves put first."""
    rows = list(pool.map(_agreement_one, [(i, p.to_text(), evaluator, model) for i, p in enumerate(positions)]))
    split = [r for r in rows if not r["grown"]]
    gaps = [g for r in split for g in r["gaps"]]
    return {"single": sum(r["single"] for r in rows) / len(rows), "grown": sum(r["grown"] for r in rows) / len(rows),
            "disagreements": len(split),
            "disagreements_about_equal": round(sum(r["about_equal"] for r in split) / len(split), 3) if split else None,
            "disagreement_gap_median": round(statistics.median(gaps), 4) if gaps else None}


def _calibration_game(task: tuple[int, str]) -> list[tuple[float, float]]:
    """(reported win probability of the move played, the mover's win share) for every decision of one
    held-out game (`task`: its seed and the model file under test, "" for the shipped one), each decision
    searched as a hint is at the default level."""
    seed, model = task
    n = 2 + seed % 3
    st = State.new(players=n, spells=SPELLS, seed=seed)
    rows = []
    while not st.is_terminal():
        if st.is_chance():
            st.resolve_chance()
            continue
        if len(st.legal_moves()) == 1:
            st.apply(st.legal_moves()[0])
            continue
        seat = st.current_player
        res = ismcts(SPELLBOOK, st, default_hint_options(seed * 977 + len(rows), "network", model))
        best = top_hints(res, 1)[0]
        rows.append((seat, best.win_probability))
        st.apply(best.move)
    winners = st.winners()
    return [(p, (1.0 / len(winners)) if seat in winners else 0.0) for seat, p in rows]


def calibration(pool, games: int, plot: str | None, model: str = "") -> dict:
    from search.calibration import expected_calibration_error as ece_of
    import numpy as np

    pairs = [r for rows in pool.map(_calibration_game, [(s, model) for s in range(900_000, 900_000 + games)])
             for r in rows]
    p = np.array([a for a, _ in pairs])
    z = np.array([b for _, b in pairs])
    ece, bins = ece_of(p, z)
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(4.5, 4.5))
        ax.plot([0, 1], [0, 1], "--", color="grey", label="perfect")
        ax.plot([b["predicted"] for b in bins], [b["observed"] for b in bins], "o-", label="learned search")
        for b in bins:
            ax.annotate(str(b["n"]), (b["predicted"], b["observed"]), fontsize=7, xytext=(3, -9),
                        textcoords="offset points")
        ax.set_xlabel("reported win probability (hints, default budget)")
        ax.set_ylabel("observed win share")
        ax.set_title(f"Reliability, {games} held-out games, ECE {ece:.3f}")
        ax.legend(loc="upper left")
        fig.tight_layout()
        fig.savefig(plot, dpi=110)
    return {"calibration_ece": ece, "calibration_decisions": len(pairs), "calibration_games": games,
            "calibration_bins": bins}


def speed(model_path: str) -> dict:
    model = load_cached(model_path) if model_path else default_model(SPELLBOOK)
    st = State.new(players=2, spells="set1", seed=1)
    net = model.network(SPELLBOOK)
    raw = SPELLBOOK.state_bytes(st)
    net.time_evaluations(SPELLBOOK.vtable, raw, 0, 20000)
    eval_us = statistics.median(net.time_evaluations(SPELLBOOK.vtable, raw, 0, 100_000) / 100_000 * 1e6
                                for _ in range(5))
    rates = {}
    for ev in ("network", "rollout"):
        vals = []
        for seed in range(3):
            r = ismcts(SPELLBOOK, st, SearchOptions(iterations=0, time_ms=1000, evaluator=ev, model=model_path,
                                                    seed=seed))
            vals.append(r.iterations / r.elapsed_s)
        rates[ev] = statistics.median(vals)
    return {"eval_us": round(eval_us, 2), "iterations_per_s": round(rates["network"]),
            "iterations_per_s_rollout": round(rates["rollout"]), "model": model.version}


def _other_game(name: str, argv: list[str]) -> int | None:
    """`--game NAME` for another game than the one this file benches (SpellBook): that game's own strength bench,
    bench/strength_NAME.py (its `main(argv)`), run, and its exit code; 2 for an unknown game or one with no
    strength bench; None for SpellBook (this file's run)."""
    import importlib.util

    from engine_c.registry import get_game

    try:
        game = get_game(name)
    except ValueError as e:
        print(f"strength.py: --game: {e}", file=sys.stderr)
        return 2
    if game.name == SPELLBOOK.name:
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"strength_{game.name}.py")
    if not os.path.exists(path):
        print(f"strength.py: --game: {game.title} has no strength bench yet ({os.path.basename(path)})",
              file=sys.stderr)
        return 2
    # (not called `spec`: that would make the module's spec() a local here)
    found = importlib.util.spec_from_file_location(f"bench_strength_{game.name}", path)
    module = importlib.util.module_from_spec(found)
    sys.modules[found.name] = module
    found.loader.exec_module(module)
    return module.main(argv)


def _previous_model_version(path: str) -> str | None:
    """The version of --previous-model ("" when none is given); None, after saying why, when it can't be read."""
    if not path:
        return ""
    from search.model import load_cached

    try:
        model = load_cached(path)
    except (OSError, ValueError, KeyError) as e:
        print(f"strength.py: --previous-model {path!r} is not a model file: {e}", file=sys.stderr)
        return None
    if model.meta.get("game", SPELLBOOK.name) != SPELLBOOK.name:      # a model that names no game is SpellBook's
        print(f"strength.py: --previous-model {path!r} is a model of {model.meta['game']}, not SpellBook",
              file=sys.stderr)
        return None
    return model.version


# ----------------------------------------------------------------------------------------------
def main() -> int:
    if "--game" in sys.argv[1:]:          # a game's own strength bench (this file's is SpellBook's)
        i = sys.argv.index("--game")
        code = _other_game(sys.argv[i + 1] if i + 1 < len(sys.argv) else "", sys.argv[1:])
        if code is not None:
            return code
        del sys.argv[i:i + 2]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer games: the same keys in at most ~15 minutes")
    ap.add_argument("--time-ms", type=float, default=None, help="time per move of both sides (default 250; quick 100)")
    ap.add_argument("--pairs", type=int, default=None, help="2-player deals per match (default 200; quick 20)")
    ap.add_argument("--deals-3p", type=int, default=None, help="3-player deals (default 40; quick 8)")
    ap.add_argument("--deals-4p", type=int, default=None, help="4-player deals (default 25; quick 4)")
    ap.add_argument("--calibration-games", type=int, default=None, help="held-out games (default 90; quick 15)")
    ap.add_argument("--model", default="", help="model file (default: the shipped one)")
    ap.add_argument("--tree-options", default="", help="more SearchOptions for the learned search's matches, "
                                                       "e.g. rollout_mix=0.5 (not the hints or calibration)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=20_000, help="first deal seed")
    ap.add_argument("--plot", default=None, help="write the reliability diagram to this PNG")
    ap.add_argument("--previous-model", default="", help="an earlier model file: adds elo_vs_previous_model, the "
                    "learned search with --model against the same search with this model, 2 players, the same "
                    "time a move, --pairs deals")
    ap.add_argument("--skip", nargs="*", default=[], choices=["2p", "3p", "4p", "flat", "hints", "hints_rollout", "calibration"],
                    help="sections to leave out")
    a = ap.parse_args()
    previous = _previous_model_version(a.previous_model)
    if previous is None:
        return 2
    q = a.quick
    t_ms = a.time_ms or (100.0 if q else 250.0)
    pairs = a.pairs or (20 if q else 200)
    d3 = a.deals_3p or (8 if q else 40)
    d4 = a.deals_4p or (4 if q else 25)
    cal = a.calibration_games or (15 if q else 90)
    started = time.monotonic()
    out: dict = {"bench": "strength", "quick": q, "time_ms_per_move": t_ms, "spells": SPELLS,
                 **({"tree_options": a.tree_options} if a.tree_options else {})}
    out.update(speed(a.model))
    new, old = spec("network", t_ms, a.model, a.tree_options), spec("rollout", t_ms, a.model)
    with ProcessPoolExecutor(max_workers=a.jobs, mp_context=mp.get_context("spawn")) as pool:
        for players, count, key in ((2, pairs, "elo_vs_rollout_level10"), (3, d3, "elo_vs_rollout_level10_3p"),
                                    (4, d4, "elo_vs_rollout_level10_4p")):
            if f"{players}p" in a.skip:
                continue
            t0 = time.monotonic()
            recs = run_match(pool, new, old, players, count, a.seed)
            out[key] = {**elo_summary(recs, new, players), "seconds": round(time.monotonic() - t0)}
            print(json.dumps({key: out[key]}), file=sys.stderr)
        if a.previous_model:
            t0 = time.monotonic()
            before = spec("network", t_ms, a.previous_model, a.tree_options)
            recs = run_match(pool, new, before, 2, pairs, a.seed)
            out["elo_vs_previous_model"] = {**elo_summary(recs, new, 2), "previous_model": previous,
                                            "seconds": round(time.monotonic() - t0)}
            print(json.dumps({"elo_vs_previous_model": out["elo_vs_previous_model"]}), file=sys.stderr)
        if "flat" not in a.skip:
            recs = run_match(pool, new, spec("flatmc", t_ms, a.model), 2, pairs, a.seed + 5000)
            wins = sum(deal_scores(recs, new)) * 2
            lo, hi = wilson_interval(wins, len(recs))
            out["win_rate_vs_flatmc_equal_time"] = round(wins / len(recs), 4)
            out["win_rate_vs_flatmc_95"] = [round(lo, 4), round(hi, 4)]
            out["flatmc_games"] = len(recs)
            print(json.dumps({"flat": out["win_rate_vs_flatmc_equal_time"]}), file=sys.stderr)
        if "hints" not in a.skip:
            pos = hint_positions(50)
            agree = hint_agreement(pool, pos, "auto", a.model)
            out["hint_top1_agreement"] = round(agree["grown"], 3)
            out["hint_top1_agreement_single_search"] = round(agree["single"], 3)
            out["hint_disagreements_about_equal"] = agree["disagreements_about_equal"]
            out["hint_disagreement_gap_median"] = agree["disagreement_gap_median"]
            if "hints_rollout" not in a.skip:
                agree_r = hint_agreement(pool, pos, "rollout")
                out["hint_top1_agreement_rollout"] = round(agree_r["grown"], 3)
                out["hint_top1_agreement_rollout_single_search"] = round(agree_r["single"], 3)
            out["hint_positions"] = len(pos)
            print(json.dumps({"hints": [out["hint_top1_agreement"], out.get("hint_top1_agreement_rollout")]}),
                  file=sys.stderr)
        if "calibration" not in a.skip:
            out.update(calibration(pool, cal, a.plot, a.model))
    out["seconds"] = round(time.monotonic() - started)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
