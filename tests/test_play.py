"""The terminal play client, driven from scripts of input lines (no terminal needed)."""
import io
import json
import re
from types import SimpleNamespace

import pytest

from clients import play as play_cli
from clients import play_spellbook as P
from clients.cli import main as cli_main
from engine_c import State, records
from engine_c.spellbook.text import move_words
from positions import position


class Script(io.StringIO):
    """Scripted input lines, then `then` (e.g. "1": always the first legal move) until the game ends."""

    def __init__(self, lines, then="1", limit=2000):
        super().__init__()
        self.lines, self.then, self.left = list(lines), then, limit

    def readline(self):
        if self.lines:
            return self.lines.pop(0) + "\n"
        self.left -= 1
        return "" if self.then is None or self.left < 0 else self.then + "\n"


def play(lines, then="1", bots=("greedy",), seat=0, seed=3, practice=False, **kw):
    sess = P.GameSession.new(list(bots), seat, seed, "set1", practice)
    out = io.StringIO()
    client = P.SpellBookPlayClient(sess, Script(lines, then), out, hint_iterations=kw.get("hint_iterations", 60),
                          prompt=False)
    code = client.run()
    return client, out.getvalue(), code


SPELL_NOTATION = re.compile(r"\bTimeTravel\b|\b(?:Sacrifice|Eruption|Blaze|Levitation|Sharing|Divination|Purification|Cure|"
                            r"Offering|Feast|Growth|Focus|Storm|Clone|Transmutation)(?:/[cts])? (?:[345]\b|[RPGKWBY][cts]\b)"
                            r"| : |\bswap [RPGKWBY][cts]|: pass$|played pass \(", re.M)
RULE_ID = re.compile(r"\((?:[A-Z]\d{1,2}(?:, )?)+\)|\[R\]|\b[STLPAEC]\d{1,2}\b")


def session_at(state, bots=("greedy",), practice=False, seed=3):
    """A terminal session whose game is at `state` (a tests/positions.py position), the human in seat 0."""
    sess = P.GameSession.new(list(bots), 0, seed, "set1", practice)
    sess.state = state
    return sess


def run(sess, lines, then=None, hint_iterations=60):
    out = io.StringIO()
    client = P.SpellBookPlayClient(sess, Script(lines, then), out, hint_iterations=hint_iterations, prompt=False)
    code = client.run()
    return client, out.getvalue(), code


def test_a_whole_game_from_a_script():
    client, text, code = play(["help", "hint", "hint", "hint", "hint 1", "take Zz", "learn Sacrifice 3 Rc : Rc Rt",
                               "999", "undo", "moves take"])
    assert code == 0 and client.sess.over
    assert "Final score" in text and "Winner" in text and "familiar" in text
    assert "Not a move: 'Zz' is not a token" in text                     # bad input: the reason, then a re-prompt
    assert "Illegal:" in text
    assert "There is no move 999" in text
    assert "undo is for practice games" in text
    # the board shows what a person needs, "you" for the player
    for part in ("Altar (", "Pouch:", "your pool (", "your familiar (", "stored, worth", "spells:", "points so far",
                 "Round 1", "morning", "Your moves:", "you (seat 0)"):
        assert part in text
    assert "player 0" not in text and not RULE_ID.search(text), RULE_ID.search(text)
    # the deal's seed fixes the Pouch order: shown only once the game is over
    assert text.index("seed 3") > text.index("Final score")
    # the final breakdown adds up
    st = client.sess.state
    for sc in st.scores():
        assert sc.total == sum(sc.spells.values()) + sc.familiar + sc.feast + sc.knowledge + sc.communion


