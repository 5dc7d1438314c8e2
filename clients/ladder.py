"""`spellbook-ai ladder`: measure the strength levels against each other and write a level -> Elo table.

The ladder is a chain: `random`, then `ismcts:level=L` for the chosen levels with the game's heuristic bot
(`greedy`, `counting`) after level 3 (D141). Each bot meets the next `--span` bots up the chain in two-seat
duplicate games (so neighbouring levels, whose difference matters most, meet directly; the two levels either
side of the heuristic meet too), and one Bradley-Terry fit over all games gives each level its Elo ± 95%,
anchored at the heuristic = 1000 (its interval is relative to the heuristic; the random bot is rated in the
table too). The table goes to a JSON file (default data/ladder.json) that the server's GetServerInfo
reports; the games go to a JSONL file beside it, so `--resume` continues an interrupted ladder.

The defaults are the shipped tables' settings (levels 1-10, 80 games a pair of neighbouring levels: at 8
games a pair, or with each level also meeting the one two up the chain, neighbouring levels' intervals
overlapped by hundreds of Elo; at 40 a step of +100 Elo reads below +30 one time in ten, D104; a game's close
pairs more, its adapter's `ladder_pair_games` or `--pair-games 9-10=400`: Abracada…What?'s levels 6-10,
D230-f, D231-f), so `spellbook-ai ladder` in the repository root re-fits data/ladder.json from the games already in
data/ladder.jsonl (seconds) and plays only the games missing. A new ladder goes elsewhere: `--levels 1-4
--games 4 --out /tmp/ladder/ladder.json` takes seconds on one core; the full default ladder about 7
minutes with `-j 2` (SpellBook's level 10 searches about 50 ms a move; 960 games in 174 s with -j 1 since D140).

A level's strength depends on the evaluation behind it: the default model's version (or "rollout" without
one) and that level's own search options. Each game the ladder plays records its levels' (the record's
`tournament.evaluation`: {bot spec: model and a digest of that level's options}, `level_evaluations`), and
the table records them too (`settings.level_evaluations`, and for the record `settings.evaluation`, a
digest of all ten); a game of an older file, without its own, counts as played with what its table records
(for a table older than that, with today's levels only while its digest of all ten is today's). Games played
under another evaluation are never mixed into a table: re-fitting or resuming a ladder with such games is
refused with a message naming each changed level, what its games were played with and what it uses now,
and the pairs they make stale (D231-f). `--replay-changed` removes those games from the results and plays
their pairs again, so a change of one level replays only the pairs it plays (two for a level on the chain,
with span 1), and the other pairs' games stay as they were; a new model changes every level, and with it
every pair.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import sys
import time

from clients import tournament as T
from engine_c.records import game_of
from clients.args import add_game_flags, game_flag
from engine_c.registry import DEFAULT_GAME, get_game

ANCHOR = "random"
DEFAULT_OUT = os.path.join("data", "ladder.json")
# The fixed heuristic bot of each game (its adapter's `heuristic_bot`), a rung of its ladder and the yardstick
# its Elo is read against (D141): the table's Elo is the Bradley-Terry fit with the heuristic at HEURISTIC_ELO,
# each interval the uncertainty relative to it. It stands between the levels its adapter's `heuristic_after`
# names and the next (3 and 4 unless the game says otherwise), and those two levels also meet directly, so
# every pair of neighbouring levels plays.
HEURISTIC_ELO = 1000.0


def heuristic_bot(game: str = DEFAULT_GAME) -> str:
    """The bot spec of a game's fixed heuristic (engine_c.contract.GameAdapter.heuristic_bot: `greedy` unless
    the game names its own, as Abracada…What?'s `counting`)."""
    return get_game(game).adapter.heuristic_bot


def parse_levels(text: str) -> list[int]:
    """`1-6`, `1,3,5`, `2-4,7`: strength levels 1..10, ascending, no repeats."""
    levels: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, dash, hi = part.partition("-")
        try:
            rng = range(int(lo), int(hi) + 1) if dash else [int(lo)]
        except ValueError:
            raise ValueError(f"levels: {part!r} is not a level or a range like 1-6") from None
        levels.update(rng)
    bad = [lv for lv in levels if not 1 <= lv <= 10]
    if bad or not levels:
        raise ValueError(f"levels must be within 1-10, got {text!r}")
    return sorted(levels)


