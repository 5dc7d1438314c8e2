"""Runs the gRPC server of every game (engine_c/registry.py): `spellbook-ai serve` / `python -m server.main`.

Configuration: flags, each with an environment variable as its default (flag wins):

    --address HOST:PORT     SPELLBOOK_ADDRESS        127.0.0.1:50051 (port 0: any free port)
    --workers N             SPELLBOOK_WORKERS        CPU count / processes (at least 1): searches running at
                                                     once in each process
    --queue-size N          SPELLBOOK_QUEUE_SIZE     64: searches admitted beyond those (waiting or paused;
                                                     then RESOURCE_EXHAUSTED)
    --max-iterations N      SPELLBOOK_MAX_ITERATIONS 200000
    --max-time-ms MS        SPELLBOOK_MAX_TIME_MS    10000 (also caps searches that give only iterations)
    --max-threads N         SPELLBOOK_MAX_THREADS    CPU count (threads of one search)
    --max-nodes N           SPELLBOOK_MAX_NODES      2000000 (tree nodes per search thread)
    --max-message-bytes N   SPELLBOOK_MAX_MESSAGE_BYTES 1048576
    --default-level N       SPELLBOOK_DEFAULT_LEVEL  0: the level table's own (SpellBook's learned search: 10; else 5)
    --default-bot-level N   SPELLBOOK_DEFAULT_BOT_LEVEL 0: the level the page and terminal offer first (4, D142)
    --deadline-margin-ms MS SPELLBOOK_DEADLINE_MARGIN_MS 50: kept back from a call's deadline
    --grace-s S             SPELLBOOK_GRACE_S        5: on SIGTERM/SIGINT, in-flight calls get this long
    --log-level LEVEL       SPELLBOOK_LOG_LEVEL      INFO
    --db PATH|URL           SPELLBOOK_DB             ~/.spellbook-ai/sessions.db (server/store.py DEFAULT_DB):
                                                     the SQLite file of sessions (":memory:" keeps none), or
                                                     postgresql://user@host/dbname (needs the `postgres` extra)
    --processes N           SPELLBOOK_PROCESSES      CPU count (1 with --db :memory:): server processes on
                                                     the one port
    --metrics-address H:P   SPELLBOOK_METRICS_ADDRESS '' (none): Prometheus /metrics (server/metrics.py)
    --bot-lease-s S         SPELLBOOK_BOT_LEASE_S    10: a bot lease's length (a dead replica's bots move on
                                                     after this long)
    --bot-workers N         SPELLBOOK_BOT_WORKERS    half the CPU count / processes (at least 1): threads for
                                                     session bots, in each process
    --max-sessions N        SPELLBOOK_MAX_SESSIONS   10000 unfinished sessions at once
    --max-review-ms MS      SPELLBOOK_MAX_REVIEW_MS  120000: cap on one AnalyzeGame
    --ladder-NAME PATH      SPELLBOOK_LADDER_NAME    each game's own (data/ladder.json, data/ladder-NAME.json of
                                                     the checkout): its level -> Elo table, reported with its
                                                     levels ('' for none); --ladder is the first game's
    --model PATH            SPELLBOOK_MODEL          '' = data/models/spellbook.npz: the learned evaluation
                                                     searches use by default ('none': rollout search only)
    --per-client-searches N SPELLBOOK_PER_CLIENT_SEARCHES 0 (the per-host cap): one client's admitted searches
    --per-host-searches N   SPELLBOOK_PER_HOST_SEARCHES 0 (3/4 of workers + queue size): one host's (all its
                                                     connections') admitted searches; with API keys, one key's
    --slice-ms MS           SPELLBOOK_SLICE_MS       50: a search runs this long before a waiting one may take
                                                     its worker (server/fairshare.py)
    --inline-ms MS          SPELLBOOK_INLINE_MS      20: on an idle server, a GetBestMove expected to need at most
                                                     this CPU runs on the event loop, not a worker (0: never)
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
    --web-address HOST:PORT SPELLBOOK_WEB_ADDRESS    '' (none; `make serve`: 127.0.0.1:8080): the web page and
                                                     the API for browsers (Connect protocol, server/web.py)

Exposure (server/auth.py): on a loopback address the server may run without credentials. On any other
address it needs TLS and a way to authenticate clients (API keys or mutual TLS), or an explicit
`--insecure`: a key sent in clear text would protect nothing.

Processes (`--processes N`, N > 1): a supervisor holds the port (SO_REUSEPORT) and starts N server
processes on it, each with its own search pool and bot threads, all on one database (a SQLite file or
PostgreSQL; ":memory:" is refused). The kernel spreads new connections over them. SIGTERM/SIGINT to the
supervisor drains them all; a process that dies is started again; each process reports the overall
health ("" service) SERVING only while all of them serve; /metrics sums them. If the supervisor itself
dies, its processes get SIGTERM (PR_SET_PDEATHSIG).

Sessions: at start the server opens the database and resumes every unfinished session (bots continue
where they were); at shutdown it stops the bots and closes it. A SQLite file belongs to one server
(one supervisor with its processes): a second one on the same file refuses to start. Any number of
servers, on any number of machines, may share a PostgreSQL database (server/sessions.py says how they
coordinate). Session bots search in their own `--bot-workers` threads, not in the search pool: a bot's
move is never refused for load, and at most that many bot searches run at once (each session has at most
one pending). A programmatic `ServerConfig()` uses an in-memory database unless `db` is given.

Logs are JSON lines on stderr (one per RPC, plus start/stop), with the call's `request_id` (the client's
`x-request-id` metadata, or one the server makes) and, in a group, the `process` index. Health (grpc.health.v1) and reflection are
served, so `grpcurl -plaintext 127.0.0.1:50051 list` works.
"""
from __future__ import annotations

