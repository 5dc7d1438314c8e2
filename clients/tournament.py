"""`spellbook-ai tournament`: bots against bots in the duplicate format, with ratings.

    spellbook-ai tournament random greedy ismcts:level=5 --games 100 -j 2 --out results.jsonl

Schedule. A *matchup* is a set of bots around one table (2-4 seats): every combination of the bots
(round-robin) or the first bot against every combination of the others (gauntlet). A *deal* is a game
seed; each deal is played once per seat rotation of the matchup, so every bot sits in every seat with
the same draws (the state's seeded generator draws the Pouch; the seed is the same for each rotation)
and the luck of the Pouch cancels. All matchups share the deals. `--games N` is the number of games per
matchup, rounded up to whole rotations.

Setup. `--game` and the game's setup flags, as its terminal takes them (clients/args.py: every game's setup
field and further flags, `--spells set2`, `--variants xv1`, `--decks fire_shock,frost_ward --cards FILE`),
read once by the game's record module (engine_c.contract.command_setup) and refused before any game when
bad; every game of the tournament is set up so, and its record carries the flags (D211).

Running. Games run on a `concurrent.futures.Executor`: in-process (-j 1), a spawn process pool (-j N)
or a Dask cluster (`--executor dask://host:8786`, always pure=False). Each finished game is appended to
the JSONL file at once as a game record (docs/records.md: every move and draw, so it replays exactly and
`spellbook-ai review FILE --game N` reviews it; the tournament's own fields are under "tournament");
`--resume` skips the games already in the file. With two bots and two seats, `--sprt ELO0 ELO1` stops
the match early as soon as the sequential test decides.

Results. Per pair of bots, one Elo with its 95% interval: from the duplicate pairs (pentanomial, counting
the shared deal's correlation as fishtest does) when both seat orders of a deal were played, else from
the games; with LOS and PairsRatio as fastchess prints them, and DrawRatio as drawn games / games (never
fastchess's pairs scoring 1 of 2: a pair split by two decisive games is no draw, D156). Fewer than
ratings.MIN_RATED_GAMES games (or every game or pair alike) are "too few games to rate": no Elo is printed.
Then the rating table of all bots: one Bradley-Terry fit of every pairwise result (3-4 seat games give
several per game; the table counts games; its intervals treat results as independent). The SPRT
line gives the measured Elo with its interval and the LLR against its bounds; with 3-4 seats, openskill
Plackett-Luce ratings. `--plots DIR` writes PNGs (needs matplotlib: the `plots` extra).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterator, Sequence

from clients import ratings as R
from engine_c.registry import DEFAULT_GAME
from search.arena import MAX_DECISIONS, play_game


# ----------------------------------------------------------------------------------------------
# Schedule
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameTask:
    key: str
    matchup: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    game: str = DEFAULT_GAME              # engine_c/registry.py's name
    # the game's setup as its record module's `new` takes it: the command line's setup flags read by
    # engine_c.contract.command_setup (plain data: a worker reads no file the flags named)
    setup: Any = None
    # the setup flags as the command line gave them, (name, text) each: the game's setup flag (--spells,
    # --variants, --decks) and its further flags given (--cards): the tournament's own fields of each record
    flags: tuple[tuple[str, str], ...] = ()
    # what each seated level searched with, (bot spec, evaluation) each (a ladder's games, clients/ladder.py
    # level_evaluations): recorded with the game so a later change of one level makes only its games stale
    evaluation: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict:
        d = asdict(self)
        d["seats"] = list(self.seats)
        return d


def game_key(seats: Sequence[str], seed: int, setup: str, game: str = DEFAULT_GAME,
             options: Sequence[tuple[str, str]] = ()) -> str:
    """A game's key in the results file: its seats, deal seed and setup flags (the setup flag's text, then each
    further flag given as `#name=text`), behind the game's name (`abracadawhat:`) except for the game older
    files leave unnamed (Declaration.unnamed_in_older_files), whose keys stay as they were written."""
    from engine_c.registry import get_game

    g = get_game(game)
    key = f"{'|'.join(seats)}#{seed}#{setup}" + "".join(f"#{name}={text}" for name, text in options)
    return key if g.unnamed_in_older_files else f"{g.name}:{key}"


def seat_range(game: str = DEFAULT_GAME) -> range:
    """The player counts a game allows (SpellBook 2-4, Abracada…What? 2-5); ValueError for an unknown game."""
    from engine_c.registry import get_game

    g = get_game(game)
    return range(g.min_players, g.max_players + 1)


def setup_flags(game, setup: str | None = None, options: dict[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """The setup flags of a game's tournament as (name, text): the setup flag (its declared default when `setup`
    is None) and each further flag (Declaration.flags) whose text is not its default. ValueError names a flag
    the game does not have."""
    from engine_c.registry import get_game

    g = get_game(game)
    defaults = {name: default for name, default, _ in g.flags}
    unknown = sorted(set(options or {}) - set(defaults))
    if unknown:
        raise ValueError(f"--{unknown[0]}: {g.title} has no such setup flag")
    text = g.setup_default if setup is None else setup
    head = ((g.setup, text),) if g.setup else ()
    return head + tuple((name, str(value)) for name, value in (options or {}).items() if value != defaults[name])


def matchups(bots: Sequence[str], seats: int, fmt: str, game: str = DEFAULT_GAME) -> list[tuple[str, ...]]:
    if len(set(bots)) != len(bots):
        raise ValueError("each bot may be named once (give a different spec to enter a second copy)")
    allowed = seat_range(game)
    if seats not in allowed:
        raise ValueError(f"seats must be {allowed.start} to {allowed.stop - 1}, got {seats}")
    if fmt == "roundrobin":
        if len(bots) < seats:
            raise ValueError(f"a {seats}-seat round-robin needs at least {seats} bots, got {len(bots)}")
        return list(itertools.combinations(bots, seats))
    if fmt == "gauntlet":
        if len(bots) < seats:
            raise ValueError(f"a {seats}-seat gauntlet needs the challenger and at least {seats - 1} others")
        return [(bots[0],) + rest for rest in itertools.combinations(bots[1:], seats - 1)]
    raise ValueError(f"format must be roundrobin or gauntlet, got {fmt!r}")


def game_setup(game, setup: str | None = None, options: dict[str, str] | None = None) -> Any:
    """The setup a GameTask carries: the setup flag's text (None: the game's default) and its further flags
    read by the game's record module (engine_c.contract.command_setup); ValueError names the flag."""
    from engine_c.contract import command_setup
    from engine_c.registry import get_game

    g = get_game(game)
    return command_setup(g.record)(g.setup_default if setup is None else setup, **(options or {}))


