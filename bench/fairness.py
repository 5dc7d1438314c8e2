"""Fair share under load (issue 25): does a small call wait behind other clients' long searches, and do many
clients on one host each get their share?

    python bench/fairness.py [--tries 20] [--long-ms 10000] [--clients 32] [--duration 20] [--skip-many]

The server runs as a subprocess on 127.0.0.1 (a free port; stopped by its pid after each step).
1. small-behind-long: clients A and B each run two long GetBestMove searches (--long-ms of search time each)
   at once; then client C makes --tries sequential 100-iteration GetBestMove calls: p50 and max latency.
   Four runs: API keys (each client its key) and none (each client its own connection from this host), each
   with `--processes 1 --workers 2` and `--processes 2 --workers 1` (two workers either way). The long
   searches are cancelled once C is done.
2. many clients: --clients clients without API keys, each on its own connection, --duration seconds of
   mixed calls (GetBestMove of 300 iterations, GetHints of 200, ListLegalMoves, ApplyMove) on
   `--processes 1 --workers 2`, no client retries: calls per client (max / min ratio), searches refused
   (RESOURCE_EXHAUSTED) in all and by the cap that refused them (the server's /metrics), and searches
   refused while a worker was idle (sampled: a refusal counted in an interval in which the server's
   running-searches gauge was ever below the workers).

The last line is one JSON object with every figure.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import re
import socket
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import grpc  # noqa: E402

from clients.client import AsyncSpellBookClient, ServiceError, SpellBookClient  # noqa: E402
from engine_c.spellbook import State  # noqa: E402
from grpc_load import ServerProcess  # noqa: E402
from server._gen.spellbook.v1 import service_pb2 as spb  # noqa: E402
from server._gen.spellbook.v1 import types_pb2 as pb  # noqa: E402

KEYS = ("fairness-bench-key-a-0123456789", "fairness-bench-key-b-0123456789", "fairness-bench-key-c-0123456789")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def small_behind_long(processes: int, workers: int, keyed: bool, tries: int, long_ms: float) -> dict:
    """C's latencies while A and B each run two long searches."""
    env = {"SPELLBOOK_API_KEYS": ",".join(KEYS)} if keyed else {}
    server = ServerProcess(workers=workers, queue_size=64, processes=processes, flags=(), env=env)
    st = State.new(players=2, seed=1)
    clients = [SpellBookClient(server.address, timeout=60, api_key=k if keyed else None) for k in KEYS]
    long_calls = []
    try:
        a, b, c = clients
        c.best_move(st, iterations=100, seed=0)                  # C's connection is up before the load starts
        for cl, key in ((a, KEYS[0]), (b, KEYS[1])):
            metadata = (("authorization", f"Bearer {key}"),) if keyed else ()
            for seed in range(2):
                req = spb.GetBestMoveRequest(state=pb.StateInput(text=st.to_text()), seed=seed,
                                             limits=pb.SearchLimits(time_ms=long_ms, iterations=200_000, threads=1))
                long_calls.append(cl.stub.GetBestMove.future(req, timeout=long_ms / 1000 * 6 + 30,
                                                             metadata=metadata))
        time.sleep(0.5)                                          # the long searches are running
        latencies = []
        for i in range(tries):
            t0 = time.perf_counter()
            c.best_move(st, iterations=100, seed=i + 1)
            latencies.append(time.perf_counter() - t0)
        still_running = sum(not f.done() for f in long_calls)
    finally:
        for f in long_calls:
            f.cancel()
        for cl in clients:
            cl.close()
        server.stop()
    return {"p50_s": round(statistics.median(latencies), 3), "max_s": round(max(latencies), 3),
            "long_searches_running_at_end": still_running}