def test_the_hint_ladder_nudges_then_explains_then_names_the_move():
    client, text, code = play(["hint", "hint", "hint", "quit"], then=None, hint_iterations=200)
    h1 = text[text.index("Hint 1:"):text.index("Hint 2:")]
    h2 = text[text.index("Hint 2:"):text.index("Hint 3:")]
    h3 = text[text.index("Hint 3:"):]
    best = client.hinter.grown(client.sess.state).result.moves[0].move
    assert "Look at" in h1 and str(best) not in h1
    assert "why the best move is good" in h2 and "  - " in h2 and f"play {best}" not in h2
    # issue 26: the "why" neither names nor restates the move (no token of it, not "draw", "store", "take")
    assert not [w for w in str(best).split() if w in h2.split()], h2
    assert f"Hint 3: play {move_words(str(best))} (move " in h3     # in words (issue 51 item 10), with its number
    assert "your win probability after it:" in h3 and "estimated by simulated play" in h3
    assert "standard deviation" in h3
    assert "of win probability" in h3 or "about equal" in h3 or "no other move was examined closely" in h3
    assert "The search's choice, the moves it cannot tell apart from it, then the others" in h3 and ("clearly ahead" in h3 or "about equal" in h3)
    assert code == 0 and text.rstrip().endswith("Bye.")


def test_quit_exits_0_and_the_cli_too():
    _client, text, code = play(["quit"], then=None)
    assert code == 0 and "Bye." in text
    args = SimpleNamespace(server=None, load=None, seed=2, bots=["random"], seat=0, spells="set1", practice=False,
                           hint_iterations=50)
    assert play_cli.main(args, Script(["quit"], then=None), io.StringIO()) == 0


def test_learn_options_are_grouped_by_spell_then_level_then_payment():
    st = position(spells="set1", active=0, pools={0: "RcRtRsRcBcBtPcPtGc"}, at="evening")
    sess = session_at(st)
    n_learn = sum(P.is_learning(m) for m in st.legal_moves())
    client, text, _ = run(sess, ["learn Sacrifice", "help sacrifice", "learn Sacrifice 5", "quit"])
    board = text[:text.index("> learn Sacrifice")]
    listed = [line for line in board.splitlines() if line.strip().startswith(tuple("0123456789"))]
    assert n_learn > 40 and len(listed) < 6                               # one line per spell, collapsed
    assert re.search(r"\d+-\d+\. learn Sacrifice: level 3 \(\d+ ways\), level 4 \(\d+ ways\)", board)
    expanded = text[text.index("> learn Sacrifice"):text.index("> help sacrifice")]
    assert "level 3 (1 point)" in expanded and "level 4 (2 points)" in expanded     # never "1 pts"
    assert expanded.index("level 3") < expanded.index("level 4")
    numbers = [int(m) for m in re.findall(r"^\s+(\d+)\. learn Sacrifice 4", expanded, flags=re.M)]
    assert numbers and all(str(P.ordered_moves(st)[k - 1]).startswith("learn Sacrifice 4") for k in numbers)
    # help SPELL: its text at each level
    one_level = text[text.index("> learn Sacrifice 5"):]
    assert re.search(r"level 3: \d+ ways \(`learn Sacrifice 3`\)", one_level) and "level 5 (3 points)" in one_level
    assert "learn Sacrifice 3 R" not in one_level
    helped = text[text.index("> help sacrifice"):text.index("> learn Sacrifice 5")]
    for lvl, pts in ((3, 1), (4, 2), (5, 3)):
        assert f"level {lvl} ({pts} point" in helped
    assert "rune c, then draw 4" in helped and "rune c or t" in helped


def test_a_number_plays_the_move_it_lists():
    st = position(spells="set1", active=0, pools={0: "RcRtRsRcBcBtPcPtGc"}, at="evening")
    moves = P.ordered_moves(st)
    k = next(i for i, m in enumerate(moves, 1) if str(m).startswith("learn Sacrifice 4"))
    client, text, _ = run(session_at(st), [str(k), "quit"])
    assert [0, str(moves[k - 1])] in client.sess.moves


def test_an_altar_reset_is_one_line():
    st = position(spells="set1", active=0, altar="RcRtRsPcPtPsGcGtGsKc", pools={0: "Ws"}, at="evening")
    client, text, _ = run(session_at(st), ["pass", "quit"])
    lines = [line for line in text.splitlines() if "Altar resupplied" in line]
    assert len(lines) >= 1 and "it held 10 tokens, so they were discarded and 5 drawn:" in lines[0]
    assert len(lines[0].split(":")[-1].split()) == 5
    assert not any(line.strip().startswith("drawn ") for line in text.splitlines())


