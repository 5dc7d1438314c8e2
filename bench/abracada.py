"""Abracada…What? belief and strength benchmark (issue 24). Ends with one JSON line.

    python bench/strength.py --game abracadawhat            # the full run (hours on 2 cores)
    python bench/strength.py --game abracadawhat --quick    # the same keys from fewer games (~15 min)
    python bench/abracada.py [--quick] [--jobs N]           # the same
    python bench/abracada.py --skip noinf own_view          # leave sections out (their keys are absent)
    python bench/abracada.py --skip belief counting guided noinf own_view information --size four=25

Every match is seat-swapped (2 players: each deal seed played twice, the seats exchanged; 4 players: every
rotation of the challenger's seat) on fixed seeds; draws come from the state's seeded generator.
- `belief_gain_nats`: at decisions in the middle of a round (at least 4 entries in the round's log) of
  count-heuristic self-play (2 players; `_level4_selfplay`: of level-4 searches, a third as many), log P(true own hand) of the mover under its belief minus under the
  count-only prior (the exact posterior of XC6), mean over the positions. `belief_ece`: expected
  calibration error (10 bins) of the belief's P(hold at least one stone of spell k), all 8 spells of every
  position (`prior_ece` beside it).
- `opponent_fail_rate_gap`: in the level-10 games against the count heuristic, the share of the other
  seat's casts that fail inside the searcher's tree minus the share of the count heuristic's casts that
  fail in the same games (level 10: single-observer); `_guided` the same for level 10 with other seats
  re-determinized and guided by the count heuristic (opponent_prior=2, D97; its own games); `_own_view` beside it is the same for
  re-determinizing search, `_searcher` for single-observer search, both from the equal-time match below.
- `win_rate_vs_count_heuristic`: level 10 against the count-heuristic bot, 2 players.
- `win_rate_vs_no_inference`: level 10's search on equal time per move with against without the belief,
  2 players, with the pentanomial SPRT(0, 30) of clients/ratings.py.
- `own_view_vs_searcher`: re-determinizing against single-observer search at equal time (both with the
  belief), 2 players: which opponent model is stronger per CPU second. `own_view_prior_vs_searcher`: the
  same with the re-determinized seats' decisions guided by the count heuristic (opponent_prior=2, levels
  8-10's model, D97); `opponent_fail_rate_gap_own_view_prior` its in-tree gap against searcher opponents.
- `win_share_4p`: level 10 among three level-10 searches without the belief (`belief=false`).
- `win_rate_by_information`: what knowing the own hand is worth, the limit of what a belief can give: the
  equal-time search whose belief is the count-only prior with the TRUE hand's weight multiplied by
  e^alpha (alpha 0, 0.25, 0.5, 1, inf = the oracle; reads the truth, so a benchmark only) against the same
  search without a belief, with the mean information gain (nats, as `belief_gain_nats`) at its searches.
- `belief_update_ms`: one belief update (one other seat's decision multiplied in), mean and p95 over the
  self-play positions; `move_ms_level10`: mean and max thread CPU time of a level-10 move.
"""
from __future__ import annotations

import os
import sys

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from engine_c.abracadawhat import State
from engine_c.abracadawhat.belief import MULTISETS, Belief, hypothesis_of
from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.abracadawhat.heuristic import CountingBot
from search.bots import make_bot

COUNTING = "counting"


def make(spec: str, seed: int):
    """A bot by spec: `counting` (the count heuristic) or a search/bots.py spec for this game."""
    if spec == COUNTING:
        return CountingBot(seed=seed)
    return make_bot(spec, ABRACADAWHAT, seed=seed)


def equal_time(time_ms: float, belief: bool, redeterminize: bool = False, opponent_prior: float = 0.0) -> str:
    """Level 10's search (engine_c/abracadawhat/game.py) on a pure time budget per move; other seats in
    the searcher's determinization (single-observer) unless `redeterminize`, by UCB unless opponent_prior."""
    return (f"ismcts:iterations=0,time_ms={time_ms:g},chance=open,rollout=heuristic,evaluator=rollout,"
            f"redeterminize={'true' if redeterminize else 'false'},opponent_prior={opponent_prior:g},"
            f"belief={'true' if belief else 'false'}")


