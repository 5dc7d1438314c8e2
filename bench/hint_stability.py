"""How often hints agree across search seeds: one search at a fixed budget ("before") against a hint
search that grows until its top move is separated (search/hints.py `grow`, "after").

    .venv/bin/python bench/hint_stability.py [--seeds 5] [--positions 6]

Positions: the opening of a 2-player set1 game and mid-game positions reached by seeded play at
100 iterations (level 3 before D104).
Budgets: the terminal's hint (1,500 iterations, heuristic rollouts cut off at 30 decisions:
`spellbook-ai play --hint-iterations`) and the README's GetHints example (500 iterations at the server's
default level, uniform rollouts). Prints, per budget and position, the distinct top moves over the seeds
before and after, and whether "after" called the moves about equal.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine_c.spellbook import State  # noqa: E402
from engine_c.spellbook.game import SPELLBOOK  # noqa: E402
from search import SearchOptions, ismcts  # noqa: E402
from search.hints import grow, separation  # noqa: E402
from search.levels import default_level, level_options  # noqa: E402

BUDGETS = {
    "terminal 1500 (heuristic, cutoff 30)": SearchOptions(iterations=1500, rollout="heuristic", cutoff=30),
    "README GetHints 500 (default level options)": replace(level_options(default_level()), iterations=500,
                                                           temperature=0.0),
}


def positions(n: int) -> list[tuple[str, State]]:
    """The opening, then positions after seeded 100-iteration play, cycling through Morning, Midday and
    Evening decisions with at least 3 legal moves."""
    from clients.bots import make_bot

    out = [("opening", State.new(players=2, spells="set1", seed=0))]
    wanted = ("evening", "morning", "midday")
    for k in range(1, n):
        st = State.new(players=2, spells="set1", seed=100 + k)
        bots = [make_bot("ismcts:iterations=100,temperature=0.3", seed=k * 7 + i, players=2) for i in range(2)]
        target, decisions = 10 + 8 * k, 0
        while not st.is_terminal() and decisions < target + 80:
            if st.is_chance():
                st.resolve_chance()
                continue
            if decisions >= target and st.decision == wanted[k % 3] and len(st.legal_moves()) > 2:
                break
            move, _ = bots[st.current_player].choose(st)
            st.apply(move)
            decisions += 1
        if not st.is_terminal() and not st.is_chance() and len(st.legal_moves()) > 1:
            out.append((f"day {st.day + 1} {st.decision} ({len(st.legal_moves())} moves)", st))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--positions", type=int, default=6)
    args = ap.parse_args()
    pos = positions(args.positions)
    for name, base in BUDGETS.items():
        same_before = same_after = same_after_or_flagged = consistent = 0
        t0 = time.monotonic()
        print(f"== {name}")
        for label, st in pos:
            before, after, flagged, sizes, clear = [], [], 0, [], set()
            for seed in range(1, args.seeds + 1):
                opts = replace(base, seed=seed)
                before.append(str(ismcts(SPELLBOOK, st, opts).moves[0].move))
                g = grow(lambda it: ismcts(SPELLBOOK, st, replace(opts, iterations=int(it))), opts.iterations)
                after.append(str(g.result.moves[0].move))
                flagged += not g.separation.separated
                if g.separation.separated:
                    clear.add(after[-1])
                sizes.append(int(g.budgets[-1]))
            b, a = Counter(before), Counter(after)
            same_before += len(b) == 1
            same_after += len(a) == 1
            same_after_or_flagged += len(a) == 1 or flagged == args.seeds
            consistent += len(clear) <= 1
            print(f"  {label:34s} before: {len(b)} distinct (top {b.most_common(1)[0][1]}/{args.seeds})   "
                  f"after: {len(a)} distinct (top {a.most_common(1)[0][1]}/{args.seeds}), "
                  f"about equal in {flagged}/{args.seeds}, budgets {min(sizes)}-{max(sizes)}")
        n = len(pos)
        print(f"  all {args.seeds} seeds agree: before {same_before}/{n}, after {same_after}/{n}; "
              f"after, agree or every seed says 'about equal': {same_after_or_flagged}/{n}; "
              f"no two seeds call different moves clearly best: {consistent}/{n} "
              f"({time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()
