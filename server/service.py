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

To add an RPC (issue 5: sessions, PlayMatch, AnalyzeGame), add it to service.proto, regenerate
(`make proto`), and add a method here wrapped in `@_rpc`; use `self.pool.run()` for CPU-bound work.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
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
from server import convert
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

        def job():
            try:
                return fn()
            finally:
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


class _WithMetadata(grpc.Status):
    def __init__(self, st: grpc.Status, extra: tuple):
        self.code, self.details = st.code, st.details
        self.trailing_metadata = tuple(st.trailing_metadata) + extra


def _rpc(method):
    """Maps refusals to status codes and writes one JSON log line per call."""
    name = method.__name__

    async def finish(context, started, code, extra):
        log.info("rpc", extra={"fields": {"method": name, "code": code, "ms": round((time.monotonic() - started) * 1000, 3),
                                          "peer": context.peer(), **extra}})

    if asyncio.iscoroutinefunction(method):
        @functools.wraps(method)
        async def unary(self, request, context):
            started, extra = time.monotonic(), {}
            try:
                response = await method(self, request, context, extra)
            except FieldError as e:
                await finish(context, started, "INVALID_ARGUMENT", {"field": e.field, **extra})
                await context.abort_with_status(_bad_request([(e.field, e.description)]))
            except Overloaded as e:
                await finish(context, started, "RESOURCE_EXHAUSTED", extra)
                await context.abort_with_status(_exhausted(e.retry_after_ms))
            except asyncio.CancelledError:
                await finish(context, started, "CANCELLED", extra)
                raise
            except grpc.aio.AbortError:
                raise
            except Exception as e:  # a bug, not the caller's fault: log it, answer INTERNAL, keep serving
                log.exception("rpc failed", extra={"fields": {"method": name}})
                await finish(context, started, "INTERNAL", {"error": type(e).__name__, **extra})
                await context.abort(grpc.StatusCode.INTERNAL, f"internal error ({type(e).__name__}); see the server log")
            await finish(context, started, "OK", extra)
            return response
        return unary

    @functools.wraps(method)
    async def stream(self, request, context):
        started, extra = time.monotonic(), {}
        try:
            async for response in method(self, request, context, extra):
                yield response
        except FieldError as e:
            await finish(context, started, "INVALID_ARGUMENT", {"field": e.field, **extra})
            await context.abort_with_status(_bad_request([(e.field, e.description)]))
        except Overloaded as e:
            await finish(context, started, "RESOURCE_EXHAUSTED", extra)
            await context.abort_with_status(_exhausted(e.retry_after_ms))
        except asyncio.CancelledError:
            await finish(context, started, "CANCELLED", extra)
            raise
        except grpc.aio.AbortError:
            raise
        except Exception as e:  # a bug, not the caller's fault: log it, answer INTERNAL, keep serving
            log.exception("rpc failed", extra={"fields": {"method": name}})
            await finish(context, started, "INTERNAL", {"error": type(e).__name__, **extra})
            await context.abort(grpc.StatusCode.INTERNAL, f"internal error ({type(e).__name__}); see the server log")
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


def _level_text(d: dict) -> str:
    rollout = d["rollout"] + (f" rollouts cut off after {d['cutoff']} decisions" if d["cutoff"] else " rollouts to the end")
    choice = "always the most visited move" if d["temperature"] == 0 else f"moves sampled at temperature {d['temperature']:g}"
    cap = f", at most {d['time_cap_ms']:g} ms" if d["time_cap_ms"] else ""
    return f"{d['iterations']} ISMCTS iterations{cap}; {rollout}; {choice}"


class SpellBookServicer(service_pb2_grpc.SpellBookServiceServicer):
    def __init__(self, config: ServiceConfig):
        self.config = config
        self.pool = SearchPool(config.workers, config.queue_size)
        self._info = self._server_info()

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
                                    min_report_every_ms=c.min_report_every_ms))
        for d in describe_levels():
            info.levels.add(level=d["level"], iterations=d["iterations"], temperature=d["temperature"],
                            rollout=d["rollout"], cutoff=d["cutoff"], time_cap_ms=d["time_cap_ms"],
                            description=_level_text(d))
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
    def _search_setup(self, request, context):
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
        by_deadline = bool(opts.deadline) and opts.deadline < requested_end and time.monotonic() >= opts.deadline
        return result, result.cut_short or by_deadline or token.cancelled

    @_rpc
    async def GetBestMove(self, request, context, log_extra):
        parsed, opts, level = self._search_setup(request, context)
        token = self._cancel_on_done(context)
        result, cut = await self.pool.run(lambda: self._run_search(parsed.state, opts, token), token)
        log_extra.update(iterations=result.iterations, cut_short=cut, search_ms=round(result.elapsed_s * 1000, 3))
        return spb.GetBestMoveResponse(move=convert.move_pb(result.move),
                                       stats=convert.search_stats(result, opts, level, cut))

    def _top_k(self, value: int, default: int = 3) -> int:
        if value < 0 or value > self.config.max_top_k:
            raise FieldError("top_k", f"must be 0 to {self.config.max_top_k} (0: {default}), got {value}")
        return value or default

    @staticmethod
    def _hints(state, result, top_k: int, hide_best: bool) -> list[pb.Hint]:
        return [convert.hint_pb(h, move_reasons(state, h.move), hide_move=hide_best and h.rank == 1)
                for h in top_hints(result, top_k)]

    @_rpc
    async def GetHints(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        parsed, opts, level = self._search_setup(request, context)
        token = self._cancel_on_done(context)

        def work():
            result, cut = self._run_search(parsed.state, opts, token)
            return result, cut, self._hints(parsed.state, result, top_k, request.hide_best)

        result, cut, hints = await self.pool.run(work, token)
        log_extra.update(iterations=result.iterations, cut_short=cut)
        return spb.GetHintsResponse(hints=hints, stats=convert.search_stats(result, opts, level, cut,
                                                                             hide_moves=request.hide_best))

    @_rpc
    async def Analyze(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        every = request.report_every_ms or 250
        if every < self.config.min_report_every_ms:
            raise FieldError("report_every_ms", f"must be at least {self.config.min_report_every_ms} (0: 250), got {every}")
        parsed, opts, level = self._search_setup(request, context)
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
                    item = (result, final, hints, result.cut_short or by_deadline or token.cancelled)
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
                result, final, hints, cut = item
                yield spb.AnalyzeResponse(final=final, best_move=convert.move_pb(result.move),
                                          stats=convert.search_stats(result, opts, level, cut), hints=hints)
                if final:
                    log_extra.update(iterations=result.iterations, cut_short=cut)
                    break
            await job
        finally:
            if not job.done():
                token.cancel()
