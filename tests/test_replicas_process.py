"""Replicas as real processes (issue 13): two servers on one PostgreSQL database, one SIGKILLed mid-session
while a round-robin client goes on with the other and finishes the game; a bot seat's lease moves to the
survivor when its holder dies mid-search; and `serve --processes 2` on SQLite (one port, health covering
both processes, metrics summed, a killed process restarted, SIGTERM draining all)."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from clients.client import SpellBookClient
from engine_c import State
from server import auth
from server.main import ServerConfig, ServerThread

ROOT = Path(__file__).resolve().parent.parent


class ServerProcess:
    """`python -m server.main ARGS` on 127.0.0.1:0; its JSON log lines are collected."""

    def __init__(self, *args: str, env: dict | None = None):
        env = dict(os.environ, SPELLBOOK_WORKERS="1", SPELLBOOK_BOT_WORKERS="1", **(env or {}))
        self.proc = subprocess.Popen([sys.executable, "-m", "server.main", "--address", "127.0.0.1:0", *args],
                                     cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        self.logs: list[dict] = []
        self.ready = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stderr:
            try:
                entry = json.loads(line)
            except ValueError:
                entry = {"raw": line}
            self.logs.append(entry)
            if entry.get("msg") == "serving" and "process" not in entry:   # the whole server (group) is up
                self.ready.set()
        self.ready.set()

    def serving(self) -> dict:
        assert self.ready.wait(60), f"server did not start: {self.logs}"
        lines = [e for e in self.logs if e.get("msg") == "serving" and "process" not in e]
        assert lines, f"server did not start: {self.logs}"
        return lines[0]

    def address(self) -> str:
        return self.serving()["address"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()          # only this process, by its pid
        self.proc.wait(timeout=30)
        self.reader.join(timeout=5)


def _play(client: SpellBookClient, sid: str, seat: int, moves: int | None = None) -> dict | None:
    """Plays `seat` (the last legal move) for `moves` of its decisions, or to the end (then the record)."""
    done = 0
    for _ in range(20000):
        view = client.get_session(sid, seat)
        if view.over:
            return client.export_session(sid)
        if moves is not None and done >= moves:
            return None
        if view.to_move == seat:
            client.submit_move(sid, seat, view.legal_moves[-1], expected_seq=view.seq)
            done += 1
        else:
            time.sleep(0.003)
    raise AssertionError("the game did not end")


def _reference(tmp_path, seats, seed) -> dict:
    with ServerThread(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "ref.db"))) as ref, \
            SpellBookClient(f"127.0.0.1:{ref.port}", timeout=30) as c:
        return _play(c, c.create_session(seats, seed=seed), 1)


def test_sigkill_one_replica_the_other_finishes_the_game(postgres_url, tmp_path):
    seats, seed = ["bot:1", "client"], 31
    a = ServerProcess("--processes", "1", "--db", postgres_url, "--bot-lease-s", "1")
    b = ServerProcess("--processes", "1", "--db", postgres_url, "--bot-lease-s", "1")
    try:
        with SpellBookClient([a.address(), b.address()], timeout=30) as client:
            sid = client.create_session(seats, seed=seed)
            assert _play(client, sid, 1, moves=10) is None
            a.proc.kill()                     # mid-session, by its pid
            a.proc.wait(timeout=10)
            record = _play(client, sid, 1)    # calls to the dead replica are retried on the other
    finally:
        a.stop()
        b.stop()
    reference = _reference(tmp_path, seats, seed)
    assert record["status"] == "finished"
    assert record["events"] == reference["events"] and record["result"] == reference["result"]


def test_bot_lease_moves_to_the_survivor_when_its_holder_dies(postgres_url, tmp_path):
    import psycopg
    # the rollout search's level 9 (8,000 iterations, no model) searches its first move ~0.7 s: killed
    # mid-search (the learned search's levels answer in 50 ms or less since D104)
    seats, seed, slow = ["bot:9", "client"], 5, ("--model", "none")
    assert State.new(players=2, seed=seed).current_player == 0
    a = ServerProcess("--processes", "1", "--db", postgres_url, "--bot-lease-s", "1", *slow)
    b = ServerProcess("--processes", "1", "--db", postgres_url, "--bot-lease-s", "1", *slow)
    try:
        a_pid = str(a.proc.pid)
        b.address()
        with SpellBookClient(a.address(), timeout=30) as ca:
            sid = ca.create_session(seats, seed=seed)
        with psycopg.connect(postgres_url, autocommit=True) as db:
            holder = db.execute("SELECT holder FROM bot_leases WHERE session_id=%s", (sid,)).fetchone()
            assert holder and holder[0].split(":")[1] == a_pid
            a.proc.kill()
            a.proc.wait(timeout=10)
            assert db.execute("SELECT seq FROM sessions WHERE id=%s", (sid,)).fetchone()[0] == 0
        with SpellBookClient(b.address(), timeout=30) as cb:
            cb.remember_session(sid)
            for _ in range(3000):
                if cb.get_session(sid, 1).seq > 0:
                    break
                time.sleep(0.01)
            record = cb.export_session(sid)
    finally:
        a.stop()
        b.stop()
    took_over = [e for e in b.logs if e.get("msg") == "taking over bots" and e.get("session") == auth.redact(sid)]
    assert took_over, b.logs
    played = [e for e in record["events"] if e["seq"] > 0]          # (seq 0: the setup draws)
    bot_moves = [e for e in played if e["seat"] == 0 and e["kind"] == "move"]
    assert len(bot_moves) == 1 and played[0]["seq"] == 1 and played[0] == bot_moves[0]
    # the move the bot makes in an undisturbed game (seeded by the session seed and the event number)
    ref = ServerProcess("--processes", "1", "--db", str(tmp_path / "ref.db"), *slow)
    try:
        with SpellBookClient(ref.address(), timeout=30) as c:
            rid = c.create_session(seats, seed=seed)
            while c.get_session(rid, 1).seq == 0:
                time.sleep(0.01)
            assert [e for e in c.export_session(rid)["events"] if e["seq"] > 0][0] == played[0]
    finally:
        ref.stop()


def _health(address: str) -> int:
    with grpc.insecure_channel(address) as ch:
        return health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=5).status


def _metrics(address: str) -> str:
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=10) as r:
        return r.read().decode()


def test_processes_share_one_port_and_one_sqlite_database(tmp_path):
    db = str(tmp_path / "group.db")
    group = ServerProcess("--processes", "2", "--db", db, "--metrics-address", "127.0.0.1:0", "--grace-s", "3")
    try:
        info = group.serving()
        address, pids = info["address"], info["pids"]
        assert len(pids) == 2
        assert all(_health(address) == health_pb2.HealthCheckResponse.SERVING for _ in range(4))
        # new connections spread over both processes (SO_REUSEPORT); sessions live in the shared file
        sid = None
        for i in range(20):
            with SpellBookClient(address, timeout=30) as c:
                if sid is None:
                    sid = c.create_session(["client", "bot:1"], seed=9)
                c.remember_session(sid)
                _play(c, sid, 0, moves=1)
            served = {e.get("process") for e in group.logs if e.get("msg") == "rpc"}
            if served == {0, 1} and i >= 3:
                break
        assert served == {0, 1}
        text = _metrics(info["metrics"])
        counts = re.findall(r'spellbook_rpc_total\{code="OK",method="SubmitMove"\} (\d+)', text)
        assert counts and int(float(counts[0])) >= 4, text[:2000]
        # one process killed: the supervisor starts it again; the game goes on
        os.kill(pids[0], signal.SIGKILL)
        for _ in range(1200):        # a spawned process imports everything: seconds on a busy machine
            if any(e.get("msg") == "serving" and e.get("process") == 0 and e.get("pid") != pids[0]
                   for e in group.logs):
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"process 0 was not restarted: {group.logs[-5:]}")
        with SpellBookClient(address, timeout=30) as c:
            c.remember_session(sid)
            record = _play(c, sid, 0)
        assert record["status"] == "finished"
        group.proc.send_signal(signal.SIGTERM)
        assert group.proc.wait(timeout=60) == 0, group.logs[-5:]
    finally:
        group.stop()
    stopped = [e for e in group.logs if e.get("msg") == "stopped"]
    assert {e.get("process") for e in stopped} == {0, 1}


def test_processes_need_a_shared_database():
    from server.main import parse_args
    assert parse_args(["--db", ":memory:"]).processes == 1          # the default, for a database of its own
    assert parse_args(["--db", "x.db", "--processes", "3"]).service.workers == max(1, (os.cpu_count() or 1) // 3)
    out = subprocess.run([sys.executable, "-m", "server.main", "--processes", "2", "--db", ":memory:"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "shared database" in out.stderr