import argparse
import asyncio
import fcntl
import importlib
import importlib.util
import json
import logging
import os
import multiprocessing
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from server import auth, games_service, metrics
from engine_c.registry import GAMES, all_games
from server.core import ServiceConfig, ServiceCore
from server.rpc_base import service_handler
from server.sessions import Coordination, SessionManager
from server.store import DEFAULT_DB, StoreError, open_store

log = logging.getLogger("spellbook.server")


_PROCESS_INDEX: int | None = None     # set in each process of `serve --processes N`


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"ts": round(record.created, 3), "level": record.levelname.lower(), "logger": record.name,
                 "msg": record.getMessage()}
        rid = metrics.REQUEST_ID.get()
        if rid is not None:
            entry["request_id"] = rid
        if _PROCESS_INDEX is not None:
            entry["process"] = _PROCESS_INDEX
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def setup_logging(level: str = "INFO", stream=None) -> None:
    # The JSON lines name no source line, thread or process: the logging module need not look them up for
    # each record (its documented optimisations; a log line per call is on every call's path).
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
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
    db: str = ":memory:"          # the CLI's default is DEFAULT_DB; or postgresql://...
    service: ServiceConfig = field(default_factory=ServiceConfig)
    processes: int = 1            # server processes on the one port (serve --processes)
    metrics_address: str = ""     # HOST:PORT of /metrics ("" for none)
    coordination: Coordination = field(default_factory=Coordination)
    reuse_port: bool = False      # SO_REUSEPORT: set for the processes of a group
    lock_db: bool = True          # the SQLite file lock (a group's supervisor holds it for its processes)
    api_keys: frozenset = frozenset()     # empty: no API key needed (server/auth.py)
    tls: auth.TlsConfig = field(default_factory=auth.TlsConfig)
    web_address: str = ""         # HOST:PORT of the page and the browsers' API (server/web.py; "" for none)


def _env(name: str, default, cast=str):
    value = os.environ.get(name)
    return default if value in (None, "") else cast(value)


