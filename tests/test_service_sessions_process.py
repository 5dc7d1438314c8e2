"""A server process killed with SIGKILL mid-game and restarted on the same database resumes the session
exactly: the same history, nothing an acknowledged SubmitMove stored is lost, and the game goes on to the
very end an uninterrupted one reaches (bots are seeded by the session seed and the event number)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from clients.client import SpellBookClient

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["client", "bot:1", "client", "bot:2"]
CLIENT_SEATS = [0, 2]


class ServerProcess:
    """`python -m server.main` on 127.0.0.1:0 with the given database; its JSON log lines are collected."""

    def __init__(self, db: str, env: dict[str, str] | None = None):
        env = dict(os.environ, SPELLBOOK_WORKERS="1", SPELLBOOK_BOT_WORKERS="1", SPELLBOOK_PROCESSES="1", **(env or {}))
        self.proc = subprocess.Popen([sys.executable, "-m", "server.main", "--address", "127.0.0.1:0", "--db", db],
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
            if entry.get("msg") == "serving":
                self.ready.set()
        self.ready.set()

    def address(self) -> str:
        assert self.ready.wait(30), f"server did not start: {self.logs}"
        serving = [e for e in self.logs if e.get("msg") == "serving"]
        assert serving, f"server did not start: {self.logs}"
        return serving[0]["address"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()          # only this process, by its pid
        self.proc.wait(timeout=10)
        self.reader.join(timeout=5)


def step(client: SpellBookClient, sid: str) -> bool:
    """One client move (the last legal one) when a client seat decides; False when the game is over."""
    for _ in range(3000):
        view = client.get_session(sid, 0)
        if view.over:
            return False
        if view.to_move in CLIENT_SEATS:
            mine = client.get_session(sid, view.to_move)
            client.submit_move(sid, mine.seat, mine.legal_moves[-1], expected_seq=mine.seq)
            return True
        threading.Event().wait(0.003)
    raise AssertionError("no client decision came")


def test_sigkill_mid_game_then_restart_resumes_exactly(tmp_path):
    db = str(tmp_path / "sessions.db")
    first = ServerProcess(db)
    try:
        with SpellBookClient(first.address(), timeout=20) as client:
            sid = client.create_session(SEATS, spells="set2", seed=42)
            for _ in range(12):
                assert step(client, sid)
            acked = client.submit_move(sid, *_client_move(client, sid))   # acknowledged, then killed at once
            first.proc.kill()
            first.proc.wait(timeout=10)
    finally:
        first.stop()
    assert first.proc.returncode == -9

    second = ServerProcess(db)
    try:
        address = second.address()
        assert [e["resumed_sessions"] for e in second.logs if e.get("msg") == "serving"] == [1]
        # a second server on the same database refuses to start
        third = ServerProcess(db)
        assert third.proc.wait(timeout=30) == 1
        third.stop()
        assert any("another server" in str(e.get("error", "")) for e in third.logs)

        with SpellBookClient(address, timeout=20) as client:
            client.remember_session(sid)           # a new client: the session's tokens survive the restart
            record = client.export_session(sid)
            stored = {e["seq"]: (e["kind"], e["seat"], e["move"]) for e in record["events"]}
            for ev in acked.events:                                      # nothing acknowledged was lost
                assert stored[ev.seq] == (ev.kind, ev.seat, str(ev.move))
            while step(client, sid):
                pass
            resumed = client.export_session(sid)
            # the same game played without interruption on the restarted server
            twin = client.create_session(SEATS, spells="set2", seed=42)
            while step(client, twin):
                pass
            reference = client.export_session(twin)
    finally:
        second.stop()
    assert resumed["status"] == reference["status"] == "finished"
    assert resumed["events"][:len(record["events"])] == record["events"]
    assert resumed["events"] == reference["events"] and resumed["result"] == reference["result"]


def _client_move(client: SpellBookClient, sid: str):
    for _ in range(3000):
        view = client.get_session(sid, 0)
        if view.to_move in CLIENT_SEATS:
            mine = client.get_session(sid, view.to_move)
            return mine.seat, mine.legal_moves[-1], mine.seq
        threading.Event().wait(0.003)
    raise AssertionError("no client decision came")