def test_the_final_board_and_score_line():
    client, text, code = play([], seed=5)
    final = text[text.index("=== Final board"):]
    assert "points so far" not in final and "bonuses so far" not in final
    # set1 has none of Feast, Knowledge, Communion: no bonus of theirs in the score line
    assert "Feast" not in final and "Knowledge" not in final and "Communion" not in final
    sess = P.GameSession.new(["random"], 0, 2, "set3")
    sess.advance()
    while not sess.over:
        sess.play_human(sess.state.legal_moves()[-1])
        sess.advance()
    line = P.render_final(sess).splitlines()[1]
    assert "Feast bonus" in line and "Communion bonus" in line and "Knowledge" not in line


def test_illegal_moves_speak_to_you_without_rule_ids():
    st = position(spells="set1", active=0, pools={0: "Rc4Rt4"}, altar="Gc")
    _client, text, _ = run(session_at(st), ["take Gs", "store Rc", "Sacrifice Rc", "quit"])
    assert "there is no Gs on the Altar" in text and "now it is your Morning" in text
    assert "you have not learned Sacrifice" in text
    assert not RULE_ID.search(text) and "player 0" not in text


def test_undo_redraws_from_a_new_pouch_order():
    """Practice undo must not let you peek: redoing the same move draws from a reshuffled Pouch."""
    sess = P.GameSession.new(["greedy"], 0, 7, practice=True)
    sess.advance()
    seen_before = sess.state.observation(0)
    sess.play_human(sess.state.parse_move("draw"))
    sess.advance()
    first = [m for m in sess.moves if m[0] == -1]
    sess.undo()
    assert sess.state.observation(0) == seen_before                      # what you know is unchanged
    sess.play_human(sess.state.parse_move("draw"))
    sess.advance()
    again = [m for m in sess.moves if m[0] == -1]
    assert again != first and not sess.rng_in_sync
    # through the terminal: the undo is announced and the board redrawn
    client, text, _ = run(P.GameSession.new(["greedy"], 0, 7, practice=True), ["draw", "undo", "quit"])
    assert "Undone: back to your previous decision." in text


def test_undo_in_a_practice_game():
    sess = P.GameSession.new(["greedy"], 0, 7, practice=True)
    sess.advance()
    before = sess.state.observation(0)
    n = len(sess.moves)
    sess.play_human(sess.state.legal_moves()[1])
    sess.advance()
    sess.play_human(sess.state.legal_moves()[-1])
    sess.undo()
    sess.undo()
    assert sess.state.observation(0) == before and len(sess.moves) == n
    with pytest.raises(ValueError, match="nothing to undo"):
        sess.undo()


def test_save_and_load_replay_exactly(tmp_path):
    path = tmp_path / "game.json"
    client, text, _ = play(["2", "1", "2", f"save {path}", "quit"], then=None, seed=11)
    assert f"Saved to {path}" in text
    saved = client.sess
    rec = json.loads(path.read_text())
    assert rec["format"] == "spellbook-record" and rec["version"] == 2 and rec["status"] == "active"
    assert "seed" not in rec                                # a random deal's seed would reveal the Pouch
    assert [records.seat_name(s) for s in rec["seats"]] == ["human", "greedy"]
    assert [[e["seat"], e["move"]] for e in rec["events"] if e["kind"] != "setup"] == saved.moves
    assert any(e["kind"] == "draw" for e in rec["events"])              # the draws are in the record
    loaded = P.GameSession.load(str(path))
    assert loaded.state.observation(0) == saved.state.observation(0) and loaded.moves == saved.moves
    for _ in range(1000):                       # finished from a record without a seed: still none to show
        if loaded.over:
            break
        loaded.advance()
        if not loaded.over:
            loaded.play_human(loaded.state.legal_moves()[-1])      # the last move is never a pass
    done = loaded.to_record()
    assert "seed" not in done and done["status"] == "finished"
    assert records.replay(done)[0].observation(0) == loaded.state.observation(0)
    # a seed the player chose is kept, and the continued game draws what the original would have
    saved.seed_fixed = True
    saved.save(str(path))
    assert json.loads(path.read_text())["seed"] == 11
    loaded = P.GameSession.load(str(path))
    assert loaded.state.to_text() == saved.state.to_text() and loaded.moves == saved.moves
    # a finished game's record replays to the same final score, and shows its seed
    client, _, _ = play([], seed=12)
    done = P.GameSession.from_record(client.sess.to_record())
    assert done.over and done.state.to_text() == client.sess.state.to_text()
    rec = client.sess.to_record()
    assert rec["seed"] == 12 and rec["result"]["scores"] == [s.total for s in done.state.scores()]


