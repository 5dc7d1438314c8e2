"""The generic terminal (clients/play_generic.py): a game without a terminal of its own is played through the
game contract alone, driven here from scripts of input lines with the Spellbook TCG and Abracada…What? stood
in for such a game (their own terminals set aside for the test)."""
import dataclasses
import io
import json
import types

import pytest

from clients import play_generic as PG
from clients.cli import main as cli_main
from engine_c import records
from engine_c.registry import _cache, get_game


def without_terminal(monkeypatch, name: str):
    """The registry's game `name` as a game whose folder brings no terminal (D64's module path leads nowhere)."""
    game = dataclasses.replace(get_game(name), terminal="clients.play_not_written_yet")
    monkeypatch.setitem(_cache, name, game)
    assert game.layer("terminal") is None
    return game


class FirstMoveUntilTheEnd(io.StringIO):
    """Input that plays the first listed move while the game runs, then gives `answers` (review, save)."""

    def __init__(self, sess, answers: list[str]):
        super().__init__()
        self.sess, self.answers = sess, list(answers)

    def readline(self):
        if not self.sess.over:
            return "1\n"
        return self.answers.pop(0) + "\n" if self.answers else ""


def play(monkeypatch, capsys, argv: list[str], lines: list[str]) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = cli_main(["play", *argv])
    return code, capsys.readouterr().out


def test_play_falls_back_to_the_generic_terminal_with_numbered_moves_in_the_games_words(monkeypatch, capsys):
    game = without_terminal(monkeypatch, "spellbooktcg")
    first = game.State.new(seed=3).legal_moves()
    code, out = play(monkeypatch, capsys, ["--game", "spellbooktcg", "--bots", "ismcts:level=1", "--seed", "3",
                                           "--hint-iterations", "40"],
                     ["hint", "99", "cast nothing", "rules", "1", "quit"])
    assert code == 0 and out.startswith("Spellbook TCG: 2 players; you are seat 0 (you play first).")
    words = game.text.move_words(str(first[0]))
    assert f"   1. {words}   [{first[0]}]" in out                   # the game's words, then the move's text
    assert "Hint 1 (`hint` again: the search's move)" in out
    assert "Choose a move from 1 to" in out and "Not a move:" in out
    assert "steps:" in out                                          # the rules: the game's player_help()
    assert "you: put " in out                                       # the move as the table saw it (event_lines)
    assert out.rstrip().endswith("Bye.")


def test_a_whole_game_ends_with_the_winners_and_replays_from_its_record(monkeypatch, tmp_path):
    game = without_terminal(monkeypatch, "abracadawhat")
    sess = PG.GenericSession.new(game, ["random"], human_seat=1, seed=5)
    out = io.StringIO()
    saved = tmp_path / "game.json"
    client = PG.GenericPlayClient(sess, FirstMoveUntilTheEnd(sess, ["n", "y", str(saved)]), out, prompt=False)
    assert client.run() == 0
    text = out.getvalue()
    assert sess.state.is_terminal() and "The game is over: winner" in text
    rec = json.loads(saved.read_text())
    final, _steps = records.replay(rec)
    assert rec["game"] == "abracadawhat" and rec["status"] == "finished" and final == sess.state


def test_a_game_with_no_words_of_its_own_shows_the_seat_what_the_record_lets_it_see(monkeypatch):
    """The contract's defaults: without `view`, `move_words` and `event_lines`, the terminal shows the seat's
    observation, moves by their text and the chance outcomes the record module lets the seat see; the
    others are said to be hidden (Abracada…What?: a seat never sees its own stones)."""
    aw = get_game("abracadawhat")
    bare_text = types.SimpleNamespace(**{k: v for k, v in vars(aw.text).items()
                                         if k not in ("view", "move_words", "event_lines")})
    game = dataclasses.replace(aw, text=bare_text, terminal="clients.play_not_written_yet")
    sess = PG.GenericSession.new(game, ["random"], human_seat=0, seed=2)
    out = io.StringIO()
    PG.GenericPlayClient(sess, io.StringIO("1\n" * 6 + "quit\n"), out, prompt=False).run()
    text = out.getvalue()
    assert f"  observation: {sess.state.observation(0)}\nYour moves:\n   1. {sess.state.legal_moves()[0]}\n" in text
    dealt = [line for line in text.splitlines() if line.strip().startswith(("deal:", "refill:"))]
    own = [line for line in dealt if line.endswith("(to seat 0)")]
    other = [line for line in dealt if line.endswith("(to seat 1)")]
    assert own and other and all("(hidden from you)" in line for line in own)
    assert not any("(hidden from you)" in line for line in other)


def test_save_and_load_continue_the_same_game(monkeypatch, capsys, tmp_path):
    without_terminal(monkeypatch, "spellbooktcg")
    saved = tmp_path / "half.json"
    code, _ = play(monkeypatch, capsys, ["--game", "spellbooktcg", "--bots", "random", "--seed", "4"],
                   ["1", "1", f"save {saved}", "quit"])
    assert code == 0
    before = records.replay(json.loads(saved.read_text()))[0]
    code, out = play(monkeypatch, capsys, ["--load", str(saved)], ["board", "quit"])
    assert code == 0 and "Spellbook TCG: 2 players" in out
    assert f"turn: {before.turn}" in out and f"phase: {before.phase}" in out


def test_undo_in_a_practice_game_and_resign(monkeypatch):
    game = without_terminal(monkeypatch, "spellbooktcg")
    sess = PG.GenericSession.new(game, ["random"], seed=6, practice=True)
    start = sess.state.to_text()
    out = io.StringIO()
    code = PG.GenericPlayClient(sess, io.StringIO("1\nundo\nresign\nn\nn\n"), out, prompt=False).run()
    text = out.getvalue()
    assert code == 0 and "Undone: back to your previous decision." in text and "You resign" in text
    assert sess.to_record()["result"]["resigned"] == 0
    assert records.replay(sess.to_record())[0].to_text() == start       # resigned where the undo left it


def test_demo_falls_back_to_the_generic_one(monkeypatch, capsys):
    without_terminal(monkeypatch, "abracadawhat")
    outs = []
    for _ in range(2):
        assert cli_main(["demo", "--game", "abracadawhat", "--seed", "3", "--players", "3"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and outs[0].startswith("Abracada…What? demo: 3 players, seed 3")
    assert "winner" in outs[0].splitlines()[-1]


@pytest.mark.parametrize("argv,message", [
    (["--game", "spellbooktcg", "--bots", "random", "random"], "seats 2 to 2 players, got 3"),
    (["--game", "spellbooktcg", "--seat", "2"], "--seat must be 0 to 1"),
    (["--game", "spellbooktcg", "--server", "127.0.0.1:1"], "leave out --server"),
])
def test_bad_input_exits_2_with_a_message(monkeypatch, capsys, argv, message):
    without_terminal(monkeypatch, "spellbooktcg")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli_main(["play", *argv]) == 2
    assert message in capsys.readouterr().err