def schedule(bots: Sequence[str], games: int, seats: int = 2, fmt: str = "roundrobin", seed: int = 0,
             setup: str | None = None, game: str = DEFAULT_GAME, options: dict[str, str] | None = None) -> list[GameTask]:
    """Every game of the tournament, ordered deal by deal (so partial results stay balanced and a
    duplicate pair's two games finish close together). `game`: a name of engine_c/registry.py; `setup`: the
    text of its setup flag (SpellBook's spells, Abracada…What?'s variants, the Spellbook TCG's decks; None:
    the game's default), `options` its further setup flags by name (the TCG's `cards`); ValueError names a
    flag whose value the game refuses."""
    return schedule_tables(matchups(bots, seats, fmt, game), games, seed, setup, game, options)


def schedule_tables(tables: Sequence[Sequence[str]], games: int, seed: int = 0, setup: str | None = None,
                    game: str = DEFAULT_GAME, options: dict[str, str] | None = None,
                    table_games: Sequence[int] | None = None,
                    evaluations: dict[str, str] | None = None) -> list[GameTask]:
    """The games of explicit matchups (tables of distinct bots, as many as the game seats), deal by deal,
    all seat rotations; `setup` and `options` as schedule's. `table_games`: each table's own number of games
    (None: `games` each); a table with fewer deals than another stops playing after its last. `evaluations`:
    {bot spec: what it searches with}, recorded in the games of the bots it names (GameTask.evaluation)."""
    from engine_c.registry import get_game

    counts = [games] * len(tables) if table_games is None else list(table_games)
    if len(counts) != len(tables):
        raise ValueError(f"table_games names {len(counts)} tables of {len(tables)}")
    if min(counts, default=games) < 1 or games < 1:
        raise ValueError("games must be at least 1")
    allowed = seat_range(game)
    for table in tables:
        if len(set(table)) != len(table) or len(table) not in allowed:
            raise ValueError(f"a table seats {allowed.start} to {allowed.stop - 1} distinct bots, got {list(table)}")
    g = get_game(game)
    flags = setup_flags(g, setup, options)
    text = dict(flags).get(g.setup, "")
    made = game_setup(g, setup, options)
    widest = max(len(t) for t in tables)
    deals = [math.ceil(n / widest) for n in counts]
    played_with = [tuple((s, evaluations[s]) for s in table if s in (evaluations or {})) for table in tables]
    tasks = []
    for d in range(max(deals)):
        for m, table in enumerate(tables):
            if d >= deals[m]:
                continue
            seats = len(table)
            for r in range(seats):
                order = tuple(table[(i + r) % seats] for i in range(seats))
                key = game_key(order, seed + d, text, g.name, flags[1:] if g.setup else flags)
                tasks.append(GameTask(key, m, d, r, seed + d, order, g.name, made, flags, played_with[m]))
    return tasks