def _ladders(a) -> dict[str, str]:
    """The ladder tables given by flag or environment, by game (the others: each game's own file)."""
    out = {name: getattr(a, f"ladder_{name}") for name in GAMES if getattr(a, f"ladder_{name}") is not None}
    if a.ladder is not None:
        out.setdefault(GAMES[0], a.ladder)
    return out


def parse_args(argv: list[str] | None = None, prog: str = "spellbook-ai serve") -> ServerConfig:
    cpus = os.cpu_count() or 1
    p = argparse.ArgumentParser(prog=prog, description="Run the SpellBook AI gRPC server.",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--address", default=_env("SPELLBOOK_ADDRESS", "127.0.0.1:50051"),
                   help="HOST:PORT to listen on (env SPELLBOOK_ADDRESS)")
    add = lambda flag, env, default, cast, help: p.add_argument(flag, type=cast, default=_env(env, default, cast), help=help)
    add("--workers", "SPELLBOOK_WORKERS", None, int,
        "searches running at once, per process (None: the CPU count / processes, at least 1)")
    add("--queue-size", "SPELLBOOK_QUEUE_SIZE", 64, int, "searches admitted beyond those (waiting or paused)")
    add("--max-iterations", "SPELLBOOK_MAX_ITERATIONS", 200_000, int, "cap on a search's iterations")
    add("--max-time-ms", "SPELLBOOK_MAX_TIME_MS", 10_000.0, float, "cap on a search's time")
    add("--max-threads", "SPELLBOOK_MAX_THREADS", cpus, int, "cap on one search's threads")
    add("--max-nodes", "SPELLBOOK_MAX_NODES", 2_000_000, int, "cap on tree nodes per search thread")
    add("--max-message-bytes", "SPELLBOOK_MAX_MESSAGE_BYTES", 1 << 20, int, "largest request/response")
    add("--default-level", "SPELLBOOK_DEFAULT_LEVEL", 0, int,
        "strength level when a request gives none (0: the table's own, about 400 iterations)")
    add("--default-bot-level", "SPELLBOOK_DEFAULT_BOT_LEVEL", 0, int,
        "the bots' level the page and the terminal offer first (0: search.levels.PLAY_LEVEL, about the heuristic)")
    add("--deadline-margin-ms", "SPELLBOOK_DEADLINE_MARGIN_MS", 50.0, float, "kept back from a call's deadline")
    add("--grace-s", "SPELLBOOK_GRACE_S", 5.0, float, "shutdown grace period for in-flight calls")
    p.add_argument("--log-level", default=_env("SPELLBOOK_LOG_LEVEL", "INFO"), help="DEBUG, INFO, WARNING or ERROR")
    add("--db", "SPELLBOOK_DB", DEFAULT_DB, str, "sessions database: a SQLite file, or postgresql://user@host/dbname")
    add("--processes", "SPELLBOOK_PROCESSES", None, int,
        "server processes on the one port (None: the CPU count; 1 with --db :memory:)")
    add("--metrics-address", "SPELLBOOK_METRICS_ADDRESS", "", str, "HOST:PORT serving Prometheus /metrics ('' for none)")
    add("--bot-lease-s", "SPELLBOOK_BOT_LEASE_S", 10.0, float,
        "a bot lease's length: a dead replica's bots move on after this long")
    add("--bot-workers", "SPELLBOOK_BOT_WORKERS", None, int,
        "threads for session bots' searches, per process (None: half the CPU count / processes, at least 1)")
    add("--max-sessions", "SPELLBOOK_MAX_SESSIONS", 10_000, int, "unfinished sessions held at once")
    add("--max-review-ms", "SPELLBOOK_MAX_REVIEW_MS", 120_000.0, float, "cap on one AnalyzeGame's time")
    # one ladder flag per game, found by folder (--ladder-NAME, env SPELLBOOK_LADDER_NAME); --ladder, from when
    # the server had one game, is the first-listed game's
    for g in all_games():
        dest = f"ladder_{g.name}"
        p.add_argument(f"--{dest.replace('_', '-')}", dest=dest, default=_env(f"SPELLBOOK_{dest.upper()}", None, str),
                       help=f"{g.title}'s level -> Elo table from `spellbook-ai ladder --game {g.name}`, reported "
                            f"with its levels ('' for none; default: {g.ladder} of the checkout)")
    p.add_argument("--ladder", default=_env("SPELLBOOK_LADDER", None, str),
                   help=f"the same as --ladder-{GAMES[0]}")
    add("--model", "SPELLBOOK_MODEL", "", str,
        "learned evaluation file ('' = the shipped data/models/spellbook.npz; 'none' = rollout search only)")
    add("--per-client-searches", "SPELLBOOK_PER_CLIENT_SEARCHES", 0, int,
        "admitted searches of one client (API key, else connection) (0: the per-host cap)")
    add("--per-host-searches", "SPELLBOOK_PER_HOST_SEARCHES", 0, int,
        "admitted searches of one host, all its connections (0: 3/4 of workers + queue size)")
    add("--slice-ms", "SPELLBOOK_SLICE_MS", 50.0, float, "a search's slice before a waiting one may take its worker")
    add("--inline-ms", "SPELLBOOK_INLINE_MS", 20.0, float,
        "on an idle server, a GetBestMove expected to need at most this CPU runs on the event loop (0: never)")
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
    add("--web-address", "SPELLBOOK_WEB_ADDRESS", "", str,
        "HOST:PORT serving the web page and the API to browsers ('' for none; server/web.py)")
    p.add_argument("--insecure", action="store_true", default=_env("SPELLBOOK_INSECURE", "") in ("1", "true", "yes"),
                   help="allow a non-loopback address without TLS and client authentication")
    a = p.parse_args(argv)
    if a.processes is None:     # an in-memory database cannot be shared: one process unless asked for more
        a.processes = 1 if a.db == ":memory:" else cpus
    if a.workers is None:
        a.workers = max(1, cpus // max(a.processes, 1))
    if a.bot_workers is None:
        a.bot_workers = max(1, cpus // 2 // max(a.processes, 1))
    for name in ("workers", "max_iterations", "max_threads", "max_message_bytes", "max_nodes", "bot_workers",
                 "max_sessions", "processes"):
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if a.max_review_ms <= 0 or a.max_match_ms <= 0 or a.per_client_queued_ms <= 0:
        p.error("--max-review-ms, --max-match-ms and --per-client-queued-ms must be positive")
    if a.per_host_searches < 0 or a.slice_ms <= 0 or not 0 <= a.inline_ms <= a.slice_ms:
        p.error("--per-host-searches must not be negative; --slice-ms must be positive; --inline-ms 0 to --slice-ms")
    if a.per_client_searches < 0 or a.per_client_sessions < 1 or a.session_idle_s < 0:
        p.error("--per-client-searches and --session-idle-s must not be negative; --per-client-sessions at least 1")
    if a.queue_size < 0 or a.max_time_ms <= 0 or a.grace_s < 0 or a.deadline_margin_ms < 0:
        p.error("--queue-size, --grace-s and --deadline-margin-ms must not be negative; --max-time-ms must be positive")
    if not 0 <= a.default_level <= 10 or not 0 <= a.default_bot_level <= 10:
        p.error("--default-level and --default-bot-level must be 1 to 10, or 0 for the level table's own")
    if ":" not in a.address:
        p.error("--address must be HOST:PORT")
    if a.web_address and (":" not in a.web_address or not a.web_address.rpartition(":")[2].isdigit()):
        p.error("--web-address must be HOST:PORT")
    if a.web_address and importlib.util.find_spec("aiohttp") is None:
        p.error("--web-address needs the web extra: pip install -e '.[web]' (make install has it)")
    if a.web_address and not auth.is_loopback(a.web_address) and not a.insecure and not a.tls_cert:
        p.error(f"serving the web page on {a.web_address} (not loopback) needs TLS (--tls-cert/--tls-key); "
                "--insecure allows it without")
    if a.metrics_address and ":" not in a.metrics_address:
        p.error("--metrics-address must be HOST:PORT")
    if a.bot_lease_s <= 0:
        p.error("--bot-lease-s must be positive")
    if a.processes > 1 and a.db == ":memory:":
        p.error("--processes above 1 needs a shared database: a SQLite file or postgresql://..., not :memory:")
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
                        default_bot_level=a.default_bot_level,
                        deadline_margin_ms=a.deadline_margin_ms, bot_workers=a.bot_workers,
                        max_sessions=a.max_sessions, max_review_ms=a.max_review_ms, ladders=_ladders(a),
                        model=a.model,
                        per_client_searches=a.per_client_searches, per_client_queued_ms=a.per_client_queued_ms,
                        per_client_sessions=a.per_client_sessions, session_idle_s=a.session_idle_s,
                        max_match_ms=a.max_match_ms, per_host_searches=a.per_host_searches, slice_ms=a.slice_ms,
                        inline_ms=a.inline_ms)
    coord = Coordination(lease_s=a.bot_lease_s, sweep_s=min(1.0, a.bot_lease_s / 2))
    return ServerConfig(address=a.address, grace_s=a.grace_s, log_level=a.log_level, db=a.db, service=svc,
                        processes=a.processes, metrics_address=a.metrics_address, coordination=coord,
                        api_keys=keys, tls=tls, web_address=a.web_address)


class Server:
    """The grpc.aio server with the SpellBook service, health and reflection. Use inside an event loop."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self._lock_file = _lock_db(config.db) if config.lock_db else None
        try:
            self.store = open_store(config.db)
        except StoreError as e:
            if self._lock_file is not None:
                self._lock_file.close()
            raise OSError(str(e)) from None
        self.bot_executor = ThreadPoolExecutor(max_workers=config.service.bot_workers, thread_name_prefix="bot")
        self.sessions = SessionManager(self.store, self.bot_executor, config.service.max_sessions,
                                       config.service.per_client_sessions, config.service.session_idle_s,
                                       config.coordination)
        config.service.keyed_clients = bool(config.api_keys)
        # one core (config, SearchPool, sessions, drain) under every game's servicer, each found through
        # engine_c/registry.py (its declared service module, one API package each; D55)
        self.core = ServiceCore(config.service, self.sessions)
        self.services = {}            # game name: (its service descriptor, its servicer)
        for g in all_games():
            module = g.layer("service")
            if module is None:               # a game without a service yet is not served (engine_c/contract.py)
                log.info("not served", extra={"fields": {"game": g.name, "service": g.service}})
                continue
            self.services[g.name] = (module.SERVICE_DESCRIPTOR, module.Servicer(self.core))
        # the first-listed game's servicer (SpellBook's), as tests and embedders have reached it
        self.servicer = self.services[GAMES[0]][1]
        self.health = health.aio.HealthServicer()
        self.group_health: "GroupHealth | None" = None
        size = config.service.max_message_bytes
        # metrics outermost: refused credentials are counted too
        self.interceptors = [metrics.ServerInterceptor()] + (
            [auth.ApiKeyInterceptor(config.api_keys)] if config.api_keys else [])
        self.grpc = grpc.aio.server(options=[("grpc.max_receive_message_length", size),
                                             ("grpc.max_send_message_length", max(size, 4 << 20)),
                                             ("grpc.so_reuseport", int(config.reuse_port))],
                                    interceptors=self.interceptors)
        # the game-neutral API (games.v1, server/games_service.py): every game of the registry, beside the
        # per-game services, over the same core
        self.games_servicer = games_service.GameServicer(self.core)
        # requests are decoded by our handlers, so undecodable bytes get INVALID_ARGUMENT (server/rpc_base.py)
        self.handlers = {name: (descriptor, service_handler(servicer, descriptor))
                         for name, (descriptor, servicer) in self.services.items()}
        self.handlers[games_service.SERVICE_NAME] = (games_service.SERVICE_DESCRIPTOR,
                                                     service_handler(self.games_servicer,
                                                                     games_service.SERVICE_DESCRIPTOR))
        self.grpc.add_generic_rpc_handlers(tuple(h for _, h in self.handlers.values()))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        reflection.enable_server_reflection([d.full_name for d, _ in self.handlers.values()]
                                            + [health.SERVICE_NAME, reflection.SERVICE_NAME], self.grpc)
        self.port = 0
        self.web = None             # server/web.py's gateway when config.web_address is set
        self.web_port = 0

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
        if self.config.web_address:
            await self._start_web()
        for name in [""] + [d.full_name for d, _ in self.handlers.values()]:
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        if self.group_health is not None:
            self.group_health.start(self.health)
        host = self.config.address.rsplit(":", 1)[0]
        log.info("serving", extra={"fields": {"address": f"{host}:{self.port}", "workers": self.config.service.workers,
                                              "queue_size": self.config.service.queue_size,
                                              "db": _redact_db(self.config.db),
                                              "tls": self.config.tls.enabled, "mtls": bool(self.config.tls.client_ca),
                                              "api_keys": len(self.config.api_keys),
                                              "resumed_sessions": resumed, "pid": os.getpid()}})
        return self.port

    async def _start_web(self) -> None:
        """The page and the browsers' API (server/web.py, the `web` extra): the same handlers and interceptors."""
        from server.web import WebGateway

        self.web = WebGateway(self, self.config.web_address, tuple(self.handlers.values()), self.interceptors)
        self.web_port = await self.web.start(reuse_port=self.config.reuse_port)
        host = self.config.web_address.rpartition(":")[0]
        scheme = "https" if self.config.tls.enabled else "http"
        log.info("web page", extra={"fields": {"url": f"{scheme}://{host}:{self.web_port}/"}})

    async def stop(self, grace: float | None = None) -> None:
        """Drain, then stop. While draining, health reports NOT_SERVING (and keeps answering), new calls get
        UNAVAILABLE and in-flight calls get `grace` seconds; at that limit their searches are cancelled, so
        they answer with their best move so far (`cut_short`), and then the server stops."""
        grace = self.config.grace_s if grace is None else grace
        started = time.monotonic()
        if self.group_health is not None:
            self.group_health.stop()
        await self.health.enter_graceful_shutdown()
        self.core.begin_shutdown()
        limit = started + grace
        while self.core.inflight and time.monotonic() < limit:
            await asyncio.sleep(0.01)
        if self.core.inflight:
            self.core.pool.cancel_all()
            settle = time.monotonic() + 2.0        # a cancelled search answers within milliseconds
            while self.core.inflight and time.monotonic() < settle:
                await asyncio.sleep(0.01)
        if self.web is not None:
            await self.web.stop()
        await self.grpc.stop(0.5)
        await self.sessions.close()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self.core.pool.shutdown)
        await loop.run_in_executor(None, self.bot_executor.shutdown)
        self.store.close()
        if self._lock_file is not None:
            self._lock_file.close()
        log.info("stopped", extra={"fields": {"ms": round((time.monotonic() - started) * 1000, 1)}})


