"""`spellbook-ai analysis`: a JSON-lines analysis engine on stdin/stdout, in the manner of KataGo's, for
both games (SpellBook and Abracada…What?).

    spellbook-ai analysis [--threads 2] [--game spellbook|abracadawhat]
    {"id": "a", "position": "<State.to_text()>", "maxVisits": 800, "topK": 3}          (one query a line)
    {"id": "a", "isDuringSearch": false, "moveInfos": [...], "rootInfo": {...}, "pv": [...], "modelVersion": ...}

Each line on stdin is one query (docs/analysis.md); each line on stdout one response, written when its
search finishes (several queries run at once on `--threads` workers, so answers may come out of order:
match them by `id`). The game is the one the position's text names (`sb1 ...` SpellBook, `aw1 ...`
Abracada…What?), or the query's `game`, or `--game`; they must agree. An Abracada…What? answer carries
the seat's `insight` (what it probably holds, each announcement's chance and risk), as the gRPC service's
GetHints. `reportDuringSearchEvery` (seconds) streams partial answers (`"isDuringSearch": true`) before
the final one. Every query is checked when it is read, before it waits for a worker: one that cannot be
run is answered at once with {"id", "error", "field"} naming the field, even while other searches run; a
line that is not a JSON object with {"id": null, "error", "field": ""}. Actions: query_version,
terminate (docs/analysis.md). End of input ends the engine once every pending query is answered (exit
status 0).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TextIO

from engine_c.base import IllegalMoveError, NotationError

MAX_VISITS = 200_000
MAX_TIME_MS = 60_000
MAX_TOP_K = 50
DEFAULT_VISITS = 500                 # SpellBook without a level (Abracada…What?: its default level's budget)
MIN_REPORT_EVERY_S, MAX_REPORT_EVERY_S = 0.02, 60.0
FIELDS = {"id", "position", "moves", "game", "level", "maxVisits", "maxTimeMs", "topK", "seed", "evaluator",
          "includeReasons", "includeInsight", "reportDuringSearchEvery", "grow"}


class QueryError(ValueError):
    """A query field that cannot be used; `field` names it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass
class Job:
    """A checked query, ready to search: its game (engine_c/registry.py), position, options and outputs."""

    qid: Any
    game: Any                       # registry.Game
    state: Any
    options: Any                    # search.SearchOptions (validated)
    top_k: int
    reasons: bool                   # SpellBook: each move's reasons
    insight: bool                   # the seat's insight (Abracada…What?: always)
    every_s: float                  # reportDuringSearchEvery (0: only the final answer)
    level: int                      # the strength level the options came from (0: none)
    grow: bool = False              # searched as GetHints and the terminals do (search/coach.py hint_search)


def _number(q: dict, name: str, lo: float, hi: float, default: Any, integer: bool = True) -> Any:
    v = q.get(name)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (integer and not isinstance(v, int)):
        raise QueryError(name, f"must be {'an integer' if integer else 'a number'}, got {v!r}")
    if not lo <= v <= hi or (isinstance(v, float) and not math.isfinite(v)):
        raise QueryError(name, f"must be {lo:g} to {hi:g}, got {v!r}")
    return v


def _headers() -> dict[str, str]:
    """Each game's state-text header ('sb1', 'aw1') -> its registry name."""
    from engine_c.registry import GAMES, get_game

    return {get_game(name).notation.HEADER: name for name in GAMES}