# ----------------------------------------------------------------------------------------------
# One game (runs in a worker: top level, plain data in and out)
# ----------------------------------------------------------------------------------------------
def run_game_task(task: dict) -> dict:
    """Plays one scheduled game and returns its game record (engine_c.records, docs/records.md), with
    the tournament's own fields under "tournament" (the setup flags it was played with among them)."""
    from engine_c import records
    from engine_c.registry import get_game

    from clients.bots import bot_seed, make_bot

    seats = list(task["seats"])
    n = len(seats)
    game = get_game(task["game"])
    setup = task["setup"]
    bots = [make_bot(spec, seed=bot_seed(task["seed"], spec), players=n, game=game.name) for spec in seats]
    final: list = []

    def new_state(seed: int):
        final.append(game.record.new(n, setup, seed))
        return final[0]

    rec = play_game(new_state, bots, task["seed"])
    meta = {k: task[k] for k in ("key", "matchup", "deal", "rotation")}
    if task.get("evaluation"):
        meta["evaluation"] = dict(task["evaluation"])
    meta.update(dict(task["flags"]), ranks=R.ranks_of(rec.scores, rec.winners),
                decisions=sum(1 for seat, _ in rec.moves if seat >= 0), seconds=round(rec.seconds, 4),
                worker=f"{os.uname().nodename}:{os.getpid()}")
    played = records.played_setup(game, final[0], setup)
    events = records.setup_events(n, (), task["seed"], game=game.name, setup=played)
    state = game.record.new(n, setup, task["seed"])        # the same deal, replayed for the events
    for seat, text in rec.moves:
        move = state.parse_move(text)
        events.append(records.event("move", seat, text) if seat >= 0 else records.chance_event(state, move))
        state.apply(move)
    # the deal's seed is the tournament's own choice (seed + deal): shown
    return records.build(n, (), [records.seat("bot", s) for s in seats], events, final[0], seed=task["seed"],
                         seed_shown=True, unfinished=rec.unfinished, tournament=meta, game=game.name, setup=played)


def game_row(rec: dict) -> dict:
    """What the results need of one game, from a record or from a line of the older JSONL format:
    key, deal, seed, setup (the text of the tournament's setup flag: SpellBook's spell choice, ...), seats (bot
    names), scores, winners, ranks."""
    t = rec.get("tournament")
    if t is None:                                    # the older line format (the first game's alone)
        return {**rec, "setup": rec.get("spells", ""), "unfinished": bool(rec.get("unfinished"))}
    from engine_c.records import game_of, seat_name

    field = game_of(rec).setup
    written = rec.get(field, "")
    return {"key": t["key"], "matchup": t.get("matchup"), "deal": t["deal"], "rotation": t.get("rotation"),
            "seed": rec.get("seed"),
            "setup": t.get(field, "/".join(written) if isinstance(written, list) else "") if field else "",
            "seats": [seat_name(s) for s in rec["seats"]], "scores": rec["result"]["scores"],
            "winners": rec["result"]["winners"], "ranks": t["ranks"], "unfinished": rec["status"] == "unfinished"}