def _lock_db(path: str):
    """An exclusive lock on the database file itself, held while the server runs (released by the OS when
    the process dies, also on SIGKILL): a SQLite file belongs to one server, with its processes (D24; the
    supervisor of `--processes N` holds it for them); servers on several machines share PostgreSQL instead.
    The lock (flock) belongs to the file's inode, so a symlink, a hard link or another spelling of the path
    finds it taken; SQLite's own locks are POSIX record locks, which flock does not touch."""
    if path == ":memory:" or path.startswith(("postgresql://", "postgres://")):
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


def _redact_db(db: str) -> str:
    from server.store import _redact
    return _redact(db)


class GroupHealth:
    """Health of a group of processes (serve --processes N): each process marks its slot in a shared array
    while it serves, and reports the overall health ("" service) SERVING only while every slot is set, so a
    health check answered by any process covers them all."""

    INTERVAL_S = 0.1

    def __init__(self, slots, index: int, interval_s: float = INTERVAL_S):
        self.slots, self.index, self.interval_s = slots, index, interval_s
        self._task: asyncio.Task | None = None

    def start(self, servicer: health.aio.HealthServicer) -> None:
        self.slots[self.index] = 1
        self._task = asyncio.get_running_loop().create_task(self._watch(servicer))

    def stop(self) -> None:
        self.slots[self.index] = 0
        if self._task is not None:
            self._task.cancel()

    async def _watch(self, servicer) -> None:
        last = None
        while True:
            every = all(self.slots[i] for i in range(len(self.slots)))
            if every != last:
                await servicer.set("", health_pb2.HealthCheckResponse.SERVING if every
                                   else health_pb2.HealthCheckResponse.NOT_SERVING)
                last = every
            await asyncio.sleep(self.interval_s)