def _game_of(q: dict, text: str, engine_game: str | None):
    """The game of a query: its position's header, checked against the query's `game` and `--game`."""
    from engine_c.registry import get_game

    headers = _headers()
    word = text.split(None, 1)[0] if text.split() else ""
    named = None
    if "game" in q:
        try:
            named = get_game(q["game"]).name
        except ValueError as e:
            raise QueryError("game", str(e)) from None
        if engine_game is not None and named != engine_game:
            raise QueryError("game", f"this engine analyses {engine_game} (--game {engine_game}), not {named}")
    if word not in headers:
        known = ", ".join(f"{h!r} ({get_game(n).title})" for h, n in headers.items())
        raise QueryError("position", f"a position starts with its game's header: {known}; got {word[:20]!r}")
    found = headers[word]
    for want, source, field in ((named, "the query's game", "game"), (engine_game, "--game", "position")):
        if want is not None and want != found:
            raise QueryError(field, f"the position is {get_game(found).title} ({word}), but {source} is "
                                    f"{get_game(want).title}")
    return get_game(found)


def _search_options(q: dict, game, seed: int):
    """The search's options: a strength level's (`level`, or Abracada…What?'s default level as its gRPC
    service uses), or SpellBook's plain search of `maxVisits`; then maxVisits, maxTimeMs and evaluator."""
    from search import SearchOptions
    from search.levels import default_level, level_options
    from search.search import SearchOptionError

    evaluator = q.get("evaluator", "auto")
    if evaluator not in ("auto", "network", "rollout"):
        raise QueryError("evaluator", f"must be auto, network or rollout, got {evaluator!r}")
    level = _number(q, "level", 1, 10, 0)
    if not level and game.adapter.level_table is not None:      # a game's own levels: its default level's search
        level = default_level(game.adapter, evaluator)
    visits = _number(q, "maxVisits", 1, MAX_VISITS, None)
    time_ms = _number(q, "maxTimeMs", 0, MAX_TIME_MS, 0, integer=False)
    if level:
        opts = level_options(level, seed, evaluator=evaluator, game=game.adapter)
        opts = replace(opts, stop_early=False)     # analysis compares every move: the whole budget
        if visits is not None:
            opts.iterations = visits
        if "maxTimeMs" in q and q["maxTimeMs"] is not None:
            opts.time_ms = float(time_ms)
    else:
        opts = SearchOptions(iterations=visits or DEFAULT_VISITS, time_ms=time_ms, seed=seed, evaluator=evaluator)
    try:
        opts.validate()
    except SearchOptionError as e:
        raise QueryError(e.field, str(e)) from None
    return opts, level


