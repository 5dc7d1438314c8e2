"""Persistence of sessions and their complete move/draw history: SQLite (embedded) or PostgreSQL (shared).

Every event is committed before the call that caused it is acknowledged, together with the full state
text after it (which includes the state's seeded generator), so a server killed at any moment resumes each
unfinished session exactly where it was.

Several server processes, on one machine or many, may share one database (`open_store(url)`):

- A session's moves are serialized by the database: `advance()` reads the session's latest event and
  writes the next ones in one transaction that holds the session's row lock (PostgreSQL `SELECT ... FOR
  UPDATE`; SQLite `BEGIN IMMEDIATE`, the database's single writer lock, waited for up to `busy_timeout`).
  The (session_id, seq) primary key is the backstop: two replicas never store the same event twice.
- Bot seats are driven by whoever holds the session's row in `bot_leases` (`take_lease`); the holder renews
  it while it searches, and when it dies the lease runs out and another replica takes it over.
- New events are announced: PostgreSQL NOTIFY on channel `spellbook_events` (payload `session_id:seq`;
  seq -1 when the session expired), which `listen()` delivers; SQLite has no notifications, so readers
  poll `seqs()`.

The schema is versioned (`schema_version` table, `SCHEMA_VERSION`; 1: sessions and events, 2: shared
serving, 3: secret seeds, session credentials and owners, 4: the game of a session); opening a store runs the migrations it lacks, in one
transaction. A database from before versioning counts as version 1 (the columns of version 3 that it may
already have are kept).

Seeds are 64-bit unsigned; SQLite stores them as signed 64-bit integers (read back modulo 2^64). A seed
that was drawn, not fixed, is secret until the game is over (server/sessions.py).
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable

from engine_c.registry import DEFAULT_GAME, UNNAMED_GAME

DEFAULT_DB = os.path.join(os.path.expanduser("~"), ".spellbook-ai", "sessions.db")
SCHEMA_VERSION = 4
MAX_SEQ = 2**63 - 1        # event numbers are signed 64-bit integers in both stores: seq < MAX_SEQ
NOTIFY_CHANNEL = "spellbook_events"


@dataclass
class SessionRow:
    id: str
    created: float
    players: int
    spells: list[str]         # SpellBook: the 7 spells; Abracada…What?: its variants (the game's setup options)
    seed: int
    seats: list[dict]
    status: str               # active | finished | expired | stopped (a PlayMatch that ended early)
    result: dict | None
    fixed_seed: bool = True   # the creator chose the seed (False: drawn by the OS, secret until the end)
    owner: str = ""           # the fair-share client that created it (server/fairshare.py)
    seq: int = 0              # the last event's seq
    updated: float = 0.0      # when the last event was stored
    bot_turn: bool = False    # a bot seat decides next
    game: str = DEFAULT_GAME  # the game's name in engine_c.registry


@dataclass
class EventRow:
    seq: int
    kind: str
    seat: int
    move: str
    state_after: str
    ts: float


@dataclass
class Advance:
    """What an `advance()` step stores: events (seq, kind, seat, move, state_after), the result when the game
    ended, whether a bot decides next, and anything the caller wants back (`value`)."""
    events: list[tuple[int, str, int, str, str]]
    result: dict | None = None
    bot_turn: bool = False
    value: object = None


# step(latest seq, latest state text) -> Advance; raising aborts the transaction (nothing is stored).
Step = Callable[[int, str], Advance]


class Expired(Exception):
    """advance() on a session that expired (it takes no more moves)."""


class StoreError(Exception):
    """The database refused or failed (message says which database and why)."""


class SessionStore(ABC):
    """Thread-safe access to the sessions of one database. `open_store(url)` picks the implementation."""

    url: str

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def schema_version(self) -> int: ...

    @abstractmethod
    def create(self, sid: str, players: int, spells: list[str], seed: int, seats: list[dict],
               initial_state: str, bot_turn: bool = False, fixed_seed: bool = True,
               credentials: dict[str, str] | None = None, owner: str = "", game: str = DEFAULT_GAME) -> None:
        """The session row, its seq-0 'setup' event (the state after setup) and its credentials (token hash
        -> role) in one transaction. `game`: the game's registry name (`spells` holds its setup options)."""

    @abstractmethod
    def credential_role(self, sid: str, token_hash: str) -> str | None:
        """The role a token (by its hash) has in session `sid`, or None."""

    @abstractmethod
    def advance(self, sid: str, step: Step) -> Advance:
        """Runs step(seq, state_after) on the session's latest event while holding the session's lock in the
        database, stores what it returns and announces it; returns the Advance. Keep the step short."""

    @abstractmethod
    def session(self, sid: str) -> SessionRow | None: ...

    @abstractmethod
    def unfinished(self) -> list[SessionRow]: ...

    @abstractmethod
    def count_active(self, owner: str | None = None) -> int:
        """Unfinished sessions (of one owner when given)."""

    @abstractmethod
    def events(self, sid: str, from_seq: int = 0) -> list[EventRow]: ...

    @abstractmethod
    def last_event(self, sid: str) -> EventRow | None: ...

    @abstractmethod
    def seqs(self, sids: list[str]) -> dict[str, int]:
        """The latest seq of each of these sessions (those that exist); -1 for an expired one."""

    @abstractmethod
    def take_lease(self, sid: str, holder: str, ttl_s: float) -> bool:
        """True when `holder` now holds the session's bot lease for ttl_s (free, expired, or already its own)."""

    @abstractmethod
    def release_lease(self, sid: str, holder: str) -> None: ...

    @abstractmethod
    def waiting_for_bots(self, limit: int = 100) -> list[str]:
        """Active sessions where a bot decides next and no live lease is held: what a sweeper takes over."""

    @abstractmethod
    def stop(self, sid: str) -> None:
        """Marks one active session 'stopped': a PlayMatch whose call ended before its game did. It stays
        readable and exportable (an unfinished record); nothing moves in it any more."""

    @abstractmethod
    def expire_idle(self, idle_s: float, now: float | None = None) -> list[str]:
        """Marks active sessions without an event for idle_s (before `now`, wall-clock seconds; default now)
        'expired' (never resumed, never exported); returns their ids."""

    def listen(self, callback: Callable[[str, int], None], stop: threading.Event) -> bool:
        """Calls callback(session_id, seq) for events stored by any process until `stop` is set (blocking;
        run it in a thread). Returns False at once when the database has no notifications (then poll)."""
        return False