# ----------------------------------------------------------------------------------------------
# Executors
# ----------------------------------------------------------------------------------------------
class InlineExecutor(Executor):
    """Runs each task at submit time in this process (-j 1: no pool start-up, easy to debug)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            if isinstance(e, KeyboardInterrupt):
                raise
            fut.set_exception(e)
        return fut


class _Closing:
    def __init__(self, executor: Executor, close: Callable[[], None] | None = None, slots: int = 1):
        self.executor, self.close, self.slots = executor, close, slots

    def results(self, fn: Callable, tasks: Sequence) -> Iterator:
        """fn(task) of each task as they finish, at most `slots` at a time (twice that queued on a pool), so a
        failing task stops the run when it fails, not after every other task has run (in-process, with one
        job, a task runs when it is submitted)."""
        from concurrent.futures import FIRST_COMPLETED, wait

        pending: set = set()
        for task in tasks:
            pending.add(self.executor.submit(fn, task))
            while len(pending) >= 2 * self.slots:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                yield from (f.result() for f in done)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            yield from (f.result() for f in done)

    def __enter__(self) -> "_Closing":
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.executor.shutdown(wait=exc[0] is None, cancel_futures=True)
        except TypeError:  # an Executor without cancel_futures
            self.executor.shutdown(wait=exc[0] is None)
        if self.close:
            self.close()


def make_executor(spec: str | None, jobs: int = 1) -> _Closing:
    """`None`/`process` (a spawn process pool of `jobs` workers; in-process when jobs == 1),
    `inline`, or `dask://host:port` (a running Dask scheduler; the `dask` extra)."""
    if jobs < 1:
        raise ValueError("-j must be at least 1")
    if spec is None or spec == "process":
        if jobs == 1:
            return _Closing(InlineExecutor())
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        return _Closing(ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")),
                        slots=jobs)
    if spec == "inline":
        return _Closing(InlineExecutor())
    if spec.startswith("dask://"):
        try:
            from distributed import Client
        except ImportError as e:
            raise RuntimeError("--executor dask://... needs Dask: pip install 'spellbook-ai[dask]'") from e
        address = spec[len("dask://"):]
        client = Client(address if "://" in address else "tcp://" + address, timeout=10)
        threads = sum(client.nthreads().values()) or jobs
        return _Closing(client.get_executor(pure=False), client.close, slots=max(threads, jobs))
    raise ValueError(f"executor must be process, inline or dask://host:port, got {spec!r}")


# ----------------------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------------------
def load_records(path: str, repair: bool = False) -> list[dict]:
    """The games in a results file. A last line cut short by an interruption is ignored (and cut off
    the file when `repair`, so appending continues on a fresh line)."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        data = f.read()
    records, good_end = [], 0
    pos = 0
    for line in data.splitlines(keepends=True):
        pos += len(line)
        if not line.endswith(b"\n"):
            break
        try:
            if line.strip():
                records.append(json.loads(line))
        except json.JSONDecodeError:
            break
        good_end = pos
    if repair and good_end < len(data):
        with open(path, "r+b") as f:
            f.truncate(good_end)
    return records


@dataclass
class RunResult:
    records: list[dict]           # every game of the schedule that is in the file, in file order
    ran: int                      # games played by this call
    skipped: int                  # games found done in the file
    scheduled: int
    sprt: dict | None = None
    stopped_early: bool = False


class _SprtTracker:
    """Pair outcomes of bots a vs b as duplicate pairs complete, and the SPRT decision."""

    def __init__(self, test: R.SPRT, a: str, b: str):
        self.test, self.a, self.b = test, a, b
        self.halves: dict[int, float] = {}
        self.seen: dict[int, int] = {}
        self.penta = R.Pentanomial(a, b)
        self.trace: list[float] = []
        self.decision: str | None = None

    def add(self, rec: dict) -> None:
        rec = game_row(rec)
        d = rec["deal"]
        self.halves[d] = self.halves.get(d, 0.0) + _score_vs(rec, self.a, self.b)
        self.seen[d] = self.seen.get(d, 0) + 1
        if self.seen[d] == 2:
            self.penta.add(self.halves.pop(d))
            self.trace.append(self.test.llr(self.penta.counts))
            if self.decision is None:
                self.decision = self.test.decision(self.penta.counts)

    def summary(self) -> dict:
        """The test's state over every recorded pair. `decision` is the one that stopped the match: games
        still running when the LLR crossed a bound are recorded too and may pull the final LLR back inside
        the bounds, but the test had decided (as fastchess reports it)."""
        state = self.test.to_dict(self.penta.counts)
        state.update(pairs=self.penta.pairs, pentanomial=list(self.penta.counts), trace=self.trace, a=self.a, b=self.b)
        if self.decision is not None:
            state["decision"] = self.decision
        return state


def _score_vs(rec: dict, a: str, b: str) -> float:
    seats = rec["seats"]
    ra, rb = rec["ranks"][seats.index(a)], rec["ranks"][seats.index(b)]
    return 1.0 if ra < rb else 0.0 if ra > rb else 0.5


