"""The SpellBookService servicer (grpc.aio): protobuf in, engine/search calls, protobuf out.

Rules live in engine_c, search in search/, hint classes in search/hints.py, SpellBook reasons in
engine_c/reasons.py, message conversion in server/convert.py. This module adds only what a service
needs around them:

- CPU-bound work (searches) runs in a bounded thread pool (`SearchPool`): the compiled search releases
  the GIL, so `workers` searches run in parallel while the event loop keeps answering. At most
  `workers + queue_size` searches are admitted; beyond that a call gets RESOURCE_EXHAUSTED with a
  google.rpc.RetryInfo and `grpc-retry-pushback-ms` trailing metadata.
- A search's deadline is the call's deadline less a safety margin, so the answer (best move so far,
  `cut_short` set) arrives in time. A cancelled call (or a shutdown) sets the search's CancelToken.
- Every refusal is INVALID_ARGUMENT with a google.rpc.BadRequest naming the field.

- Sessions (`server/sessions.py`): a SessionManager owned by the Server (server/main.py) runs them; its
  SessionError codes become gRPC statuses (INVALID_ARGUMENT with BadRequest, FAILED_PRECONDITION with
  PreconditionFailure whose subject is the field, NOT_FOUND, RESOURCE_EXHAUSTED). Bot seats search in the
  manager's own executor, not in `SearchPool`: a bot's move is never refused for load, and the bot threads
  (`--bot-workers`) bound how much CPU bots take. PlayMatch and AnalyzeGame are requested work and go
  through `SearchPool` like any search (one admission for the whole match / review).

To add an RPC, add it to service.proto, regenerate (`make proto`), and add a method here wrapped in
`@_rpc`; use `self.pool.run()` for CPU-bound work.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import re
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

import engine_c
from engine_c.game import SPELLBOOK
from engine_c.reasons import reasons as move_reasons
from engine_c.state import LIMITS, SPELL_NAMES
from search import CancelToken, ismcts
from search.hints import MISTAKE_CLASSES, MISTAKE_THRESHOLDS, top_hints
from search.levels import describe_levels
from search.streaming import ismcts_progress
from search.bots import make_bot
from search.insight import value_spread
from search.review import review_game
from search.search import SearchOptions
from engine_c.insight import pouch_beliefs, what_if_draw
from engine_c.records import RecordError, replay
from server import convert, metrics
from server.sessions import SeatSpec, SessionError, SessionManager
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb
from server.convert import FieldError

log = logging.getLogger("spellbook.server")


@dataclass
class ServiceConfig:
    """Everything the servicer needs to know about its limits (server/main.py fills it from flags/env)."""

    workers: int = 2
    queue_size: int = 8
    max_iterations: int = 200_000
    max_time_ms: float = 10_000.0
    max_threads: int = 2
    max_nodes: int = 2_000_000
    max_message_bytes: int = 1 << 20
    default_level: int = 5
    deadline_margin_ms: float = 50.0
    max_top_k: int = 20
    min_report_every_ms: int = 20
    bot_workers: int = 1
    max_sessions: int = 10_000
    max_review_ms: float = 120_000.0
    # level -> Elo table written by `spellbook-ai ladder` (clients/ladder.py); "" for none
    ladder: str = str(Path(__file__).resolve().parent.parent / "data" / "ladder.json")

    def caps(self) -> convert.Caps:
        return convert.Caps(self.max_iterations, self.max_time_ms, self.max_threads, self.max_nodes,
                            self.default_level)


class Overloaded(Exception):
    def __init__(self, retry_after_ms: int):
        super().__init__(f"the search queue is full; retry after {retry_after_ms} ms")
        self.retry_after_ms = retry_after_ms


class SearchPool:
    """A fixed thread pool for searches with bounded admission (running + waiting)."""

    def __init__(self, workers: int, queue_size: int):
        self.workers, self.capacity = workers, workers + queue_size
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="search")
        self._lock = threading.Lock()
        self.admitted = 0
        self._mean_s = 0.05           # running mean of job time, for the retry hint
        self.tokens: set[CancelToken] = set()

    def retry_after_ms(self) -> int:
        waiting = max(self.admitted - self.workers + 1, 1)
        return max(10, int(1000 * self._mean_s * waiting / self.workers))

    def _release(self, started: float) -> None:
        with self._lock:
            self.admitted -= 1
            self._mean_s = 0.8 * self._mean_s + 0.2 * (time.monotonic() - started)

    async def run(self, fn: Callable[[], Any], cancel: CancelToken) -> Any:
        """Run fn() on a worker; raises Overloaded when full. If the awaiting task is cancelled, the
        search's token is cancelled so the worker stops promptly (the slot frees when it does)."""
        with self._lock:
            if self.admitted >= self.capacity:
                raise Overloaded(self.retry_after_ms())
            self.admitted += 1
        started = time.monotonic()
        self.tokens.add(cancel)
        metrics.search_waiting()

        def job():
            metrics.search_started(time.monotonic() - started)
            try:
                return fn()
            finally:
                metrics.search_ended()
                self._release(started)
                self.tokens.discard(cancel)

        future = self.executor.submit(job)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            cancel.cancel()
            raise

    def cancel_all(self) -> None:
        for token in list(self.tokens):
            token.cancel()

    def shutdown(self) -> None:
        self.cancel_all()
        self.executor.shutdown(wait=True, cancel_futures=False)