def open_store(url: str = DEFAULT_DB) -> SessionStore:
    """`postgresql://...` (or `postgres://`) opens PostgreSQL; anything else is a SQLite file path (":memory:"
    keeps nothing). Runs missing migrations. Raises StoreError naming the database when it cannot."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    return SqliteStore(url)


def _redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    if "://" in url and "@" in url.split("://", 1)[1]:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in creds else url
    return url


# --------------------------------------------------------------------------------------------- SQLite
# Sessions stored before migration 4 named no game: they are the game older files leave unnamed.
OLDER_SESSIONS_GAME = UNNAMED_GAME or DEFAULT_GAME
_SQLITE_MIGRATIONS = {
    1: """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    players INTEGER NOT NULL,
    spells TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,          -- JSON list of {"kind": "client"|"bot", "level": int}
    status TEXT NOT NULL,         -- active | finished | expired | stopped
    result TEXT                   -- JSON {"scores": [...], "winners": [...]} when finished
);
CREATE TABLE IF NOT EXISTS events (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,         -- 0, 1, 2... per session
    kind TEXT NOT NULL,           -- setup | move | draw
    seat INTEGER NOT NULL,        -- who decided (-1 for a draw)
    move TEXT NOT NULL,           -- engine notation
    state_after TEXT NOT NULL,    -- full state text after the event
    ts REAL NOT NULL,
    PRIMARY KEY (session_id, seq)
);
""",
    2: """