def run_tournament(tasks: Sequence[GameTask], out: str, executor: Executor, slots: int = 1,
                   resume: bool = False, sprt: R.SPRT | None = None, progress: bool | None = None,
                   on_record: Callable[[dict], None] | None = None, desc: str = "tournament") -> RunResult:
    """Plays the scheduled games not yet in `out`, appending each to it as soon as it finishes.

    progress: None shows a tqdm bar (labelled `desc`) only when stderr is a terminal. `sprt` (two bots, two seats)
    stops scheduling new games once the test decides; games already running are still recorded."""
    keys = {t.key for t in tasks}
    if not resume and os.path.exists(out) and os.path.getsize(out) > 0:
        raise FileExistsError(f"{out} exists: pass --resume to continue it, or remove it to start again")
    previous = [r for r in load_records(out, repair=True) if game_row(r).get("key") in keys] if resume else []
    done = {game_row(r)["key"] for r in previous}
    pending = [t for t in tasks if t.key not in done]
    records = list(previous)

    tracker = None
    if sprt is not None:
        bots = sorted({s for t in tasks for s in t.seats}, key=[s for t in tasks for s in t.seats].index)
        if len(bots) != 2 or any(len(t.seats) != 2 for t in tasks):
            raise ValueError("SPRT is for a head-to-head match: exactly two bots at two seats")
        tracker = _SprtTracker(sprt, bots[0], bots[1])
        for r in previous:
            tracker.add(r)

    from tqdm import tqdm

    bar = tqdm(total=len(tasks), initial=len(done), unit="game", file=sys.stderr, dynamic_ncols=True,
               disable=(None if progress is None else not progress), desc=desc)
    ran = 0
    stopped = tracker is not None and tracker.decision is not None
    inflight: dict[Future, int] = {}                  # future -> submission number
    queue = iter(pending)
    submitted = 0
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    try:
        with open(out, "a", encoding="utf-8") as f:
            while True:
                while not stopped and len(inflight) < max(1, slots) * 2:
                    task = next(queue, None)
                    if task is None:
                        break
                    inflight[executor.submit(run_game_task, task.to_dict())] = submitted
                    submitted += 1
                if not inflight:
                    break
                finished, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                # games that finished together are recorded in schedule order (reproducible files in-process)
                for fut in sorted(finished, key=inflight.__getitem__):
                    inflight.pop(fut)
                    rec = fut.result()
                    f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                    f.flush()
                    records.append(rec)
                    ran += 1
                    bar.update(1)
                    if tracker is not None:
                        tracker.add(rec)
                        if tracker.decision is not None and not stopped:
                            stopped = True
                            bar.set_postfix_str(f"SPRT {tracker.decision}")
                    if on_record:
                        on_record(rec)
    finally:
        for fut in inflight:
            fut.cancel()
        bar.close()
    sprt_state = tracker.summary() if tracker is not None else None
    return RunResult(records, ran, len(done), len(tasks), sprt_state,
                     stopped_early=bool(tracker and tracker.decision and len(records) < len(tasks)))


