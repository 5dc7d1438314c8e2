"""Prometheus metrics (prometheus_client) and the request id of each call.

Served by `spellbook-ai serve --metrics-address HOST:PORT` at /metrics:

    spellbook_rpc_total{method,code}            calls finished, by status code (errors by code: code != "OK");
                                                method: "GetHints" (SpellBookService), "AbracadaWhatService/GetHints"
    spellbook_rpc_seconds{method}               call latency (histogram)
    spellbook_search_queue_depth                searches admitted and waiting for a worker
    spellbook_search_queue_wait_seconds         time a search waited for a worker (histogram)
    spellbook_searches_running                  searches on a worker now (session bots included)
    spellbook_searches_inline_total             searches an idle server ran on its event loop (--inline-ms)
    spellbook_search_iterations_total           ISMCTS iterations done: rate() is iterations per second
    spellbook_search_seconds_total              time spent searching (iterations_total / this: per search-second)
    spellbook_sessions_open                     unfinished sessions in the database
    spellbook_sessions_expired_total            sessions expired for being idle (--session-idle-s)

With `--processes N` every process writes its samples to PROMETHEUS_MULTIPROC_DIR (set by the supervisor
before it starts them) and the supervisor serves their sum (gauges: the live processes' sum, or their
maximum for sessions_open, which each reads from the shared database).

Request ids: a client may send `x-request-id` metadata; otherwise the server makes one. The interceptor
puts it in `REQUEST_ID` for the call's task, and the JSON log formatter (server/main.py) adds it to every
line written while the call runs.
"""
from __future__ import annotations

import asyncio
import contextvars
import random
import time

import grpc
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("spellbook_request_id", default=None)
REQUEST_ID_KEY = "x-request-id"
_MAX_REQUEST_ID = 128

_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120)

RPC_TOTAL = Counter("spellbook_rpc", "RPCs finished, by method and status code", ["method", "code"])
RPC_SECONDS = Histogram("spellbook_rpc_seconds", "RPC latency in seconds", ["method"], buckets=_LATENCY_BUCKETS)
QUEUE_DEPTH = Gauge("spellbook_search_queue_depth", "searches admitted and waiting for a worker",
                    multiprocess_mode="livesum")
QUEUE_WAIT = Histogram("spellbook_search_queue_wait_seconds", "time a search waited for a worker",
                       buckets=_LATENCY_BUCKETS)
SEARCHES_RUNNING = Gauge("spellbook_searches_running", "searches running on a worker now",
                         multiprocess_mode="livesum")
SEARCHES_INLINE = Counter("spellbook_searches_inline", "small searches an idle server ran on its event loop")
SEARCH_ITERATIONS = Counter("spellbook_search_iterations", "ISMCTS iterations done (rate(): iterations per second)")
SEARCH_SECONDS = Counter("spellbook_search_seconds", "time spent searching, in seconds")
SESSIONS_OPEN = Gauge("spellbook_sessions_open", "unfinished sessions in the database", multiprocess_mode="livemax")
SESSIONS_EXPIRED = Counter("spellbook_sessions_expired", "sessions expired for being idle")
SEARCHES_REFUSED = Counter("spellbook_searches_refused", "searches refused (RESOURCE_EXHAUSTED), by the cap reached",
                           ["cap"])


def observe_search(iterations: int, elapsed_s: float) -> None:
    SEARCH_ITERATIONS.inc(iterations)
    SEARCH_SECONDS.inc(max(elapsed_s, 0.0))


def search_waiting() -> None:
    QUEUE_DEPTH.inc()


def search_left_queue() -> None:
    """A waiting search whose caller went away before it started."""
    QUEUE_DEPTH.dec()


def search_started(waited_s: float, waited: bool = True) -> None:
    """A search took a worker after `waited_s` (`waited`: it was counted in the queue depth)."""
    if waited:
        QUEUE_DEPTH.dec()
    QUEUE_WAIT.observe(waited_s)
    SEARCHES_RUNNING.inc()


def search_inline() -> None:
    SEARCHES_INLINE.inc()


def search_ended() -> None:
    SEARCHES_RUNNING.dec()


def search_refused(cap: str) -> None:
    SEARCHES_REFUSED.labels(cap).inc()