def _bad_request(violations: list[tuple[str, str]]) -> grpc.Status:
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(field_violations=[
        error_details_pb2.BadRequest.FieldViolation(field=f, description=d) for f, d in violations]))
    message = "; ".join(f"{f}: {d}" for f, d in violations)
    return rpc_status.to_status(status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail]))


def _exhausted(retry_ms: int) -> grpc.Status:
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(
        seconds=retry_ms // 1000, nanos=(retry_ms % 1000) * 1_000_000)))
    st = rpc_status.to_status(status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED,
                                                message=f"server busy: search queue full; retry after {retry_ms} ms",
                                                details=[detail]))
    return _WithMetadata(st, (("grpc-retry-pushback-ms", str(retry_ms)),))


# SessionError fields -> the request field they are about.
_SESSION_FIELDS = {"move": "move.text"}


def _session_status(e: SessionError) -> grpc.Status:
    """A refused session call as a rich status: BadRequest / PreconditionFailure / ResourceInfo."""
    field = _SESSION_FIELDS.get(e.field, e.field)
    if e.code == "INVALID_ARGUMENT":
        return _bad_request([(field or "request", e.message)])
    detail = any_pb2.Any()
    if e.code == "FAILED_PRECONDITION":
        detail.Pack(error_details_pb2.PreconditionFailure(violations=[
            error_details_pb2.PreconditionFailure.Violation(type="SESSION_STATE", subject=field,
                                                            description=e.message)]))
    elif e.code == "NOT_FOUND":
        detail.Pack(error_details_pb2.ResourceInfo(resource_type="spellbook.v1.Session", description=e.message))
    else:
        return rpc_status.to_status(status_pb2.Status(code=getattr(code_pb2, e.code, code_pb2.UNKNOWN),
                                                      message=e.message))
    return rpc_status.to_status(status_pb2.Status(code=getattr(code_pb2, e.code), message=e.message,
                                                  details=[detail]))


class _WithMetadata(grpc.Status):
    def __init__(self, st: grpc.Status, extra: tuple):
        self.code, self.details = st.code, st.details
        self.trailing_metadata = tuple(st.trailing_metadata) + extra


async def _abort_for(name: str, e: Exception, context, finish, started: float, extra: dict) -> None:
    """Logs the call and aborts it with the status for `e`: a refusal, overload, or (a bug) INTERNAL."""
    if isinstance(e, FieldError):
        await finish(context, started, "INVALID_ARGUMENT", {"field": e.field, **extra})
        await context.abort_with_status(_bad_request([(e.field, e.description)]))
    elif isinstance(e, Overloaded):
        await finish(context, started, "RESOURCE_EXHAUSTED", extra)
        await context.abort_with_status(_exhausted(e.retry_after_ms))
    elif isinstance(e, SessionError):
        await finish(context, started, e.code, {"field": e.field, **extra})
        await context.abort_with_status(_session_status(e))
    else:  # a bug, not the caller's fault: log it, answer INTERNAL, keep serving
        log.exception("rpc failed", extra={"fields": {"method": name}})
        await finish(context, started, "INTERNAL", {"error": type(e).__name__, **extra})
        await context.abort(grpc.StatusCode.INTERNAL, f"internal error ({type(e).__name__}); see the server log")


def _rpc(method):
    """Maps refusals to status codes and writes one JSON log line per call."""
    name = method.__name__

    def fields(context, started, code, extra) -> dict:
        return {"method": name, "code": code, "ms": round((time.monotonic() - started) * 1000, 3),
                "peer": context.peer(), **extra}

    async def finish(context, started, code, extra):
        log.info("rpc", extra={"fields": fields(context, started, code, extra)})

    if asyncio.iscoroutinefunction(method):
        @functools.wraps(method)
        async def unary(self, request, context):
            started, extra = time.monotonic(), {}
            try:
                response = await method(self, request, context, extra)
            except asyncio.CancelledError:
                await finish(context, started, "CANCELLED", extra)
                raise
            except grpc.aio.AbortError:
                raise
            except Exception as e:
                await _abort_for(name, e, context, finish, started, extra)
            # The log line is written on the loop's next turn, once the response is on its way: a
            # successful call's latency does not include formatting and writing it.
            asyncio.get_running_loop().call_soon(
                functools.partial(log.info, "rpc", extra={"fields": fields(context, started, "OK", extra)}))
            return response
        return unary

    @functools.wraps(method)
    async def stream(self, request, context):
        started, extra = time.monotonic(), {}
        try:
            async for response in method(self, request, context, extra):
                yield response
        except asyncio.CancelledError:
            await finish(context, started, "CANCELLED", extra)
            raise
        except grpc.aio.AbortError:
            raise
        except Exception as e:
            await _abort_for(name, e, context, finish, started, extra)
        await finish(context, started, "OK", extra)
    return stream