ALTER TABLE sessions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN updated REAL NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN bot_turn INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET seq = (SELECT MAX(seq) FROM events WHERE events.session_id = sessions.id),
                    updated = (SELECT MAX(ts) FROM events WHERE events.session_id = sessions.id);
CREATE INDEX IF NOT EXISTS sessions_active ON sessions(status, bot_turn);
CREATE TABLE IF NOT EXISTS bot_leases (
    session_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires REAL NOT NULL
);
""",
    3: """
CREATE TABLE IF NOT EXISTS credentials (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    token_hash TEXT NOT NULL,     -- SHA-256 of the token (the token itself is never stored)
    role TEXT NOT NULL,           -- "seat:N" or "spectator" (server/auth.py)
    PRIMARY KEY (session_id, token_hash)
);
ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT '';
""",
    4: f"""
ALTER TABLE sessions ADD COLUMN game TEXT NOT NULL DEFAULT '{OLDER_SESSIONS_GAME}';
""",
}
# Migration 3 also adds sessions.fixed_seed (1: the creator chose the seed; 0: drawn, secret) where missing:
# SQLite has no ADD COLUMN IF NOT EXISTS, and databases of the first credentials release already have it.
_FIXED_SEED_COLUMN = "fixed_seed INTEGER NOT NULL DEFAULT 1"

_SESSION_COLS = ("id, created, players, spells, seed, seats, status, result, seq, updated, bot_turn, fixed_seed, owner, "
                 "game")



def _while_locked(step, timeout_ms: int):
    """step(), tried again while SQLite says the database is locked, for up to timeout_ms."""
    deadline = time.monotonic() + timeout_ms / 1000.0
    pause = 0.01
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)

class SqliteStore(SessionStore):
    """One SQLite file (WAL). Several processes on one machine may share it: writers take the database's
    lock (`BEGIN IMMEDIATE`, waiting up to `busy_timeout_ms`), readers never block."""

    def __init__(self, path: str = DEFAULT_DB, busy_timeout_ms: int = 10_000):
        self.url = self.path = path
        try:
            if path != ":memory:":
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self._lock = threading.Lock()
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                                       timeout=busy_timeout_ms / 1000.0)
            self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            # A server's processes open a new file together: switching it to WAL and its first migration can
            # find the file locked by a sibling without SQLite's busy handler waiting (journal_mode asks for
            # an exclusive lock at once), so those two wait here, up to the same timeout.
            _while_locked(lambda: self._db.execute("PRAGMA journal_mode=WAL"), busy_timeout_ms)
            self._db.execute("PRAGMA synchronous=FULL")
            _while_locked(self._migrate, busy_timeout_ms)
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"cannot open the session database {path}: {e}") from None

    def _migrate(self) -> None:
        with self._lock, self._tx():
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            version = row[0] or 0
            if version == 0 and self._db.execute(
                    "SELECT 1 FROM sqlite_master WHERE type='table' AND name='sessions'").fetchone():
                version = 1   # a database from before versioning: the issue-5 schema
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema version {version}; this server knows up to "
                                 f"{SCHEMA_VERSION} (upgrade the server)")
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _statements(_SQLITE_MIGRATIONS[v]):
                    self._db.execute(statement)
                if v == 2:
                    _backfill_bot_turn(self._db, "?")
                if v == 3 and "fixed_seed" not in {r[1] for r in self._db.execute("PRAGMA table_info(sessions)")}:
                    self._db.execute(f"ALTER TABLE sessions ADD COLUMN {_FIXED_SEED_COLUMN}")
                self._db.execute("INSERT INTO schema_version VALUES (?)", (v,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def schema_version(self) -> int:
        with self._lock:
            return self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]

    def create(self, sid, players, spells, seed, seats, initial_state, bot_turn=False, fixed_seed=True,
               credentials=None, owner="", game=DEFAULT_GAME) -> None:
        now = time.time()
        with self._lock, self._tx():
            self._db.execute(f"INSERT INTO sessions ({_SESSION_COLS}) VALUES (?,?,?,?,?,?,?,NULL,0,?,?,?,?,?)",
                             (sid, now, players, json.dumps(spells), _signed64(seed), json.dumps(seats), "active",
                              now, int(bot_turn), int(fixed_seed), owner, game))
            self._db.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?)",
                             (sid, 0, "setup", -1, "", initial_state, now))
            self._db.executemany("INSERT INTO credentials VALUES (?,?,?)",
                                 [(sid, h, role) for h, role in (credentials or {}).items()])

    def credential_role(self, sid, token_hash):
        with self._lock:
            row = self._db.execute("SELECT role FROM credentials WHERE session_id=? AND token_hash=?",
                                   (sid, token_hash)).fetchone()
        return row[0] if row else None

    def advance(self, sid: str, step: Step) -> Advance:
        with self._lock, self._tx():
            status = self._db.execute("SELECT status FROM sessions WHERE id=?", (sid,)).fetchone()
            if status is None:
                raise KeyError(sid)
            if status[0] in ("expired", "stopped"):     # nothing more is played in either
                raise Expired(sid)
            row = self._db.execute("SELECT seq, state_after FROM events WHERE session_id=? "
                                   "ORDER BY seq DESC LIMIT 1", (sid,)).fetchone()
            out = step(row[0], row[1])
            _store_advance(self._db, "?", sid, out)
        return out

    def session(self, sid):
        with self._lock:
            row = self._db.execute(f"SELECT {_SESSION_COLS} FROM sessions WHERE id=?", (sid,)).fetchone()
        return _session_row(row) if row else None

    def unfinished(self):
        with self._lock:
            rows = self._db.execute(f"SELECT {_SESSION_COLS} FROM sessions WHERE status='active' "
                                    "ORDER BY created").fetchall()
        return [_session_row(r) for r in rows]

    def count_active(self, owner=None) -> int:
        with self._lock:
            if owner is None:
                return self._db.execute("SELECT COUNT(*) FROM sessions WHERE status='active'").fetchone()[0]
            return self._db.execute("SELECT COUNT(*) FROM sessions WHERE status='active' AND owner=?",
                                    (owner,)).fetchone()[0]

    def events(self, sid, from_seq=0):
        with self._lock:
            rows = self._db.execute("SELECT seq, kind, seat, move, state_after, ts FROM events "
                                    "WHERE session_id=? AND seq>=? ORDER BY seq", (sid, from_seq)).fetchall()
        return [EventRow(*r) for r in rows]

    def last_event(self, sid):
        with self._lock:
            row = self._db.execute("SELECT seq, kind, seat, move, state_after, ts FROM events WHERE session_id=? "
                                   "ORDER BY seq DESC LIMIT 1", (sid,)).fetchone()
        return EventRow(*row) if row else None

    def seqs(self, sids):
        if not sids:
            return {}
        with self._lock:
            rows = self._db.execute(f"SELECT id, CASE WHEN status='expired' THEN -1 ELSE seq END FROM sessions "
                                    f"WHERE id IN ({','.join('?' * len(sids))})", list(sids)).fetchall()
        return dict(rows)

    def take_lease(self, sid, holder, ttl_s):
        now = time.time()
        with self._lock, self._tx():
            cur = self._db.execute(
                "INSERT INTO bot_leases VALUES (?,?,?) ON CONFLICT(session_id) DO UPDATE SET holder=excluded.holder,"
                " expires=excluded.expires WHERE bot_leases.expires < ? OR bot_leases.holder = excluded.holder",
                (sid, holder, now + ttl_s, now))
            return cur.rowcount == 1

    def release_lease(self, sid, holder):
        with self._lock, self._tx():
            self._db.execute("DELETE FROM bot_leases WHERE session_id=? AND holder=?", (sid, holder))

    def waiting_for_bots(self, limit=100):
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM sessions s WHERE status='active' AND bot_turn=1 AND NOT EXISTS "
                "(SELECT 1 FROM bot_leases l WHERE l.session_id=s.id AND l.expires >= ?) ORDER BY updated LIMIT ?",
                (time.time(), limit)).fetchall()
        return [r[0] for r in rows]

    def stop(self, sid):
        with self._lock, self._tx():
            self._db.execute("UPDATE sessions SET status='stopped' WHERE id=? AND status='active'", (sid,))

    def expire_idle(self, idle_s, now=None):
        with self._lock, self._tx():
            cutoff = (time.time() if now is None else now) - idle_s
            ids = [r[0] for r in self._db.execute("SELECT id FROM sessions WHERE status='active' AND updated <= ?",
                                                  (cutoff,)).fetchall()]
            self._db.executemany("UPDATE sessions SET status='expired' WHERE id=? AND status='active'",
                                 [(sid,) for sid in ids])
            return ids

    def _tx(self):
        db = self._db

        class _Tx:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, exc_type, exc, tb):
                db.execute("ROLLBACK" if exc_type else "COMMIT")

        return _Tx()


# ----------------------------------------------------------------------------------------- PostgreSQL
_PG_MIGRATIONS = {
    1: """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    players INTEGER NOT NULL,
    spells TEXT NOT NULL,
    seed NUMERIC(20) NOT NULL,
    seats TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS events (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    state_after TEXT NOT NULL,
    ts DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (session_id, seq)
);
""",
    2: """
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS updated DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS bot_turn BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE sessions SET seq = (SELECT MAX(seq) FROM events WHERE events.session_id = sessions.id),
                    updated = (SELECT MAX(ts) FROM events WHERE events.session_id = sessions.id);