# ----------------------------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------------------------
def summarize(records: Sequence[dict], bots: Sequence[str] | None = None, anchor: str | None = None,
              sprt: R.SPRT | None = None) -> dict:
    """Every figure of the results as JSON-ready data (see format_summary for the text). `records`: game
    records (or lines of the older JSONL format)."""
    rows = [game_row(r) for r in records]
    if bots is None:
        bots = []
        for r in rows:
            for s in r["seats"]:
                if s not in bots:
                    bots.append(s)
    bots = list(bots)
    per_bot = {b: {"games": 0, "wins": 0.0, "points": 0, "seats": {}} for b in bots}
    pairs: dict[tuple[str, str], R.PairStats] = {}
    outcomes = []
    halves: dict[tuple, list[float]] = {}
    multi = []
    for r in rows:
        seats, ranks = r["seats"], r["ranks"]
        share = 1.0 / len(r["winners"]) if r["winners"] else 0.0
        for i, b in enumerate(seats):
            pb = per_bot[b]
            pb["games"] += 1
            pb["wins"] += share if i in r["winners"] else 0.0
            pb["points"] += r["scores"][i]
            pb["seats"][str(i)] = pb["seats"].get(str(i), 0) + 1
        for a, b, s in R.pairwise_outcomes(seats, ranks):
            outcomes.append((a, b, s))
            if bots.index(a) > bots.index(b):
                a, b, s = b, a, 1.0 - s
            ps = pairs.setdefault((a, b), R.PairStats(a, b))
            ps.games += 1
            ps.score += s
            ps.wins += s == 1.0
            ps.draws += s == 0.5
            ps.losses += s == 0.0
        if len(seats) == 2:
            a, b = sorted(seats, key=bots.index)
            halves.setdefault((a, b, r["seed"], str(r["setup"])), []).append(_score_vs(r, a, b))
        else:
            multi.append((seats, ranks))
    pentas: dict[tuple[str, str], R.Pentanomial] = {}
    for (a, b, _seed, _sp), hs in halves.items():
        if len(hs) == 2:
            pentas.setdefault((a, b), R.Pentanomial(a, b)).add(sum(hs))
    bt = R.bradley_terry(bots, outcomes, anchor=anchor) if outcomes else []
    table = []
    for x in sorted(bt, key=lambda x: -x.elo):
        d = x.to_dict()
        # a 3-4 seat game gives a bot several pairwise results: count games, and the results apart
        d.update(games=per_bot[x.name]["games"], pairwise_results=x.games)
        table.append(d)
    out = {
        "games": len(rows),
        "unfinished": sum(1 for r in rows if r.get("unfinished")),
        "bots": [{"name": b, "games": v["games"], "win_share": v["wins"] / v["games"] if v["games"] else 0.0,
                  "mean_points": v["points"] / v["games"] if v["games"] else 0.0, "seats": v["seats"]}
                 for b, v in per_bot.items()],
        "pairs": [],
        "rating_table": table,
        "anchor": anchor,
    }
    for (a, b), ps in pairs.items():
        d = ps.to_dict()
        if (a, b) in pentas:
            # two-seat duplicate pairs: the pentanomial counts the shared deal's correlation (fishtest)
            p = pentas[(a, b)]
            d["pentanomial"] = list(p.counts)
            d["elo"] = R.outcome_elo(p.counts).to_dict()
            d["elo_from"] = "pairs"
        else:
            d["elo"] = R.outcome_elo([ps.losses, ps.draws, ps.wins]).to_dict()
            d["elo_from"] = "games"
        # the draw ratio is drawn games / games, whatever the Elo came from (pairs do not say, D156)
        d["elo"]["draw_ratio"] = ps.draws / ps.games if ps.games else 0.0
        out["pairs"].append(d)
    if sprt is not None and len(bots) == 2 and (bots[0], bots[1]) in pentas:
        # the trace in completion order (file order) for the plot
        tr = _SprtTracker(sprt, bots[0], bots[1])
        for r in records:
            if len(r["seats"]) == 2:
                tr.add(r)
        out["sprt"] = {**sprt.to_dict(tr.penta.counts), "a": bots[0], "b": bots[1], "pairs": tr.penta.pairs,
                       "pentanomial": list(tr.penta.counts), "trace": tr.trace, "first_decision": tr.decision,
                       "elo": R.outcome_elo(tr.penta.counts).to_dict()}
    if multi:
        out["plackett_luce"] = [asdict(x) for x in R.plackett_luce(multi)]
    return out


