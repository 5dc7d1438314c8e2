"""Small searches on an idle server run inline, on the event loop (server/fairshare.py, decision D81): the
same answer as on a worker, admitted and counted like any search, and never while another search is
admitted (so fair share is untouched)."""
from __future__ import annotations

import json
import time

import grpc
import pytest
from prometheus_client import REGISTRY

from engine_c import State
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb
from server.main import ServerConfig, ServerThread, parse_args
from server.service import ServiceConfig


def inlined() -> float:
    return REGISTRY.get_sample_value("spellbook_searches_inline_total") or 0.0


def request(seed: int, iterations: int = 120, time_ms: float = 0) -> spb.GetBestMoveRequest:
    st = State.new(players=2, spells="set2", seed=11)
    return spb.GetBestMoveRequest(state=pb.StateInput(text=st.to_text()), seed=seed,
                                  options=pb.SearchOptions(rollout="heuristic", cutoff=30),
                                  limits=pb.SearchLimits(iterations=iterations, time_ms=time_ms, threads=1))


def calls_logged(stream) -> list[dict]:
    return [e for e in map(json.loads, stream.getvalue().splitlines()) if e.get("method") == "GetBestMove"]


def answer(resp: spb.GetBestMoveResponse) -> tuple:
    return resp.move.text, resp.stats.iterations, [(m.move.text, m.visits) for m in resp.stats.moves]


@pytest.fixture(scope="module")
def server():
    with ServerThread(ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, queue_size=4,
                                                                                inline_ms=20.0))) as srv:
        yield srv


@pytest.fixture(scope="module")
def stub(server):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield service_pb2_grpc.SpellBookServiceStub(ch)


def test_a_small_search_on_an_idle_server_runs_inline_with_the_workers_answer(server, stub, server_log):
    first = stub.GetBestMove(request(seed=5), timeout=20)        # an unknown kind of search: on a worker, measured
    before = inlined()
    again = stub.GetBestMove(request(seed=5), timeout=20)        # now known to be small: inline
    assert inlined() == before + 1
    t0 = time.monotonic()     # each call's log line is written once its answer is on its way
    while len(lines := calls_logged(server_log)) < 2 and time.monotonic() - t0 < 5:
        time.sleep(0.01)
    assert [e.get("inline", False) for e in lines] == [False, True] and lines[-1]["search_cpu_ms"] > 0
    assert answer(again) == answer(first) and again.stats.iterations == 120
    assert server.servicer.pool.admitted == 0 and server.servicer.pool.running == 0
    cfg = ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, queue_size=4, inline_ms=0.0))
    with ServerThread(cfg) as never, grpc.insecure_channel(f"127.0.0.1:{never.port}") as ch:
        other = service_pb2_grpc.SpellBookServiceStub(ch)
        other.GetBestMove(request(seed=5), timeout=20)
        before = inlined()
        assert answer(other.GetBestMove(request(seed=5), timeout=20)) == answer(first)
        assert inlined() == before                            # --inline-ms 0: never


def test_a_search_expected_to_exceed_inline_ms_runs_on_a_worker(stub):
    stub.GetBestMove(request(seed=1), timeout=20)
    before = inlined()
    stub.GetBestMove(request(seed=2, iterations=0, time_ms=200), timeout=20)   # a 200 ms CPU budget
    stub.GetBestMove(request(seed=3, iterations=20_000), timeout=20)           # far more iterations than 20 ms
    assert inlined() == before


def test_no_inline_search_while_another_is_admitted(server, stub):
    stub.GetBestMove(request(seed=1), timeout=20)
    long = stub.GetBestMove.future(request(seed=9, iterations=0, time_ms=1500), timeout=20)
    t0 = time.monotonic()
    while server.servicer.pool.admitted == 0 and time.monotonic() - t0 < 5:
        time.sleep(0.01)
    before = inlined()
    small = stub.GetBestMove(request(seed=4), timeout=20)      # waits for a slice in the fair queue instead
    assert inlined() == before and small.stats.iterations == 120
    assert long.result(timeout=20).move.text


def test_inline_ms_flag():
    assert parse_args(["--inline-ms", "0"]).service.inline_ms == 0
    assert parse_args([]).service.inline_ms == 20
    with pytest.raises(SystemExit):
        parse_args(["--inline-ms", "60", "--slice-ms", "50"])     # more than a slice: refused
