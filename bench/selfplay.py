"""Self-play throughput: the tree-less generator against search self-play, both through `spellbook-ai
selfplay` on a process pool, in the same run.

Prints one JSON line: `selfplay_games_per_hour` (tree-less, wall clock over --jobs processes, shards written
to disk included), `rows_per_hour`, the same for search self-play as it runs in `make train` (learned
search, 400 iterations a decision) and their ratio. Games per hour are over whole runs of the command, so
process start-up and model loading count against both.
Usage: python bench/selfplay.py [--games 20000] [--search-games 8] [--jobs 2] [--value-playouts 16]
"""
from __future__ import annotations

import os
import sys

# bench/search.py would shadow the search package
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "data", "models", "spellbook.npz")


def run(args: list[str]) -> float:
    """Seconds of one `spellbook-ai selfplay` run (a fresh output folder)."""
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-m", "clients.cli", "selfplay", "--no-progress", *args], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t0


def rows(out: str) -> int:
    from search.selfplay import list_shards, read_shard

    return sum(len(read_shard(p)[0]["seat"]) for p in list_shards(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20000, help="tree-less games")
    ap.add_argument("--search-games", type=int, default=8, help="search self-play games (the baseline)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--value-playouts", type=int, default=16, help="tree-less: playouts per kept decision")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-selfplay-") as tmp:
        tl_dir, search_dir = os.path.join(tmp, "treeless"), os.path.join(tmp, "search")
        tl_s = run(["--generator", "treeless", "--model", MODEL, "--out", tl_dir, "--games", str(args.games),
                    "--value-playouts", str(args.value_playouts), "-j", str(args.jobs), "--seed", str(args.seed),
                    "--games-per-shard", str(max(1, args.games // (4 * args.jobs)))])
        search_s = run(["--model", MODEL, "--out", search_dir, "--games", str(args.search_games), "--iterations",
                        "400", "-j", str(args.jobs), "--seed", str(args.seed), "--games-per-shard", "1"])
        tl_rows, search_rows = rows(tl_dir), rows(search_dir)
    tl_rate, search_rate = args.games / tl_s * 3600, args.search_games / search_s * 3600
    print(json.dumps({
        "bench": "selfplay", "jobs": args.jobs, "cpus": os.cpu_count(), "model": os.path.basename(MODEL),
        "treeless_games": args.games, "treeless_seconds": round(tl_s, 1), "value_playouts": args.value_playouts,
        "selfplay_games_per_hour": round(tl_rate), "rows_per_hour": round(tl_rows / tl_s * 3600),
        "search_games": args.search_games, "search_seconds": round(search_s, 1),
        "search_games_per_hour": round(search_rate), "search_rows_per_hour": round(search_rows / search_s * 3600),
        "games_ratio": round(tl_rate / search_rate, 1)}))


if __name__ == "__main__":
    main()