# ----------------------------------------------------------------------------------------------
# Games
# ----------------------------------------------------------------------------------------------
class TiltedBelief:
    """A benchmark's belief that knows the truth: the count-only prior (Belief with the uniform policy
    alone: XC6's exact posterior) with the TRUE own hand's weight multiplied by e^alpha (alpha = inf: the
    true hand only). It measures what information about the own hand is worth to the search, in the same
    currency as `belief_gain_nats`; `gains` keeps log P(true) under it minus under the prior, per search."""

    def __init__(self, seat: int, alpha: float):
        self.seat, self.alpha = seat, alpha
        self.prior = Belief(seat, models=((1.0, 0.0),))
        self.gains: list[float] = []

    def observe(self, state: State) -> int:
        return self.prior.observe(state)

    def hypotheses(self, state: State) -> list[tuple[int, float]]:
        hyp = self.prior.hypotheses(state)
        true = hypothesis_of(state._to_raw()["hands"][self.seat])
        p = dict(hyp)[true]
        if math.isinf(self.alpha):
            out = [(true, 1.0)]
        else:
            k = math.exp(self.alpha)
            out = [(h, w * (k if h == true else 1.0) / (1.0 + (k - 1.0) * p)) for h, w in hyp]
        self.gains.append(math.log(dict(out)[true]) - math.log(p))
        return out


def play(task: tuple) -> dict:
    """One game: (seed, seat specs[, alpha]) -> winners, per-seat casts and fails, per-seat move CPU times
    and the in-tree opponent counts of each searching seat. With alpha, seats searching with the belief
    get a TiltedBelief(alpha) instead (`gain`: its mean information gain, `beliefs`: how many searches)."""
    seed, seats = task[:2]
    alpha = task[2] if len(task) > 2 else None
    n = len(seats)
    bots = [make(s, seed * 31 + i) for i, s in enumerate(seats)]
    tilted = []
    if alpha is not None:
        for i, bot in enumerate(bots):
            if getattr(getattr(bot, "options", None), "belief", False):
                bot.beliefs[i] = TiltedBelief(i, alpha)
                tilted.append(bot.beliefs[i])
    state = State.new(players=n, seed=seed)
    casts, fails = [0] * n, [0] * n
    tree_moves, tree_fails = [0] * n, [0] * n
    cpu: list[list[float]] = [[] for _ in range(n)]
    decisions = 0
    while not state.is_terminal() and decisions < 3000:
        if state.is_chance():
            state.resolve_chance()
            continue
        for i, b in enumerate(bots):
            if hasattr(b, "observe"):
                b.observe(state, i)
        seat = state.current_player
        t0 = time.thread_time()
        move, info = bots[seat].choose(state)
        cpu[seat].append(time.thread_time() - t0)
        result = info.get("result")
        if result is not None:
            tree_moves[seat] += result.opponent_tree_moves
            tree_fails[seat] += result.opponent_tree_fails
        if move.kind == "cast":
            casts[seat] += 1
            fails[seat] += state._to_raw()["hands"][seat][move.value - 1] == 0
        state.apply(move)
        decisions += 1
    gains = [g for b in tilted for g in b.gains]
    return {"seed": seed, "seats": list(seats), "winners": state.winners() if state.is_terminal() else list(range(n)),
            "casts": casts, "fails": fails, "tree_moves": tree_moves, "tree_fails": tree_fails, "cpu": cpu,
            "gain": sum(gains), "beliefs": len(gains)}


def swapped(a: str, b: str, deals: int, seed0: int) -> list[tuple]:
    return [t for d in range(deals) for t in ((seed0 + d, (a, b)), (seed0 + d, (b, a)))]


def rotated(a: str, others: list[str], deals: int, seed0: int) -> list[tuple]:
    tasks = []
    for d in range(deals):
        table = [a] + others
        for r in range(len(table)):
            tasks.append((seed0 + d, tuple(table[(i + r) % len(table)] for i in range(len(table)))))
    return tasks


def share(rec: dict, spec: str) -> float:
    """The win share of the seat playing `spec` (ties shared)."""
    me = rec["seats"].index(spec)
    return (1.0 / len(rec["winners"])) if me in rec["winners"] else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(max(0.0, c - h), 4), round(min(1.0, c + h), 4)]


