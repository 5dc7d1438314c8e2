"""gRPC load benchmark: N concurrent clients call GetBestMove with a small fixed budget for T seconds.

    python bench/grpc_load.py [--clients 16] [--duration 5] [--iterations 300] [--scaling-iterations 1000]
                              [--workers 1,2] [--overhead-samples 200] [--processes 2]

Steps (the server runs as a subprocess of this script, on 127.0.0.1 with a free port, and is stopped by
its pid after each step):
1. overhead: one client, sequential requests over a set of positions; each request's search also runs
   in-process (same options, via server/convert.py; the moves must agree) and overhead = RPC latency -
   in-process search time. In CPU (a busy machine distorts it less than latencies; D82):
   `server_overhead_cpu_ms`, the server's CPU per GetBestMove beyond the CPU of its search (run here), and
   `bare_call_cpu_ms`, per health check, with
   `overhead_inline_calls`: how many of those calls an idle server ran on its event loop (server/fairshare.py).
   Also reported: RPC latency - the search time the server measured, the
   overhead when each call follows its in-process search (the server idles in between), and, as the
   yardstick, the latency of a bare gRPC call to the same server in the same run (`bare_call_p50_ms`: a
   grpc.health.v1 Check, which does no work of ours).
2. load: for each worker count, N concurrent asyncio clients for T seconds: throughput, p50/p99 latency,
   errors, and the CPU each request cost the server (search included) and this load generator. Then
   the throughput ratio of the largest worker count to 1, and the ratio the cores allow with both
   processes on them (2 cores x 1000 / CPU ms per request); a control: the in-process search rate on 2
   threads / 1 thread at that moment (near 1 when the machine's other core is busy with other work).
3. the load again at --scaling-iterations (keys with the suffix `_scaling`): with searches of ~3 ms
   the per-call CPU of gRPC, the service and the load generator (~2 ms in all) caps what 2 workers can
   add; with ~9 ms searches the search dominates.
4. processes: the load at --iterations against `serve --processes 1` and `--processes N` (1 worker each,
   on a shared SQLite file), every client on its own connection so SO_REUSEPORT spreads them:
   `process_scaling` = throughput(N) / throughput(1), with the CPU per request of all server processes and
   of this load generator beside it (both share the machine's cores).

The last line is one JSON object with every figure (keys include overhead_p50_ms and errors).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

from engine_c.spellbook import State  # noqa: E402
from engine_c.spellbook.game import SPELLBOOK  # noqa: E402
from search import ismcts  # noqa: E402
from server._gen.spellbook.v1 import service_pb2 as spb  # noqa: E402
from server._gen.spellbook.v1 import service_pb2_grpc  # noqa: E402
from server._gen.spellbook.v1 import types_pb2 as pb  # noqa: E402
from server.convert import search_options  # noqa: E402
from server.service import ServiceConfig  # noqa: E402


def positions(count: int, seed: int = 0) -> list[State]:
    """Decision states from seeded random games, spread over the game."""
    rng = random.Random(seed)
    out: list[State] = []
    game = 0
    while len(out) < count:
        st = State.new(players=2, spells=rng.choice(["set1", "set2", "set3"]), seed=game)
        game += 1
        keep = rng.randrange(5, 80)
        steps = 0
        while not st.is_terminal() and steps < keep:
            st.play(rng.choice(st.legal_moves()))
            steps += 1
        if not st.is_terminal():
            out.append(st)
    return out


class ServerProcess:
    """`python -m server.main` on 127.0.0.1:0; the address is read from its `serving` log line."""

    def __init__(self, workers: int, queue_size: int, processes: int = 1, flags: tuple[str, ...] | None = None,
                 env: dict[str, str] | None = None):
        self.dir = tempfile.mkdtemp(prefix="grpc_load_")
        db = os.path.join(self.dir, "sessions.db") if processes > 1 else ":memory:"
        # every load client comes from this one host (often on one connection): by default let it hold every
        # admission (fair share would cap one host's, and the bench would measure that cap instead)
        everything = str(workers + queue_size)
        flags = ("--per-client-searches", everything, "--per-host-searches", everything) if flags is None else flags
        cmd = [sys.executable, "-m", "server.main", "--address", "127.0.0.1:0", "--workers", str(workers),
               "--queue-size", str(queue_size), "--max-threads", "1", "--processes", str(processes), "--db", db,
               *flags]
        # Logs go to a file, not a pipe: a reader thread here would compete with the clients for the GIL.
        self.log = tempfile.NamedTemporaryFile("w+", prefix="grpc_load_", suffix=".jsonl", delete=False)
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stderr=self.log, stdout=subprocess.DEVNULL, text=True,
                                     env=dict(os.environ, **(env or {})))
        self.address: str | None = None
        self.pids = [self.proc.pid]      # every process whose CPU a request costs
        t0 = time.monotonic()
        while self.address is None and time.monotonic() - t0 < 60 and self.proc.poll() is None:
            time.sleep(0.05)
            for line in Path(self.log.name).read_text().splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("msg") == "serving" and "process" not in entry:   # the group's line
                    self.address = entry["address"]
                    self.pids += entry.get("pids", [])
        if self.address is None:
            self.stop()
            raise RuntimeError("server did not start")

    def log_entries(self) -> list[dict]:
        """The JSON lines the server logged so far."""
        out = []
        for line in Path(self.log.name).read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
        return out

    def cpu_s(self) -> float:
        return sum(process_cpu_s(pid) for pid in self.pids)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.log.close()
        os.unlink(self.log.name)
        shutil.rmtree(self.dir, ignore_errors=True)


def request_for(state: State, iterations: int, seed: int) -> spb.GetBestMoveRequest:
    return spb.GetBestMoveRequest(state=pb.StateInput(text=state.to_text()), seed=seed,
                                  options=pb.SearchOptions(rollout="heuristic", cutoff=30),
                                  limits=pb.SearchLimits(iterations=iterations, threads=1))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def measure_overhead(server: "ServerProcess", states: list[State], iterations: int, samples: int) -> dict:
    """Pairs each request's RPC latency with the in-process search time of the same request; and the
    server's CPU (its process's user + system time, over all its threads) per health check
    (`bare_call_cpu_ms`) and per GetBestMove beyond the CPU of the same search run here
    (`server_overhead_cpu_ms`, the search being deterministic: the same iterations): CPU figures hold on a
    busy machine where wall-clock latencies do not.

    The in-process searches run first, then the RPCs back to back. (Interleaving them leaves the server
    idle for a whole search before each call, and on a shared machine the wake-up of its threads then
    costs more than the service itself; that figure is reported too, as overhead_interleaved_p50_ms.)"""
    caps = ServiceConfig().caps()
    reqs = [request_for(states[i % len(states)], iterations, 1000 + i) for i in range(samples)]
    local_ms, moves = [], []
    local_cpu_s = 0.0          # the searches' own CPU: the same searches, run here
    for i, req in enumerate(reqs):
        opts, _ = search_options(req, caps)
        t0, c0 = time.perf_counter(), time.thread_time()
        local = ismcts(SPELLBOOK, states[i % len(states)], opts)
        local_ms.append((time.perf_counter() - t0) * 1000)
        local_cpu_s += time.thread_time() - c0
        moves.append(str(local.move))
    rpc_ms, server_over, interleaved = [], [], []
    with grpc.insecure_channel(server.address) as ch:
        stub = service_pb2_grpc.SpellBookServiceStub(ch)
        health = health_pb2_grpc.HealthStub(ch)
        for i in range(5):  # warm up the channel and the server
            stub.GetBestMove(reqs[i % len(reqs)], timeout=30)
            health.Check(health_pb2.HealthCheckRequest(), timeout=10)
        bare_ms = []
        cpu0 = server.cpu_s()
        for _ in range(samples):
            t0 = time.perf_counter()
            health.Check(health_pb2.HealthCheckRequest(), timeout=10)
            bare_ms.append((time.perf_counter() - t0) * 1000)
        cpu1 = server.cpu_s()
        for i, req in enumerate(reqs):
            t0 = time.perf_counter()
            resp = stub.GetBestMove(req, timeout=30)
            rpc_ms.append((time.perf_counter() - t0) * 1000)
            assert resp.move.text == moves[i], "same request, different move over RPC"
            server_over.append(rpc_ms[-1] - resp.stats.elapsed_ms)
        cpu2 = server.cpu_s()
        for i, req in enumerate(reqs[: max(samples // 3, 1)]):
            opts, _ = search_options(req, caps)
            t0 = time.perf_counter()
            ismcts(SPELLBOOK, states[i % len(states)], opts)
            t1 = time.perf_counter()
            stub.GetBestMove(req, timeout=30)
            interleaved.append((time.perf_counter() - t1) * 1000 - (t1 - t0) * 1000)
    over = [r - l for r, l in zip(rpc_ms, local_ms)]
    # the searches' own CPU as the server measured it (its log's search_cpu_ms; after the 5 warm-up calls),
    # and how many of the calls ran inline on its event loop (server/fairshare.py)
    entries = [e for e in server.log_entries() if e.get("method") == "GetBestMove"][5:5 + samples]
    logged = [e["search_cpu_ms"] for e in entries]
    server_search_ms = sum(logged) if len(logged) == samples else 1000 * local_cpu_s
    return {"bare_call_cpu_ms": 1000 * (cpu1 - cpu0) / samples,
            "server_overhead_cpu_ms": (1000 * (cpu2 - cpu1) - server_search_ms) / samples,
            "search_cpu_ms": server_search_ms / samples, "search_cpu_ms_here": 1000 * local_cpu_s / samples,
            "overhead_inline_calls": sum(1 for e in entries if e.get("inline")),
            "overhead_p50_ms": statistics.median(over), "overhead_p99_ms": pct(over, 0.99),
            "serving_overhead_p50_ms": statistics.median(server_over),
            "overhead_interleaved_p50_ms": statistics.median(interleaved),
            "rpc_p50_ms": statistics.median(rpc_ms), "search_p50_ms": statistics.median(local_ms),
            "bare_call_p50_ms": statistics.median(bare_ms), "overhead_samples": samples}


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def load(address: str, states: list[State], iterations: int, clients: int, duration: float,
               server: "ServerProcess", connections: int = 1) -> dict:
    """N clients for `duration` s. Also the CPU each request cost: in the server process (search
    included) and in this client process; with both on the same cores, 2 workers can at best reach
    (cores x 1000 / (server + client CPU ms per request)) requests/s."""
    latencies: list[float] = []
    errors: dict[str, int] = {}
    stop_at = time.perf_counter() + duration
    # Separate connections (a local subchannel pool each), so SO_REUSEPORT can spread them over processes.
    channels = [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(connections)]
    try:
        stubs = [service_pb2_grpc.SpellBookServiceStub(ch) for ch in channels]
        for stub in stubs:
            await stub.GetServerInfo(spb.GetServerInfoRequest(), timeout=10)

        async def one_client(c: int):
            stub = stubs[c % len(stubs)]
            i = 0
            while time.perf_counter() < stop_at:
                req = request_for(states[(c + i) % len(states)], iterations, c * 100_000 + i)
                t0 = time.perf_counter()
                try:
                    await stub.GetBestMove(req, timeout=30)
                    latencies.append((time.perf_counter() - t0) * 1000)
                except grpc.RpcError as e:
                    errors[e.code().name] = errors.get(e.code().name, 0) + 1
                i += 1

        t0 = time.perf_counter()
        cpu0, server0 = time.process_time(), server.cpu_s()
        await asyncio.gather(*[one_client(c) for c in range(clients)])
        elapsed = time.perf_counter() - t0
        client_cpu, server_cpu = time.process_time() - cpu0, server.cpu_s() - server0
    finally:
        for ch in channels:
            await ch.close()
    n = max(len(latencies), 1)
    return {"requests": len(latencies), "throughput_rps": len(latencies) / elapsed, "p50_ms": pct(latencies, 0.5),
            "p99_ms": pct(latencies, 0.99), "errors": sum(errors.values()), "error_codes": errors,
            "server_cpu_ms_per_request": 1000 * server_cpu / n, "client_cpu_ms_per_request": 1000 * client_cpu / n}


def parallel_capacity(states: list[State], iterations: int, seconds: float = 1.0) -> float:
    """Control for the worker comparison: in-process search rate on 2 threads / on 1 thread right now.
    On a shared machine whose second core is busy this is near 1, and so is any server's speedup."""
    from concurrent.futures import ThreadPoolExecutor

    caps = ServiceConfig().caps()
    opts, _ = search_options(request_for(states[0], iterations, 0), caps)

    def run(_):
        n, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            ismcts(SPELLBOOK, states[n % len(states)], opts)
            n += 1
        return n

    one = run(0)
    with ThreadPoolExecutor(2) as pool:
        two = sum(pool.map(run, range(2)))
    return two / max(one, 1)