def parse_query(q: Any, engine_game: str | None = None) -> Job:
    """A query, checked (QueryError names the first bad field): its game, its position (with `moves`
    applied) and its search. Cheap: the reader runs it before a query waits for a worker."""
    if not isinstance(q, dict):
        raise QueryError("", "a query is a JSON object")
    if "id" not in q or not isinstance(q["id"], (str, int)) or isinstance(q["id"], bool):
        raise QueryError("id", "every query needs an id (a string or an integer)")
    unknown = set(q) - FIELDS
    if unknown:
        raise QueryError(sorted(unknown)[0], "unknown field (docs/analysis.md lists the fields)")
    text = q.get("position")
    if not isinstance(text, str) or not text.strip():
        raise QueryError("position", "give the position in the game's notation (State.to_text() or a seat's "
                                     "State.observation(seat), docs/notation.md)")
    game = _game_of(q, text, engine_game)
    seed = _number(q, "seed", 0, 2**63 - 1, 0)
    try:
        # a seat's observation (`observer=`): a full state sampled from it (the seat's hidden part), by `seed`
        observed = any(f.startswith("observer=") for f in text.split())
        state = game.State.from_observation(text, seed=seed) if observed else game.State.from_text(text)
    except (NotationError, ValueError) as e:
        raise QueryError("position", str(e)) from None
    moves = q.get("moves", [])
    if not isinstance(moves, list):
        raise QueryError("moves", "must be a list of moves in the notation")
    for i, m in enumerate(moves):
        try:
            if not isinstance(m, str):
                raise NotationError(f"must be a move's text, got {m!r}")
            state.apply(state.parse_move(m))
        except (NotationError, IllegalMoveError, ValueError) as e:
            raise QueryError(f"moves[{i}]", str(e)) from None
    if state.is_terminal():
        raise QueryError("position", "the game is over: there is nothing to analyse")
    if observed and not game.adapter.public_chance:
        # where seats see different things (Abracada…What?: the others' hands, not one's own), another seat's
        # decision would be analysed in a world whose hidden part that seat sees was only sampled
        observer = int(next(f for f in text.split() if f.startswith("observer="))[len("observer="):])
        if 0 <= state.current_player != observer:
            raise QueryError("position", f"an observation is analysed for its own seat: observer={observer}, but "
                                         f"seat {state.current_player} decides; give that seat's observation or "
                                         "the full state")
    if state.is_chance():
        example = f'"{state.chance_outcomes()[0][0]}"'
        raise QueryError("position", f"a chance event is pending: add its outcome to `moves` (e.g. {example}) "
                                     "first")
    opts, level = _search_options(q, game, seed)
    top_k = _number(q, "topK", 1, MAX_TOP_K, 5)
    reasons = q.get("includeReasons", False)
    if not isinstance(reasons, bool):
        raise QueryError("includeReasons", "must be true or false")
    if reasons and game.reasons is None:
        raise QueryError("includeReasons", f"{game.title} gives no move reasons")
    insight = q.get("includeInsight", game.insight is not None and game.insight.ANALYSIS_BY_DEFAULT)
    if not isinstance(insight, bool):
        raise QueryError("includeInsight", "must be true or false")
    if insight and game.insight is None:
        raise QueryError("includeInsight", f"{game.title} offers no insight into what is hidden")
    every = _number(q, "reportDuringSearchEvery", MIN_REPORT_EVERY_S, MAX_REPORT_EVERY_S, 0.0, integer=False) \
        if q.get("reportDuringSearchEvery") not in (None, 0) else 0.0
    grow = q.get("grow", False)
    if not isinstance(grow, bool):
        raise QueryError("grow", "must be true or false")
    if grow:
        # the coach's search (GetHints', the terminals'): the level's (default: the server's default level's)
        # budget, or maxVisits as its first budget, grown until the best family is separated
        from search.coach import hint_options

        if every:
            raise QueryError("grow", "a grown search answers once: leave out reportDuringSearchEvery")
        if q.get("maxTimeMs") is not None:
            raise QueryError("grow", "a grown search is bounded by iterations: give maxVisits, not maxTimeMs")
        opts = replace(hint_options(game.adapter, seed, level=_number(q, "level", 1, 10, 0),
                                    iterations=_number(q, "maxVisits", 1, MAX_VISITS, None)),
                       evaluator=opts.evaluator)
    return Job(q["id"], game, state, opts, top_k, reasons, insight, float(every), level, grow)


# ----------------------------------------------------------------------------------------------
# Answers
# ----------------------------------------------------------------------------------------------
def _insight(job: Job) -> dict:
    """The seat's insight, the game's own (its insight.py `analysis_insight`: Abracada…What?'s hand insight as
    GetHints gives it, SpellBook's Pouch beliefs)."""
    return job.game.insight.analysis_insight(job.state, job.state.current_player)