def two_player(records: list[dict], challenger: str, sprt: tuple[float, float] | None = None) -> dict:
    """Win rate of `challenger` over seat-swapped pairs, its interval, and the pentanomial SPRT."""
    from clients import ratings as R

    by_seed: dict[int, list[float]] = {}
    for rec in records:
        by_seed.setdefault(rec["seed"], []).append(share(rec, challenger))
    total = sum(sum(v) for v in by_seed.values())
    games = sum(len(v) for v in by_seed.values())
    out = {"rate": round(total / max(games, 1), 4), "games": games, "rate_95": wilson(total, games)}
    if sprt is not None:
        penta = [0] * 5
        for v in by_seed.values():
            if len(v) == 2:
                penta[int(round(sum(v) * 2))] += 1
        test = R.SPRT(*sprt)
        out.update({"pentanomial": penta, "sprt": f"SPRT({sprt[0]:g}, {sprt[1]:g})",
                    "sprt_llr": round(test.llr(penta), 3), "sprt_bounds": [round(test.lower, 3), round(test.upper, 3)],
                    "sprt_decision": test.decision(penta) or "continue"})
    return out


def fail_rates(records: list[dict], searcher: str) -> dict:
    """In-tree opponent fail rate of `searcher` and the real fail rate of its opponents, same games."""
    tm = tf = casts = fails = 0
    for rec in records:
        me = rec["seats"].index(searcher)
        tm += rec["tree_moves"][me]
        tf += rec["tree_fails"][me]
        for o in range(len(rec["seats"])):
            if o != me:
                casts += rec["casts"][o]
                fails += rec["fails"][o]
    tree = tf / tm if tm else 0.0
    real = fails / casts if casts else 0.0
    return {"tree": round(tree, 4), "real": round(real, 4), "gap": round(tree - real, 4), "tree_moves": tm,
            "casts": casts}


# ----------------------------------------------------------------------------------------------
# Belief quality and cost
# ----------------------------------------------------------------------------------------------
def belief_game(task: tuple[int, str]) -> dict:
    """Self-play of `spec` (2 players), each seat's belief fed every decision; at mid-round decisions the
    mover's belief and prior are scored against its true hand."""
    seed, spec = task
    state = State.new(players=2, seed=seed)
    bots = [make(spec, seed * 7 + i) for i in range(2)]
    beliefs = [Belief(i) for i in range(2)]
    gains, pairs_belief, pairs_prior, update_ms = [], [], [], []
    decisions = 0
    while not state.is_terminal() and decisions < 3000:
        if state.is_chance():
            state.resolve_chance()
            continue
        for b in beliefs:
            t0 = time.perf_counter()
            added = b.observe(state)
            if added:
                update_ms.append(1000 * (time.perf_counter() - t0) / added)
        seat = state.current_player
        raw = state._to_raw()
        if len(raw["log"]) >= 4:
            truth = tuple(raw["hands"][seat])
            hyp = beliefs[seat].hypotheses(state)
            belief_p = {tuple(MULTISETS[i][1:]): p for i, p in hyp}
            prior_p = {tuple(c): p for c, p in state._posterior(seat)}
            gains.append(math.log(max(belief_p.get(truth, 0.0), 1e-300)) - math.log(prior_p[truth]))
            for k in range(8):
                held = 1.0 if truth[k] else 0.0
                pairs_belief.append((sum(p for h, p in belief_p.items() if h[k]), held))
                pairs_prior.append((sum(p for h, p in prior_p.items() if h[k]), held))
        move, _ = bots[seat].choose(state)
        state.apply(move)
        decisions += 1
    return {"gains": gains, "belief": pairs_belief, "prior": pairs_prior, "update_ms": update_ms}


def ece(pairs: list[tuple[float, float]], bins: int = 10) -> float:
    buckets: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for p, y in pairs:
        buckets[min(int(p * bins), bins - 1)].append((p, y))
    total = len(pairs)
    return sum(abs(sum(p for p, _ in b) - sum(y for _, y in b)) for b in buckets if b) / max(total, 1)


