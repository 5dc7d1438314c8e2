"""`spellbook-ai analysis`: a JSON-lines analysis engine on stdin/stdout, in the manner of KataGo's.

    spellbook-ai analysis [--threads 2]
    {"id": "a", "position": "<State.to_text()>", "maxVisits": 800, "topK": 3}          (one query a line)
    {"id": "a", "moveInfos": [...], "rootInfo": {...}, "pv": [...], "modelVersion": "g4-...", ...}

Each line on stdin is one query (docs/analysis.md); each line on stdout one response, written when its
search finishes (several queries run at once on `--threads` workers, so answers may come out of order:
match them by `id`). A query that cannot be run is answered with {"id", "error", "field"} naming the
field; a line that is not a JSON object with {"id": null, "error", "field": ""}. Actions: query_version,
terminate (docs/analysis.md). End of input ends the
engine once every pending query is answered (exit status 0).
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TextIO

from engine_c.spellbook import IllegalMoveError, NotationError, State

MAX_VISITS = 200_000
MAX_TIME_MS = 60_000
MAX_TOP_K = 50
DEFAULT_VISITS = 500


class QueryError(ValueError):
    """A query field that cannot be used; `field` names it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def _number(q: dict, name: str, lo: float, hi: float, default: Any, integer: bool = True) -> Any:
    v = q.get(name, default)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (integer and not isinstance(v, int)):
        raise QueryError(name, f"must be {'an integer' if integer else 'a number'}, got {v!r}")
    if not lo <= v <= hi:
        raise QueryError(name, f"must be {lo:g} to {hi:g}, got {v!r}")
    return v


def parse_query(q: Any) -> tuple[State, dict]:
    """The position of a query (with its `moves` applied) and its validated limits and options."""
    if not isinstance(q, dict):
        raise QueryError("", "a query is a JSON object")
    if "id" not in q or not isinstance(q["id"], (str, int)) or isinstance(q["id"], bool):
        raise QueryError("id", "every query needs an id (a string or an integer)")
    text = q.get("position")
    if not isinstance(text, str) or not text.strip():
        raise QueryError("position", "give the position in the project's notation (State.to_text(), "
                                     "docs/notation.md)")
    try:
        state = State.from_text(text)
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
    if state.is_chance():
        raise QueryError("position", "a Pouch draw is pending: add it to `moves` (\"drawn Rc\") first")
    unknown = set(q) - {"id", "position", "moves", "maxVisits", "maxTimeMs", "topK", "seed", "evaluator",
                        "includeReasons"}
    if unknown:
        raise QueryError(sorted(unknown)[0], "unknown field (docs/analysis.md lists the fields)")
    opts = {"visits": _number(q, "maxVisits", 1, MAX_VISITS, DEFAULT_VISITS),
            "time_ms": _number(q, "maxTimeMs", 0, MAX_TIME_MS, 0, integer=False),
            "top_k": _number(q, "topK", 1, MAX_TOP_K, 5),
            "seed": _number(q, "seed", 0, 2**63 - 1, 0),
            "evaluator": q.get("evaluator", "auto"), "reasons": q.get("includeReasons", False)}
    if opts["evaluator"] not in ("auto", "network", "rollout"):
        raise QueryError("evaluator", f"must be auto, network or rollout, got {opts['evaluator']!r}")
    if not isinstance(opts["reasons"], bool):
        raise QueryError("includeReasons", "must be true or false")
    return state, opts


