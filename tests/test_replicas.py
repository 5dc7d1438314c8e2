"""Several replicas on one database (issue 13), on SQLite and on a real PostgreSQL server (tests/postgres.py):
the store's contract and migrations, moves serialized across replicas (duplicate submits racing on two
replicas are applied once), WatchSession on one replica streaming moves applied on another, and bot seats
moving exactly once with two replicas. Replicas here are in-process servers; tests/test_replicas_process.py
kills real processes."""
from __future__ import annotations

import itertools
import sqlite3
import threading
import time

import pytest

from clients.client import ServiceError, SpellBookClient
from engine_c import State
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig
from server.sessions import Coordination
from server.store import SCHEMA_VERSION, Advance, Expired, SqliteStore, open_store

FAST = Coordination(lease_s=1.0, sweep_s=0.2, poll_s=0.05)


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    return request.getfixturevalue("postgres_url")


def replica(db: str) -> ServerThread:
    srv = ServerThread(ServerConfig(address="127.0.0.1:0", db=db, lock_db=False, coordination=FAST,
                                    service=ServiceConfig(workers=1, queue_size=4, bot_workers=1)))
    srv.start()
    return srv


@pytest.fixture
def two_replicas(db):
    a, b = replica(db), replica(db)
    yield a, b
    a.stop(grace=1.0)
    b.stop(grace=1.0)


# ------------------------------------------------------------------------------------------ the store
def test_store_contract(db):
    store = open_store(db)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        st = State.new(players=2, seed=3)
        store.create("s1", 2, st.spells, 3, [{"kind": "bot", "level": 1}, {"kind": "client", "level": 0}],
                     st.to_text(), bot_turn=True)

        def step(seq, text):
            s = State.from_text(text)
            move = s.legal_moves()[0]
            s.apply(move)
            return Advance([(seq + 1, "move", 0, str(move), s.to_text())], bot_turn=False, value=seq)

        assert store.advance("s1", step).value == 0 and store.advance("s1", step).value == 1

        def refuse(seq, text):
            raise ValueError("no")

        with pytest.raises(ValueError):
            store.advance("s1", refuse)
        assert [e.seq for e in store.events("s1")] == [0, 1, 2] and store.seqs(["s1", "nope"]) == {"s1": 2}
        with pytest.raises(KeyError):
            store.advance("nope", step)
        # bot leases: one holder at a time; taken over when it runs out
        store.create("s2", 2, st.spells, 3, [{"kind": "bot", "level": 1}] * 2, st.to_text(), bot_turn=True)
        assert store.waiting_for_bots() == ["s2"]
        assert store.take_lease("s2", "a", 0.3) and not store.take_lease("s2", "b", 0.3)
        assert store.waiting_for_bots() == [] and store.take_lease("s2", "a", 0.3)
        time.sleep(0.4)
        assert store.waiting_for_bots() == ["s2"] and store.take_lease("s2", "b", 5)
        store.release_lease("s2", "a")               # not a's any more: nothing changes
        assert not store.take_lease("s2", "a", 5)
        store.release_lease("s2", "b")
        assert store.take_lease("s2", "a", 5)
        assert store.count_active() == 2 and store.expire_idle(3600) == []
        assert sorted(store.expire_idle(3600, time.time() + 3601)) == ["s1", "s2"]
        assert store.count_active() == 0 and store.session("s1").status == "expired"
        with pytest.raises(Expired):          # an expired session takes no more moves
            store.advance("s1", step)
    finally:
        store.close()


def test_postgres_notifies_every_listener(postgres_url):
    store, other = open_store(postgres_url), open_store(postgres_url)
    got, stop = [], threading.Event()
    listener = threading.Thread(target=other.listen, args=(lambda sid, seq: got.append((sid, seq)), stop))
    listener.start()
    try:
        st = State.new(players=2, seed=1)
        store.create("n1", 2, st.spells, 1, [{"kind": "client", "level": 0}] * 2, st.to_text())
        time.sleep(0.3)   # LISTEN is in place
        store.advance("n1", lambda seq, text: Advance([(seq + 1, "move", 0, "pass", text)]))
        for _ in range(100):
            if got:
                break
            time.sleep(0.02)
        assert got == [("n1", 1)]
    finally:
        stop.set()
        listener.join(5)
        store.close()
        other.close()


