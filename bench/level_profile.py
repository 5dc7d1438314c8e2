"""The mistake profile of each strength level (issue 43, docs/search.md "Mistake profile", D143): the review's
judge (search/review.py with search/coach.py's review_options, what AnalyzeGame uses) on the level's own
games from its ladder, one seat reviewed a game.

For each level: the share of its decisions (forced ones left out) classed inaccuracy, mistake and blunder
(search/hints.py thresholds), and its absurd moves, defined from the rules by each game's adapter
(engine_c.contract.GameAdapter.absurd; default: a move the adapter calls senseless):
- SpellBook: a `pass` in a Morning or an Evening while a take, a draw or a learn was legal, which the judge
  rates 20+ points of win probability worse than its best move;
- Abracada…What?: a move the adapter calls senseless (announcing a spell of which no stone can be in one's
  hand, or ending the turn while a cast is certain to succeed: `senseless_moves`).
`absurd_rate` is per decision; `absurd_per_game` per game.

    PYTHONPATH=. .venv/bin/python -m bench.level_profile --game spellbook --games 4 --out data/level-profile.json

Reviewed games go to OUT's .jsonl beside it, one line a (game, seat); a run resumes from them (a game replayed by
the ladder after its level changed is reviewed again: the line names what the level searched with, D231-f). The server
reports the table in GetServerInfo/GetRules (server/levels_info.py reads data/level-profile*.json).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys
import time

from engine_c.registry import DEFAULT_GAME, GAMES


def level_games(records: list[dict], level: int, games: int) -> list[tuple[dict, int]]:
    """The first `games` (record, seat) of the ladder's games where `ismcts:level=L` plays a seat."""
    spec = f"ismcts:level={level}"
    out = []
    for rec in records:
        seats = [s.get("spec") for s in rec.get("seats", [])]
        if spec in seats and not rec.get("result", {}).get("unfinished"):
            out.append((rec, seats.index(spec)))
            if len(out) >= games:
                break
    return out


def played_with(rec: dict, seat: int) -> str | None:
    """What the level at `seat` searched with, as the ladder recorded it with the game (None in older files)."""
    spec = rec["seats"][seat].get("spec")
    return (rec.get("tournament", {}).get("evaluation") or {}).get(spec)


def review_one(rec: dict, seat: int, iterations: int | None) -> dict:
    from engine_c.records import replayed
    from search.coach import review_record

    review, rp = review_record(replayed(rec), iterations=iterations, seat=seat, key_moments=0)
    adapter = rp.game.adapter
    counts = {c: 0 for c in ("best", "good", "inaccuracy", "mistake", "blunder")}
    bad = 0
    for d in review.decisions:
        counts[d.mistake] += 1
        state = rp.steps[d.index][0]
        bad += adapter.absurd(state, d.played, d.loss_win)
    row = {"key": rec.get("tournament", {}).get("key", ""), "seat": seat, "decisions": len(review.decisions),
           "classes": counts, "absurd": bad}
    if played_with(rec, seat):
        row["evaluation"] = played_with(rec, seat)
    return row


def summarize(rows: list[dict]) -> dict:
    n = sum(r["decisions"] for r in rows)
    cls = {c: sum(r["classes"][c] for r in rows) for c in ("inaccuracy", "mistake", "blunder")}
    bad = sum(r["absurd"] for r in rows)
    return {"games": len(rows), "decisions": n,
            **{f"{c}_share": round(cls[c] / n, 4) if n else 0.0 for c in cls},
            "absurd_rate": round(bad / n, 4) if n else 0.0, "absurd_moves": bad,
            "absurd_per_game": round(bad / len(rows), 3) if rows else 0.0}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=DEFAULT_GAME, help=f"the game: {', '.join(GAMES)}")
    p.add_argument("--ladder", default=None, help="the ladder table whose games are reviewed (default: the game's)")
    p.add_argument("--levels", default="1-10")
    p.add_argument("--games", type=int, default=4, help="games reviewed a level (one seat each)")
    p.add_argument("--iterations", type=int, default=None, help="the review search's budget (default: the review's)")
    p.add_argument("--out", default=None, help="default: data/level-profile.json (data/level-profile-NAME.json)")
    a = p.parse_args(argv)
    from clients.ladder import default_out, parse_levels
    from clients.tournament import load_records
    from engine_c.registry import get_game

    game = get_game(a.game)
    ladder = a.ladder or default_out(game.name)
    out = a.out or os.path.join(os.path.dirname(ladder), os.path.basename(ladder).replace("ladder", "level-profile", 1))
    with open(ladder, encoding="utf-8") as f:
        table = json.load(f)
    records = load_records(table["settings"]["results"])
    cache_path = os.path.splitext(out)[0] + ".jsonl"
    done: dict[tuple[str, int], dict] = {}
    if os.path.exists(cache_path):
        for line in open(cache_path, encoding="utf-8"):
            r = json.loads(line)
            done[(r["key"], r["seat"], r["level"], r.get("evaluation"))] = r
    levels_out = []
    start = time.monotonic()
    with open(cache_path, "a", encoding="utf-8") as cache:
        for level in parse_levels(a.levels):
            rows = []
            for rec, seat in level_games(records, level, a.games):
                key = (rec.get("tournament", {}).get("key", ""), seat, level, played_with(rec, seat))
                if key not in done:
                    row = dict(review_one(rec, seat, a.iterations), level=level)
                    cache.write(json.dumps(row) + "\n")
                    cache.flush()
                    done[key] = row
                rows.append(done[key])
            s = summarize(rows)
            levels_out.append({"level": level, **s})
            print(f"level {level:2d}: {s['games']} games, {s['decisions']} decisions: inaccuracy "
                  f"{s['inaccuracy_share']:.1%} mistake {s['mistake_share']:.1%} blunder {s['blunder_share']:.1%} "
                  f"absurd {s['absurd_rate']:.1%} ({s['absurd_per_game']:.2f} a game)  [{time.monotonic() - start:.0f}s]",
                  flush=True)
    result = {"description": "Mistake profile of each level on its own ladder games (bench/level_profile.py): "
                             "shares of its unforced decisions per class by the review's judge; absurd moves "
                             "as defined there, per decision (absurd_rate) and per game",
              "game": game.name, "ladder": ladder, "evaluation": table["settings"].get("evaluation"),
              "games_per_level": a.games, "review_iterations": a.iterations or "the review's default",
              "levels": levels_out,
              "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