def _answer(job: Job, res, during: bool, model: str, evaluator: str, insight: dict | None) -> dict:
    """One response (partial or final) from a search result."""
    from search.coach import hint_family
    from search.hints import separation, top_hints

    state = job.state
    floor = job.game.adapter.final_score_spread(state)
    p = res.player
    total = sum(s.visits for s in res.moves) or 1
    infos = []
    family = hint_family(job.game.adapter, state)
    # up to topK moves with visits: the examined ones as GetHints ranks them, then the barely visited
    # (`examined` false) to fill; `aboutEqual` by one rule for every move (search/hints.py, D155)
    hints = top_hints(res, job.top_k, spread_floor=floor, family=family, fill=True)
    # the principal variation follows the most visited moves; the choice (order 0) may be another move
    # (the learned search's lower confidence bound), whose line is then the move alone
    pv = [str(m) for m in res.principal_variation]
    if hints and (not pv or pv[0] != str(hints[0].move)):
        pv = [str(hints[0].move)]
    for h in hints:
        info = {"move": str(h.move), "order": h.rank - 1, "visits": h.visits, "winrate": h.win_probability,
                "scoreMean": h.expected_score, "scoreStdev": h.score_spread, "prior": h.stats.prior,
                "loss": h.loss, "lossMargin": h.loss_margin, "mistakeClass": h.mistake_class,
                "aboutEqual": h.about_equal, "examined": h.examined, "verdict": h.verdict,
                "pv": pv if h.rank == 1 else [str(h.move)]}
        if h.note:
            info["note"] = h.note
        if insight is not None:         # what the insight says of this move (Abracada…What?: its chance of success)
            info.update(job.game.insight.move_fields(insight, h.move))
        if job.reasons:
            info["reasons"] = [{"kind": r.kind, "aspect": r.aspect, "text": r.text}
                               for r in job.game.reasons.reasons(state, h.move)]
        infos.append(info)
    sep = separation(res, family)          # rank 1's aboutEqual, negated
    out = {"id": job.qid, "game": job.game.name, "isDuringSearch": during, "moveInfos": infos,
           "rootInfo": {"currentPlayer": p, "visits": res.iterations,
                        "winrate": sum(s.visits * s.win_probability[p] for s in res.moves) / total,
                        "scoreMean": sum(s.visits * s.expected_score[p] for s in res.moves) / total,
                        "separated": sep.separated, "elapsedMs": round(res.elapsed_s * 1000, 3),
                        "cutShort": res.cut_short},
           "pv": pv, "modelVersion": model, "evaluator": evaluator}
    if job.level:
        out["level"] = job.level
    if insight is not None:
        out["insight"] = insight
    return out


def run_job(job: Job, emit, cancel=None) -> None:
    """Searches a checked query, calling `emit(answer)` for each partial answer (with
    reportDuringSearchEvery) and once for the final one. A cancelled `cancel` (a `terminate` action)
    stops the search: the final answer holds what it found so far (`cutShort`)."""
    from search import CancelToken, ismcts
    from search.search import resolve_network
    from search.streaming import ismcts_progress

    cancel = cancel or CancelToken()
    adapter = job.game.adapter
    _, version = resolve_network(adapter, job.options)     # SearchOptionError: no model for "network"
    model = version or "rollout"
    evaluator = "network" if version else "rollout"
    insight = _insight(job) if job.insight else None
    if job.grow:
        from search.coach import hint_search

        res = hint_search(adapter, job.state, replace(job.options), cancel=cancel)[0].result
        emit(_answer(job, res, False, res.model or "rollout", res.evaluator, insight))
        return
    if not job.every_s:
        res = ismcts(adapter, job.state, replace(job.options), cancel)
        emit(_answer(job, res, False, res.model or "rollout", res.evaluator, insight))
        return
    # a search reported as it goes, as the gRPC service's Analyze (search/streaming.py: segments of about
    # every_s seconds whose root statistics are merged)
    for res, final in ismcts_progress(adapter, job.state, replace(job.options), job.every_s, cancel):
        emit(_answer(job, res, not final, model, evaluator, insight))


def analyse(query: dict, cancel=None, game: str | None = None) -> dict:
    """The final response to one query (or its error), as a JSON-ready dict."""
    from search.search import SearchOptionError

    qid = query.get("id") if isinstance(query, dict) else None
    out: list[dict] = []
    try:
        job = parse_query(query, game)
        run_job(job, out.append, cancel)
    except (QueryError, SearchOptionError) as e:
        return {"id": qid, "error": str(e), "field": e.field}
    return out[-1]