async def serve(config: ServerConfig, group_health: GroupHealth | None = None) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    server = Server(config)
    server.group_health = group_health
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
    def servicer(self):
        assert self._server is not None
        return self._server.servicer

    @property
    def web_port(self) -> int:
        """The port of the page and the browsers' API (0 without `web_address`)."""
        return self._server.web_port if self._server is not None else 0

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


def _reserve_port(address: str) -> tuple[socket.socket, int]:
    """A socket bound with SO_REUSEPORT to HOST:PORT (port 0: a free one), held by the supervisor so the
    port stays the group's while its processes start and restart (gRPC's multiprocessing example)."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host or "0.0.0.0", int(port)))
    except OSError as e:
        sock.close()
        raise OSError(f"cannot listen on {address}: {e}") from None
    return sock, sock.getsockname()[1]


def _term_with_parent() -> None:
    """Linux: this process gets SIGTERM (and drains) when the supervisor dies, even of SIGKILL."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)      # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:       # the supervisor died before the call above
        os.kill(os.getpid(), signal.SIGTERM)


def _process_main(config: ServerConfig, index: int, slots) -> None:
    """One process of a group (spawned): serves on the shared port until SIGTERM."""
    global _PROCESS_INDEX
    _PROCESS_INDEX = index
    _term_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the supervisor forwards a Ctrl-C as SIGTERM
    setup_logging(config.log_level)
    try:
        asyncio.run(serve(config, GroupHealth(slots, index)))
    except OSError as e:
        log.error("cannot start", extra={"fields": {"error": str(e)}})
        sys.exit(1)