GAMES_PER_PAIR = 80
SPAN = 1


def level_spec(level: int, server: str = "", game: str = DEFAULT_GAME) -> str:
    """The bot spec of a level: the local search (`ismcts:level=L`), or a server's bot at that level
    (`grpc://HOST:PORT?level=L&game=NAME`, clients/bots.py) when the ladder rates a server's levels."""
    if not server:
        return f"ismcts:level={level}"
    return f"grpc://{server}?level={level}&game={get_game(game).name}"


def ladder_tables(levels: list[int], span: int = SPAN, server: str = "",
                  game: str = DEFAULT_GAME) -> tuple[list[str], list[tuple[str, str]]]:
    """The chain (random, the levels in order with the game's heuristic after level `heuristic_after`, or
    first when no chosen level is that low) and its tables: each bot meets the next `span` up the chain,
    and the two levels either side of the heuristic meet too."""
    specs = [level_spec(lv, server, game) for lv in levels]
    after = get_game(game).adapter.heuristic_after
    at = sum(1 for lv in levels if lv <= after)
    chain = [ANCHOR] + specs[:at] + [heuristic_bot(game)] + specs[at:]
    tables = [(chain[i], chain[j]) for i in range(len(chain)) for j in range(i + 1, min(i + span, len(chain) - 1) + 1)]
    if 0 < at < len(specs) and span == 1:
        tables.insert(at + 1, (specs[at - 1], specs[at]))
    return chain, tables


