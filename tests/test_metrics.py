"""Metrics, request ids and client load balancing (issue 13): Prometheus counters and histograms move with
the calls that happen, /metrics serves them over HTTP, log lines carry the client's `x-request-id`, and a
client given two replicas spreads its calls over both and goes on with one when the other is gone."""
from __future__ import annotations

import io
import json
import logging
import re
import time
import urllib.request

import grpc
import pytest
from prometheus_client import REGISTRY

from clients.client import InvalidArgument, SpellBookClient, channel_target
from server import metrics
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb
from server.main import JsonFormatter, ServerConfig, ServerThread
from server.service import ServiceConfig


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def eventually(check, timeout_s: float = 5.0) -> bool:
    """An aborted call's status reaches the client before the server's handler has unwound: poll briefly."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture(scope="module")
def server():
    with ServerThread(ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, queue_size=2))) as srv:
        yield srv


@pytest.fixture
def logs():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("spellbook.server")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    lines: list[dict] = []
    yield lambda: lines.clear() or lines.extend(json.loads(x) for x in stream.getvalue().splitlines()) or lines
    logger.removeHandler(handler)
    logger.setLevel(old_level)


def test_calls_move_the_counters_and_histograms(server):
    before = {"ok": sample("spellbook_rpc_total", method="GetBestMove", code="OK"),
              "bad": sample("spellbook_rpc_total", method="GetBestMove", code="INVALID_ARGUMENT"),
              "lat": sample("spellbook_rpc_seconds_count", method="GetBestMove"),
              "it": sample("spellbook_search_iterations_total"),
              "wait": sample("spellbook_search_queue_wait_seconds_count")}
    with SpellBookClient(f"127.0.0.1:{server.port}", timeout=20) as c:
        state = c.new_game(seed=3)
        for seed in range(3):
            c.best_move(state, iterations=40, seed=seed)
        with pytest.raises(InvalidArgument):
            c.best_move(state, iterations=10**9)          # over the server's cap
    assert sample("spellbook_rpc_total", method="GetBestMove", code="OK") == before["ok"] + 3
    assert eventually(lambda: sample("spellbook_rpc_total", method="GetBestMove", code="INVALID_ARGUMENT")
                      == before["bad"] + 1)
    assert sample("spellbook_rpc_seconds_count", method="GetBestMove") == before["lat"] + 4
    assert sample("spellbook_search_iterations_total") >= before["it"] + 3 * 40
    assert sample("spellbook_search_queue_wait_seconds_count") == before["wait"] + 3
    assert sample("spellbook_search_queue_depth") == 0 and sample("spellbook_searches_running") == 0


def test_metrics_are_served_over_http(server):
    http, port = metrics.serve_metrics("127.0.0.1:0")
    try:
        with SpellBookClient(f"127.0.0.1:{server.port}", timeout=20) as c:
            c.server_info()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            text = r.read().decode()
    finally:
        http.shutdown()
    assert re.search(r'spellbook_rpc_total\{code="OK",method="GetServerInfo"\} [1-9]', text)
    for name in ("spellbook_rpc_seconds_bucket", "spellbook_search_queue_depth", "spellbook_searches_running",
                 "spellbook_search_iterations_total", "spellbook_sessions_open", "spellbook_sessions_expired_total"):
        assert name in text


def test_log_lines_carry_the_request_id(server, logs):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        stub = service_pb2_grpc.SpellBookServiceStub(ch)
        stub.NewGame(spb.NewGameRequest(seed=1), timeout=10, metadata=(("x-request-id", "req-42"),))
        with pytest.raises(grpc.RpcError):
            stub.ListLegalMoves(spb.ListLegalMovesRequest(state=pb.StateInput(text="nonsense")), timeout=10,
                                metadata=(("x-request-id", "req-43"),))
    with SpellBookClient(f"127.0.0.1:{server.port}", timeout=20) as c:
        c.new_game(seed=2)
    assert eventually(lambda: len([e for e in logs() if e.get("msg") == "rpc"]) >= 3)
    rpc = [e for e in logs() if e.get("msg") == "rpc"]
    by_id = {e.get("request_id"): e for e in rpc}
    assert by_id["req-42"]["method"] == "NewGame" and by_id["req-42"]["code"] == "OK"
    assert by_id["req-43"]["code"] == "INVALID_ARGUMENT"
    generated = [e["request_id"] for e in rpc if e["request_id"] not in ("req-42", "req-43")]
    assert generated and all(re.fullmatch(r"[0-9a-f]{16}", r) for r in generated)   # the client's own


def test_client_round_robins_and_survives_a_replica_going_away():
    a = ServerThread(ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, queue_size=4)))
    b = ServerThread(ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, queue_size=4)))
    a.start()
    b.start()
    counts = {"a": 0, "b": 0}
    for name, srv in (("a", a), ("b", b)):
        pool, run = srv.servicer.pool, srv.servicer.pool.run

        async def counted(fn, cancel, *args, _name=name, _run=run, **kwargs):
            counts[_name] += 1
            return await _run(fn, cancel, *args, **kwargs)
        pool.run = counted
    try:
        with SpellBookClient([f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"], timeout=20) as c:
            state = c.new_game(seed=4)
            for seed in range(10):
                c.best_move(state, iterations=20, seed=seed)
            assert counts["a"] >= 3 and counts["b"] >= 3, counts
            a.stop(grace=0.5)
            for seed in range(6):                 # every call lands: a's are retried on b
                assert c.best_move(state, iterations=20, seed=seed, timeout=10).move is not None
            assert counts["b"] >= 3 + 6 - (counts["a"] - 3)
    finally:
        a.stop()
        b.stop()


def test_channel_target_forms():
    assert channel_target("127.0.0.1:1")[0] == "127.0.0.1:1"
    assert channel_target("127.0.0.1:1, 127.0.0.2:2")[0] == "ipv4:127.0.0.1:1,127.0.0.2:2"
    assert channel_target(["[::1]:1", "[::1]:2"])[0] == "ipv6:[::1]:1,[::1]:2"
    assert channel_target("dns:///spellbook.internal:50051")[0] == "dns:///spellbook.internal:50051"
    assert "round_robin" in dict(channel_target("x:1")[1])["grpc.service_config"]
    with pytest.raises(ValueError, match="DNS name"):
        channel_target("a.example:1,b.example:1")
