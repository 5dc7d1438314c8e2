"""Paired, interleaved blocks of grpc_load's CPU figures for two or more checkouts of the server, in one run.

    python bench/overhead_pairs.py --root old=/path/to/checkout --root new=. [--rounds 8] [--block 100]
                                   [--iterations 300]

On a busy machine two runs of bench/grpc_load.py an hour apart do not compare: the CPU other processes
take (and leave in the caches) moves the figures more than a change of ours. This starts one server per
checkout (`python -m server.main` run from that checkout's directory, 1 worker, 127.0.0.1, as grpc_load's
overhead step does) and, in each round, runs on every server in turn (the order alternates from round to
round) a block of health checks and a block of GetBestMove calls (the same requests on every server; their
moves must agree). Per block, as grpc_load measures them: `bare_call_cpu_ms`, the server's CPU per health
check, and `server_overhead_cpu_ms`, its CPU per GetBestMove less the CPU its searches logged
(`search_cpu_ms`); the server's CPU is read from its threads' scheduler statistics (ns), not grpc_load's
10 ms ticks. The last line is one JSON object: per checkout the median and range of both over the
rounds and of their ratio, and per round the difference of each checkout's overhead from the first's.
Bounded: at most --rounds rounds, and it stops early after --max-seconds.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

from bench.grpc_load import ServerProcess, positions, request_for  # noqa: E402
from server._gen.spellbook.v1 import service_pb2_grpc  # noqa: E402


def cpu_s(server: ServerProcess) -> float:
    """The server's CPU seconds so far, from each thread's scheduler statistics (nanoseconds): /proc's
    utime + stime tick in 10 ms, which over a block of 100 calls is 0.1 ms a call. The server's threads are
    long-lived (its pools'), so the sum over the live threads is its CPU; `threads` counts them, to check."""
    total = 0
    for pid in server.pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                pass
    return total / 1e9


def block(server: ServerProcess, channel, reqs, block_size: int, bare_size: int) -> tuple[float, float, list[str], float]:
    """(bare_call_cpu_ms, server_overhead_cpu_ms, moves, the searches' CPU per call) of one block on `server`."""
    stub = service_pb2_grpc.SpellBookServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    before = len([e for e in server.log_entries() if e.get("method") == "GetBestMove"])
    cpu0 = cpu_s(server)
    for _ in range(bare_size):
        health.Check(health_pb2.HealthCheckRequest(), timeout=10)
    cpu1 = cpu_s(server)
    moves = []
    for i in range(block_size):
        moves.append(stub.GetBestMove(reqs[i % len(reqs)], timeout=30).move.text)
    cpu2 = cpu_s(server)
    # the log line of a call is written on the loop's next turn: wait until the block's are all there
    for _ in range(100):
        entries = [e for e in server.log_entries() if e.get("method") == "GetBestMove"][before:]
        if len(entries) >= block_size:
            break
        time.sleep(0.02)
    search_ms = sum(e["search_cpu_ms"] for e in entries[:block_size])
    return 1000 * (cpu1 - cpu0) / bare_size, (1000 * (cpu2 - cpu1) - search_ms) / block_size, moves, \
        search_ms / block_size


def summary(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", action="append", required=True, help="NAME=PATH of a checkout (twice or more)")
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--block", type=int, default=100, help="GetBestMove calls per block")
    p.add_argument("--bare-block", type=int, default=400, help="health checks per block")
    p.add_argument("--iterations", type=int, default=300)
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--max-seconds", type=float, default=600.0)
    p.add_argument("--flags", default="", help="extra server flags, space-separated (every server)")
    p.add_argument("--stand-ins", action="store_true",
                   help="some checkouts are stand-ins (e.g. a GetBestMove that answers at once): skip the check "
                        "that every server answers the same moves")
    p.add_argument("--root-flags", action="append", default=[],
                   help="NAME=FLAGS: extra server flags of one checkout (an ablation: e.g. the same checkout twice, "
                        "once with --inline-ms 0)")
    a = p.parse_args(argv)
    if not (1 <= a.rounds <= 100 and 1 <= a.block <= 2000 and 1 <= a.bare_block <= 10_000):
        p.error("rounds 1..100, block 1..2000, bare block 1..10000")
    roots = [r.split("=", 1) for r in a.root]
    states = positions(a.positions)
    reqs = [request_for(states[i % len(states)], a.iterations, 1000 + i) for i in range(a.block)]
    servers: dict[str, ServerProcess] = {}
    channels = {}
    figures: dict = {name: {"bare": [], "over": [], "search": []} for name, _ in roots}
    try:
        extra = tuple(a.flags.split()) if a.flags else ()
        own = {n: tuple(f.split()) for n, f in (r.split("=", 1) for r in a.root_flags)}
        for name, path in roots:
            servers[name] = ServerProcess(workers=1, queue_size=16, root=Path(path).resolve(),
                                          flags=("--per-client-searches", "17", "--per-host-searches", "17", *extra,
                                                 *own.get(name, ())))
            channels[name] = grpc.insecure_channel(servers[name].address)
            stub = service_pb2_grpc.SpellBookServiceStub(channels[name])
            for i in range(5):      # warm up the channel, the server and its cost estimate (inline)
                stub.GetBestMove(reqs[i], timeout=30)
        start = time.monotonic()
        for r in range(a.rounds):
            if time.monotonic() - start > a.max_seconds:
                break
            order = roots if r % 2 == 0 else roots[::-1]
            moves = {}
            for name, _ in order:
                bare, over, moves[name], search = block(servers[name], channels[name], reqs, a.block, a.bare_block)
                figures[name]["search"].append(search)
                figures[name]["bare"].append(bare)
                figures[name]["over"].append(over)
            first = moves[roots[0][0]]
            assert a.stand_ins or all(m == first for m in moves.values()), \
                "the checkouts' servers answered different moves"
            print(f"round {r + 1}: " + "; ".join(
                f"{n} over {figures[n]['over'][-1]:.3f} bare {figures[n]['bare'][-1]:.3f}" for n, _ in roots),
                flush=True)
    finally:
        for ch in channels.values():
            ch.close()
        for s in servers.values():
            s.stop()
    out: dict = {"rounds": len(figures[roots[0][0]]["over"]), "block": a.block, "bare_block": a.bare_block,
                 "iterations": a.iterations}
    base = roots[0][0]
    for name, _ in roots:
        f = figures[name]
        out[name] = {"server_overhead_cpu_ms": summary(f["over"]), "bare_call_cpu_ms": summary(f["bare"]),
                     "search_cpu_ms": summary(f["search"]),
                     "ratio": summary([o / b for o, b in zip(f["over"], f["bare"]) if b > 0] or [float("nan")])}
        if name != base:
            out[name]["overhead_minus_" + base] = summary([x - y for x, y in zip(f["over"], figures[base]["over"])])
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