def format_summary(summary: dict) -> str:
    names = [b["name"] for b in summary["bots"]] + [x["name"] for x in summary["rating_table"]]
    w = max([32] + [len(n) for n in names])            # the columns fit the longest bot name
    lines = [f"{summary['games']} games"]
    if summary.get("unfinished"):
        lines[0] += (f" ({summary['unfinished']} stopped at {MAX_DECISIONS} decisions and scored as shared, "
                     f"docs/decisions.md D15)")
    lines.append("")
    lines.append(f"{'bot':{w}s} {'games':>6s} {'win share':>9s} {'points':>7s}")
    for b in summary["bots"]:
        lines.append(f"{b['name']:{w}s} {b['games']:6d} {b['win_share']:9.3f} {b['mean_points']:7.2f}")
    if summary["pairs"]:
        lines.append("")
        lines.append("Head to head (the first bot's result against the second; Elo with its 95% interval, from "
                     f"duplicate pairs when both seat orders of a deal were played; fewer than {R.MIN_RATED_GAMES} "
                     f"games are too few to rate)")
        for p in summary["pairs"]:
            e = p["elo"]
            rate = 100 * p["score"] / p["games"] if p["games"] else 50.0
            drawn = 100 * p["draws"] / p["games"] if p["games"] else 0.0
            lines.append(f"  {p['a']} vs {p['b']}:")
            if e.get("too_few"):
                lines.append(f"    Elo: {e['too_few']}, DrawRatio: {drawn:.2f} % (drawn games)")
            else:
                lines.append(f"    Elo: {_fmt_elo(e)}, LOS: {100 * e['los']:.2f} %, DrawRatio: {drawn:.2f} % (drawn games)"
                             + (f", PairsRatio: {e['pairs_ratio']:.2f}" if p["elo_from"] == "pairs" else ""))
            lines.append(f"    Games: {p['games']}, Wins: {p['wins']}, Losses: {p['losses']}, Draws: {p['draws']}, "
                         f"Points: {p['score']:g} ({rate:.2f} %), win rate 95% [{p['lo']:.3f}, {p['hi']:.3f}]"
                         + (f", Ptnml(0-2): {p['pentanomial']}" if "pentanomial" in p else ""))
    if summary["rating_table"]:
        lines.append("")
        anchor = f"{summary['anchor']} = 0" if summary.get("anchor") else "mean = 0"
        lines.append(f"Rating table of all {len(summary['rating_table'])} bots (one Bradley-Terry fit of every "
                     f"pairwise result; {anchor}; ± 95%, treating every pairwise result as independent; fewer "
                     f"than {R.MIN_RATED_GAMES} games are too few to rate)")
        for x in summary["rating_table"]:
            if x["games"] < R.MIN_RATED_GAMES:
                lines.append(f"  {x['name']:{w}s} too few games to rate  ({x['games']} games)")
            else:
                lines.append(f"  {x['name']:{w}s} {x['elo']:+8.1f} ± {x['pm']:6.1f}  ({x['games']} games)")
    if "sprt" in summary:
        s = summary["sprt"]
        state = {"H1": f"H1 accepted ({s['a']} is about {s['elo1']:g} Elo stronger or more)",
                 "H0": f"H0 accepted ({s['a']} is at most about {s['elo0']:g} Elo stronger)",
                 None: "continuing (no decision yet)"}[s["decision"]]
        elo = s["elo"].get("too_few") or f"Elo {_fmt_elo(s['elo'])}"
        lines.append("")
        lines.append(f"SPRT {s['a']} vs {s['b']}: {elo} after {s['pairs']} pairs; "
                     f"LLR: {s['llr']:.2f} ({s['lower']:.2f}, {s['upper']:.2f}) [{s['elo0']:.2f}, {s['elo1']:.2f}] "
                     f"alpha={s['alpha']:g} beta={s['beta']:g}: {state}")
    if "plackett_luce" in summary:
        lines.append("")
        lines.append("openskill Plackett-Luce over the 3-4 seat games (mu, sigma, ordinal = mu - 3 sigma)")
        for x in summary["plackett_luce"]:
            lines.append(f"  {x['name']:{w}s} mu {x['mu']:6.2f}  sigma {x['sigma']:5.2f}  ordinal {x['ordinal']:6.2f}"
                         f"  ({x['games']} games)")
    return "\n".join(lines)


def _fmt_elo(e: dict) -> str:
    """fastchess's `353.65 +/- 27.86`, with the interval itself; an open side shows as inf."""
    def num(x: float) -> str:
        return f"{x:+.2f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")

    if e["games"] == 0:
        return "n/a (no games)"
    pm = f" +/- {e['pm']:.2f}" if math.isfinite(e["pm"]) else ""
    return f"{num(e['elo'])}{pm} [{num(e['lo'])}, {num(e['hi'])}]"


# ----------------------------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    from clients.args import add_game_flags, players_help

    p.add_argument("bots", nargs="+", help="bot specs: random, greedy, ismcts:level=5, flatmc:iterations=2000, "
                                           "grpc://host:port?level=7, openspiel-mcts:simulations=100")
    p.add_argument("--games", type=int, default=100, help="games per matchup (rounded up to whole seat rotations)")
    add_game_flags(p)        # --game and every game's setup flags (--spells, --variants, --decks, --cards, ...)
    p.add_argument("--seats", type=int, default=2, help=f"players per game: {players_help()}")
    p.add_argument("--format", dest="fmt", default="roundrobin", choices=("roundrobin", "gauntlet"),
                   help="round-robin, or the first bot against all the others (gauntlet)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first deal (deal d uses seed + d)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="concurrent games (spawn process pool)")
    p.add_argument("--executor", default=None, help="process (default), inline, or dask://scheduler:8786")
    p.add_argument("--out", default="results.jsonl", help="JSONL file: one finished game per line")
    p.add_argument("--resume", action="store_true", help="continue the file: skip the games already in it (the "
                                                          "setup its games were played with, unless named again)")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="head-to-head: stop early when the SPRT of elo0 against elo1 decides")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate")
    p.add_argument("--anchor", default=None, help="bot rated 0 Elo in the Bradley-Terry fit (default: the mean)")
    p.add_argument("--plots", default=None, metavar="DIR", help="write elo.png, pairwise.png (and sprt.png)")
    p.add_argument("--summary", default=None, metavar="FILE", help="write the results as JSON too")
    p.add_argument("--no-progress", action="store_true", help="no progress line")


