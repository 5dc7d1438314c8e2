"""Hints a player can trust (issue 42, the hint half of its bench): one JSON line per game.

    nice .venv/bin/python bench/coach.py [--positions 200] [--port 50080] [--budget-s 240] [--games spellbook,abracadawhat]

Every game with reasons (engine_c/NAME/reasons.py) unless `--games` names some. Positions: every third decision
with at least two legal moves of level-10 self-play games on fixed seeds (every player count the game allows
in turn, the game's varied setup: SpellBook's spells drawn for each deal), the first `--positions` of them. A
server started here (`python -m server.main` on 127.0.0.1:--port, its defaults) answers one GetHints per
position as the page calls it (games.v1, for every game): `top_k 3, limits.iterations 1500` (the page's hint
budget) and a seed, at the server's default level. Positions are asked one after another (no other load); a
game stops early after `--budget-s` seconds of hints and says how many ran.

Keys:
  hint_p50_ms, hint_p95_ms   wall time of GetHints seen by the client (connection open, queue included)
  about_equal_share          first hints marked about equal (to the next family)
  about_equal_same_family    first hints about equal where the second hint is a form of the same decision
                             (the game adapter's move_family, computed here from the answer's moves): must be 0
  contradictions             hint lists where search/hints.py `contradictions` finds something (ranks, labels,
                             a lower rank showing more without a note saying why), rebuilt from the answer
  reason_claims, reason_false_claims
                             every reason of every hint (and its veiled form) checked by the game's
                             reasons.audit against the engine, the move measured against the same best other
                             family the server used
  reason_names_move          level-2 texts (hint 1's veiled_reasons) that name or restate the move
                             (reasons.names_move): must be 0
  families_per_position, variants_shown, iterations_p50
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402

from engine_c.registry import all_games, get_game  # noqa: E402
from search import ismcts  # noqa: E402
from search.levels import level_options  # noqa: E402

PAGE_HINT_ITERATIONS = 1500          # server/static/app.js hintIterations


def positions(game: str, count: int, seed: int = 0) -> list:
    """The first `count` positions of level-10 self-play games of `game` (the module docstring)."""
    g = get_game(game)
    ad = g.adapter
    counts = range(g.min_players, g.max_players + 1)
    out, n = [], 0
    while len(out) < count:
        st = g.record.new(counts[n % len(counts)], g.varied_setup, seed * 1000 + n)
        k = 0
        while not st.is_terminal() and len(out) < count:
            if st.is_chance():
                st.apply(st.sample_chance())
                continue
            legal = st.legal_moves()
            if len(legal) > 1:
                if k % 3 == n % 3:
                    out.append(st.clone())
                k += 1
            opts = level_options(10, seed * 1000 + n * 7919 + k, game=ad)
            st.apply(ismcts(ad, st, opts).move if len(legal) > 1 else legal[0])
        n += 1
    return out


class Server:
    """`python -m server.main` on 127.0.0.1:port with the server's defaults; logs to a temporary file."""

    def __init__(self, port: int):
        self.address = f"127.0.0.1:{port}"
        self.log = tempfile.NamedTemporaryFile("w+", prefix="coach_", suffix=".jsonl", delete=False)
        self.proc = subprocess.Popen([sys.executable, "-m", "server.main", "--address", self.address, "--db", ":memory:"],
                                     cwd=ROOT, stderr=self.log, stdout=subprocess.DEVNULL,
                                     env=dict(os.environ, PYTHONPATH=str(ROOT)))
        channel = grpc.insecure_channel(self.address)
        try:
            grpc.channel_ready_future(channel).result(timeout=90)
        except grpc.FutureTimeoutError:
            tail = Path(self.log.name).read_text()[-2000:]
            self.stop()
            raise RuntimeError(f"the server did not start on {self.address}: {tail}") from None
        finally:
            channel.close()

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


def _reasons(pb_reasons, cls):
    return [cls(kind=r.kind, value=r.value, items=tuple(r.items), text=r.text, aspect=r.aspect) for r in pb_reasons]


