"""Runs the SpellBook gRPC server: `spellbook-ai serve` / `python -m server.main`.

Configuration: flags, each with an environment variable as its default (flag wins):

    --address HOST:PORT     SPELLBOOK_ADDRESS        127.0.0.1:50051 (port 0: any free port)
    --workers N             SPELLBOOK_WORKERS        CPU count: searches running at once
    --queue-size N          SPELLBOOK_QUEUE_SIZE     8: searches waiting beyond those (then RESOURCE_EXHAUSTED)
    --max-iterations N      SPELLBOOK_MAX_ITERATIONS 200000
    --max-time-ms MS        SPELLBOOK_MAX_TIME_MS    10000 (also caps searches that give only iterations)
    --max-threads N         SPELLBOOK_MAX_THREADS    CPU count (threads of one search)
    --max-nodes N           SPELLBOOK_MAX_NODES      2000000 (tree nodes per search thread)
    --max-message-bytes N   SPELLBOOK_MAX_MESSAGE_BYTES 1048576
    --default-level N       SPELLBOOK_DEFAULT_LEVEL  5
    --deadline-margin-ms MS SPELLBOOK_DEADLINE_MARGIN_MS 50: kept back from a call's deadline
    --grace-s S             SPELLBOOK_GRACE_S        5: on SIGTERM/SIGINT, in-flight calls get this long
    --log-level LEVEL       SPELLBOOK_LOG_LEVEL      INFO
    --db PATH               SPELLBOOK_DB             ~/.spellbook-ai/sessions.db (server/store.py DEFAULT_DB):
                                                     the SQLite file of sessions; ":memory:" keeps none
    --bot-workers N         SPELLBOOK_BOT_WORKERS    half the CPU count (at least 1): threads for session bots
    --max-sessions N        SPELLBOOK_MAX_SESSIONS   10000 unfinished sessions at once
    --max-review-ms MS      SPELLBOOK_MAX_REVIEW_MS  120000: cap on one AnalyzeGame
    --ladder PATH           SPELLBOOK_LADDER         data/ladder.json of the checkout: the level -> Elo table
                                                     GetServerInfo reports ('' for none)
    --per-client-searches N SPELLBOOK_PER_CLIENT_SEARCHES 0 (half the workers): one client's searches at once
    --per-client-queued-ms MS SPELLBOOK_PER_CLIENT_QUEUED_MS 900000: one client's admitted search time
    --per-client-sessions N SPELLBOOK_PER_CLIENT_SESSIONS 100: unfinished sessions one client created
    --session-idle-s S      SPELLBOOK_SESSION_IDLE_S 86400: an unfinished session untouched this long expires
                                                     (0: never)
    --max-match-ms MS       SPELLBOOK_MAX_MATCH_MS   300000: cap on one PlayMatch
    --api-keys-file PATH    SPELLBOOK_API_KEYS_FILE  API keys, one a line; also SPELLBOOK_API_KEYS (comma-separated).
                                                     With keys, every call needs `authorization: Bearer KEY`
    --tls-cert PATH         SPELLBOOK_TLS_CERT       PEM certificate chain: serve TLS (with --tls-key)
    --tls-key PATH          SPELLBOOK_TLS_KEY        PEM private key
    --tls-client-ca PATH    SPELLBOOK_TLS_CLIENT_CA  PEM CA bundle: require client certificates it signed (mutual TLS)
    --insecure              SPELLBOOK_INSECURE=1     allow a non-loopback address without TLS and client
                                                     authentication (API keys or mutual TLS)

Exposure (server/auth.py): on a loopback address the server may run without credentials. On any other
address it needs TLS and a way to authenticate clients (API keys or mutual TLS), or an explicit
`--insecure`: a key sent in clear text would protect nothing.

Sessions: at start the server opens the database (one server per file: a second one on the same file
refuses to start) and resumes every unfinished session (bots continue where they were); at shutdown it
stops the bots and closes it. Session bots search in their own `--bot-workers` threads, not in the
search pool: a bot's move is never refused for load, and at most that many bot searches run at once
(each session has at most one pending). A programmatic `ServerConfig()` uses an in-memory database
unless `db` is given.

Logs are JSON lines on stderr (one per RPC, plus start/stop). Health (grpc.health.v1) and reflection are
served, so `grpcurl -plaintext 127.0.0.1:50051 list` works.
"""
from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import logging
import os
import signal
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from server import auth
from server._gen.spellbook.v1 import service_pb2
from server.rpc_base import service_handler
from server.service import ServiceConfig, SpellBookServicer
from server.sessions import SessionManager
from server.store import DEFAULT_DB, SessionStore