def version_info(game: str | None = None) -> dict:
    """What `{"action": "query_version"}` answers: the package's version, the model version of the
    engine's game (`--game`; the first-listed game when none) and of every game (`models`)."""
    from importlib.metadata import PackageNotFoundError, version

    from engine_c.registry import GAMES, get_game
    from search.model import default_model

    try:
        package = version("spellbook-ai")
    except PackageNotFoundError:
        package = "unknown"
    models = {}
    for name in GAMES:
        model = default_model(get_game(name).adapter)
        models[name] = model.version if model is not None else "rollout"
    return {"version": package, "modelVersion": models[get_game(game).name if game else GAMES[0]], "models": models}


def serve(inp: TextIO, out: TextIO, threads: int = 1, game: str | None = None) -> int:
    """Reads queries until end of input, answering each as its search finishes; 0 when done. Each query
    is checked on this reading thread, so a bad one is answered at once, never after the searches queued
    before it. Actions (as KataGo's): {"id", "action": "query_version"} and {"id", "action": "terminate",
    "terminateId"}, which stops the query of that id (queued or running) and is answered at once."""
    from search import CancelToken
    from search.search import SearchOptionError

    lock = threading.Lock()
    running: dict[Any, CancelToken] = {}

    def answer(obj: dict) -> None:
        line = json.dumps(obj, separators=(",", ":"))
        with lock:
            out.write(line + "\n")
            out.flush()

    def run(job: Job, token) -> None:
        try:
            run_job(job, answer, token)
        except SearchOptionError as e:
            answer({"id": job.qid, "error": str(e), "field": e.field})
        except Exception as e:          # never leave a query unanswered, never die on one
            answer({"id": job.qid, "error": f"internal error: {type(e).__name__}: {e}", "field": ""})
        finally:
            with lock:
                if running.get(job.qid) is token:
                    del running[job.qid]

    def action(query: dict) -> None:
        qid, what = query.get("id"), query.get("action")
        if what == "query_version":
            answer({"id": qid, "action": what, **version_info(game)})
        elif what == "terminate":
            target = query.get("terminateId")
            with lock:
                token = running.get(target) if isinstance(target, (str, int)) else None
            if token is None:
                answer({"id": qid, "error": f"no query with id {target!r} is pending", "field": "terminateId"})
                return
            token.cancel()
            answer({"id": qid, "action": what, "terminateId": target})
        else:
            answer({"id": qid, "error": f"unknown action {what!r}: query_version or terminate", "field": "action"})

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for raw in inp:
            raw = raw.strip()
            if not raw:
                continue
            try:
                query = json.loads(raw)
            except json.JSONDecodeError as e:
                answer({"id": None, "error": f"not JSON: {e}", "field": ""})
                continue
            if not isinstance(query, dict):
                answer({"id": None, "error": "a query is a JSON object", "field": ""})
                continue
            if "action" in query:
                action(query)
                continue
            try:
                job = parse_query(query, game)
            except QueryError as e:
                qid = query.get("id")
                answer({"id": qid if isinstance(qid, (str, int)) else None, "error": str(e), "field": e.field})
                continue
            except Exception as e:      # a bug in the checks must not stop the engine either
                answer({"id": None, "error": f"internal error: {type(e).__name__}: {e}", "field": ""})
                continue
            token = CancelToken()
            with lock:
                running[job.qid] = token
            pool.submit(run, job, token)
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", type=int, default=1, help="queries searched at once (1 to 16)")
    from engine_c.registry import GAMES

    p.add_argument("--game", default=None, help=f"one of {', '.join(GAMES)}: only that game's positions "
                                                "(default: the game each position's text names)")


def main(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    if not 1 <= args.threads <= 16:
        print(f"spellbook-ai analysis: --threads must be 1 to 16, got {args.threads}", file=sys.stderr)
        return 2
    game = getattr(args, "game", None)
    if game is not None:
        from engine_c.registry import get_game

        try:
            game = get_game(game).name
        except ValueError as e:
            print(f"spellbook-ai analysis: --game: {e}", file=sys.stderr)
            return 2
    return serve(inp or sys.stdin, out or sys.stdout, args.threads, game)