def test_load_command_and_bad_files(tmp_path):
    path = tmp_path / "g.json"
    first, _, _ = play(["1", f"save {path}", "quit"], then=None, seed=4)
    client, text, code = play([f"load {tmp_path / 'missing.json'}", f"load {path}"], seed=99)
    assert "Cannot load" in text and f"Loaded {path}" in text and code == 0
    assert client.sess.moves[:len(first.sess.moves)] == first.sess.moves
    bad = tmp_path / "bad.json"
    rec = first.sess.to_record()
    k = next(i for i, e in enumerate(rec["events"]) if e["kind"] != "setup")
    rec["events"].insert(k, {"kind": "move", "seat": 0, "move": "store Rc"})
    bad.write_text(json.dumps(rec))
    with pytest.raises(ValueError, match=r"does not replay: events\[%d\]" % k):
        P.GameSession.load(str(bad))
    bad.write_text('{"format": "chess-pgn"}')
    with pytest.raises(ValueError, match="not a SpellBook game record"):
        P.GameSession.load(str(bad))


def test_tournament_records_load_as_games(tmp_path):
    from clients import tournament as T

    tasks = T.schedule(["random", "greedy"], games=2, seed=8)
    with T.make_executor("inline") as ex:
        res = T.run_tournament(tasks, str(tmp_path / "r.jsonl"), ex.executor, progress=False)
    sess = P.GameSession.from_record(res.records[0])
    assert sess.over and [s.total for s in sess.state.scores()] == res.records[0]["result"]["scores"]
    with pytest.raises(ValueError, match="--game N"):
        P.GameSession.load(str(tmp_path / "r.jsonl"))                     # two games: pick one to review


def test_hint_focus_names_an_action_or_spell():
    st = State.new(2, "set1", 0)
    assert "Morning primary action" in P.hint_focus(st, st.parse_move("draw"))
    assert "skipping" in P.hint_focus(st, st.parse_move("pass"))


def test_cli_play_scripted_and_the_server_seam(capsys):
    args = SimpleNamespace(server=None, load=None, seed=2, bots=["random"], seat=1, spells="set1", practice=False,
                           hint_iterations=50)
    out = io.StringIO()
    assert play_cli.main(args, Script([]), out) == 0 and "Final score" in out.getvalue()
    assert cli_main(["play", "--server", "127.0.0.1:1", "--bots", "greedy"]) == 2
    assert "ismcts:level=N" in capsys.readouterr().err      # server bots are strength levels
    assert cli_main(["play", "--bots", "a", "b", "c", "d"]) == 2
    assert "1 to 3 bots" in capsys.readouterr().err


def test_a_whole_game_against_a_server_session(tmp_path):
    """`play --server`: the server hosts the session (bots and Pouch); the script plays seat 1 to the end."""
    from server.main import ServerConfig, ServerThread

    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
        args = SimpleNamespace(server=f"127.0.0.1:{srv.port}", load=None, seed=4, bots=["ismcts:level=1"], seat=1,
                               spells="set1", practice=False, hint_iterations=30)
        out = io.StringIO()
        save = tmp_path / "g.json"
        assert play_cli.main(args, Script(["hint 2", "undo", f"save {save}"]), out) == 0
        text = out.getvalue()
        assert "Final score" in text and "server level 1" in text and "moves are final" in text
        record = json.loads(save.read_text())
        assert record["session_id"] and record["seats"][1] == {"kind": "human"}
        local = P.GameSession.from_record(record)          # the saved server game replays locally
        assert record["seed"] == 4                         # the player's own --seed: theirs to keep
        assert local.moves == [[e["seat"], e["move"]] for e in record["events"] if e["kind"] != "setup"]