def test_sqlite_version_1_database_is_migrated(tmp_path):
    path = str(tmp_path / "old.db")
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE sessions (id TEXT PRIMARY KEY, created REAL NOT NULL, players INTEGER NOT NULL,
            spells TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL, result TEXT);
        CREATE TABLE events (session_id TEXT NOT NULL REFERENCES sessions(id), seq INTEGER NOT NULL,
            kind TEXT NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, state_after TEXT NOT NULL,
            ts REAL NOT NULL, PRIMARY KEY (session_id, seq));""")
    st = State.new(players=2, seed=8)
    con.execute("INSERT INTO sessions VALUES ('old', 1.0, 2, '[]', 8, ?, 'active', NULL)",
                ('[{"kind": "client", "level": 0}, {"kind": "bot", "level": 1}]',))
    con.execute("INSERT INTO events VALUES ('old', 0, 'setup', -1, '', ?, 1.0)", (st.to_text(),))
    move = st.legal_moves()[0]
    st.apply(move)
    st.resolve_chance()
    con.execute("INSERT INTO events VALUES ('old', 1, 'move', 0, ?, ?, 2.0)", (str(move), st.to_text()))
    con.commit()
    con.close()
    store = SqliteStore(path)
    try:
        row = store.session("old")
        assert store.schema_version() == SCHEMA_VERSION
        assert (row.seq, row.updated, row.bot_turn) == (1, 2.0, st.current_player == 1)
    finally:
        store.close()


# ------------------------------------------------------------------------------------------ replicas
def _clients(a: ServerThread, b: ServerThread):
    return SpellBookClient(f"127.0.0.1:{a.port}", timeout=20), SpellBookClient(f"127.0.0.1:{b.port}", timeout=20)


def test_duplicate_submits_racing_on_two_replicas_are_applied_once(two_replicas):
    a, b = two_replicas
    ca, cb = _clients(a, b)
    with ca, cb:
        sid = ca.create_session(["client", "client"], seed=11)
        cb.remember_session(sid)              # the seats' tokens (issue 12), valid on every replica
        for _ in range(8):
            view = cb.get_session(sid, ca.get_session(sid, 0).to_move)
            barrier = threading.Barrier(2)
            results: list = [None, None]

            def submit(i, client):
                barrier.wait()
                try:
                    results[i] = client.submit_move(sid, view.seat, view.legal_moves[-1], expected_seq=view.seq)
                except ServiceError as e:
                    results[i] = e

            threads = [threading.Thread(target=submit, args=(i, c)) for i, c in enumerate((ca, cb))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(20)
            # one applied it; the other was answered from the history (same events), never applied twice
            assert sorted(r.replayed for r in results) == [False, True], results
            assert results[0].events == results[1].events
        record = ca.export_session(sid)
    played = [e for e in record["events"] if e["seq"] > 0]          # (seq 0: the setup draws)
    moves = [e for e in played if e["kind"] == "move"]
    assert len(moves) == 8 and [e["seq"] for e in played] == list(range(1, len(played) + 1))


def test_different_moves_racing_on_two_replicas_one_wins(two_replicas):
    a, b = two_replicas
    ca, cb = _clients(a, b)
    with ca, cb:
        sid = ca.create_session(["client", "client"], seed=12)
        cb.remember_session(sid)
        view = ca.get_session(sid, 0)
        assert len(view.legal_moves) > 1
        barrier, outcomes = threading.Barrier(2), []

        def submit(client, move):
            barrier.wait()
            try:
                outcomes.append(client.submit_move(sid, 0, move, expected_seq=view.seq))
            except ServiceError as e:
                outcomes.append(e)

        threads = [threading.Thread(target=submit, args=(c, m)) for c, m in ((ca, view.legal_moves[0]),
                                                                              (cb, view.legal_moves[1]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(refused) == 1 and refused[0].fields == ["expected_seq"]
        assert len([e for e in ca.export_session(sid)["events"] if e["kind"] == "move"]) == 1


def test_watch_on_one_replica_streams_moves_applied_on_another(two_replicas):
    a, b = two_replicas
    ca, cb = _clients(a, b)
    with ca, cb:
        sid = ca.create_session(["client", "client"], seed=13)
        cb.remember_session(sid)
        cb.get_session(sid, 0)                 # b knows the session before the moves
        seen: list = []
        watcher = threading.Thread(target=lambda: seen.extend(itertools.islice(cb.watch_session(sid, timeout=20), 6)))
        watcher.start()
        time.sleep(0.2)
        submitted = []
        while len(submitted) < 6:
            v = ca.get_session(sid, ca.get_session(sid, 0).to_move)
            submitted += ca.submit_move(sid, v.seat, v.legal_moves[-1], expected_seq=v.seq).events
        watcher.join(20)
        assert not watcher.is_alive()
        assert [(e.seq, e.kind, str(e.move)) for e in seen] == [(e.seq, e.kind, str(e.move)) for e in submitted[:6]]


def _play(clients, sid, client_seats, limit=5000):
    """Client seats' moves (the last legal one), alternating between the replicas' clients, to the end."""
    turn = 0
    for _ in range(limit):
        c = clients[turn % len(clients)]
        view = c.get_session(sid, client_seats[0])
        if view.over:
            return c.export_session(sid)
        if view.to_move in client_seats:
            mine = c.get_session(sid, view.to_move)
            c.submit_move(sid, mine.seat, mine.legal_moves[-1], expected_seq=mine.seq)
            turn += 1
        else:
            time.sleep(0.003)
    raise AssertionError("the game did not end")


def test_bot_seats_move_exactly_once_with_two_replicas(two_replicas, tmp_path):
    a, b = two_replicas
    ca, cb = _clients(a, b)
    seats = ["bot:1", "client"]
    with ca, cb:
        sid = ca.create_session(seats, seed=21)
        cb.remember_session(sid)
        record = _play([ca, cb], sid, [1])
    with ServerThread(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "ref.db"))) as ref, \
            SpellBookClient(f"127.0.0.1:{ref.port}", timeout=20) as c:
        reference = _play([c], c.create_session(seats, seed=21), [1])
    # the very game one server plays: every bot move stored once, none lost, none doubled
    assert record["status"] == "finished"
    assert record["events"] == reference["events"] and record["result"] == reference["result"]


def test_a_session_expired_on_one_replica_ends_the_watch_on_another(two_replicas):
    import asyncio

    import grpc
    a, b = two_replicas
    ca, cb = _clients(a, b)
    with ca, cb:
        sid = ca.create_session(["client", "client"], seed=14)
        cb.remember_session(sid)
        cb.get_session(sid, 0)
        outcome: list = []

        def watch():
            try:
                for ev in cb.watch_session(sid, timeout=20):
                    outcome.append(ev)
            except ServiceError as e:
                outcome.append(e)

        watcher = threading.Thread(target=watch)
        watcher.start()
        time.sleep(0.3)

        async def a_day_later():
            return a.servicer.sessions.expire_idle(time.monotonic() + 2 * 86_400)
        assert asyncio.run_coroutine_threadsafe(a_day_later(), a._loop).result(10) == 1
        watcher.join(20)
        assert not watcher.is_alive()
        assert isinstance(outcome[-1], ServiceError) and outcome[-1].code == grpc.StatusCode.NOT_FOUND
        with pytest.raises(ServiceError) as e:        # and no replica takes a move for it
            cb.submit_move(sid, 0, "pass", expected_seq=0)
        assert e.value.code == grpc.StatusCode.NOT_FOUND
