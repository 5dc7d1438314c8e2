"""Abracada…What? in the clients: the terminal game (driven by scripted input, as tests/test_play.py does),
its hints, the saved record and its review, a tournament and a ladder, and clear errors for bad input.
Rules: ../shared/rules/ABRACADAWHAT.md (XI1-XI4 what a seat sees, XC6 what it knows of its own hand)."""
import io
import json
import re
from types import SimpleNamespace

import pytest

from clients import play as P
from clients.bots import make_bot
from clients.cli import main as cli_main
from engine_c.abracadawhat import State
from engine_c.abracadawhat import text as T
from engine_c.abracadawhat.heuristic import CountingBot


class Scripted(io.StringIO):
    """The script's lines first; then the seat plays the count heuristic's move until the game ends; then
    the end-of-game questions get `answers` in turn (review? save? file name)."""

    def __init__(self, lines, answers=()):
        super().__init__()
        self.lines, self.answers, self.client = list(lines), list(answers), None
        self.bot = CountingBot(seed=1)

    def readline(self):
        if self.lines:
            return self.lines.pop(0) + "\n"
        sess = self.client.sess
        if not sess.over and sess.state.current_player >= 0:
            return str(self.bot.choose(sess.state)[0]) + "\n"
        return (self.answers.pop(0) + "\n") if self.answers else ""


def args(**kw):
    base = dict(game="abracadawhat", server=None, load=None, seed=5, bots=["counting", "random"], seat=1,
                spells="set1", variants="", practice=False, hint_iterations=40)
    base.update(kw)
    return SimpleNamespace(**base)


def play(lines, answers=(), **kw):
    """Runs `play --game abracadawhat` on a script; (exit code, transcript, the client)."""
    from clients import play_abracadawhat as A

    script, out = Scripted(lines, answers), io.StringIO()
    made = []
    real = A.AbracadaPlayClient.__init__

    def init(self, *a, **k):          # let the script see the client (its game) as the test plays
        real(self, *a, **k)
        script.client = self
        made.append(self)

    A.AbracadaPlayClient.__init__ = init
    try:
        code = P.main(args(**kw), script, out)
    finally:
        A.AbracadaPlayClient.__init__ = real
    return code, out.getvalue(), made[0] if made else None


def test_a_whole_game_with_hints_bad_moves_a_save_and_its_review(tmp_path, capsys):
    path = tmp_path / "aw.json"
    code, text, client = play(["help", "hold", "chances", "hint", "hint", "hint", "cast 9", "zz", "end", "undo",
                               "help 1", "board"], answers=["n", "y", str(path)])
    assert code == 0 and client.sess.over
    # the table as seat 1 sees it (XI1-XI4): the others' hands, never its own; the pile and secret counts
    assert "you (seat 1)" in text and "hidden from you" in text and "Pile: " in text and "Secret stones left: 4" in text
    assert "life 6/6" in text and "points" in text and "This round:" in text
    # the hints: what you probably hold (XC6), each announcement's chance and risk, then the search's move
    assert "What you probably hold" in text and "Each announcement: its chance of success" in text
    assert "Hint 1:" in text and "Hint 2" in text and "Hint 3: play " in text and "if it fails:" in text
    # bad input says why and asks again
    assert "cast takes a number from 1 to 8" in text
    assert "Not a move:" in text and "zz" in text
    assert "end is offered only after a success" in text
    assert "every announcement is final" in text and "you (seat 1) announce " in text
    assert "1 Ancient Dragon (1 stones): roll the die" in text
    # the end: final points, the winner, the seed, then the save
    assert "=== Final points ===" in text and "Winner" in text and "seed 5" in text
    assert text.index("seed 5") > text.index("Final points")
    rec = json.loads(path.read_text())
    assert rec["game"] == "abracadawhat" and rec["status"] == "finished" and rec["players"] == 3
    assert rec["seats"][1] == {"kind": "human"} and rec["result"]["winners"] == client.sess.state.winners()
    # the saved game is reviewed by `spellbook-ai review FILE` (and `--game abracadawhat` is checked)
    capsys.readouterr()
    assert cli_main(["review", str(path), "--game", "abracadawhat", "--iterations", "8",
                     "--estimator-iterations", "8", "--key-moments", "2"]) == 0
    review = capsys.readouterr().out
    assert "Review: Abracada…What?, 3 players" in review and "Round 1 · turn of seat " in review
    assert "luck (the deals, refills and die rolls: what chance gave or took)" in review and "Key moments" in review
    assert cli_main(["review", str(path), "--game", "spellbook"]) == 2
    assert "holds a Abracada…What? game" in capsys.readouterr().err