class Supervisor:
    """`serve --processes N`: N server processes on one port (SO_REUSEPORT), each with its own search pool
    and bot threads, all on one shared database. SIGTERM/SIGINT drains them all (each gets the grace
    period); a process that dies is started again; /metrics (when asked for) serves their sum."""

    RESTART_LIMIT = 5          # restarts within a minute before the supervisor gives up

    def __init__(self, config: ServerConfig):
        self.config = config
        self.ctx = multiprocessing.get_context("spawn")
        self.slots = self.ctx.Array("b", config.processes, lock=False)
        self.procs: list = [None] * config.processes
        self._stop = threading.Event()
        self._restarts: list[float] = []

    def _start(self, index: int, child_config: ServerConfig) -> None:
        self.slots[index] = 0
        proc = self.ctx.Process(target=_process_main, args=(child_config, index, self.slots),
                                name=f"spellbook-server-{index}", daemon=False)
        proc.start()
        self.procs[index] = proc

    def run(self) -> int:
        c = self.config
        lock_file = _lock_db(c.db) if c.lock_db else None
        reserved, port = _reserve_port(c.address)
        host = c.address.rpartition(":")[0]
        web_reserved, web_address = None, c.web_address
        if c.web_address:       # the page's port too is the group's (port 0: one free port for all)
            web_reserved, web_port = _reserve_port(c.web_address)
            web_address = f"{c.web_address.rpartition(':')[0]}:{web_port}"
        prom_dir = tempfile.mkdtemp(prefix="spellbook-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = prom_dir       # inherited by the spawned processes
        child_config = replace(c, address=f"{host}:{port}", reuse_port=True, lock_db=False, processes=1,
                               metrics_address="", web_address=web_address)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self._stop.set())
        metrics_server = None
        try:
            for i in range(c.processes):
                self._start(i, child_config)
            if not self._wait_ready():
                log.error("cannot start", extra={"fields": {"error": "a server process exited while starting; "
                                                                     "see its log lines above"}})
                return 1
            if c.metrics_address:
                metrics_server, metrics_port = metrics.serve_metrics(c.metrics_address, prom_dir)
            log.info("serving", extra={"fields": {
                "address": f"{host}:{port}", "processes": c.processes, "pids": [p.pid for p in self.procs],
                "db": _redact_db(c.db), "web": web_address and f"http{'s' if c.tls.enabled else ''}://{web_address}/",
                "metrics": c.metrics_address and
                f"{c.metrics_address.rpartition(':')[0]}:{metrics_port}"}})
            while not self._stop.wait(0.5):
                if not self._restart_dead(child_config):
                    return 1
            log.info("shutting down", extra={"fields": {"grace_s": c.grace_s, "processes": c.processes}})
            return 0
        finally:
            self._stop_all()
            if metrics_server is not None:
                metrics_server.shutdown()
            reserved.close()
            if web_reserved is not None:
                web_reserved.close()
            shutil.rmtree(prom_dir, ignore_errors=True)
            if lock_file is not None:
                lock_file.close()

    def _wait_ready(self, timeout_s: float = 120.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and not self._stop.is_set():
            if all(self.slots[i] for i in range(len(self.procs))):
                time.sleep(3 * GroupHealth.INTERVAL_S)     # every process has seen the others serve
                return True
            if any(p.exitcode is not None for p in self.procs):
                return False
            time.sleep(0.05)
        return self._stop.is_set()

    def _restart_dead(self, child_config: ServerConfig) -> bool:
        for i, proc in enumerate(self.procs):
            if proc.exitcode is None:
                continue
            self.slots[i] = 0
            from prometheus_client import multiprocess
            multiprocess.mark_process_dead(proc.pid)
            now = time.monotonic()
            self._restarts = [t for t in self._restarts if now - t < 60] + [now]
            if len(self._restarts) > self.RESTART_LIMIT:
                log.error("server processes keep dying; stopping", extra={"fields": {"restarts": len(self._restarts)}})
                return False
            log.warning("server process died; starting it again",
                        extra={"fields": {"process": i, "pid": proc.pid, "exitcode": proc.exitcode}})
            self._start(i, child_config)
        return True

    def _stop_all(self) -> None:
        """SIGTERM to every process (by pid), then wait for each to drain; SIGKILL what outlives its grace."""
        for proc in self.procs:
            if proc is not None and proc.exitcode is None:
                os.kill(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + self.config.grace_s + 15
        for proc in self.procs:
            if proc is None:
                continue
            proc.join(max(deadline - time.monotonic(), 0.1))
            if proc.exitcode is None:
                log.warning("server process did not stop in time; killing it", extra={"fields": {"pid": proc.pid}})
                proc.kill()
                proc.join(5)


def main(argv: list[str] | None = None) -> int:
    config = parse_args(argv)
    setup_logging(config.log_level)
    try:
        if config.processes > 1:
            return Supervisor(config).run()
        if config.metrics_address:
            _, port = metrics.serve_metrics(config.metrics_address)
            log.info("metrics", extra={"fields": {"address": f"{config.metrics_address.rpartition(':')[0]}:{port}"}})
        asyncio.run(serve(config))
    except OSError as e:
        log.error("cannot start", extra={"fields": {"error": str(e)}})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