async def many_clients(clients: int, duration: float, metrics_port: int) -> dict:
    server = ServerProcess(workers=2, queue_size=64, processes=1, flags=("--metrics-address", f"127.0.0.1:{metrics_port}"))
    states = [State.new(players=2, seed=s) for s in range(8)]
    calls = [0] * clients
    refused = [0] * clients
    other_errors: dict[str, int] = {}
    sampler = _Sampler(metrics_port)
    try:
        conns = [AsyncSpellBookClient(server.address, timeout=60, retries=0) for _ in range(clients)]
        for cl in conns:
            await cl.server_info()
        stop_at = time.monotonic() + duration
        sampler.start()

        async def run(k: int) -> None:
            cl, i = conns[k], 0
            while time.monotonic() < stop_at:
                st = states[(k + i) % len(states)]
                try:
                    kind = i % 4
                    if kind == 0:
                        await cl.best_move(st, iterations=300, seed=i)
                    elif kind == 1:
                        await cl.hints(st, iterations=200, seed=i, fixed_budget=True)
                    elif kind == 2:
                        await cl.legal_moves(st)
                    else:
                        await cl.play(st, "draw")
                    calls[k] += 1
                except ServiceError as e:
                    if e.code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                        refused[k] += 1
                        await asyncio.sleep((e.retry_after_ms or 50) / 1000)
                    else:
                        other_errors[e.code.name] = other_errors.get(e.code.name, 0) + 1
                i += 1

        await asyncio.gather(*[run(k) for k in range(clients)])
        sampler.stop()
        for cl in conns:
            await cl.close()
        by_cap = _refusals(_scrape(metrics_port))
    finally:
        sampler.stop()
        server.stop()
    return {"clients": clients, "duration_s": duration, "calls": sum(calls),
            "calls_per_client_min": min(calls), "calls_per_client_max": max(calls),
            "throughput_ratio_max_min": round(max(calls) / max(min(calls), 1), 3),
            "searches_refused": sum(refused), "refused_by_cap": by_cap,
            "searches_refused_while_a_worker_idled": sampler.refused_while_idle, "other_errors": other_errors}


def _scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        return r.read().decode()


def _refusals(text: str) -> dict[str, float]:
    return {m.group(1): float(m.group(2)) for m in
            re.finditer(r'^spellbook_searches_refused_total\{cap="([^"]+)"\} (\S+)$', text, re.M)}


def _running(text: str) -> float:
    m = re.search(r"^spellbook_searches_running (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


class _Sampler(threading.Thread):
    """Scrapes /metrics every 20 ms: a refusal counted between two scrapes of which one saw fewer searches
    running than workers is counted as refused while a worker idled (an upper bound)."""

    def __init__(self, port: int, workers: int = 2):
        super().__init__(daemon=True)
        self.port, self.workers, self.refused_while_idle = port, workers, 0
        self._stop = threading.Event()

    def run(self) -> None:
        last_refused, last_idle = None, False
        while not self._stop.is_set():
            try:
                text = _scrape(self.port)
            except OSError:
                time.sleep(0.02)
                continue
            refused, idle = sum(_refusals(text).values()), _running(text) < self.workers
            if last_refused is not None and refused > last_refused and (idle or last_idle):
                self.refused_while_idle += int(refused - last_refused)
            last_refused, last_idle = refused, idle
            time.sleep(0.02)

    def stop(self) -> None:
        self._stop.set()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tries", type=int, default=20)
    p.add_argument("--long-ms", type=float, default=10_000.0, help="search time of each long search")
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--duration", type=float, default=20.0, help="seconds of the many-clients run")
    p.add_argument("--skip-many", action="store_true", help="only the small-behind-long runs")
    a = p.parse_args(argv)
    if not (1 <= a.tries <= 1000 and 100 <= a.long_ms <= 10_000 and 2 <= a.clients <= 256 and 1 <= a.duration <= 300):
        p.error("tries 1..1000, long-ms 100..10000, clients 2..256, duration 1..300")
    figures: dict = {"tries": a.tries, "long_ms": a.long_ms}
    for processes, workers in ((1, 2), (2, 1)):
        for keyed in (True, False):
            name = f"{'keys' if keyed else 'no_keys'}_p{processes}w{workers}"
            r = small_behind_long(processes, workers, keyed, a.tries, a.long_ms)
            figures[f"small_p50_s_{name}"], figures[f"small_max_s_{name}"] = r["p50_s"], r["max_s"]
            print(f"{name}: C's 100-iteration GetBestMove p50 {r['p50_s']:.3f} s, max {r['max_s']:.3f} s "
                  f"({r['long_searches_running_at_end']} long searches still running at the end)", flush=True)
    if not a.skip_many:
        r = asyncio.run(many_clients(a.clients, a.duration, free_port()))
        print(f"{a.clients} clients, {a.duration:g} s: {r['calls']} calls, per client {r['calls_per_client_min']}.."
              f"{r['calls_per_client_max']} (ratio {r['throughput_ratio_max_min']}), searches refused "
              f"{r['searches_refused']} {r['refused_by_cap']}, while a worker idled "
              f"{r['searches_refused_while_a_worker_idled']}, other errors {r['other_errors']}", flush=True)
        figures.update({f"many_{k}": v for k, v in r.items()})
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