def load_phase(states: list[State], iterations: int, worker_counts: list[int], clients: int,
               duration: float) -> dict:
    """The load test at one search budget for each worker count: throughput, latency, errors, CPU per
    request, the w_top / w1 speedup, and the speedup the cores allow with the load generator on them."""
    figures: dict = {"errors": 0}
    by_workers = {}
    for w in worker_counts:
        server = ServerProcess(workers=w, queue_size=clients)
        try:
            r = asyncio.run(load(server.address, states, iterations, clients, duration, server))
        finally:
            server.stop()
        by_workers[w] = r
        figures["errors"] += r["errors"]
        print(f"{iterations} iterations, workers {w}: {r['throughput_rps']:.1f} req/s, p50 {r['p50_ms']:.2f} ms, "
              f"p99 {r['p99_ms']:.2f} ms, errors {r['errors']} {r['error_codes'] or ''}; CPU per request: server "
              f"{r['server_cpu_ms_per_request']:.2f} ms, client {r['client_cpu_ms_per_request']:.2f} ms")
    for w, r in by_workers.items():
        figures[f"throughput_rps_w{w}"] = round(r["throughput_rps"], 2)
        figures[f"p50_ms_w{w}"] = round(r["p50_ms"], 3)
        figures[f"p99_ms_w{w}"] = round(r["p99_ms"], 3)
        figures[f"server_cpu_ms_per_request_w{w}"] = round(r["server_cpu_ms_per_request"], 3)
        figures[f"client_cpu_ms_per_request_w{w}"] = round(r["client_cpu_ms_per_request"], 3)
    if 1 in by_workers and len(by_workers) > 1:
        top = max(by_workers)
        figures[f"speedup_w{top}_vs_w1"] = round(by_workers[top]["throughput_rps"] / by_workers[1]["throughput_rps"], 3)
        # What the cores allow at the top worker count: all server and client CPU of a request on
        # os.cpu_count() cores, against what one worker did.
        r = by_workers[top]
        bound = (os.cpu_count() or 1) * 1000 / (r["server_cpu_ms_per_request"] + r["client_cpu_ms_per_request"])
        figures["cpu_bound_rps"] = round(bound, 1)
        figures["cpu_bound_speedup"] = round(bound / by_workers[1]["throughput_rps"], 3)
        print(f"{iterations} iterations: {top} workers / 1 = {figures[f'speedup_w{top}_vs_w1']:.2f}x; the CPU of both "
              f"processes on these cores allows {bound:.0f} req/s = {figures['cpu_bound_speedup']:.2f}x")
    return figures