SERVICE_DESCRIPTOR = service_pb2.DESCRIPTOR.services_by_name["SpellBookService"]
SERVICE_NAME = SERVICE_DESCRIPTOR.full_name
log = logging.getLogger("spellbook.server")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"ts": round(record.created, 3), "level": record.levelname.lower(), "logger": record.name,
                 "msg": record.getMessage()}
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def setup_logging(level: str = "INFO", stream=None) -> None:
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("spellbook")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


@dataclass
class ServerConfig:
    address: str = "127.0.0.1:50051"
    grace_s: float = 5.0
    log_level: str = "INFO"
    db: str = ":memory:"          # the CLI's default is DEFAULT_DB
    service: ServiceConfig = field(default_factory=ServiceConfig)
    api_keys: frozenset = frozenset()     # empty: no API key needed (server/auth.py)
    tls: auth.TlsConfig = field(default_factory=auth.TlsConfig)


def _env(name: str, default, cast=str):
    value = os.environ.get(name)
    return default if value in (None, "") else cast(value)


def parse_args(argv: list[str] | None = None, prog: str = "spellbook-ai serve") -> ServerConfig:
    cpus = os.cpu_count() or 1
    p = argparse.ArgumentParser(prog=prog, description="Run the SpellBook AI gRPC server.",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--address", default=_env("SPELLBOOK_ADDRESS", "127.0.0.1:50051"),
                   help="HOST:PORT to listen on (env SPELLBOOK_ADDRESS)")
    add = lambda flag, env, default, cast, help: p.add_argument(flag, type=cast, default=_env(env, default, cast), help=help)
    add("--workers", "SPELLBOOK_WORKERS", cpus, int, "searches running at once (the CPU count)")
    add("--queue-size", "SPELLBOOK_QUEUE_SIZE", 8, int, "searches that may wait beyond those")
    add("--max-iterations", "SPELLBOOK_MAX_ITERATIONS", 200_000, int, "cap on a search's iterations")
    add("--max-time-ms", "SPELLBOOK_MAX_TIME_MS", 10_000.0, float, "cap on a search's time")
    add("--max-threads", "SPELLBOOK_MAX_THREADS", cpus, int, "cap on one search's threads")
    add("--max-nodes", "SPELLBOOK_MAX_NODES", 2_000_000, int, "cap on tree nodes per search thread")
    add("--max-message-bytes", "SPELLBOOK_MAX_MESSAGE_BYTES", 1 << 20, int, "largest request/response")
    add("--default-level", "SPELLBOOK_DEFAULT_LEVEL", 5, int, "strength level when a request gives none")
    add("--deadline-margin-ms", "SPELLBOOK_DEADLINE_MARGIN_MS", 50.0, float, "kept back from a call's deadline")
    add("--grace-s", "SPELLBOOK_GRACE_S", 5.0, float, "shutdown grace period for in-flight calls")
    p.add_argument("--log-level", default=_env("SPELLBOOK_LOG_LEVEL", "INFO"), help="DEBUG, INFO, WARNING or ERROR")
    add("--db", "SPELLBOOK_DB", DEFAULT_DB, str, "SQLite file of the sessions")
    add("--bot-workers", "SPELLBOOK_BOT_WORKERS", max(1, cpus // 2), int, "threads for session bots' searches")
    add("--max-sessions", "SPELLBOOK_MAX_SESSIONS", 10_000, int, "unfinished sessions held at once")
    add("--max-review-ms", "SPELLBOOK_MAX_REVIEW_MS", 120_000.0, float, "cap on one AnalyzeGame's time")
    add("--ladder", "SPELLBOOK_LADDER", ServiceConfig.ladder, str,
        "level -> Elo table from `spellbook-ai ladder`, reported by GetServerInfo ('' for none)")
    add("--per-client-searches", "SPELLBOOK_PER_CLIENT_SEARCHES", 0, int,
        "searches one client (API key, else address) runs at once (0: half the workers)")
    add("--per-client-queued-ms", "SPELLBOOK_PER_CLIENT_QUEUED_MS", 900_000.0, float,
        "time budgets of one client's admitted searches, running or waiting")
    add("--per-client-sessions", "SPELLBOOK_PER_CLIENT_SESSIONS", 100, int, "unfinished sessions one client creates")
    add("--session-idle-s", "SPELLBOOK_SESSION_IDLE_S", 86_400.0, float,
        "an unfinished session with no move this long expires (0: never)")
    add("--max-match-ms", "SPELLBOOK_MAX_MATCH_MS", 300_000.0, float, "cap on one PlayMatch's time")
    add("--api-keys-file", "SPELLBOOK_API_KEYS_FILE", "", str,
        "file of API keys, one a line (also env SPELLBOOK_API_KEYS, comma-separated)")
    add("--tls-cert", "SPELLBOOK_TLS_CERT", "", str, "PEM certificate chain: serve TLS")
    add("--tls-key", "SPELLBOOK_TLS_KEY", "", str, "PEM private key of --tls-cert")
    add("--tls-client-ca", "SPELLBOOK_TLS_CLIENT_CA", "", str, "PEM CA bundle: require client certificates (mTLS)")
    p.add_argument("--insecure", action="store_true", default=_env("SPELLBOOK_INSECURE", "") in ("1", "true", "yes"),
                   help="allow a non-loopback address without TLS and client authentication")
    a = p.parse_args(argv)
    for name in ("workers", "max_iterations", "max_threads", "max_message_bytes", "max_nodes", "bot_workers",
                 "max_sessions"):
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if a.max_review_ms <= 0 or a.max_match_ms <= 0 or a.per_client_queued_ms <= 0:
        p.error("--max-review-ms, --max-match-ms and --per-client-queued-ms must be positive")
    if a.per_client_searches < 0 or a.per_client_sessions < 1 or a.session_idle_s < 0:
        p.error("--per-client-searches and --session-idle-s must not be negative; --per-client-sessions at least 1")
    if a.queue_size < 0 or a.max_time_ms <= 0 or a.grace_s < 0 or a.deadline_margin_ms < 0:
        p.error("--queue-size, --grace-s and --deadline-margin-ms must not be negative; --max-time-ms must be positive")
    if not 1 <= a.default_level <= 10:
        p.error("--default-level must be 1 to 10")
    if ":" not in a.address:
        p.error("--address must be HOST:PORT")
    try:
        keys = auth.load_api_keys(a.api_keys_file or None, auth.env_api_keys())
    except (OSError, ValueError) as e:
        p.error(f"--api-keys-file / SPELLBOOK_API_KEYS: {e}")
    tls = auth.TlsConfig(a.tls_cert, a.tls_key, a.tls_client_ca)
    if bool(a.tls_cert) != bool(a.tls_key):
        p.error("--tls-cert and --tls-key go together")
    if a.tls_client_ca and not a.tls_cert:
        p.error("--tls-client-ca (mutual TLS) needs --tls-cert and --tls-key")
    for path in (a.tls_cert, a.tls_key, a.tls_client_ca):
        if path and not os.path.isfile(path):
            p.error(f"no such file: {path}")
    if not auth.is_loopback(a.address) and not a.insecure and not (tls.enabled and (keys or tls.client_ca)):
        p.error(f"serving on {a.address} (not loopback) needs TLS (--tls-cert/--tls-key) and client "
                "authentication (--api-keys-file / SPELLBOOK_API_KEYS, or --tls-client-ca); "
                "--insecure allows it without")
    svc = ServiceConfig(workers=a.workers, queue_size=a.queue_size, max_iterations=a.max_iterations,
                        max_time_ms=a.max_time_ms, max_threads=a.max_threads, max_nodes=a.max_nodes,
                        max_message_bytes=a.max_message_bytes, default_level=a.default_level,
                        deadline_margin_ms=a.deadline_margin_ms, bot_workers=a.bot_workers,
                        max_sessions=a.max_sessions, max_review_ms=a.max_review_ms, ladder=a.ladder,
                        per_client_searches=a.per_client_searches, per_client_queued_ms=a.per_client_queued_ms,
                        per_client_sessions=a.per_client_sessions, session_idle_s=a.session_idle_s,
                        max_match_ms=a.max_match_ms)
    return ServerConfig(address=a.address, grace_s=a.grace_s, log_level=a.log_level, db=a.db, service=svc,
                        api_keys=keys, tls=tls)


class Server:
    """The grpc.aio server with the SpellBook service, health and reflection. Use inside an event loop."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self._lock_file = _lock_db(config.db)
        try:
            self.store = SessionStore(config.db)
        except sqlite3.Error as e:
            raise OSError(f"cannot open the session database {config.db}: {e}") from None
        self.bot_executor = ThreadPoolExecutor(max_workers=config.service.bot_workers, thread_name_prefix="bot")
        self.sessions = SessionManager(self.store, self.bot_executor, config.service.max_sessions,
                                       config.service.per_client_sessions, config.service.session_idle_s)
        config.service.keyed_clients = bool(config.api_keys)
        self.servicer = SpellBookServicer(config.service, self.sessions)
        self.health = health.aio.HealthServicer()
        size = config.service.max_message_bytes
        self.grpc = grpc.aio.server(options=[("grpc.max_receive_message_length", size),
                                             ("grpc.max_send_message_length", max(size, 4 << 20)),
                                             ("grpc.so_reuseport", 0)],
                                    interceptors=[auth.ApiKeyInterceptor(config.api_keys)] if config.api_keys else None)
        # requests are decoded by our handlers, so undecodable bytes get INVALID_ARGUMENT (server/rpc_base.py)
        self.grpc.add_generic_rpc_handlers((service_handler(self.servicer, SERVICE_DESCRIPTOR),))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        reflection.enable_server_reflection([SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME], self.grpc)
        self.port = 0

    async def start(self) -> int:
        if self.config.tls.enabled:
            self.port = self.grpc.add_secure_port(self.config.address, self.config.tls.credentials())
        else:
            self.port = self.grpc.add_insecure_port(self.config.address)
        if not self.port:
            raise OSError(f"cannot listen on {self.config.address}")
        resumed = await self.sessions.resume_all()
        self.sessions.start_expiry()
        await self.grpc.start()
        for name in ("", SERVICE_NAME):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        host = self.config.address.rsplit(":", 1)[0]
        log.info("serving", extra={"fields": {"address": f"{host}:{self.port}", "workers": self.config.service.workers,
                                              "queue_size": self.config.service.queue_size, "db": self.config.db,
                                              "tls": self.config.tls.enabled, "mtls": bool(self.config.tls.client_ca),
                                              "api_keys": len(self.config.api_keys),
                                              "resumed_sessions": resumed}})
        return self.port

    async def stop(self, grace: float | None = None) -> None:
        """Drain, then stop. While draining, health reports NOT_SERVING (and keeps answering), new calls get
        UNAVAILABLE and in-flight calls get `grace` seconds; at that limit their searches are cancelled, so
        they answer with their best move so far (`cut_short`), and then the server stops."""
        grace = self.config.grace_s if grace is None else grace
        started = time.monotonic()
        await self.health.enter_graceful_shutdown()
        self.servicer.begin_shutdown()
        limit = started + grace
        while self.servicer.inflight and time.monotonic() < limit:
            await asyncio.sleep(0.01)
        if self.servicer.inflight:
            self.servicer.pool.cancel_all()
            settle = time.monotonic() + 2.0        # a cancelled search answers within milliseconds
            while self.servicer.inflight and time.monotonic() < settle:
                await asyncio.sleep(0.01)
        await self.grpc.stop(0.5)
        await self.sessions.close()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self.servicer.pool.shutdown)
        await loop.run_in_executor(None, self.bot_executor.shutdown)
        self.store.close()
        if self._lock_file is not None:
            self._lock_file.close()
        log.info("stopped", extra={"fields": {"ms": round((time.monotonic() - started) * 1000, 1)}})


def _lock_db(path: str):
    """An exclusive lock on the database file itself, held while the server runs (released by the OS when
    the process dies, also on SIGKILL): two servers resuming the same sessions would both drive their bots
    and corrupt them. The lock (flock) belongs to the file's inode, so a symlink, a hard link or another
    spelling of the path finds it taken; SQLite's own locks are POSIX record locks, which flock does not
    touch."""
    if path == ":memory:":
        return None
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        f = open(path, "ab")     # creates an empty file where none is: SQLite takes it as a new database
    except OSError as e:
        raise OSError(f"cannot open the session database {path}: {e}") from None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        st = os.stat(path)
        raise OSError(f"another server is using the session database {path} (device {st.st_dev}, inode "
                      f"{st.st_ino})") from None
    return f


async def serve(config: ServerConfig) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    server = Server(config)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting down", extra={"fields": {"grace_s": config.grace_s}})
    await server.stop()


class ServerThread:
    """A server on its own event loop in a background thread (tests, benchmarks, notebooks).

        with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
            client = SpellBookClient(f"127.0.0.1:{srv.port}")
    """

    def __init__(self, config: ServerConfig | None = None):
        self.config = config or ServerConfig(address="127.0.0.1:0")
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Server | None = None

    def start(self) -> int:
        ready = threading.Event()
        errors: list[BaseException] = []

        def run():
            self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self._loop)
            try:
                self._server = Server(self.config)
                self.port = self._loop.run_until_complete(self._server.start())
            except BaseException as e:
                errors.append(e)
                ready.set()
                return
            ready.set()
            self._loop.run_forever()
            self._loop.close()

        self._thread = threading.Thread(target=run, name="spellbook-server", daemon=True)
        self._thread.start()
        ready.wait(30)
        if errors:
            raise errors[0]
        return self.port

    @property
    def servicer(self) -> SpellBookServicer:
        assert self._server is not None
        return self._server.servicer

    def stop(self, grace: float = 1.0) -> None:
        if self._loop is None or self._server is None:
            return
        fut = asyncio.run_coroutine_threadsafe(self._server.stop(grace), self._loop)
        fut.result(timeout=grace + 30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop = None

    def __enter__(self) -> "ServerThread":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    config = parse_args(argv)
    setup_logging(config.log_level)
    try:
        asyncio.run(serve(config))
    except OSError as e:
        log.error("cannot start", extra={"fields": {"error": str(e)}})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