def ladder_table(summary: dict, levels: list[int], settings: dict) -> dict:
    """The table from a fit anchored at the heuristic (its Elo 0 there, HEURISTIC_ELO here)."""
    by_name = {x["name"]: x for x in summary["rating_table"]}
    chain = [b["name"] for b in summary["bots"]]          # the ladder's order (summarize's bots)
    game = game_of(settings)          # a table written before the game was named is the unnamed game's
    heuristic = heuristic_bot(game)

    def row(x: dict) -> dict:
        return {"elo": round(x["elo"] + HEURISTIC_ELO, 1), "lo": round(x["lo"] + HEURISTIC_ELO, 1),
                "hi": round(x["hi"] + HEURISTIC_ELO, 1), "pm": round(x["pm"], 1), "games": x["games"]}

    rows = [{"level": lv, **row(by_name[level_spec(lv, settings.get("server", ""), game)])}
            for lv in levels]
    return {
        "description": f"Elo of each strength level (logistic Elo, Bradley-Terry fit of two-seat duplicate "
                       f"games) with the heuristic bot {heuristic} at {HEURISTIC_ELO:g}; lo/hi: 95% interval "
                       f"relative to it",
        "anchor": f"{heuristic} = {HEURISTIC_ELO:g}",
        "heuristic": {"name": heuristic, **row(by_name[heuristic])},
        "random": {"name": ANCHOR, **row(by_name[ANCHOR])},
        "levels": rows,
        "games": summary["games"],
        "pairs": [_pair_row(p) for p in sorted(summary["pairs"], key=lambda p: (chain.index(p["a"]),
                                                                               chain.index(p["b"])))],
        "settings": settings,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def _pair_row(pair: dict) -> dict:
    """A pair's line of the table: its games and the first bot's score (`a`: the lower on the chain), with the
    score's 95% interval (lo, hi); and, when its duplicate pairs give one, the second bot's view: its Elo over
    the first with the 95% interval (`elo_b`, `elo_b_95`) and its pentanomial (`pentanomial_b`: the deals
    where it scored 0, 0.5, 1, 1.5, 2 of the two games), as `spellbook-ai tournament` reads them."""
    row = {k: pair[k] for k in ("a", "b", "games", "score", "rate", "lo", "hi")}
    elo = pair.get("elo") or {}
    if "pentanomial" in pair and not elo.get("too_few") and all(map(math.isfinite, (elo["lo"], elo["hi"]))):
        row.update(elo_b=round(-elo["elo"], 1), elo_b_95=[round(-elo["hi"], 1), round(-elo["lo"], 1)],
                   pentanomial_b=pair["pentanomial"][::-1])
    return row


def load_ladder(path: str = DEFAULT_OUT) -> dict[int, float]:
    """level -> Elo from a ladder file."""
    return {level: elo for level, (elo, _pm) in load_ladder_table(path).items()}


def load_ladder_table(path: str = DEFAULT_OUT) -> dict[int, tuple[float, float]]:
    """level -> (Elo, half-width of its 95% interval) from a ladder file (for GetServerInfo)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return {int(row["level"]): (float(row["elo"]), float(row.get("pm", 0.0))) for row in data["levels"]}


def default_out(game: str = DEFAULT_GAME) -> str:
    """Where a game's ladder table goes by default, what GetServerInfo reads: its declared table
    (Declaration.ladder: data/ladder-NAME.json unless the game names another, as SpellBook's data/ladder.json)."""
    return get_game(game).ladder


def _model_name(adapter) -> str:
    """The default model's version, or "rollout" when the levels use none."""
    from search.model import default_model

    model = default_model(adapter)
    return model.version if model is not None and model.use_by_default else "rollout"


def _written_options(level: int, adapter) -> dict:
    """A level's search options as its digest reads them: options at their zero value (False, 0, "") are left
    out, so adding an option that is off by default keeps a table valid, while changing any level's value, or
    any default a level uses, does not."""
    import dataclasses

    from search.levels import level_options

    return {k: v for k, v in _as_written(dataclasses.asdict(level_options(level, game=adapter))).items()
            if v not in (False, 0, "", None)}


def _digest(data) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:8]


def current_evaluation(game: str = DEFAULT_GAME, server: str = "") -> str:
    """What the levels search with now: the default model's version ("rollout" when none is used) and a
    digest of the ten levels' search options (the table's `settings.evaluation`, a summary; what decides
    whether a game is stale is each level's own, `level_evaluations`). The game is named in front, except the
    game older files leave unnamed (Declaration.unnamed_in_older_files: its tables' evaluations stay as
    written). A server's levels (`server`) are what that server plays: its address stands for them (its model
    is the server's business)."""
    g = get_game(game)
    named = "" if g.unnamed_in_older_files else f"{g.name} "
    if server:
        return f"{named}server {server}"
    options = [_written_options(lv, g.adapter) for lv in range(1, 11)]
    return f"{named}{_model_name(g.adapter)} levels-{_digest(options)}"


def level_evaluations(levels, game: str = DEFAULT_GAME, server: str = "") -> dict[int, str]:
    """What each level searches with now, on its own (D231-f): the default model's version (or "rollout") and a
    digest of that level's search options alone, the game named in front as in current_evaluation; a server's
    levels, its address. A ladder's games record their levels' (GameTask.evaluation), so a change of one level
    makes stale only the games that level played: a re-spaced top replays only the pairs that touch it."""
    g = get_game(game)
    if server:
        return {lv: current_evaluation(game, server) for lv in levels}
    named = "" if g.unnamed_in_older_files else f"{g.name} "
    head = f"{named}{_model_name(g.adapter)}"
    return {lv: f"{head} level-{_digest(_written_options(lv, g.adapter))}" for lv in levels}


class StaleGamesError(ValueError):
    """A ladder's results hold games whose levels searched otherwise than the levels do now."""


def recorded_evaluations(settings: dict | None, game: str = DEFAULT_GAME, server: str = "") -> dict[str, str] | None:
    """{level's bot spec: evaluation} the games without their own record of it (older files) were played with:
    the table's `level_evaluations`; for a table written before those (D231-f), today's when its evaluation of
    all ten levels is today's; None when neither says (no table, or a table of other levels or another model)."""
    if settings is None:
        return None
    recorded = settings.get("level_evaluations")
    if recorded:
        return {level_spec(int(lv), server, game): ev for lv, ev in recorded.items()}
    if settings.get("evaluation") == current_evaluation(game, server):
        return {level_spec(lv, server, game): ev for lv, ev in level_evaluations(range(1, 11), game, server).items()}
    return None


def changed_levels(record: dict, current: dict[str, str], recorded: dict[str, str] | None) -> dict[str, str | None]:
    """{bot spec: what it played with (None: unrecorded)} for each level seated in `record` whose evaluation is
    not its `current` one: the record's own (`tournament.evaluation`), else the table's `recorded`."""
    played = (record.get("tournament") or {}).get("evaluation") or recorded or {}
    return {s: played.get(s) for s in T.game_row(record)["seats"] if s in current and played.get(s) != current[s]}


def _as_written(options: dict) -> dict:
    """Search options as the digests of the tables already written spell them: an option renamed without a
    change of the search keeps its earlier spelling there. `observer_kind` 0 (D240) was `knows_discard`
    True, the seat as the rules make it; any other kind was `knows_discard` False."""
    out = dict(options)
    out["knows_discard"] = out.pop("observer_kind", 0) == 0
    return out


def parse_pair_games(text: str) -> dict[tuple[int, int], int]:
    """`8-9=400,9-10=400`: games for pairs of levels that meet on the ladder, beyond --games (none: "")."""
    out: dict[tuple[int, int], int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        pair, eq, count = part.partition("=")
        lo, dash, hi = pair.partition("-")
        try:
            if not (eq and dash):
                raise ValueError
            key, n = (int(lo), int(hi)), int(count)
        except ValueError:
            raise ValueError(f"--pair-games: {part!r} is not a pair of levels and its games, like 9-10=400") from None
        if n < 1 or key[0] >= key[1]:
            raise ValueError(f"--pair-games: {part!r} needs a lower level first and at least 1 game")
        out[key] = n
    return out


def table_games(tables: list[tuple[str, str]], games: int, pair_games: dict[tuple[int, int], int],
                server: str = "", game: str = DEFAULT_GAME) -> list[int]:
    """Each table's games: `pair_games` for the pairs of levels it names, `games` for the others. ValueError
    names a pair that does not meet on this ladder."""
    index = {(a, b): i for i, (a, b) in enumerate(tables)}
    counts = [games] * len(tables)
    for (lo, hi), n in pair_games.items():
        at = index.get((level_spec(lo, server, game), level_spec(hi, server, game)))
        if at is None:
            raise ValueError(f"--pair-games {lo}-{hi}: levels {lo} and {hi} do not meet on this ladder")
        counts[at] = n
    return counts


def default_pair_games(levels: list[int], game: str = DEFAULT_GAME) -> dict[tuple[int, int], int]:
    """The game's own games for its close pairs (GameAdapter.ladder_pair_games), those whose levels are rated."""
    own = get_game(game).adapter.ladder_pair_games
    return {(a, b): n for (a, b), n in own.items() if a in levels and b in levels}


def _pair_text(pair_games: dict[tuple[int, int], int]) -> dict[str, int]:
    return {f"{a}-{b}": n for (a, b), n in sorted(pair_games.items())}


def drop_changed_games(tasks: list[T.GameTask], results: str, recorded: dict[str, str] | None,
                       current: dict[str, str], replay: bool, table_said: str = "", now: str = "") -> int:
    """Finds the games of the scheduled `tasks` in `results` whose levels searched otherwise than they do now
    (changed_levels). None: 0. Otherwise StaleGamesError says which levels and pairs, unless `replay`: then
    those games leave the file (the others keep their lines as written) and their number is returned, so the
    ladder plays their pairs again. `table_said`, `now`: the evaluation of all levels the table records and
    today's, for the message when the table records no level's own."""
    matchup = {t.key: t.matchup for t in tasks}
    tables = {t.matchup: t.seats for t in tasks if t.rotation == 0}
    stale: dict[int, dict[str, str | None]] = {}
    pairs: set[int] = set()
    records = T.load_records(results, repair=True)
    for i, rec in enumerate(records):
        key = T.game_row(rec).get("key")
        if key in matchup:
            changed = changed_levels(rec, current, recorded)
            if changed:
                stale[i] = changed
                pairs.add(matchup[key])
    if not stale:
        return 0
    if not replay:
        raise StaleGamesError(_stale_message(stale, [tables[m] for m in sorted(pairs)], results, current,
                                             "" if recorded is not None else f"{table_said or 'none'}, now {now}"))
    with open(results, "rb") as f:
        lines = [line for line in f.read().splitlines(keepends=True) if line.strip()]
    kept = [line for i, line in enumerate(lines) if i not in stale]
    with open(results + ".tmp", "wb") as f:
        f.writelines(kept)
    os.replace(results + ".tmp", results)
    return len(stale)


def _stale_message(stale: dict[int, dict[str, str | None]], pairs: list[tuple[str, ...]], results: str,
                   current: dict[str, str], unrecorded: str) -> str:
    """Which levels changed (what their games were played with, what they use now) and which pairs that makes
    stale, and the two ways on."""
    then: dict[str, set] = {}
    for changed in stale.values():
        for spec, ev in changed.items():
            then.setdefault(spec, set()).add(ev or "unrecorded")
    levels = "; ".join(f"{spec}: {', '.join(sorted(then[spec]))}, now {current[spec]}" for spec in sorted(then))
    why = f" (their table records no level's own evaluation; for all its levels: {unrecorded})" if unrecorded else ""
    return (f"{len(stale)} games in {results} were played with other search options or another model than the "
            f"levels use now ({levels}){why}; the pairs {', '.join(' vs '.join(p) for p in pairs)}: pass "
            f"--replay-changed to play those pairs again (their earlier games leave the file), or --out "
            f"DIR/ladder.json for a new table")


def run_ladder(levels: list[int], games: int = GAMES_PER_PAIR, span: int = SPAN, seed: int = 0,
               setup: str | None = None, jobs: int = 1, executor: str | None = None, out: str = DEFAULT_OUT,
               results: str | None = None, resume: bool = False, progress: bool | None = None,
               game: str = DEFAULT_GAME, options: dict[str, str] | None = None, server: str = "",
               pair_games: dict[tuple[int, int], int] | None = None, replay_changed: bool = False) -> dict:
    """Plays the ladder's games missing from `results` and writes its table to `out`. `setup`: the text of the
    game's setup flag (None: its default), `options` its further setup flags (clients/tournament.py schedule);
    `pair_games`: {(level, level): games} for pairs that play other than `games` (None: the game's own,
    default_pair_games). Resuming, games whose levels searched otherwise than now (another model, other
    options of either level) are refused with StaleGamesError, or with `replay_changed` removed from `results`
    and played again: only the pairs a changed level plays."""
    chain, tables = ladder_tables(levels, span, server, game)
    results = results or os.path.splitext(out)[0] + ".jsonl"
    pair_games = default_pair_games(levels, game) if pair_games is None else pair_games
    evaluations = level_evaluations(levels, game, server)
    current = {level_spec(lv, server, game): ev for lv, ev in evaluations.items()}
    tasks = T.schedule_tables(tables, games, seed, setup, game, options,
                              table_games=table_games(tables, games, pair_games, server, game), evaluations=current)
    dropped = 0
    if resume and os.path.exists(results):
        old = _table_settings(out)
        dropped = drop_changed_games(tasks, results, recorded_evaluations(old, game, server), current, replay_changed,
                                     (old or {}).get("evaluation", ""), current_evaluation(game, server))
    with T.make_executor(executor, jobs) as ex:
        run = T.run_tournament(tasks, results, ex.executor, slots=ex.slots, resume=resume, progress=progress)
    summary = T.summarize(run.records, bots=chain, anchor=heuristic_bot(game))
    settings = {"levels": levels, "games_per_pair": games, "span": span, "seed": seed,
                **({"pair_games": _pair_text(pair_games)} if pair_games else {}),
                **dict(tasks[0].flags), "evaluation": current_evaluation(game, server),
                "level_evaluations": {str(lv): ev for lv, ev in evaluations.items()}, "results": results,
                "game": get_game(game).name, "heuristic": heuristic_bot(game)}
    if server:
        settings["server"] = server
    table = ladder_table(summary, levels, settings)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    return {"table": table, "summary": summary, "run": run, "dropped": dropped}


def _table_settings(out: str) -> dict | None:
    """The settings of the table at `out` (None: no readable table there)."""
    try:
        with open(out, encoding="utf-8") as f:
            return json.load(f).get("settings", {})
    except (OSError, ValueError):
        return None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--levels", default="1-10", help="levels to rate: a range or list, e.g. 1-10 or 1,3,5,7")
    p.add_argument("--games", type=int, default=GAMES_PER_PAIR, help="games per pair (both seat orders of each deal)")
    p.add_argument("--span", type=int, default=SPAN, help="each bot meets the next SPAN bots up the chain")
    p.add_argument("--seed", type=int, default=0, help="seed of the first deal")
    add_game_flags(p)
    p.add_argument("-j", "--jobs", type=int, default=1, help="concurrent games")
    p.add_argument("--executor", default=None, help="process (None), inline, or dask://scheduler:8786")
    p.add_argument("--out", default=None, help="the level -> Elo table (JSON; default: the game's own table, "
                                                 "data/ladder-GAME.json, or the one it declares)")
    p.add_argument("--results", default=None, help="the games (JSONL; None: beside --out)")
    p.add_argument("--resume", action="store_true", help="add to the games already in --results")
    p.add_argument("--pair-games", default=None, metavar="PAIRS",
                   help="games for pairs of levels beyond --games, e.g. 9-10=400,8-9=400 (default: the game's own "
                        "close pairs; \"\" for none)")
    p.add_argument("--replay-changed", action="store_true",
                   help="play again the pairs of levels whose search options or model changed since their games "
                        "(their earlier games leave --results); without it such games are refused")
    p.add_argument("--no-progress", action="store_true", help="no progress line")
    p.add_argument("--server", default="", metavar="HOST:PORT",
                   help="rate a server's levels (its bots over gRPC, either game) instead of the local search's; "
                        "the table must then go elsewhere than the shipped one (--out)")


def main(args: argparse.Namespace) -> int:
    from clients.args import given_setup_flags

    try:
        game = game_flag(args.game).name
        setup, options = given_setup_flags(args, game)
        levels = parse_levels(args.levels)
        if args.span < 1 or args.games < 1:
            raise ValueError("--span and --games must be at least 1")
        server = getattr(args, "server", "") or ""
        if server and not args.out:
            raise ValueError("--server rates another server's levels: give the table its own --out")
        pair_games = default_pair_games(levels, game) if args.pair_games is None else parse_pair_games(args.pair_games)
        table_games(ladder_tables(levels, args.span, server, game)[1], args.games, pair_games, server, game)
        # a bad --game or setup flag, or a server that does not answer, before any game
        flags = T.setup_flags(game, setup, options)
        made = T.game_setup(game, setup, options)
        T.preflight([ANCHOR] + ([level_spec(levels[0], server, game)] if server else []), 2, game, made)
        args.out = args.out or default_out(game)
    except ValueError as e:
        print(f"spellbook-ai ladder: {e}", file=sys.stderr)
        return 2
    start = time.monotonic()
    results = args.results or os.path.splitext(args.out)[0] + ".jsonl"
    resume = args.resume
    if os.path.exists(results) and os.path.getsize(results) > 0:
        settings = {"levels": levels, "games_per_pair": args.games, "span": args.span, "seed": args.seed,
                    "pair_games": _pair_text(pair_games), **dict(flags), "heuristic": heuristic_bot(game)}
        # a table written before a setup flag was recorded was played with that flag's default (and one
        # written before pair games, with none); whether its levels still search so, run_ladder checks
        defaults = {**dict(T.setup_flags(game)), "pair_games": {}}
        old = _table_settings(args.out)
        if not resume:
            if old is not None and all(old.get(k, defaults.get(k)) == v for k, v in settings.items()):
                print(f"{results} holds this ladder's games: re-fitting {args.out} from them (and playing any "
                      f"missing)")
                resume = True
            else:
                print(f"spellbook-ai ladder: {results} holds the games of another ladder (see {args.out}): pass "
                      f"--out DIR/ladder.json for a new table, or --resume to add these games to it",
                      file=sys.stderr)
                return 2
    try:
        res = run_ladder(levels, args.games, args.span, args.seed, setup, args.jobs, args.executor, args.out,
                         args.results, resume, progress=False if args.no_progress else None, game=game,
                         options=options, server=server, pair_games=pair_games, replay_changed=args.replay_changed)
    except (FileExistsError, StaleGamesError) as e:
        print(f"spellbook-ai ladder: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: run again with --resume to continue", file=sys.stderr)
        return 130
    table = res["table"]
    if res["dropped"]:
        print(f"removed {res['dropped']} games of changed levels from {results} and played "
              f"their pairs again")
    print(f"ladder: {table['games']} games in {time.monotonic() - start:.1f}s; {table['anchor']} Elo "
          f"({ANCHOR}: {table['random']['elo']:+.1f})")
    for row in table["levels"]:
        print(f"  level {row['level']:2d}: {row['elo']:+7.1f}  [{row['lo']:+7.1f}, {row['hi']:+7.1f}]  "
              f"({row['games']} games)")
    print(f"wrote {args.out}")
    return 0