def test_a_game_saved_midway_continues_with_load(tmp_path, capsys):
    mid = tmp_path / "mid.json"
    code, text, client = play(["hold", f"save {mid}", "quit"], seed=7)
    assert code == 0 and f"Saved to {mid}" in text
    rec = json.loads(mid.read_text())
    assert rec["game"] == "abracadawhat" and rec["status"] == "active" and rec["seed"] == 7   # the player's own --seed
    from clients.play_abracadawhat import AbracadaSession

    assert "seed" not in AbracadaSession.new(["random"], 0, 7).to_record()     # a random deal's seed reveals the hands
    # `play --load` reads the game from the record (no --game needed) and plays on to the end
    code, text, client = play([], answers=["n", "n"], game="spellbook", load=str(mid))
    assert code == 0 and client.sess.over and "Final points" in text
    assert client.sess.events[:len(rec["events"])] == rec["events"]
    # a SpellBook terminal refuses it with the reason; a file with several games too
    from clients.play_spellbook import GameSession

    with pytest.raises(ValueError, match="a game of abracadawhat"):
        GameSession.load(str(mid))
    assert cli_main(["play", "--load", str(tmp_path / "none.json")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_tab_completes_this_game_s_moves_and_commands():
    from clients.play_abracadawhat import AbracadaPlayClient, AbracadaSession

    client = AbracadaPlayClient(AbracadaSession.new(["random"], 0, 1), io.StringIO(), io.StringIO(), prompt=False)
    assert client.completions("c") == [f"cast {k}" for k in range(1, 9)] + ["chances"]
    assert client.completions("ho") == ["hold"] and client.completions("en") == []     # end: after a success only
    assert client.editor is None                      # scripted input keeps the plain reader


def test_the_same_seed_and_script_play_the_same_game():
    first = play(["hold"], answers=["n", "n"], seed=9, bots=["random"], seat=0)[1]
    again = play(["hold"], answers=["n", "n"], seed=9, bots=["random"], seat=0)[1]
    assert first == again and "Final points" in first


def test_a_seat_s_view_and_hints_depend_only_on_what_it_may_see():
    """XI1-XI4, XC6: two states a seat cannot tell apart (its own hand, the pile and the secret stones
    resampled by determinize) give it the same table, the same holding chances and announcements."""
    st = State.new(players=4, seed=3)
    bots = [CountingBot(seed=s) for s in range(4)]
    checked = 0
    while not st.is_terminal() and checked < 12:
        seat = st.current_player
        other = st.determinize(seat, seed=checked)
        assert other.hand(seat) != st.hand(seat) or checked  # (resampled: usually another hand)
        assert T.render_view(other, seat) == T.render_view(st, seat)
        assert T.holding_text(other, seat) == T.holding_text(st, seat)
        assert T.announcements_text(other, seat) == T.announcements_text(st, seat)
        own = "".join(map(str, st.hand(seat)))
        line = [x for x in T.render_view(st, seat).splitlines() if x[2:].startswith(f"seat {seat} ")][0]
        assert own not in line and "hidden from you" in line
        st.play(bots[seat].choose(st)[0])
        checked += 1


def test_a_hint_is_the_same_in_states_the_seat_cannot_tell_apart():
    """The hint's search is seeded by the seat's observation and determinizes for it (XC6): every hint
    level reads the same whatever the seat's own hand really is."""
    from clients.play_abracadawhat import AbracadaHinter

    st = State.new(players=3, seed=8)
    st.play("cast 8")
    seat = st.current_player
    twin = st.determinize(seat, seed=4)
    assert twin.to_text() != st.to_text() and twin.observation(seat) == st.observation(seat)
    for level in (1, 2, 3):
        assert AbracadaHinter(60, 1).hint(twin, level) == AbracadaHinter(60, 1).hint(st, level)


def test_holding_chances_come_from_one_function():
    st = State.new(players=3, seed=2)
    probs = T.hold_probabilities(st, 0)
    assert probs == st.holding_probabilities(0)
    chances = {a.move.value: a.chance for a in T.announcements(st, 0) if a.move.kind == "cast"}
    assert chances == probs
    # a replacement belief changes every text that uses it
    sure = {k: 1.0 if k == 3 else 0.0 for k in range(1, 9)}
    assert re.search(r"3 Sweet Dream +100\.0%", T.holding_text(st, 0, sure))
    with pytest.raises(ValueError, match="seat to move"):
        T.announcements(st, 1)


def test_bots_by_spec_for_this_game():
    st = State.new(players=2, seed=1)
    for spec in ("random", "greedy", "counting", "counting:threshold=0.5", "flatmc:iterations=20",
                 "ismcts:iterations=20", "ismcts:level=1"):
        bot = make_bot(spec, seed=1, players=2, game="abracadawhat")
        move, _ = bot.choose(st)
        assert move in st.legal_moves() and bot.name == spec
    with pytest.raises(ValueError, match="threshold"):
        make_bot("counting:threshold=x", game="abracadawhat")
    with pytest.raises(ValueError, match="unknown option"):
        make_bot("counting:bogus=1", game="abracadawhat")
    with pytest.raises(ValueError, match="unknown bot 'counting'"):
        make_bot("counting")                       # SpellBook has no counting bot
    with pytest.raises(ValueError, match="plays spellbook, but the games played are abracadawhat's"):
        make_bot("grpc://127.0.0.1:1?level=3&game=spellbook", game="abracadawhat")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_bot("grpc://127.0.0.1:1?game=chess", game="abracadawhat")
    remote = make_bot("grpc://127.0.0.1:1?level=3", game="abracadawhat")     # the game defaults to --game's
    assert remote.game == "abracadawhat"
    remote.close()


def test_a_tiny_tournament_with_sprt_and_five_seats(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert cli_main(["tournament", "random", "counting", "--game", "abracadawhat", "--games", "4", "--seed", "3",
                     "--sprt", "0", "50", "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "random vs counting" in text and "SPRT random vs counting" in text and "Ptnml(0-2)" in text
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert {g["game"] for g in games} == {"abracadawhat"} and len(games) == 4
    assert [g["seats"][0]["spec"] for g in games[:2]] == ["random", "counting"]       # seat rotation
    assert cli_main(["review", str(out), "--game", "2", "--iterations", "4", "--estimator-iterations", "4"]) == 0
    assert "Review: Abracada…What?, 2 players" in capsys.readouterr().out
    five = tmp_path / "five.jsonl"
    assert cli_main(["tournament", "random", "counting", "counting:threshold=0.5", "greedy", "flatmc:iterations=10",
                     "--game", "abracadawhat", "--seats", "5", "--games", "1", "--out", str(five),
                     "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "5 games" in text and "Plackett-Luce" in text


def test_a_tiny_ladder(tmp_path, capsys):
    out = tmp_path / "ladder.json"
    assert cli_main(["ladder", "--game", "abracadawhat", "--levels", "1", "--games", "2", "--out", str(out),
                     "--no-progress"]) == 0
    table = json.loads(out.read_text())
    assert table["settings"]["game"] == "abracadawhat" and table["levels"][0]["level"] == 1
    from engine_c.registry import get_game
    from search.model import default_model

    shipped = default_model(get_game("abracadawhat").adapter)      # the ladder names the evaluation it rates
    expected = shipped.version if shipped is not None and shipped.use_by_default else "rollout"
    assert table["settings"]["evaluation"].startswith(f"abracadawhat {expected}")
    assert "level  1:" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["play", "--game", "chess"], "unknown game 'chess'; the games are: spellbook, abracadawhat"),
    (["play", "--game", "abracadawhat", "--bots", "random", "random:seed=1", "random:seed=2", "random:seed=3",
      "random:seed=4"], "1 to 4 bots"),
    (["play", "--game", "abracadawhat", "--variants", "xv9"], "unknown variant 'xv9'"),
    (["play", "--game", "abracadawhat", "--bots", "nobot"], "unknown bot 'nobot'"),
    (["play", "--game", "abracadawhat", "--seat", "3", "--bots", "random"], "--seat must be 0 to 1"),
    (["tournament", "random", "counting", "--game", "chess", "--games", "1"], "unknown game 'chess'"),
    (["tournament", "random", "counting", "--games", "1"], "unknown bot 'counting'"),
    (["tournament", "random", "counting", "--game", "abracadawhat", "--seats", "6"], "seats must be 2 to 5"),
    (["tournament", "random", "counting", "--game", "abracadawhat", "--variants", "x"], "unknown variant 'x'"),
    (["ladder", "--game", "nope", "--levels", "1"], "unknown game 'nope'"),
])
def test_bad_game_values_and_options_are_clear_errors(argv, message, capsys, tmp_path):
    assert cli_main(argv + ["--out", str(tmp_path / "o.jsonl")] if argv[0] != "play" else argv) == 2
    assert message in capsys.readouterr().err


def test_review_of_a_bad_game_name(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text("{}")
    assert cli_main(["review", str(path), "--game", "chess"]) == 2
    assert "--game: unknown game 'chess'" in capsys.readouterr().err


def _positions(players, variants="", games=6):
    """Decision states of a few seeded games between count-heuristic bots."""
    for seed in range(games):
        st = State.new(players=players, seed=seed, variants=variants)
        bots = [CountingBot(threshold=0.1, seed=seed + s) for s in range(players)]
        while not st.is_terminal():
            yield st.clone()
            st.play(bots[st.current_player].choose(st)[0])


@pytest.mark.parametrize("variants, ko, last", [("", "you win the round (3 points)", "(3 points)"),           # XR3, XR2
                                                ("xv2", "out of the round", "2 points, plus 1 per secret stone you hold")])   # XV2
def test_what_an_announcement_gains_and_risks_follows_the_rules(variants, ko, last):
    """XR2/XR3 (XV2: the round goes on until one survives, an empty hand scores 2 + secret stones), XT1
    (a failure costs 1 life; Ancient Dragon the die, XC8), XR4 (the last life lost: knocked out)."""
    seen = set()
    for st in _positions(3, variants):
        seat = st.current_player
        by_move = {str(a.move): a for a in T.announcements(st, seat)}
        for a in by_move.values():           # a spell it cannot hold wins nothing (issue 51 item 3)
            if a.move.kind == "cast" and a.chance == 0:
                assert a.gain.startswith("it cannot succeed") and "knock" not in a.gain and "win" not in a.gain
        if st.hand_sizes()[seat] == 1 and by_move["cast 8"].chance > 0:
            assert last in by_move["cast 8"].gain
            seen.add("last")
        if "cast 2" in by_move and any(st.life[p] == 1 for p in range(3) if p != seat) and by_move["cast 2"].chance > 0:
            assert ko in by_move["cast 2"].gain
            seen.add("ko")
        if st.life[seat] == 1:
            assert "you lose your last life: knocked out" in by_move["cast 8"].risk
            seen.add("self")
        if "cast 1" in by_move:
            assert "you lose the die roll in life" in by_move["cast 1"].risk          # XC8
        if st.last_cast == 0:
            assert "end" not in by_move and "cast 1" in by_move          # XC7: a turn starts with an announcement
        else:
            assert by_move["end"].chance == 0.0 and "cast 1" not in by_move or st.last_cast == 1 or "xv1" in variants
        if seen == {"last", "ko", "self"}:
            break
    assert seen == {"last", "ko", "self"}


def told_lines(record: dict, names: list[str]) -> list[list[str]]:
    """What the local terminal says after each move of a finished record (replayed from its deal)."""
    from engine_c.abracadawhat import Move

    st = State.new(players=record["players"], seed=record["seed"], variants=record.get("variants", ()))
    events = [e for e in record["events"] if e["kind"] != "resign"]
    out, i = [], 0
    while i < len(events):
        e = events[i]
        i += 1
        if e["kind"] != "move":
            if st.is_chance():
                st.apply(Move.from_text(e["move"]))
            continue
        before = st.clone()
        st.apply(Move.from_text(e["move"]))
        rolls = []
        while i < len(events) and events[i]["kind"] != "move":
            if events[i]["kind"] == "roll":
                rolls.append(int(events[i]["move"].split()[1]))
            st.apply(Move.from_text(events[i]["move"]))
            i += 1
        out.append(T.describe_changes(before, Move.from_text(e["move"]), st, names, rolls))
    return out


def test_a_whole_game_in_a_server_session_from_the_terminal(tmp_path):
    """`play --game abracadawhat --server HOST:PORT`: the server deals and plays the bots, the terminal sees
    what its seat may see (its own hand as a count only), hints and `hold` work, the game runs to its end,
    and the saved record is the server's, reviewable."""
    from server.main import ServerConfig, ServerThread

    with ServerThread(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "s.db"))) as srv:
        saved = tmp_path / "remote.json"
        code, out, client = play(["hold", "hint 3", "chances"], answers=["n", "y", str(saved)],
                                 server=f"127.0.0.1:{srv.port}", bots=["ismcts:level=1", "ismcts:level=1"],
                                 seat=1, seed=9)
    assert code == 0, out[-2000:]
    assert "hidden from you" in out and "What you probably hold" in out and "Hint 3: play" in out
    assert "server level 1" in out and client.sess.over
    # every move, the bots' and the seat's own, is told as the local terminal tells it: its outcome and die,
    # life and knock-outs, the round's end and the points (text.describe_changes with the terminal's names)
    record = json.loads(saved.read_text())
    told = 0
    for want in told_lines(record, client.sess.names):
        assert "".join(f"    {line}\n" for line in want) in out, (want, out[-3000:])
        told += 1
    assert told >= 10 and "the die shows" in out and " ends: " in out
    assert record["game"] == "abracadawhat" and record["status"] == "finished" and record["seed"] == 9
    assert record["seats"][1] == {"kind": "human"} and record["seats"][0]["level"] == 1
    assert cli_main(["review", str(saved), "--iterations", "30"]) == 0
