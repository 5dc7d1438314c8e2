"""A fixed-seed PlayMatch whose server is killed (SIGKILL) mid-match and restarted on the same database is
carried on by the bots to the very record the undisturbed match ends with (issue 25): every random choice of
a match (the Pouch's draws, the bots' search seeds) comes from stored state, never from memory.

Run directly for more kill points: `python tests/test_match_resume_process.py 5` (one JSON line).
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clients.client import SpellBookClient  # noqa: E402
from test_service_sessions_process import ServerProcess  # noqa: E402

BOTS = ["ismcts:iterations=40,threads=1", "greedy", "ismcts:iterations=25,threads=1,temperature=0.5"]
SEED = 11
KILL_AFTER = (2, 17, 45, 9, 70)      # moves read from the stream before the kill (the server may be further on)


def _server(db: str) -> ServerProcess:
    # a one-second bot lease: the restarted server takes the killed one's match over after at most that long
    return ServerProcess(db, env={"SPELLBOOK_BOT_LEASE_S": "1"})


def _record(client: SpellBookClient, sid: str, token: str) -> str:
    """The finished session's record as JSON, without its session id (each run has its own)."""
    for _ in client.watch_session(sid, token=token, timeout=120):
        pass
    record = client.export_session(sid, token=token)
    assert record["status"] == "finished", record["status"]
    record.pop("session_id")
    return json.dumps(record, sort_keys=True)


def undisturbed(folder: Path) -> str:
    srv = _server(str(folder / "reference.db"))
    try:
        with SpellBookClient(srv.address(), timeout=120) as client:
            stream = list(client.play_match(BOTS, seed=SEED))
            return _record(client, stream[0].session_id, stream[0].spectator_token)
    finally:
        srv.stop()


def killed_after(folder: Path, moves: int) -> str:
    """The record of the match whose server was SIGKILLed after `moves` streamed moves, then restarted."""
    db = str(folder / f"killed-{moves}.db")
    first = _server(db)
    try:
        with SpellBookClient(first.address(), timeout=120) as client:
            stream = client.play_match(BOTS, seed=SEED)
            head = next(stream)
            sid, token = head.session_id, head.spectator_token
            for _ in range(moves - 1):
                next(stream)
            first.proc.kill()
            first.proc.wait(timeout=10)
    finally:
        first.stop()
    assert first.proc.returncode == -9
    second = _server(db)
    try:
        with SpellBookClient(second.address(), timeout=120) as client:
            return _record(client, sid, token)
    finally:
        second.stop()


def test_a_match_killed_at_three_points_resumes_to_the_same_record(tmp_path):
    reference = undisturbed(tmp_path)
    for moves in KILL_AFTER[:3]:
        assert killed_after(tmp_path, moves) == reference, f"killed after {moves} moves"


if __name__ == "__main__":
    points = int(sys.argv[1]) if len(sys.argv) > 1 else len(KILL_AFTER)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as d:
        ref = undisturbed(Path(d))
        same = [killed_after(Path(d), m) == ref for m in KILL_AFTER[:points]]
    print(json.dumps({"kill_points": list(KILL_AFTER[:points]), "identical": same, "all_identical": all(same),
                      "events": len(json.loads(ref)["events"]), "seconds": round(time.monotonic() - started, 1)}))
    sys.exit(0 if all(same) else 1)
