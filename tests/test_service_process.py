"""`spellbook-ai serve` as a process: JSON logs, and SIGTERM lets the in-flight call finish, then exits 0."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc

from engine_c import State
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent


def _read_json_lines(stream, out: list, ready: threading.Event):
    for line in stream:
        try:
            entry = json.loads(line)
        except ValueError:
            entry = {"raw": line}
        out.append(entry)
        if entry.get("msg") == "serving":
            ready.set()


def test_sigterm_graceful_shutdown(tmp_path):
    env = dict(os.environ, SPELLBOOK_WORKERS="1", SPELLBOOK_GRACE_S="5", SPELLBOOK_DB=str(tmp_path / "s.db"))
    proc = subprocess.Popen([sys.executable, "-m", "clients.cli", "serve", "--address", "127.0.0.1:0"], cwd=ROOT,
                            env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    logs: list[dict] = []
    ready = threading.Event()
    reader = threading.Thread(target=_read_json_lines, args=(proc.stderr, logs, ready), daemon=True)
    reader.start()
    try:
        assert ready.wait(30), f"server did not start: {logs}"
        address = next(e["address"] for e in logs if e.get("msg") == "serving")
        assert address.startswith("127.0.0.1:") and not address.endswith(":0")
        with grpc.insecure_channel(address) as ch:
            stub = service_pb2_grpc.SpellBookServiceStub(ch)
            st = State.new(seed=1)
            call = stub.GetBestMove.future(spb.GetBestMoveRequest(state=pb.StateInput(text=st.to_text()),
                                                                  limits=pb.SearchLimits(time_ms=800)), timeout=10)
            time.sleep(0.3)
            proc.send_signal(signal.SIGTERM)
            result = call.result(timeout=10)
            assert result.move.text and not result.stats.cut_short
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
    reader.join(timeout=5)
    msgs = [e.get("msg") for e in logs]
    assert "shutting down" in msgs and "stopped" in msgs
    rpc = [e for e in logs if e.get("msg") == "rpc"]
    assert rpc and rpc[0]["method"] == "GetBestMove" and rpc[0]["code"] == "OK" and rpc[0]["ms"] > 0