def process_phase(states: list[State], iterations: int, processes: int, clients: int, duration: float) -> dict:
    """`serve --processes 1` against `--processes N` (1 worker each), one connection per client."""
    runs = {}
    for n in (1, processes):
        server = ServerProcess(workers=1, queue_size=clients, processes=n)
        try:
            runs[n] = asyncio.run(load(server.address, states, iterations, clients, duration, server,
                                       connections=clients))
        finally:
            server.stop()
        r = runs[n]
        print(f"{iterations} iterations, {n} process(es) x 1 worker: {r['throughput_rps']:.1f} req/s, p50 "
              f"{r['p50_ms']:.2f} ms, errors {r['errors']}; CPU per request: servers "
              f"{r['server_cpu_ms_per_request']:.2f} ms, client {r['client_cpu_ms_per_request']:.2f} ms")
    figures = {"errors": sum(r["errors"] for r in runs.values()), "processes": processes,
               "process_scaling": round(runs[processes]["throughput_rps"] / runs[1]["throughput_rps"], 3)}
    for n, r in runs.items():
        figures[f"throughput_rps_p{n}"] = round(r["throughput_rps"], 2)
        figures[f"p50_ms_p{n}"] = round(r["p50_ms"], 3)
        figures[f"server_cpu_ms_per_request_p{n}"] = round(r["server_cpu_ms_per_request"], 3)
        figures[f"client_cpu_ms_per_request_p{n}"] = round(r["client_cpu_ms_per_request"], 3)
    r = runs[processes]
    bound = (os.cpu_count() or 1) * 1000 / (r["server_cpu_ms_per_request"] + r["client_cpu_ms_per_request"])
    figures["process_cpu_bound_scaling"] = round(bound / runs[1]["throughput_rps"], 3)
    print(f"process_scaling {figures['process_scaling']:.2f}x ({processes} processes / 1); the CPU of servers and "
          f"load generator on these cores allows {figures['process_cpu_bound_scaling']:.2f}x")
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--duration", type=float, default=5.0, help="seconds of load per worker count")
    p.add_argument("--iterations", type=int, default=300, help="GetBestMove budget (fixed, 1 thread)")
    p.add_argument("--scaling-iterations", type=int, default=1000,
                   help="a second load test at this budget (0: none): the worker speedup where the search, "
                        "not the per-call CPU of server and load generator, dominates")
    p.add_argument("--workers", default="1,2", help="worker counts to compare")
    p.add_argument("--overhead-samples", type=int, default=200)
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--processes", type=int, default=2, help="process count compared with 1 (0: skip that step)")
    p.add_argument("--skip-workers", action="store_true", help="skip the worker-count load steps (2 and 3)")
    a = p.parse_args(argv)
    if not (1 <= a.clients <= 256 and 0 < a.duration <= 120 and 1 <= a.overhead_samples <= 10_000):
        p.error("clients 1..256, duration 0..120 s, overhead samples 1..10000")
    states = positions(a.positions)
    worker_counts = [int(w) for w in a.workers.split(",")]
    figures: dict = {"clients": a.clients, "duration_s": a.duration, "iterations": a.iterations,
                     "cpus": os.cpu_count()}
    server = ServerProcess(workers=1, queue_size=a.clients)
    try:
        figures.update(measure_overhead(server, states, a.iterations, a.overhead_samples))
    finally:
        server.stop()
    print(f"overhead: p50 {figures['overhead_p50_ms']:.3f} ms (RPC {figures['rpc_p50_ms']:.3f} ms - in-process "
          f"search {figures['search_p50_ms']:.3f} ms); serving overhead p50 {figures['serving_overhead_p50_ms']:.3f} ms; "
          f"a bare gRPC call p50 {figures['bare_call_p50_ms']:.3f} ms; server CPU: per bare call "
          f"{figures['bare_call_cpu_ms']:.3f} ms, per GetBestMove beyond its search {figures['server_overhead_cpu_ms']:.3f} ms "
          f"({figures['overhead_inline_calls']} of {a.overhead_samples} searches inline)")
    total_errors = 0
    budgets = [] if a.skip_workers else \
        [(a.iterations, "")] + ([(a.scaling_iterations, "_scaling")] if a.scaling_iterations else [])
    for budget, suffix in budgets:
        phase = load_phase(states, budget, worker_counts, a.clients, a.duration)
        total_errors += phase.pop("errors")
        figures.update({k + suffix: v for k, v in phase.items()})
    if a.scaling_iterations and budgets:
        figures["scaling_iterations"] = a.scaling_iterations
    if a.processes > 1:
        phase = process_phase(states, a.iterations, a.processes, a.clients, a.duration)
        total_errors += phase.pop("errors")
        figures.update(phase)
    figures["machine_parallel_speedup"] = round(parallel_capacity(states, a.iterations), 3)
    print(f"control: in-process search on 2 threads vs 1 right now: {figures['machine_parallel_speedup']:.2f}x")
    figures["errors"] = total_errors
    for key in ("overhead_p50_ms", "overhead_p99_ms", "serving_overhead_p50_ms", "overhead_interleaved_p50_ms",
                "rpc_p50_ms", "search_p50_ms", "bare_call_p50_ms", "bare_call_cpu_ms", "server_overhead_cpu_ms",
                "search_cpu_ms", "search_cpu_ms_here"):
        figures[key] = round(figures[key], 3)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
