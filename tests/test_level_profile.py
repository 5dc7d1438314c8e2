"""bench/level_profile.py: the mistake profile of each level, reviewed on its ladder games and cached."""
import json

from clients.cli import main as cli_main
from bench.level_profile import main as profile_main


def test_a_game_the_ladder_replayed_for_a_changed_level_is_reviewed_again(tmp_path, capsys):
    """The cache keys a review by the game's key, seat and what the level searched with (D231-f): after
    `spellbook-ai ladder --replay-changed` a game has the same key but other moves, and its old review must
    not stand for it; an unchanged game is not reviewed twice."""
    ladder = tmp_path / "ladder.json"
    assert cli_main(["ladder", "--levels", "1", "--games", "2", "--out", str(ladder), "--no-progress"]) == 0
    argv = ["--ladder", str(ladder), "--levels", "1", "--games", "1", "--iterations", "20",
            "--out", str(tmp_path / "profile.json")]
    cache = tmp_path / "profile.jsonl"
    assert profile_main(argv) == 0 and len(cache.read_text().splitlines()) == 1
    assert profile_main(argv) == 0 and len(cache.read_text().splitlines()) == 1     # cached
    rows = [json.loads(line) for line in cache.read_text().splitlines()]
    assert rows[0]["evaluation"].startswith("g")                                   # the model's version in front
    results = tmp_path / "ladder.jsonl"
    games = [json.loads(line) for line in results.read_text().splitlines()]
    for g in games:
        g["tournament"]["evaluation"]["ismcts:level=1"] = "g0-00000000 level-00000000"
    results.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert profile_main(argv) == 0
    rows = [json.loads(line) for line in cache.read_text().splitlines()]
    assert [r["evaluation"] for r in rows][1] == "g0-00000000 level-00000000" and len(rows) == 2
    assert json.loads((tmp_path / "profile.json").read_text())["levels"][0]["games"] == 1
    capsys.readouterr()