def _git_revision() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True,
                             text=True, timeout=5)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def rules_info() -> spb.RulesInfo:
    tables = json.dumps(engine_c.RULE_TABLES, sort_keys=True, default=list)
    digest = hashlib.sha256((tables + json.dumps(LIMITS, sort_keys=True)).encode()).hexdigest()[:12]
    return spb.RulesInfo(version=f"sb1-{digest}", notation="sb1", runes=list(engine_c.RULE_TABLES["runes"]),
                         familiar_track=list(engine_c.RULE_TABLES["familiar_track"]), tables_json=tables,
                         spells=list(SPELL_NAMES), pool_limit=LIMITS["pool"], familiar_spaces=LIMITS["familiar"],
                         copies=LIMITS["copies"], min_players=2, max_players=LIMITS["max_players"])


def _ladder_table(path: str) -> dict[int, tuple[float, float]]:
    """level -> (Elo, 95% half-width) from a ladder file; empty when there is none (logged)."""
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)["levels"]
        return {int(r["level"]): (float(r["elo"]), float(r.get("pm", 0.0))) for r in rows}
    except (OSError, ValueError, KeyError, TypeError) as e:
        log.info("no ladder table", extra={"fields": {"path": path, "error": str(e)}})
        return {}


def _level_text(d: dict) -> str:
    rollout = d["rollout"] + (f" rollouts cut off after {d['cutoff']} decisions" if d["cutoff"] else " rollouts to the end")
    choice = ("always the most visited move, answering as soon as it is settled" if d["temperature"] == 0
              else f"moves sampled at temperature {d['temperature']:g}")
    cap = f", at most {d['time_cap_ms']:g} ms" if d["time_cap_ms"] else ""
    return f"{d['iterations']} ISMCTS iterations{cap}; {rollout}; {choice}"