def preflight(specs: Sequence[str], seats: int, game: str = DEFAULT_GAME, setup: Any = None) -> None:
    """Fail before any game for a bad spec, game or setup (`setup`: as a GameTask carries it; None: the game's
    default), a missing optional part (the gRPC client, OpenSpiel) or a remote bot's server that does not
    answer. ValueError names the setup flag for a setup the game refuses."""
    from clients.bots import make_bot
    from engine_c.registry import get_game

    g = get_game(game)
    made = game_setup(g) if setup is None else setup
    try:
        g.record.new(seats, made, 0)
    except ValueError as e:
        raise ValueError(str(e) if str(e).startswith("--") or not g.setup else f"--{g.setup}: {e}") from None
    for spec in specs:
        bot = make_bot(spec, seed=0, players=seats, game=g.name)
        if hasattr(bot, "check"):                     # a remote bot: is its server there, with the game?
            try:
                bot.check()
            finally:
                bot.close()


def recorded_flags(path: str, game) -> tuple[tuple[str, str], ...] | None:
    """The setup flags the games of `game` in a results file were played with (the tournament's own fields of
    its records), when they all agree; None when the file holds none of them, or games set up otherwise."""
    from engine_c.records import game_of
    from engine_c.registry import get_game

    g = get_game(game)
    names = ([g.setup] if g.setup else []) + [name for name, _, _ in g.flags]
    found = {tuple((n, str(r["tournament"][n])) for n in names if n in r["tournament"])
             for r in load_records(path) if "tournament" in r and game_of(r).name == g.name}
    return found.pop() if len(found) == 1 else None


def _split_flags(game, flags: Sequence[tuple[str, str]]) -> tuple[str | None, dict[str, str]]:
    """(the setup flag's text, the further flags by name) of setup flags as (name, text) pairs."""
    named = dict(flags)
    return (named.pop(game.setup, None) if game.setup else None), named


def main(args: argparse.Namespace) -> int:
    from clients.args import given_setup_flags
    from clients.bots import BotUnavailableError
    from clients.args import game_flag

    try:
        game = game_flag(args.game)
        setup, options = given_setup_flags(args, game)
        if args.resume and setup_flags(game, setup, options) == setup_flags(game):
            recorded = recorded_flags(args.out, game)     # the file's own setup, when no flag names another
            if recorded is not None and recorded != setup_flags(game):
                setup, options = _split_flags(game, recorded)
                print(f"resuming {args.out} with its games' setup: "
                      + " ".join(f"--{name} {text!r}" for name, text in recorded), file=sys.stderr)
        tasks = schedule(args.bots, args.games, args.seats, args.fmt, args.seed, setup, game.name, options)
        preflight(args.bots, args.seats, game.name, tasks[0].setup)
        test = R.SPRT(args.sprt[0], args.sprt[1], args.alpha, args.beta) if args.sprt else None
        if test is not None and (len(args.bots) != 2 or args.seats != 2):
            raise ValueError("--sprt is for a head-to-head match: two bots, two seats")
        if args.anchor is not None and args.anchor not in args.bots:
            raise ValueError(f"--anchor {args.anchor!r} is not one of the bots")
    except (ValueError, BotUnavailableError) as e:
        print(f"spellbook-ai tournament: {e}", file=sys.stderr)
        return 2
    start = time.monotonic()
    try:
        with make_executor(args.executor, args.jobs) as ex:
            result = run_tournament(tasks, args.out, ex.executor, slots=ex.slots, resume=args.resume, sprt=test,
                                    progress=False if args.no_progress else None)
    except FileExistsError as e:
        print(f"spellbook-ai tournament: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ninterrupted: the finished games are in {args.out}; run again with --resume to continue",
              file=sys.stderr)
        return 130
    summary = summarize(result.records, bots=list(args.bots), anchor=args.anchor, sprt=test)
    elapsed = time.monotonic() - start
    head = (f"ran {result.ran} games in {elapsed:.1f}s ({result.skipped} already done) of {result.scheduled} "
            f"scheduled; results in {args.out}")
    if result.stopped_early:
        head += f"; stopped early by the SPRT ({result.sprt['decision']})"
    print(head)
    print(format_summary(summary))
    if args.summary:
        with open(args.summary, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    if args.plots:
        from clients.plots import write_plots

        try:
            for path in write_plots(summary, args.plots):
                print(f"wrote {path}")
        except ImportError as e:
            print(f"no plots: {e}", file=sys.stderr)
    return 0