def belief_quality(pool, positions: int, seed0: int, spec: str = COUNTING) -> dict:
    gains, pb, pp, ms = [], [], [], []
    seed = seed0
    while len(gains) < positions:
        batch = list(pool.map(belief_game, [(sd, spec) for sd in range(seed, seed + 8)]))
        seed += 8
        for g in batch:
            gains += g["gains"]
            pb += g["belief"]
            pp += g["prior"]
            ms += g["update_ms"]
    step = len(gains) / positions        # an even thinning to the asked number of positions
    keep = sorted({int(i * step) for i in range(positions)})
    gains = [gains[i] for i in keep]
    pb = [pb[8 * i + k] for i in keep for k in range(8)]
    pp = [pp[8 * i + k] for i in keep for k in range(8)]
    ms.sort()
    return {"belief_gain_nats": round(statistics.mean(gains), 4),
            "belief_gain_se": round(statistics.stdev(gains) / math.sqrt(len(gains)), 4),
            "belief_ece": round(ece(pb), 4), "prior_ece": round(ece(pp), 4), "positions": len(gains),
            "belief_update_ms": round(statistics.mean(ms), 3),
            "belief_update_ms_p95": round(ms[int(0.95 * (len(ms) - 1))], 3), "updates_timed": len(ms)}


# ----------------------------------------------------------------------------------------------
SECTIONS = ("belief", "counting", "guided", "noinf", "own_view", "four", "information")
LEVEL10 = "ismcts:level=10"