class SpellBookServicer(service_pb2_grpc.SpellBookServiceServicer):
    def __init__(self, config: ServiceConfig, sessions: SessionManager | None = None):
        self.config = config
        self.pool = SearchPool(config.workers, config.queue_size)
        self.sessions = sessions
        self._stopping = asyncio.Event()
        self._info = self._server_info()

    def begin_shutdown(self) -> None:
        """Ends WatchSession streams (UNAVAILABLE, with the seq to resume from) so shutdown need not wait."""
        self._stopping.set()

    def _server_info(self) -> spb.GetServerInfoResponse:
        try:
            version = metadata.version("spellbook-ai")
        except metadata.PackageNotFoundError:
            version = "0+unknown"
        c = self.config
        info = spb.GetServerInfoResponse(
            version=version, git_revision=_git_revision(), rules=rules_info(), default_level=c.default_level,
            limits=spb.ServerLimits(max_iterations=c.max_iterations, max_time_ms=c.max_time_ms,
                                    max_threads=c.max_threads, max_message_bytes=c.max_message_bytes,
                                    workers=c.workers, queue_size=c.queue_size,
                                    deadline_margin_ms=c.deadline_margin_ms, max_top_k=c.max_top_k,
                                    min_report_every_ms=c.min_report_every_ms, bot_workers=c.bot_workers,
                                    max_sessions=c.max_sessions, max_review_ms=c.max_review_ms))
        elo = _ladder_table(c.ladder)
        for d in describe_levels():
            level = info.levels.add(level=d["level"], iterations=d["iterations"], temperature=d["temperature"],
                            rollout=d["rollout"], cutoff=d["cutoff"], time_cap_ms=d["time_cap_ms"],
                            description=_level_text(d))
            if d["level"] in elo:
                level.elo, level.elo_ci = elo[d["level"]]
        for name in MISTAKE_CLASSES:
            bound = MISTAKE_THRESHOLDS[name]
            info.mistake_thresholds.add(mistake_class=convert.mistake_class(name),
                                        max_loss=bound if bound != float("inf") else 1.0)
        return info

    # ------------------------------------------------------------------ rules
    @_rpc
    async def GetServerInfo(self, request, context, log_extra):
        return self._info

    @_rpc
    async def NewGame(self, request, context, log_extra):
        players = request.players or 2
        spells = request.spells or "set1"
        try:
            state = engine_c.State.new(players=players, spells=spells, seed=request.seed)
        except ValueError as e:
            msg = str(e)
            raise FieldError("players" if msg.startswith("players") else
                             "seed" if msg.startswith("seed") else "spells", msg) from None
        return spb.NewGameResponse(state=convert.game_state(state))

    @_rpc
    async def ListLegalMoves(self, request, context, log_extra):
        parsed = convert.parse_state(request.state)
        st = parsed.state
        return spb.ListLegalMovesResponse(
            moves=[convert.move_pb(m) for m in st.legal_moves()],
            chance_outcomes=[pb.ChanceOutcome(move=convert.move_pb(m), probability=p) for m, p in st.chance_outcomes()]
            if st.is_chance() else [],
            current_player=st.current_player, decision=st.decision)

    @_rpc
    async def ApplyMove(self, request, context, log_extra):
        parsed = convert.parse_state(request.state)
        move = convert.parse_move(parsed.state, request.move)
        st = parsed.state
        st.apply(move)
        draws = st.resolve_chance() if request.resolve_chance else []
        return spb.ApplyMoveResponse(state=convert.game_state(st, parsed), draws=[convert.move_pb(d) for d in draws])

    @_rpc
    async def ResolveChance(self, request, context, log_extra):
        parsed = convert.parse_state(request.state)
        st = parsed.state
        if request.HasField("seed") and st.is_chance():
            # Re-sample only the Pouch order: a perfect-memory determinization keeps everything else.
            st = st.determinize(0, knows_discard=True, seed=request.seed)
        draws = st.resolve_chance()
        return spb.ResolveChanceResponse(state=convert.game_state(st, parsed), draws=[convert.move_pb(d) for d in draws])

    # ------------------------------------------------------------------ search
    def _search_setup(self, request, context, settle_early: bool = False):
        """The parsed state and search options of a search request. A level's `stop_early` is kept only
        where just the chosen move matters (GetBestMove): hints and analysis report every move's
        statistics, so they always spend their whole budget."""
        parsed = convert.parse_state(request.state)
        st = parsed.state
        if st.is_terminal():
            raise FieldError("state", "the game is over: there is no move to search")
        if st.is_chance():
            raise FieldError("state", "a Pouch draw is pending: resolve it first (ResolveChance), then search")
        if request.HasField("seat") and request.seat != st.current_player:
            raise FieldError("seat", f"seat {request.seat} is not to move; seat {st.current_player} decides "
                                     f"({st.decision})")
        opts, level = convert.search_options(request, self.config.caps(),
                                             knows_discard=False if not parsed.knows_discard else None)
        opts.stop_early = opts.stop_early and settle_early
        remaining = context.time_remaining()
        if remaining is not None:
            margin = min(self.config.deadline_margin_ms / 1000.0, remaining / 2)
            opts.deadline = time.monotonic() + max(remaining - margin, 0.001)
        return parsed, opts, level

    def _cancel_on_done(self, context) -> CancelToken:
        token = CancelToken()
        context.add_done_callback(lambda _ctx: token.cancel())
        return token

    def _run_search(self, state, opts, token):
        start = time.monotonic()
        requested_end = start + opts.time_ms / 1000.0 if opts.time_ms else float("inf")
        result = ismcts(SPELLBOOK, state, opts, cancel=token)
        metrics.observe_search(result.iterations, result.elapsed_s)
        by_deadline = bool(opts.deadline) and opts.deadline < requested_end and time.monotonic() >= opts.deadline
        return result, result.cut_short or by_deadline or token.cancelled

    @_rpc
    async def GetBestMove(self, request, context, log_extra):
        parsed, opts, level = self._search_setup(request, context, settle_early=True)
        token = self._cancel_on_done(context)

        def work():  # the response is built on the worker too, leaving the event loop free for other calls
            result, cut = self._run_search(parsed.state, opts, token)
            return result, cut, spb.GetBestMoveResponse(move=convert.move_pb(result.move),
                                                        stats=convert.search_stats(result, opts, level, cut))

        result, cut, response = await self.pool.run(work, token)
        log_extra.update(iterations=result.iterations, cut_short=cut, search_ms=round(result.elapsed_s * 1000, 3))
        return response

    def _top_k(self, value: int, default: int = 3) -> int:
        if value < 0 or value > self.config.max_top_k:
            raise FieldError("top_k", f"must be 0 to {self.config.max_top_k} (0: {default}), got {value}")
        return value or default

    @staticmethod
    def _hints(state, result, top_k: int, hide_best: bool) -> list[pb.Hint]:
        return [convert.hint_pb(h, move_reasons(state, h.move), hide_move=hide_best and h.rank == 1)
                for h in top_hints(result, top_k)]

    # ------------------------------------------------------------------ insight
    def _insight_setup(self, request, state) -> tuple[convert.InsightSpec | None, Any]:
        """The validated InsightOptions of a GetHints/Analyze request (None when nothing is asked) and the
        parsed what-if move (None: the search's best move)."""
        if not request.HasField("insight"):
            return None, None
        spec = convert.insight_options(request.insight)
        if not spec.any:
            return None, None
        move = None
        if spec.what_if_move:
            move = convert.parse_move(state, request.insight.what_if_move, "insight.what_if_move")
        return spec, move

    @staticmethod
    def _insight(state, result, opts: SearchOptions, spec: convert.InsightSpec, what_if_move,
                 hide_best: bool) -> pb.Insight:
        """Beliefs, what-if and value spread for the seat to move, as far as `spec` asks. Uses the search's
        knows_discard (False for an observation without Discard-box memory) and never the real Pouch order:
        what-if and value spread work on sampled determinizations."""
        player, kd = result.player, opts.knows_discard
        beliefs = pouch_beliefs(state, knows_discard=kd, max_k=spec.within_draws) if spec.beliefs else None
        wi_move, outcomes = None, None
        if spec.what_if:
            # the move hints rank first (most visited), not a level's temperature-sampled result.move
            wi_move = what_if_move if what_if_move is not None else result.moves[0].move
            wopts = SearchOptions(iterations=spec.what_if_iterations, deadline=opts.deadline, seed=opts.seed,
                                  knows_discard=kd, objective=opts.objective, blend=opts.blend,
                                  margin_scale=opts.margin_scale, rollout=opts.rollout, cutoff=opts.cutoff,
                                  exploration=opts.exploration)
            outcomes = what_if_draw(state, player, wi_move, wopts, knows_discard=kd, seed=opts.seed)
        spread = None
        if spec.value_spread:
            cands = [m.move for m in result.moves[:spec.spread_moves]]
            sopts = SearchOptions(seed=opts.seed, knows_discard=kd, margin_scale=opts.margin_scale,
                                  rollout=opts.rollout, cutoff=opts.cutoff)
            spread = value_spread(SPELLBOOK, state, cands, spec.worlds, spec.rollouts, sopts)
        out = convert.insight_pb(player, kd, beliefs, wi_move, outcomes, spread,
                                 hide_what_if_move=hide_best and what_if_move is None)
        if hide_best:   # the spread must not name the hidden best move either
            for ms in out.value_spread:
                if ms.move.code == result.move.code:
                    ms.ClearField("move")
        return out

    @_rpc
    async def GetHints(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        parsed, opts, level = self._search_setup(request, context)
        spec, what_if_move = self._insight_setup(request, parsed.state)
        token = self._cancel_on_done(context)

        def work():
            result, cut = self._run_search(parsed.state, opts, token)
            insight = (self._insight(parsed.state, result, opts, spec, what_if_move, request.hide_best)
                       if spec and not token.cancelled else None)
            return result, cut, self._hints(parsed.state, result, top_k, request.hide_best), insight

        result, cut, hints, insight = await self.pool.run(work, token)
        log_extra.update(iterations=result.iterations, cut_short=cut)
        return spb.GetHintsResponse(hints=hints, stats=convert.search_stats(result, opts, level, cut,
                                                                             hide_moves=request.hide_best),
                                    insight=insight)

    @_rpc
    async def Analyze(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        every = request.report_every_ms or 250
        if every < self.config.min_report_every_ms:
            raise FieldError("report_every_ms", f"must be at least {self.config.min_report_every_ms} (0: 250), got {every}")
        parsed, opts, level = self._search_setup(request, context)
        spec, what_if_move = self._insight_setup(request, parsed.state)
        token = self._cancel_on_done(context)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def work():
            start = time.monotonic()
            requested_end = start + opts.time_ms / 1000.0 if opts.time_ms else float("inf")
            try:
                for result, final in ismcts_progress(SPELLBOOK, parsed.state, opts, every / 1000.0, token):
                    by_deadline = (bool(opts.deadline) and opts.deadline < requested_end
                                   and time.monotonic() >= opts.deadline)
                    hints = self._hints(parsed.state, result, top_k, False)
                    insight = (self._insight(parsed.state, result, opts, spec, what_if_move, False)
                               if final and spec and not token.cancelled else None)
                    item = (result, final, hints, result.cut_short or by_deadline or token.cancelled, insight)
                    loop.call_soon_threadsafe(queue.put_nowait, item)
            except BaseException as e:  # surfaced in the handler
                loop.call_soon_threadsafe(queue.put_nowait, e)

        job = asyncio.ensure_future(self.pool.run(work, token))
        try:
            while True:
                if job.done() and queue.empty():
                    job.result()  # Overloaded, or a worker error
                    raise RuntimeError("the analysis ended without a final report")
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, job}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()  # the item (if any) stays in the queue
                    continue
                item = getter.result()
                if isinstance(item, BaseException):
                    raise item
                result, final, hints, cut, insight = item
                yield spb.AnalyzeResponse(final=final, best_move=convert.move_pb(result.move),
                                          stats=convert.search_stats(result, opts, level, cut), hints=hints,
                                          insight=insight)
                if final:
                    log_extra.update(iterations=result.iterations, cut_short=cut)
                    break
            await job
        finally:
            if not job.done():
                token.cancel()

    # ------------------------------------------------------------------ sessions
    def _manager(self) -> SessionManager:
        if self.sessions is None:
            raise SessionError("FAILED_PRECONDITION", "session_id", "this server runs without sessions")
        return self.sessions

    @staticmethod
    def _event_pb(ev) -> pb.SessionEvent:
        out = pb.SessionEvent(seq=ev.seq, kind=ev.kind, seat=ev.seat, to_move=ev.to_move, scores=ev.scores,
                              winners=ev.winners)
        if ev.move:
            out.move.CopyFrom(convert.move_pb(engine_c.Move.from_text(ev.move)))
        return out

    @_rpc
    async def CreateSession(self, request, context, log_extra):
        mgr = self._manager()
        seats = []
        for i, seat in enumerate(request.seats):
            if seat.kind == pb.SEAT_KIND_CLIENT:
                seats.append(SeatSpec("client"))
            elif seat.kind == pb.SEAT_KIND_BOT:
                seats.append(SeatSpec("bot", seat.level))
            else:
                raise FieldError(f"seats[{i}].kind", "must be SEAT_KIND_CLIENT or SEAT_KIND_BOT")
        if request.players < 0:
            raise FieldError("players", f"must be 2 to 4 (0: the number of seats), got {request.players}")
        sid = await mgr.create(request.players or len(seats), request.spells or "set1", request.seed, seats)
        view = mgr.view(sid, 0)
        log_extra.update(session_id=sid)
        return spb.CreateSessionResponse(session_id=sid, spells=view["spells"], to_move=view["to_move"])

    @_rpc
    async def SubmitMove(self, request, context, log_extra):
        mgr = self._manager()
        log_extra.update(session_id=request.session_id, seat=request.seat)
        text = request.move.text.strip()
        if not text:
            raise FieldError("move.text", "give the move text, e.g. 'take Rc' (GetSession lists the legal moves)")
        expected = request.expected_seq if request.HasField("expected_seq") else None
        if expected is not None and expected < 0:
            raise FieldError("expected_seq", f"must not be negative, got {expected}")
        try:
            events = await mgr.submit(request.session_id, request.seat, text, expected)
        except SessionError as e:
            replayed = self._replayed(mgr, request, text, expected) if e.field == "expected_seq" else None
            if replayed is None:
                raise
            log_extra.update(replayed=True)
            return spb.SubmitMoveResponse(events=[self._event_pb(ev) for ev in replayed], seq=replayed[-1].seq,
                                          to_move=replayed[-1].to_move, replayed=True)
        return spb.SubmitMoveResponse(events=[self._event_pb(ev) for ev in events], seq=events[-1].seq,
                                      to_move=events[-1].to_move)

    @staticmethod
    def _replayed(mgr: SessionManager, request, text: str, expected: int):
        """A retried submission: when the event right after `expected` is this seat's very same move, the
        stored events of that submission (the move and its draws); otherwise None."""
        history = mgr.history(request.session_id, expected + 1)
        if not history or history[0].seq != expected + 1 or history[0].kind != "move" \
                or history[0].seat != request.seat:
            return None
        try:
            if engine_c.Move.from_text(text).code != engine_c.Move.from_text(history[0].move).code:
                return None
        except (engine_c.NotationError, engine_c.IllegalMoveError, ValueError):
            return None
        events = [history[0]]
        for ev in history[1:]:
            if ev.kind != "draw":
                break
            events.append(ev)
        return events

    @_rpc
    async def GetSession(self, request, context, log_extra):
        mgr = self._manager()
        v = mgr.view(request.session_id, request.seat)
        # The structured view is built from the observation text alone, so it cannot carry the Pouch order.
        obs_state = engine_c.State.from_observation(v["observation"])
        observation = pb.GameState(text=v["observation"], view=convert.state_view(
            obs_state, convert.ParsedState(obs_state, observer=request.seat, knows_discard=True)))
        seats = [pb.SessionSeat(kind=pb.SEAT_KIND_BOT if s["kind"] == "bot" else pb.SEAT_KIND_CLIENT,
                                level=s["level"]) for s in v["seats"]]
        return spb.GetSessionResponse(
            session_id=v["session_id"], seq=v["seq"], seat=v["seat"], observation=observation, to_move=v["to_move"],
            phase=v["phase"], decision=v["decision"], legal_moves=[convert.move_pb(engine_c.Move.from_text(m))
                                                                   for m in v["legal_moves"]],
            scores=v["scores"], over=v["over"], winners=v["winners"], seats=seats, players=v["players"],
            spells=v["spells"])

    @_rpc
    async def WatchSession(self, request, context, log_extra):
        mgr = self._manager()
        if request.from_seq < 0:
            raise FieldError("from_seq", f"must not be negative, got {request.from_seq}")
        log_extra.update(session_id=request.session_id)
        events = mgr.watch(request.session_id, max(request.from_seq, 1))
        stopping = asyncio.ensure_future(self._stopping.wait())
        last = request.from_seq - 1
        nxt = None
        try:
            while True:
                nxt = asyncio.ensure_future(events.__anext__())
                await asyncio.wait({nxt, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if not nxt.done():
                    nxt.cancel()
                    await asyncio.gather(nxt, return_exceptions=True)
                    await context.abort(grpc.StatusCode.UNAVAILABLE,
                                        f"the server is shutting down; watch again with from_seq={last + 1}")
                try:
                    ev = nxt.result()
                except StopAsyncIteration:
                    break
                if ev.kind != "end":
                    last = ev.seq
                yield spb.WatchSessionResponse(event=self._event_pb(ev))
        finally:   # also when the client cancels: stop the pending read first, then close the generator
            stopping.cancel()
            if nxt is not None and not nxt.done():
                nxt.cancel()
                await asyncio.gather(nxt, return_exceptions=True)
            await events.aclose()

    @_rpc
    async def ExportSession(self, request, context, log_extra):
        record = self._manager().export(request.session_id)
        return spb.ExportSessionResponse(record_json=json.dumps(record), record=convert.record_pb(record))

    # ------------------------------------------------------------------ PlayMatch
    def _match_bots(self, request, players: int):
        bots, levels = [], []
        c = self.config
        for i, spec in enumerate(request.bots):
            f = f"bots[{i}]"
            try:
                bot = make_bot(spec, SPELLBOOK, seed=(request.seed * 1_000_003 + 7919 * (i + 1)) % 2**64)
            except (ValueError, TypeError) as e:
                raise FieldError(f, str(e)) from None
            opts = getattr(bot, "options", None)
            if opts is not None:
                for name, cap in (("iterations", c.max_iterations), ("threads", c.max_threads),
                                  ("time_ms", c.max_time_ms), ("max_nodes", c.max_nodes)):
                    explicit = re.search(rf"(?:^|[:,])\s*{name}\s*=", spec) is not None
                    if getattr(opts, name) > cap and (explicit or name != "max_nodes"):
                        raise FieldError(f, f"{name} at most {cap:g} (server cap), got {getattr(opts, name):g}")
                opts.max_nodes = min(opts.max_nodes, c.max_nodes)
                opts.time_ms = min(opts.time_ms or c.max_time_ms, c.max_time_ms)
            m = re.search(r"level=(\d+)", spec)
            bots.append(bot)
            levels.append(int(m.group(1)) if m else 0)
        return bots, levels

    @_rpc
    async def PlayMatch(self, request, context, log_extra):
        specs = list(request.bots)
        if not 2 <= len(specs) <= 4:
            raise FieldError("bots", f"give one bot spec per seat, 2 to 4, got {len(specs)}")
        spells = request.spells or "set1"
        try:
            state = engine_c.State.new(players=len(specs), spells=spells, seed=request.seed)
        except ValueError as e:
            raise FieldError("seed" if str(e).startswith("seed") else "spells", str(e)) from None
        bots, levels = self._match_bots(request, len(specs))
        log_extra.update(bots=specs)
        token = self._cancel_on_done(context)

        def cancel_bots(_ctx=None):
            for b in bots:
                if getattr(b, "cancel", None) is not None:
                    b.cancel.cancel()

        context.add_done_callback(cancel_bots)
        remaining = context.time_remaining()
        deadline = 0.0
        if remaining is not None:
            deadline = time.monotonic() + max(remaining - min(self.config.deadline_margin_ms / 1000.0, remaining / 2),
                                              0.001)
            for b in bots:
                if getattr(b, "options", None) is not None:
                    b.options.deadline = deadline
        started = time.monotonic()

        def work(emit):
            st, seq, events, moves = state, 0, [], 0
            while not st.is_terminal() and not token.cancelled and not (deadline and time.monotonic() >= deadline):
                seat = st.current_player
                t0 = time.monotonic()
                move, info = bots[seat].choose(st)
                think = (time.monotonic() - t0) * 1000.0
                draws = st.play(move)
                seq += 1
                moves += 1
                item = spb.MatchMove(seq=seq, seat=seat, bot=specs[seat], move=convert.move_pb(move),
                                     draws=[convert.move_pb(d) for d in draws], forced=bool(info.get("forced")),
                                     think_ms=think)
                result = info.get("result")
                if result is not None:
                    used = replace(bots[seat].options, seed=result.seed)
                    item.stats.CopyFrom(convert.search_stats(result, used, levels[seat], result.cut_short))
                events.append({"seq": seq, "kind": "move", "seat": seat, "move": str(move)})
                for d in draws:
                    seq += 1
                    events.append({"seq": seq, "kind": "draw", "seat": -1, "move": str(d)})
                emit(spb.PlayMatchResponse(move=item))
            over = st.is_terminal()
            scores = [s.total for s in st.scores()]
            winners = st.winners() if over else []
            record = {"format": convert.RECORD_FORMAT, "players": len(specs), "spells": st.spells,
                      "seed": request.seed, "seats": [{"kind": "bot", "spec": sp} for sp in specs],
                      "status": "finished" if over else "active", "events": events,
                      "result": {"scores": scores, "winners": winners} if over else None}
            emit(spb.PlayMatchResponse(end=spb.MatchEnd(
                finished=over, scores=scores, winners=winners, record=convert.record_pb(record),
                record_json=json.dumps(record), moves=moves, elapsed_ms=(time.monotonic() - started) * 1000.0)))

        async for item in self._stream_job(work, token):
            yield item
            if item.HasField("end"):
                log_extra.update(moves=item.end.moves, finished=item.end.finished)

    async def _stream_job(self, work: Callable, token: CancelToken):
        """Runs work(emit) as one SearchPool job and yields what it emits, as it emits it."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        done = object()

        def job():
            work(lambda item: loop.call_soon_threadsafe(queue.put_nowait, item))
            loop.call_soon_threadsafe(queue.put_nowait, done)

        task = asyncio.ensure_future(self.pool.run(job, token))
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                finished, _ = await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in finished:
                    getter.cancel()
                    if queue.empty():
                        task.result()    # Overloaded, or the worker's error
                        raise RuntimeError("the job ended without finishing its stream")
                    continue
                item = getter.result()
                if item is done:
                    break
                yield item
            await task
        finally:
            if not task.done():
                token.cancel()

    # ------------------------------------------------------------------ AnalyzeGame
    def _record_request(self, request) -> tuple[dict, str]:
        form = request.WhichOneof("game")
        if form == "record":
            return convert.record_from_pb(request.record), "record"
        if form == "record_json":
            rec = convert.record_from_json(request.record_json)
            if not 0 <= rec["seed"] < 2**64:
                raise FieldError("record_json.seed", f"must be 0 to 2^64-1, got {rec['seed']}")
            return rec, "record_json"
        raise FieldError("record", "give the game as `record` or `record_json` (ExportSession gives both)")

    @_rpc
    async def AnalyzeGame(self, request, context, log_extra):
        rec, field = self._record_request(request)
        if not 0 <= request.key_moments <= 50:
            raise FieldError("key_moments", f"must be 0 to 50 (0: 5), got {request.key_moments}")
        try:
            final, steps = replay(rec)
        except RecordError as e:
            raise FieldError(f"{field}.{e.field}", str(e).split(": ", 1)[-1]) from None
        if not final.is_terminal():
            raise FieldError(f"{field}.events", f"the game is not over after its {len(rec['events'])} events: "
                                                "AnalyzeGame reviews finished games")
        scores = [s.total for s in final.scores()]
        if rec.get("result") and list(rec["result"]["scores"]) != scores:
            raise FieldError(f"{field}.result", f"the events replay to scores {scores}, the record says "
                                                f"{list(rec['result']['scores'])}")
        opts, level = convert.search_options(request, self.config.caps())
        opts.stop_early = False   # a review compares every decision's moves: full statistics
        decision_events = [i for i, e in enumerate(rec["events"]) if not engine_c.Move.from_text(e["move"]).is_chance]
        forced = sum(1 for st, _, _ in steps if len(st.legal_moves()) == 1)
        # The whole review fits the call's deadline and the server's cap: each search gets an equal share.
        budget_ms = self.config.max_review_ms
        remaining = context.time_remaining()
        if remaining is not None:
            budget_ms = min(budget_ms, (remaining - min(self.config.deadline_margin_ms / 1000.0, remaining / 2)) * 1000)
        # A tenth of the time and about a millisecond per decision (setup, copies) are kept for the overhead.
        share_ms = max(0.9 * budget_ms / max(len(steps) - forced, 1) - 1.0, 2.0)
        time_limited = share_ms < opts.time_ms
        opts.time_ms = min(opts.time_ms, share_ms)
        token = self._cancel_on_done(context)
        started = time.monotonic()
        review = await self.pool.run(lambda: review_game(SPELLBOOK, steps, scores, opts, request.key_moments or 5,
                                                         token), token)
        cut = any(d.iterations < opts.iterations for d in review.decisions) if opts.iterations else time_limited
        log_extra.update(decisions=len(review.decisions), cut_short=cut)

        def dr(d):
            return spb.DecisionReview(decision=d.index, event_index=decision_events[d.index], seat=d.seat,
                                      played=convert.move_pb(d.played), best=convert.move_pb(d.best), loss=d.loss_win,
                                      loss_points=d.loss_points, mistake_class=convert.mistake_class(d.mistake),
                                      win_before=d.win_before, win_after=d.win_after, iterations=d.iterations)

        return spb.AnalyzeGameResponse(
            decisions=[dr(d) for d in review.decisions], key_moments=[dr(d) for d in review.key_moments],
            players=[spb.PlayerReview(seat=p.seat, expected_start=p.expected_start, final_score=p.final, luck=p.luck,
                                      decisions=p.decisions, others=p.others) for p in review.players],
            result=pb.GameResult(scores=scores, winners=final.winners()), total_decisions=len(steps),
            forced_decisions=forced, options=convert.effective_options(opts, level), cut_short=cut,
            elapsed_ms=(time.monotonic() - started) * 1000.0)