def test_the_end_of_a_game_offers_a_review(tmp_path):
    """After the final score the terminal offers the review; `y` prints each decision's class, the luck
    split and the key moments of the game just played."""
    sess = P.GameSession.new(["random"], 0, 5, "set1")
    sess.seats[0] = "random"                           # both seats play themselves: a quick finished game
    sess.bots[0] = __import__("clients.bots", fromlist=["make_bot"]).make_bot("random", seed=1)
    out = io.StringIO()
    client = P.SpellBookPlayClient(sess, Script(["y"], then=None), out, prompt=False)
    client.review_iterations, client.review_estimator_iterations = 30, 32
    assert client.run() == 0
    text = out.getvalue()
    assert "Review this game?" in text and "Decisions (30 search iterations a decision)" in text
    assert "luck" in text and "Key moments" in text and "seat 1 (random)" in text
    # the log of the moves and the review (its decisions, their best moves, the key moments) say every move in
    # words (issue 51 item 10): "Levitation (level 3): take 2 Altar tokens with rune c", never "Levitation 3"
    said = "\n".join(line for line in text.splitlines() if " points = " not in line)    # not the final breakdown
    assert not SPELL_NOTATION.search(said), SPELL_NOTATION.search(said)
    assert re.search(r"^  seat \d \(random\): (take [A-Z][cts] from the Altar|store [A-Z][cts] on the familiar)$", text, re.M)
    assert re.search(r"best: (draw 2 from the Pouch|take [A-Z][cts] from the Altar|store [A-Z][cts] on the familiar)", text)
    # the default answer is no
    client, text, code = play([], bots=("random",), seed=6)
    assert code == 0 and "Review this game?" in text and "Key moments" not in text


def test_hint_3_calls_out_a_store_that_breaks_tonights_learning():
    # every store here spends Materia that Sacrifice needs tonight, so whichever store the search lists
    # among its examined moves (the model decides which: with g5 both) must say what it gives up
    st = position(players=2, spells="set1", active=0, day=2, pools={0: "RcRcRt", 1: "PcPt"},
                  altar="PsGcKsWtBc", at="midday")
    _client, text, _ = run(session_at(st), ["hint 3", "quit"], hint_iterations=100)
    h3 = text[text.index("Hint 3"):]
    assert "store R" in h3 and "gives up learning Sacrifice this Evening" in h3


def test_a_finished_game_is_saved_for_a_later_review(tmp_path):
    """Issue 26: after the last move the terminal offers the review, then saving the record (with the
    review in it); `spellbook-ai review FILE` reads it."""
    path = tmp_path / "end.json"
    sess = P.GameSession.new(["random"], 0, 4, "set1", False)
    script = Script([], then="1", limit=3000)
    out = io.StringIO()
    client = P.SpellBookPlayClient(sess, script, out, hint_iterations=30, prompt=False)
    client.review_iterations, client.review_estimator_iterations = 20, 16
    real = script.readline

    def answers():      # the moves, then: review? yes; save? yes; the file name
        return real() if not client.sess.over else {"review? ": "y", "save? ": "y"}.get(client._asked, str(path)) + "\n"

    asked = client._read

    def read(ask=None):
        client._asked = (ask or "").split("[")[0]
        return asked(ask)

    client._asked, script.readline, client._read = "", answers, read
    assert client.run() == 0
    saved = json.loads(path.read_text())
    assert saved["status"] == "finished" and saved["review"]["players"][0]["accuracy"] is not None
    assert len(saved["review"]["decisions"][0]["win_probabilities"]) == 2
    assert (tmp_path / "end.json.png").read_bytes()[:4] == b"\x89PNG"
    assert cli_main(["review", str(path), "--iterations", "10", "--estimator-iterations", "8"]) == 0


def test_a_move_at_the_wrong_time_says_when_it_can_be_played():
    _client, text, _ = play(["learn Sacrifice", "quit"], then=None)
    assert "Not now: you learn in the Evening; it is your Morning" in text
    assert "syntax" not in text.split("learn Sacrifice")[1].split("Bye.")[0]


def test_the_line_editor_completes_moves_and_commands():
    st = State.new(players=2, spells="set1", seed=1)
    assert "draw" in P.completions(st, "dr") and "take Rc" in P.completions(st, "take R")
    assert P.completions(st, "hi") == ["hint"] and P.completions(st, "zz") == []
    # a terminal gets prompt_toolkit's session; scripted input (no tty) keeps the plain reader
    _client, text, code = play(["quit"], then=None)
    assert code == 0 and _client.editor is None
