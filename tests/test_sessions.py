"""Sessions (issue 5) at the library level: bots and clients play to the end, refusals carry reasons,
and a store reopened after a crash resumes the exact state."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine_c import State
from engine_c.records import replay
from server.sessions import SeatSpec, SessionError, SessionManager
from server.store import SqliteStore as SessionStore


def run(coro):
    return asyncio.run(coro)


async def _play_client_to_end(mgr, sid, seat, pick=lambda moves: moves[-1], limit=2000):
    for _ in range(limit):
        view = mgr.view(sid, seat)
        if view["over"]:
            return view
        if view["to_move"] == seat:
            await mgr.submit(sid, seat, pick(view["legal_moves"]), expected_seq=view["seq"])
        else:
            await asyncio.sleep(0.005)
    raise AssertionError("game did not end")


def test_two_bots_and_a_client_play_to_the_end(tmp_path):
    async def main():
        store = SessionStore(str(tmp_path / "s.db"))
        with ThreadPoolExecutor(2) as pool:
            mgr = SessionManager(store, pool)
            sid = await mgr.create(3, "set1", 5, [SeatSpec("bot", 1), SeatSpec("client"), SeatSpec("bot", 2)])
            view = await _play_client_to_end(mgr, sid, 1)
            await mgr.close()
        record = mgr.export(sid)
        assert view["over"] and record["status"] == "finished" and record["result"]["winners"]
        # the record replays exactly: the setup draws, the moves and the recorded draws
        st, _ = replay(record)
        assert record["seed"] == 5 and st.is_terminal()
        assert [s.total for s in st.scores()] == record["result"]["scores"]
        assert any(ev["seat"] == 0 for ev in record["events"]) and any(ev["seat"] == 2 for ev in record["events"])
    run(main())


def test_refusals_name_the_reason(tmp_path):
    async def main():
        with ThreadPoolExecutor(1) as pool:
            mgr = SessionManager(SessionStore(str(tmp_path / "s.db")), pool)
            sid = await mgr.create(2, "set1", 1, [SeatSpec("client"), SeatSpec("client")])
            with pytest.raises(SessionError) as e:
                await mgr.submit(sid, 1, "draw")
            assert e.value.code == "FAILED_PRECONDITION" and "seat 0" in e.value.message
            with pytest.raises(SessionError) as e:
                await mgr.submit(sid, 0, "store Rc")
            assert e.value.code == "INVALID_ARGUMENT" and e.value.field == "move"
            with pytest.raises(SessionError) as e:
                await mgr.submit("nope", 0, "draw")
            assert e.value.code == "NOT_FOUND"
            with pytest.raises(SessionError) as e:
                await mgr.create(2, "set1", 1, [SeatSpec("bot", 11), SeatSpec("client")])
            assert e.value.field == "seats[0].level"
            with pytest.raises(SessionError) as e:
                await mgr.create(5, "set1", 1, [SeatSpec("client")] * 5)
            assert e.value.field == "players"
            await mgr.submit(sid, 0, "draw", expected_seq=0)
            with pytest.raises(SessionError) as e:   # a retried submission is not applied twice
                await mgr.submit(sid, 0, "draw", expected_seq=0)
            assert e.value.field == "expected_seq"
            await mgr.close()
    run(main())


def test_view_never_reveals_the_pouch_order(tmp_path):
    async def main():
        with ThreadPoolExecutor(1) as pool:
            mgr = SessionManager(SessionStore(str(tmp_path / "s.db")), pool)
            sid = await mgr.create(2, "set2", 3, [SeatSpec("client"), SeatSpec("client")])
            view = mgr.view(sid, 1)
            state = mgr.sessions[sid].state
            assert "rng=" not in view["observation"] and f"{state._to_raw()['rng']:016x}" not in str(view)
            assert view["legal_moves"] == [] and mgr.view(sid, 0)["legal_moves"]
            await mgr.close()
    run(main())


def test_reopened_store_resumes_exactly(tmp_path):
    path = str(tmp_path / "s.db")

    async def first():
        with ThreadPoolExecutor(1) as pool:
            mgr = SessionManager(SessionStore(path), pool)
            sid = await mgr.create(2, "set1", 9, [SeatSpec("client"), SeatSpec("client")])
            for _ in range(12):
                v = mgr.view(sid, mgr.sessions[sid].state.current_player)
                await mgr.submit(sid, v["seat"], v["legal_moves"][-1])
            text = mgr.sessions[sid].state.to_text()
            await mgr.close()
            return sid, text, mgr.export(sid)

    async def second(sid):
        with ThreadPoolExecutor(1) as pool:
            mgr = SessionManager(SessionStore(path), pool)
            assert await mgr.resume_all() == 1
            await mgr.close()
            return mgr.sessions[sid].state.to_text(), mgr.export(sid)

    sid, text, record = run(first())
    text2, record2 = run(second(sid))
    assert text2 == text and record2 == record


def _open_store(path: str, out) -> None:
    try:
        SessionStore(path)
        out.put("ok")
    except Exception as e:      # what a server process would log and exit with
        out.put(str(e))


def test_processes_opening_a_new_database_together_all_start(tmp_path):
    """A server's processes open a new database file together. Switching it to WAL can find the file locked by
    a sibling without SQLite's busy handler waiting, and a process then failed at start ("database is
    locked": a flaky multi-process start, about one start in ninety here). The store waits for that lock too,
    up to its busy timeout."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    results = []
    for trial in range(30):
        path, out = str(tmp_path / f"s{trial}.db"), ctx.Queue()
        procs = [ctx.Process(target=_open_store, args=(path, out)) for _ in range(8)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
        results += [out.get(timeout=5) for _ in procs]
    assert [r for r in results if r != "ok"] == []
