"""SQLite persistence of sessions and their complete move/draw history.

Every event is committed (WAL, synchronous=FULL) before the call that caused it is acknowledged, together
with the full state text after it (which includes the state's seeded generator), so a server killed at
any moment resumes each unfinished session exactly where it was.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass

DEFAULT_DB = os.path.join(os.path.expanduser("~"), ".spellbook-ai", "sessions.db")

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    players INTEGER NOT NULL,
    spells TEXT NOT NULL,
    seed INTEGER NOT NULL,        -- secret until the game is over (see fixed_seed)
    seats TEXT NOT NULL,          -- JSON list of {"kind": "client"|"bot", "level": int}
    status TEXT NOT NULL,         -- active | finished | expired
    result TEXT,                  -- JSON {"scores": [...], "winners": [...]} when finished
    fixed_seed INTEGER NOT NULL DEFAULT 1  -- 1: the creator chose the seed; 0: drawn by the OS (secret)
);
CREATE TABLE IF NOT EXISTS events (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,         -- 0, 1, 2... per session
    kind TEXT NOT NULL,           -- move | draw
    seat INTEGER NOT NULL,        -- who decided (-1 for a draw)
    move TEXT NOT NULL,           -- engine notation
    state_after TEXT NOT NULL,    -- full state text after the event
    ts REAL NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS credentials (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    token_hash TEXT NOT NULL,     -- SHA-256 of the token (the token itself is never stored)
    role TEXT NOT NULL,           -- "seat:N" or "spectator" (server/auth.py)
    PRIMARY KEY (session_id, token_hash)
);
"""

# Columns added after the first release: (table, column, definition) added to an older database on open.
MIGRATIONS = [("sessions", "fixed_seed", "INTEGER NOT NULL DEFAULT 1")]


@dataclass
class SessionRow:
    id: str
    created: float
    players: int
    spells: list[str]
    seed: int
    seats: list[dict]
    status: str
    result: dict | None
    fixed_seed: bool = True


@dataclass
class EventRow:
    seq: int
    kind: str
    seat: int
    move: str
    state_after: str
    ts: float


class SessionStore:
    """Thread-safe access to the session database at `path` (created with its folder when missing)."""

    def __init__(self, path: str = DEFAULT_DB):
        self.path = path
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        for table, column, definition in MIGRATIONS:
            names = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in names:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self, sid: str, players: int, spells: list[str], seed: int, seats: list[dict],
               initial_state: str, fixed_seed: bool = True, credentials: dict[str, str] | None = None) -> None:
        """The session row, its seq-0 'setup' event (the state after setup) and its credentials (token hash
        -> role) in one transaction."""
        with self._lock, self._tx():
            self._db.execute("INSERT INTO sessions (id, created, players, spells, seed, seats, status, result, "
                             "fixed_seed) VALUES (?,?,?,?,?,?,?,NULL,?)",
                             (sid, time.time(), players, json.dumps(spells), _signed64(seed), json.dumps(seats), "active",
                              int(fixed_seed)))
            self._db.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?)",
                             (sid, 0, "setup", -1, "", initial_state, time.time()))
            self._db.executemany("INSERT INTO credentials VALUES (?,?,?)",
                                 [(sid, h, role) for h, role in (credentials or {}).items()])

    def credential_role(self, sid: str, token_hash: str) -> str | None:
        """The role a token (by its hash) has in session `sid`, or None."""
        with self._lock:
            row = self._db.execute("SELECT role FROM credentials WHERE session_id=? AND token_hash=?",
                                   (sid, token_hash)).fetchone()
        return row[0] if row else None

    def append(self, sid: str, events: list[tuple[int, str, int, str, str]],
               result: dict | None = None) -> None:
        """Events (seq, kind, seat, move, state_after) in one transaction; `result` marks it finished."""
        now = time.time()
        with self._lock, self._tx():
            self._db.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?)",
                                 [(sid, seq, kind, seat, move, st, now) for seq, kind, seat, move, st in events])
            if result is not None:
                self._db.execute("UPDATE sessions SET status='finished', result=? WHERE id=?",
                                 (json.dumps(result), sid))

    def expire(self, sid: str) -> None:
        """Marks an unfinished session expired (status 'expired': never resumed, never exported)."""
        with self._lock, self._tx():
            self._db.execute("UPDATE sessions SET status='expired' WHERE id=? AND status='active'", (sid,))

    def session(self, sid: str) -> SessionRow | None:
        with self._lock:
            row = self._db.execute(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id=?", (sid,)).fetchone()
        return _session_row(row) if row else None

    def unfinished(self) -> list[SessionRow]:
        with self._lock:
            rows = self._db.execute(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE status='active' "
                                    "ORDER BY created").fetchall()
        return [_session_row(r) for r in rows]

    def events(self, sid: str) -> list[EventRow]:
        with self._lock:
            rows = self._db.execute("SELECT seq, kind, seat, move, state_after, ts FROM events "
                                    "WHERE session_id=? ORDER BY seq", (sid,)).fetchall()
        return [EventRow(*r) for r in rows]

    def last_event(self, sid: str) -> EventRow | None:
        with self._lock:
            row = self._db.execute("SELECT seq, kind, seat, move, state_after, ts FROM events WHERE session_id=? "
                                   "ORDER BY seq DESC LIMIT 1", (sid,)).fetchone()
        return EventRow(*row) if row else None

    def _tx(self):
        db = self._db

        class _Tx:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, exc_type, exc, tb):
                db.execute("ROLLBACK" if exc_type else "COMMIT")

        return _Tx()


def _signed64(seed: int) -> int:
    """A 64-bit unsigned seed as the signed 64-bit integer SQL stores (read back with % 2**64)."""
    return seed - 2**64 if seed >= 2**63 else seed


_SESSION_COLUMNS = "id, created, players, spells, seed, seats, status, result, fixed_seed"


def _session_row(r) -> SessionRow:
    return SessionRow(id=r[0], created=r[1], players=r[2], spells=json.loads(r[3]), seed=r[4] % 2**64,
                      seats=json.loads(r[5]), status=r[6], result=json.loads(r[7]) if r[7] else None,
                      fixed_seed=bool(r[8]))