def _hints_of(answer, state, game: str):
    """search.hints.Hint objects rebuilt from an answer, for `contradictions` (families by the adapter)."""
    from search.hints import Hint

    adapter = get_game(game).adapter
    out = []
    names = {1: "best", 2: "good", 3: "inaccuracy", 4: "mistake", 5: "blunder"}
    for h in answer.hints:
        move = state.parse_move(h.move.text)
        out.append(Hint(move=move, rank=h.rank, win_probability=h.win_probability, expected_score=h.expected_score,
                        loss=h.loss, loss_margin=h.loss_margin, loss_points=getattr(h, "loss_points", 0.0),
                        mistake_class=names.get(h.mistake_class, "good"), visits=h.visits, stats=None,
                        about_equal=h.about_equal, note=h.note, family=adapter.move_family(state, move)))
    return out


def run_game(game: str, positions: list, address: str, budget_s: float) -> dict:
    from search.hints import contradictions
    from server._gen.games.v1 import games_pb2 as svc, games_pb2_grpc as stubs, types_pb2 as types

    R = get_game(game).reasons
    stub_cls = stubs.GameServiceStub
    adapter = get_game(game).adapter
    channel = grpc.insecure_channel(address)
    stub = stub_cls(channel)
    times, iters, first_equal, same_family, contra = [], [], 0, 0, 0
    claims, false_claims, named, families, variants, contra_examples = 0, [], [], [], 0, []
    start = time.monotonic()
    for i, st in enumerate(positions):
        if time.monotonic() - start > budget_s:
            break
        req = svc.GetHintsRequest(game=game, state=types.StateInput(text=st.to_text()), top_k=3, seed=i,
                                  limits=types.SearchLimits(iterations=PAGE_HINT_ITERATIONS))
        t0 = time.perf_counter()
        answer = stub.GetHints(req, timeout=60)
        times.append((time.perf_counter() - t0) * 1000)
        iters.append(answer.stats.iterations)
        hints = answer.hints
        families.append(len({adapter.move_family(st, m) for m in st.legal_moves()}))
        variants += sum(len(h.variants) for h in hints)
        if hints and hints[0].about_equal:
            first_equal += 1
            if len(hints) > 1 and adapter.move_family(st, st.parse_move(hints[0].move.text)) == \
                    adapter.move_family(st, st.parse_move(hints[1].move.text)):
                same_family += 1
        found = contradictions(_hints_of(answer, st, game))
        if found:
            contra += 1
            contra_examples.append(found[0])
        for h in hints:
            move = st.parse_move(h.move.text)
            versus = (st.parse_move(hints[1].move.text) if len(hints) > 1 else None) if h.rank == 1 \
                else st.parse_move(hints[0].move.text)
            for group in (h.reasons, h.veiled_reasons):
                found = _reasons(group, R.Reason)
                claims += len(found)
                false_claims += R.audit(st, move, found, versus=versus)
            if h.rank == 1:
                named += R.names_move(st, move, _reasons(h.veiled_reasons, R.Reason))
    channel.close()
    n = len(times)
    q = statistics.quantiles(times, n=20) if n >= 2 else times * 19
    return {"game": game, "positions": n, "positions_asked": len(positions),
            "hint_p50_ms": round(statistics.median(times), 1), "hint_p95_ms": round(q[18], 1),
            "hint_max_ms": round(max(times), 1),
            "about_equal_share": round(first_equal / n, 3), "about_equal_same_family": same_family,
            "contradictions": contra, "reason_claims": claims, "reason_false_claims": len(false_claims),
            "reason_names_move": len(named), "families_per_position": round(statistics.mean(families), 2),
            "variants_shown": variants, "iterations_p50": statistics.median(iters),
            "false_claim_examples": false_claims[:3], "names_move_examples": named[:3],
            "contradiction_examples": contra_examples[:3]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--port", type=int, default=50080)
    ap.add_argument("--budget-s", type=float, default=240.0, help="seconds of hints per game at most")
    ap.add_argument("--games", default="", help="comma-separated (default: every game with reasons)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    games = [get_game(g).name for g in a.games.split(",") if g] or [g.name for g in all_games() if g.reasons]
    t0 = time.monotonic()
    found = {g: positions(g, a.positions, a.seed) for g in games}
    setup_s = time.monotonic() - t0
    server = Server(a.port)
    try:
        for g in games:
            row = run_game(g, found[g], server.address, a.budget_s)
            row.update(positions_setup_s=round(setup_s, 1), load=os.getloadavg()[0], cpus=os.cpu_count(),
                       seed=a.seed)
            print(json.dumps(row), flush=True)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