CREATE INDEX IF NOT EXISTS sessions_active ON sessions(status, bot_turn);
CREATE TABLE IF NOT EXISTS bot_leases (
    session_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
""",
    3: """
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS fixed_seed BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS owner TEXT NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS credentials (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    token_hash TEXT NOT NULL,
    role TEXT NOT NULL,
    PRIMARY KEY (session_id, token_hash)
);
""",
    4: f"""
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS game TEXT NOT NULL DEFAULT '{OLDER_SESSIONS_GAME}';
""",
}
_PG_NOW = "extract(epoch from clock_timestamp())"   # the database's clock: one clock for every machine


class PostgresStore(SessionStore):
    """PostgreSQL through psycopg 3: any number of server processes and machines share it."""

    def __init__(self, url: str):
        try:
            import psycopg
        except ImportError:
            raise StoreError("--db postgresql://... needs psycopg 3: pip install 'spellbook-ai[postgres]'") from None
        self._psycopg = psycopg
        self.url = url
        self._lock = threading.Lock()
        try:
            self._db = psycopg.connect(url, autocommit=True, connect_timeout=10)
            self._migrate()
        except psycopg.Error as e:
            raise StoreError(f"cannot open the session database {_redact(url)}: {str(e).strip()}") from None

    def _migrate(self) -> None:
        with self._lock, self._db.transaction():
            # one migrator at a time, also when several replicas start together
            self._db.execute("SELECT pg_advisory_xact_lock(7261301)")
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0
            if version == 0 and self._db.execute("SELECT to_regclass('sessions')").fetchone()[0]:
                version = 1
            if version > SCHEMA_VERSION:
                raise StoreError(f"{_redact(self.url)} has schema version {version}; this server knows up to "
                                 f"{SCHEMA_VERSION} (upgrade the server)")
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _statements(_PG_MIGRATIONS[v]):
                    self._db.execute(statement)
                if v == 2:
                    _backfill_bot_turn(self._db, "%s")
                self._db.execute("INSERT INTO schema_version VALUES (%s)", (v,))

    def _query(self, sql: str, args=(), one: bool = False):
        with self._lock:
            cur = self._db.execute(sql, args)
            return cur.fetchone() if one else cur.fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def schema_version(self) -> int:
        return self._query("SELECT MAX(version) FROM schema_version", one=True)[0]

    def create(self, sid, players, spells, seed, seats, initial_state, bot_turn=False, fixed_seed=True,
               credentials=None, owner="", game=DEFAULT_GAME) -> None:
        now = time.time()
        with self._lock, self._db.transaction():
            self._db.execute(f"INSERT INTO sessions ({_SESSION_COLS}) VALUES "
                             f"(%s,%s,%s,%s,%s,%s,%s,NULL,0,%s,%s,%s,%s,%s)",
                             (sid, now, players, json.dumps(spells), seed, json.dumps(seats), "active", now,
                              bool(bot_turn), bool(fixed_seed), owner, game))
            self._db.execute("INSERT INTO events VALUES (%s,%s,%s,%s,%s,%s,%s)",
                             (sid, 0, "setup", -1, "", initial_state, now))
            if credentials:
                self._db.cursor().executemany("INSERT INTO credentials VALUES (%s,%s,%s)",
                                              [(sid, h, role) for h, role in credentials.items()])

    def credential_role(self, sid, token_hash):
        row = self._query("SELECT role FROM credentials WHERE session_id=%s AND token_hash=%s", (sid, token_hash),
                          one=True)
        return row[0] if row else None

    def advance(self, sid: str, step: Step) -> Advance:
        with self._lock, self._db.transaction():
            status = self._db.execute("SELECT status FROM sessions WHERE id=%s FOR UPDATE", (sid,)).fetchone()
            if status is None:
                raise KeyError(sid)
            if status[0] in ("expired", "stopped"):     # nothing more is played in either
                raise Expired(sid)
            row = self._db.execute("SELECT seq, state_after FROM events WHERE session_id=%s "
                                   "ORDER BY seq DESC LIMIT 1", (sid,)).fetchone()
            out = step(row[0], row[1])
            _store_advance(self._db, "%s", sid, out)
            if out.events:   # delivered at commit, to every listening replica (this one too)
                self._db.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{sid}:{out.events[-1][0]}"))
        return out

    def session(self, sid):
        row = self._query(f"SELECT {_SESSION_COLS} FROM sessions WHERE id=%s", (sid,), one=True)
        return _session_row(row) if row else None

    def unfinished(self):
        return [_session_row(r) for r in
                self._query(f"SELECT {_SESSION_COLS} FROM sessions WHERE status='active' ORDER BY created")]

    def count_active(self, owner=None) -> int:
        if owner is None:
            return self._query("SELECT COUNT(*) FROM sessions WHERE status='active'", one=True)[0]
        return self._query("SELECT COUNT(*) FROM sessions WHERE status='active' AND owner=%s", (owner,), one=True)[0]

    def events(self, sid, from_seq=0):
        return [EventRow(*r) for r in self._query(
            "SELECT seq, kind, seat, move, state_after, ts FROM events WHERE session_id=%s AND seq>=%s ORDER BY seq",
            (sid, from_seq))]

    def last_event(self, sid):
        row = self._query("SELECT seq, kind, seat, move, state_after, ts FROM events WHERE session_id=%s "
                          "ORDER BY seq DESC LIMIT 1", (sid,), one=True)
        return EventRow(*row) if row else None

    def seqs(self, sids):
        if not sids:
            return {}
        return dict(self._query("SELECT id, CASE WHEN status='expired' THEN -1 ELSE seq END FROM sessions "
                                "WHERE id = ANY(%s)", (list(sids),)))

    def take_lease(self, sid, holder, ttl_s):
        with self._lock:
            cur = self._db.execute(
                f"INSERT INTO bot_leases VALUES (%s, %s, {_PG_NOW} + %s) ON CONFLICT (session_id) DO UPDATE "
                f"SET holder=excluded.holder, expires=excluded.expires "
                f"WHERE bot_leases.expires < {_PG_NOW} OR bot_leases.holder = excluded.holder",
                (sid, holder, ttl_s))
            return cur.rowcount == 1

    def release_lease(self, sid, holder):
        self._query_none("DELETE FROM bot_leases WHERE session_id=%s AND holder=%s", (sid, holder))

    def waiting_for_bots(self, limit=100):
        return [r[0] for r in self._query(
            f"SELECT id FROM sessions s WHERE status='active' AND bot_turn AND NOT EXISTS "
            f"(SELECT 1 FROM bot_leases l WHERE l.session_id=s.id AND l.expires >= {_PG_NOW}) "
            f"ORDER BY updated LIMIT %s", (limit,))]

    def stop(self, sid):
        self._query_none("UPDATE sessions SET status='stopped' WHERE id=%s AND status='active'", (sid,))

    def expire_idle(self, idle_s, now=None):
        cutoff = (time.time() if now is None else now) - idle_s   # `updated` is written with the same clock
        with self._lock, self._db.transaction():
            ids = [r[0] for r in self._db.execute("UPDATE sessions SET status='expired' WHERE status='active' "
                                                  "AND updated <= %s RETURNING id", (cutoff,)).fetchall()]
            for sid in ids:       # every replica's watchers of it end (seq -1: expired)
                self._db.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{sid}:-1"))
        return ids

    def _query_none(self, sql, args=()):
        with self._lock:
            self._db.execute(sql, args)

    def listen(self, callback, stop):
        """LISTEN on its own connection; wakes at least once a second to check `stop`."""
        try:
            conn = self._psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except self._psycopg.Error:
            return False
        try:
            conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            while not stop.is_set():
                for note in conn.notifies(timeout=1.0):
                    sid, _, seq = note.payload.rpartition(":")
                    callback(sid, int(seq))
                    if stop.is_set():
                        break
        except self._psycopg.Error:
            if not stop.is_set():
                raise
        finally:
            conn.close()
        return True


# ------------------------------------------------------------------------------------------- shared
def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip() and not s.strip().startswith("--")]


def _store_advance(db, ph: str, sid: str, out: Advance) -> None:
    if not out.events:
        return
    now = time.time()
    db.cursor().executemany(f"INSERT INTO events VALUES ({','.join([ph] * 7)})",
                   [(sid, seq, kind, seat, move, st, now) for seq, kind, seat, move, st in out.events])
    status = "finished" if out.result is not None else "active"
    db.execute(f"UPDATE sessions SET seq={ph}, updated={ph}, bot_turn={ph}, status={ph}, "
               f"result=COALESCE({ph}, result) WHERE id={ph}",
               (out.events[-1][0], now, out.bot_turn if ph == "%s" else int(out.bot_turn), status,
                json.dumps(out.result) if out.result is not None else None, sid))


def _backfill_bot_turn(db, ph: str) -> None:
    """Migration 2: whether a bot decides next in each active session (from its last stored state)."""
    from engine_c.registry import get_game   # the store itself does not need the engine

    State = get_game(OLDER_SESSIONS_GAME).State     # every session of that time was of the unnamed game
    rows = db.execute("SELECT s.id, s.seats, e.state_after FROM sessions s JOIN events e ON e.session_id=s.id "
                      "AND e.seq=s.seq WHERE s.status='active'").fetchall()
    for sid, seats, text in rows:
        st = State.from_text(text)
        bot = not st.is_terminal() and json.loads(seats)[st.current_player]["kind"] == "bot"
        db.execute(f"UPDATE sessions SET bot_turn={ph} WHERE id={ph}", (bot if ph == "%s" else int(bot), sid))


def _signed64(seed: int) -> int:
    """A 64-bit unsigned seed as the signed 64-bit integer SQLite stores (read back modulo 2^64)."""
    return seed - 2**64 if seed >= 2**63 else seed


def _session_row(r) -> SessionRow:
    return SessionRow(id=r[0], created=r[1], players=r[2], spells=json.loads(r[3]), seed=int(r[4]) % 2**64,
                      seats=json.loads(r[5]), status=r[6], result=json.loads(r[7]) if r[7] else None,
                      seq=r[8], updated=r[9], bot_turn=bool(r[10]), fixed_seed=bool(r[11]), owner=r[12],
                      game=r[13])