def analyse(query: dict, cancel=None) -> dict:
    """The response to one query (or its error), as a JSON-ready dict. A cancelled `cancel` (a
    `terminate` action) stops its search: the answer holds what it found so far (`cutShort`)."""
    from engine_c.spellbook.game import SPELLBOOK, final_score_spread
    from engine_c.spellbook.reasons import reasons
    from search import SearchOptions, ismcts
    from search.hints import separation, top_hints
    from search.search import SearchOptionError

    qid = query.get("id") if isinstance(query, dict) else None
    try:
        state, o = parse_query(query)
        res = ismcts(SPELLBOOK, state, SearchOptions(iterations=o["visits"], time_ms=o["time_ms"], seed=o["seed"],
                                                     evaluator=o["evaluator"]), cancel)
    except QueryError as e:
        return {"id": qid, "error": str(e), "field": e.field}
    except SearchOptionError as e:
        return {"id": qid, "error": str(e), "field": e.field}
    p = res.player
    total = sum(s.visits for s in res.moves) or 1
    infos = []
    for h in top_hints(res, o["top_k"], spread_floor=final_score_spread(state)):
        info = {"move": str(h.move), "order": h.rank - 1, "visits": h.visits, "winrate": h.win_probability,
                "scoreMean": h.expected_score, "scoreStdev": h.score_spread, "prior": h.stats.prior,
                "loss": h.loss, "lossMargin": h.loss_margin, "mistakeClass": h.mistake_class,
                "aboutEqual": h.about_equal, "pv": [str(m) for m in res.principal_variation] if h.rank == 1 else
                [str(h.move)]}
        if o["reasons"]:
            info["reasons"] = [{"kind": r.kind, "aspect": r.aspect, "text": r.text} for r in reasons(state, h.move)]
        infos.append(info)
    sep = separation(res)
    return {"id": qid, "isDuringSearch": False, "moveInfos": infos,
            "rootInfo": {"currentPlayer": p, "visits": res.iterations,
                         "winrate": sum(s.visits * s.win_probability[p] for s in res.moves) / total,
                         "scoreMean": sum(s.visits * s.expected_score[p] for s in res.moves) / total,
                         "separated": sep.separated, "elapsedMs": round(res.elapsed_s * 1000, 3),
                         "cutShort": res.cut_short},
            "pv": [str(m) for m in res.principal_variation], "modelVersion": res.model or "rollout",
            "evaluator": res.evaluator}


def version_info() -> dict:
    """What `{"action": "query_version"}` answers: the package's version and the default model's."""
    from importlib.metadata import PackageNotFoundError, version

    from engine_c.spellbook.game import SPELLBOOK
    from search.model import default_model

    try:
        package = version("spellbook-ai")
    except PackageNotFoundError:
        package = "unknown"
    model = default_model(SPELLBOOK)
    return {"version": package, "modelVersion": model.version if model is not None else "rollout"}


def serve(inp: TextIO, out: TextIO, threads: int = 1) -> int:
    """Reads queries until end of input, answering each as its search finishes; 0 when done. Actions (as
    KataGo's): {"id", "action": "query_version"} and {"id", "action": "terminate", "terminateId"}, which
    stops the query of that id (queued or running) and is answered at once."""
    from search import CancelToken

    lock = threading.Lock()
    running: dict[Any, CancelToken] = {}

    def answer(obj: dict) -> None:
        line = json.dumps(obj, separators=(",", ":"))
        with lock:
            out.write(line + "\n")
            out.flush()

    def run(query: dict, token) -> None:
        try:
            answer(analyse(query, token))
        except Exception as e:          # never leave a query unanswered, never die on one
            answer({"id": query.get("id"), "error": f"internal error: {type(e).__name__}: {e}", "field": ""})
        finally:
            with lock:
                if running.get(query.get("id")) is token:
                    del running[query.get("id")]

    def action(query: dict) -> None:
        qid, what = query.get("id"), query.get("action")
        if what == "query_version":
            answer({"id": qid, "action": what, **version_info()})
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
            token = CancelToken()
            with lock:
                if isinstance(query.get("id"), (str, int)):
                    running[query["id"]] = token
            pool.submit(run, query, token)
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", type=int, default=1, help="queries searched at once (1 to 16)")


def main(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    if not 1 <= args.threads <= 16:
        print(f"spellbook-ai analysis: --threads must be 1 to 16, got {args.threads}", file=sys.stderr)
        return 2
    return serve(inp or sys.stdin, out or sys.stdout, args.threads)