class _Call:
    """Per-method metric children, made once (labels() is a dictionary lookup under a lock)."""

    def __init__(self, method: str):
        self.method = method
        self.latency = RPC_SECONDS.labels(method)
        self.codes: dict[str, object] = {}

    def done(self, started: float, code: str) -> None:
        self.latency.observe(time.perf_counter() - started)
        counter = self.codes.get(code)
        if counter is None:
            counter = self.codes[code] = RPC_TOTAL.labels(self.method, code)
        counter.inc()


def _code_of(context) -> str:
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code.name
    return grpc.StatusCode.UNKNOWN.name if code else "OK"


def _request_id(context) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == REQUEST_ID_KEY and isinstance(value, str) and value:
            return value[:_MAX_REQUEST_ID]
    return f"{random.getrandbits(64):016x}"     # an id for the logs, not a secret


def method_label(path: str) -> str:
    """A call's `method` label: the method's name for SpellBookService ("GetHints"), the service's name and
    the method's for another game's ("AbracadaWhatService/GetHints")."""
    service, _, method = path.lstrip("/").rpartition("/")
    return method if service.endswith(".SpellBookService") else f"{service.rpartition('.')[2]}/{method}"


class ServerInterceptor(grpc.aio.ServerInterceptor):
    """Counts and times the calls of services whose full name starts with `prefix` (health checks and
    reflection are left bare) and sets each call's request id. The wrapped handler of a method is made
    once and reused: the per-call cost is one extra coroutine frame."""

    def __init__(self, prefix: str | tuple[str, ...] = ("/spellbook.", "/abracadawhat.", "/games.")):   # auth.API_PREFIXES
        self.prefix = prefix
        self._wrapped: dict[str, tuple] = {}     # method -> (its handler, the wrapped handler)
        self._calls: dict[str, _Call] = {}

    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        if handler is None or not details.method.startswith(self.prefix):
            return handler
        cached = self._wrapped.get(details.method)
        if cached is not None and cached[0] is handler:
            return cached[1]
        call = self._calls.get(details.method)
        if call is None:
            call = self._calls[details.method] = _Call(method_label(details.method))
        if handler.unary_unary is not None:
            wrapped = handler._replace(unary_unary=_unary(handler.unary_unary, call))
        elif handler.unary_stream is not None:
            wrapped = handler._replace(unary_stream=_stream(handler.unary_stream, call))
        else:
            return handler
        if cached is None:      # the service's own handler; one made per call (a refusal) is not kept
            self._wrapped[details.method] = (handler, wrapped)
        return wrapped


def _unary(behavior, call: _Call):
    async def wrapped(request, context):
        REQUEST_ID.set(_request_id(context))
        started, code = time.perf_counter(), "OK"
        try:
            return await behavior(request, context)
        except (Exception, asyncio.CancelledError) as e:     # not GeneratorExit: a stream closed early
            code = _failure_code(e, context)
            raise
        finally:
            call.done(started, code)
    return wrapped


def _failure_code(e: BaseException, context) -> str:
    """The status code a call that raised `e` ends with, for the error counters."""
    if isinstance(e, grpc.aio.AbortError):
        return _code_of(context)
    if isinstance(e, asyncio.CancelledError):
        return "CANCELLED"
    return "UNKNOWN"


def _stream(behavior, call: _Call):
    async def wrapped(request, context):
        REQUEST_ID.set(_request_id(context))
        started, code = time.perf_counter(), "OK"
        try:
            async for item in behavior(request, context):
                yield item
        except (Exception, asyncio.CancelledError) as e:     # not GeneratorExit: a stream closed early
            code = _failure_code(e, context)
            raise
        finally:
            call.done(started, code)
    return wrapped


def serve_metrics(address: str, multiprocess_dir: str | None = None):
    """Starts the /metrics HTTP server on HOST:PORT (port 0: any free port); returns (server, port). With
    `multiprocess_dir`, serves the sum of the processes writing there instead of this process's own."""
    host, _, port = address.rpartition(":")
    registry = None
    if multiprocess_dir:
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=multiprocess_dir)
    kwargs = {"registry": registry} if registry is not None else {}
    server, _thread = start_http_server(int(port), addr=host.strip("[]") or "127.0.0.1", **kwargs)
    return server, server.server_port