def section_belief(pool, sizes: dict) -> dict:
    out = belief_quality(pool, sizes["positions"], 10_000)   # tuned on seeds 1000-1029
    searchers = belief_quality(pool, sizes["positions"] // 3, 11_000, "ismcts:level=4")
    out.update({"belief_gain_nats_level4_selfplay": searchers["belief_gain_nats"],
                "belief_ece_level4_selfplay": searchers["belief_ece"]})
    return out


def section_counting(pool, sizes: dict) -> dict:
    recs = list(pool.map(play, swapped(LEVEL10, COUNTING, sizes["vs_counting"], 2000)))
    vs = two_player(recs, LEVEL10)
    fr = fail_rates(recs, LEVEL10)
    cpu = sorted(t for r in recs for t in r["cpu"][r["seats"].index(LEVEL10)])
    return {"win_rate_vs_count_heuristic": vs["rate"], "win_rate_vs_count_heuristic_detail": vs,
            "opponent_fail_rate_gap": fr["gap"], "opponent_fail_rate_detail": fr,
            "move_ms_level10": round(1000 * statistics.mean(cpu), 1),
            "move_ms_level10_max": round(1000 * cpu[-1], 1)}


def section_guided(pool, sizes: dict) -> dict:
    guided10 = LEVEL10 + ",redeterminize=true,opponent_prior=2"     # D97's opponent model
    recs = list(pool.map(play, swapped(guided10, COUNTING, sizes["vs_counting"], 2000)))
    fr = fail_rates(recs, guided10)
    return {"opponent_fail_rate_gap_guided": fr["gap"], "opponent_fail_rate_guided_detail": fr}


def section_noinf(pool, sizes: dict) -> dict:
    t = sizes["time_ms"]
    with_b, without_b = equal_time(t, True), equal_time(t, False)
    recs = list(pool.map(play, swapped(with_b, without_b, sizes["vs_noinf"], 3000)))
    vs = two_player(recs, with_b, sprt=(0.0, 30.0))
    return {"win_rate_vs_no_inference": vs["rate"], "win_rate_vs_no_inference_detail": vs}


def section_own_view(pool, sizes: dict) -> dict:
    t = sizes["time_ms"]
    own, single = equal_time(t, True, True), equal_time(t, True, False)
    recs = list(pool.map(play, swapped(own, single, sizes["own_view"], 4000)))
    out = {"own_view_vs_searcher": two_player(recs, own, sprt=(0.0, 30.0)),
           "opponent_fail_rate_gap_searcher": fail_rates(recs, single)["gap"],
           "opponent_fail_rate_gap_own_view": fail_rates(recs, own)["gap"]}
    guided = equal_time(t, True, True, 2.0)      # D97's opponent model
    recs = list(pool.map(play, swapped(guided, single, sizes["own_view"], 4000)))
    out["own_view_prior_vs_searcher"] = two_player(recs, guided, sprt=(0.0, 30.0))
    out["opponent_fail_rate_gap_own_view_prior"] = fail_rates(recs, guided)["gap"]
    return out


def section_four(pool, sizes: dict) -> dict:
    plain = [f"ismcts:level=10,belief=false,seed={k}" for k in range(1, 4)]
    recs = list(pool.map(play, rotated(LEVEL10, plain, sizes["four"], 5000)))
    wins = sum(share(r, LEVEL10) for r in recs)
    return {"win_share_4p": round(wins / len(recs), 4), "win_share_4p_95": wilson(wins, len(recs)),
            "win_share_4p_games": len(recs)}


INFORMATION_ALPHAS = (0.0, 0.25, 0.5, 1.0, math.inf)


def section_information(pool, sizes: dict) -> dict:
    """What knowing the own hand is worth: the equal-time search with a TiltedBelief(alpha) against the
    same search without a belief, per alpha: win rate, its interval and the mean information gain."""
    t = sizes["time_ms"]
    with_b, without_b = equal_time(t, True), equal_time(t, False)
    curve = []
    for alpha in INFORMATION_ALPHAS:
        tasks = [(seed, seats, alpha) for seed, seats in swapped(with_b, without_b, sizes["information"], 3000)]
        recs = list(pool.map(play, tasks))
        vs = two_player(recs, with_b)
        curve.append({"alpha": "inf" if math.isinf(alpha) else alpha,
                      "gain_nats": round(sum(r["gain"] for r in recs) / max(1, sum(r["beliefs"] for r in recs)), 3),
                      "rate": vs["rate"], "rate_95": vs["rate_95"], "games": vs["games"]})
    return {"win_rate_by_information": curve}


SECTION_RUNNERS = {"belief": section_belief, "counting": section_counting, "guided": section_guided,
                   "noinf": section_noinf, "own_view": section_own_view, "four": section_four,
                   "information": section_information}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer positions and games (at most ~15 minutes)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--skip", nargs="*", default=[], choices=SECTIONS,
                    help="sections left out: belief (gain, ECE, update time), counting (level 10 against the count "
                         "heuristic: win rate, fail-rate gap, move time), guided (the same gap for D97's opponent "
                         "model), noinf (with against without the belief), own_view (the opponent models at equal "
                         "time), four (4 players), information (win rate against how much the belief knows)")
    ap.add_argument("--size", action="append", default=[], metavar="NAME=N",
                    help="override one size of the run (positions, vs_counting, vs_noinf, own_view, four, "
                         "information: deals or positions; time_ms), e.g. --size four=25")
    ap.add_argument("--game", default="abracadawhat", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    q = args.quick
    sizes = {"positions": 300 if q else 1000, "vs_counting": 8 if q else 200, "vs_noinf": 16 if q else 300,
             "own_view": 8 if q else 200, "four": 2 if q else 50,
             "information": 4 if q else 100, "time_ms": 100 if q else 250}
    for item in args.size:
        name, _, value = item.partition("=")
        if name not in sizes:
            ap.error(f"--size: unknown size {name!r}; sizes: {', '.join(sizes)}")
        try:
            number = float(value) if name == "time_ms" else int(value)
        except ValueError:
            number = 0
        if not number > 0:
            ap.error(f"--size: {name} must be a positive {'number' if name == 'time_ms' else 'integer'}, got {value!r}")
        sizes[name] = number
    t_start = time.monotonic()
    out: dict = {"bench": "abracada", "quick": q, "jobs": args.jobs, "skipped": sorted(args.skip), "sizes": sizes}
    run = [name for name in SECTIONS if name not in args.skip]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name in run:
            keys = SECTION_RUNNERS[name](pool, sizes)
            out.update(keys)
            # each section's keys as it ends: a long run stopped later keeps what it measured
            print(json.dumps({"section": name, "seconds": round(time.monotonic() - t_start, 1), **keys}),
                  file=sys.stderr, flush=True)
    out["seconds"] = round(time.monotonic() - t_start, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
