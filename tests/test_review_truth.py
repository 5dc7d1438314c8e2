"""Issue 51: what a review says is true and clear. Every seat of a 3-player record is named right in every
surface (the CLI's `review --seat N`, the terminal's end-of-game review, AnalyzeGame, the page's review.js);
the luck split's parts add up and own decisions never gain against the best move; every decision of a
seat has its own label; key moments say what happened (the choice, then the chance)."""
import io
import json
import math
import shutil
import subprocess
from pathlib import Path

import grpc
import pytest

from clients.cli import main as cli_main
from engine_c import records
from server._gen.abracadawhat.v1 import service_pb2 as asvc
from server._gen.spellbook.v1 import service_pb2 as ssvc
from server.main import ServerConfig, ServerThread

ITER = ["--iterations", "12", "--estimator-iterations", "12"]
SERVICES = {"spellbook": ("spellbook.v1.SpellBookService", ssvc),
            "abracadawhat": ("abracadawhat.v1.AbracadaWhatService", asvc)}


def _record(game: str, human: int = 1, seed: int = 5) -> dict:
    """A finished 3-player game, seat `human` a person's (played here by a bot), the others bots."""
    from clients.bots import make_bot

    if game == "abracadawhat":
        from clients.play_abracadawhat import AbracadaSession as Session
        seats = ["counting", "random", "random"]
        extra = {"variants": ()}
    else:
        from clients.play_spellbook import GameSession as Session
        seats = ["greedy", "random", "random"]
        extra = {"spells": "set1"}
    bot = make_bot(seats[human], seed=1, players=3, **({"game": game} if game == "abracadawhat" else {}))
    seats[human] = "human"
    sess = Session(seed=seed, players=3, seats=seats, **extra)
    while not sess.over:
        sess.advance()
        if sess.over:
            break
        move, _ = bot.choose(sess.state)
        sess.play_human(move)
    return sess.to_record()


@pytest.fixture(scope="module", params=["spellbook", "abracadawhat"])
def game_record(request, tmp_path_factory):
    rec = _record(request.param)
    path = tmp_path_factory.mktemp("truth") / f"{request.param}.json"
    path.write_text(json.dumps(rec))
    return request.param, rec, path


def _lines(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


def test_the_cli_names_every_reviewed_seat_you_and_keeps_the_others_names(game_record, capsys):
    game, rec, path = game_record
    scores, winners = rec["result"]["scores"], rec["result"]["winners"]
    stable = [f"seat {i} ({records.seat_name(s)})" for i, s in enumerate(rec["seats"])]
    for seat in range(3):
        assert cli_main(["review", str(path), "--seat", str(seat), *ITER]) == 0
        text = capsys.readouterr().out
        names = ["You" if i == seat else stable[i] for i in range(3)]
        (final,) = _lines(text, "Final scores: ")
        assert final == ("Final scores: " + ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores)) + "; winner "
                         + " and ".join(names[w] for w in winners) + ".")
        assert final.count("You ") == 1
        split = [line for line in text.splitlines() if " + luck " in line and line.startswith("  ")]
        assert [line.split(" accuracy")[0].strip() for line in split] == names
        for i, line in enumerate(split):     # the split ends at the game's own score (one source)
            assert line.split("= ")[1].split()[0] == str(scores[i])
        # every listed decision and key moment is the reviewed seat's, and called "You"/"your"
        moments = text.split("Key moments")[1].splitlines()[1:]
        assert moments and all(": You played " in m for m in moments if m.strip())
        decisions = [line for line in text.splitlines() if " · " in line and line.startswith("  ") and ": " not in line]
        assert decisions and all(" You " in d for d in decisions)
        assert "Day of seat" not in "".join(decisions) or f"Day of seat {seat}" not in "".join(decisions)


def test_the_luck_split_adds_up_and_own_decisions_never_gain_against_the_best(game_record):
    from search.coach import review_record

    game, rec, _ = game_record
    review, rp = review_record(records.replayed(rec), iterations=12, estimator_iterations=12)
    for p in review.players:
        assert math.isclose(p.expected_start + p.luck + p.decisions + p.others, p.final, abs_tol=1e-6)
        assert p.decisions <= 1e-9, (p.seat, p.decisions)      # measured against the best move: never above 0
        assert p.final == rec["result"]["scores"][p.seat]
    for d in review.decisions:
        assert d.loss_win >= 0 and (d.mistake == "best") == (d.played == d.best)
        assert d.win_probabilities[d.seat] >= d.win_after - 1e-9     # before is the best move's: never below
        assert d.win_next is not None and 0 <= d.win_next <= 1
        from search.review import mistake_class
        assert d.mistake == mistake_class(d.loss_win, d.played == d.best)   # the class follows the loss's size
    assert review.decisions[-1].win_next in (0.0, 1.0, 0.5)          # the game's result after the last decision


def test_each_decision_has_its_own_label_and_key_moments_say_what_happened(game_record):
    from search.coach import review_record
    from search.review import KEY_MOMENT_MIN_MOVE, key_moment_text

    game, rec, _ = game_record
    rp = records.replayed(rec)
    for seat in range(3):
        labels = [rp.label(i) for i, (_s, _m, who) in enumerate(rp.steps) if who == seat]
        assert len(labels) == len(set(labels)), [x for x in labels if labels.count(x) > 1][:3]
    review, _ = review_record(rp, iterations=12, estimator_iterations=12, seat=1)
    for d in review.key_moments:
        # a key moment moved its player's chance (no "92% before, 92% with it" and nothing after it)
        assert abs((d.win_next if d.win_next is not None else d.win_after) - d.win_probabilities[d.seat]) >= \
            KEY_MOMENT_MIN_MOVE
        text = key_moment_text(d, "You")
        assert f"{100 * d.win_probabilities[1]:.0f}% before, {100 * d.win_after:.0f}% with it" in text
        if d.win_next < d.win_after - 0.05:
            assert f"then chance went against you: {100 * d.win_next:.0f}%" in text
        elif d.win_next > d.win_after + 0.05:
            assert f"then chance went your way: {100 * d.win_next:.0f}%" in text
        # nothing is "drawn" after an announcement or a die (Abracada…What?) nor at the game's end
        assert "drawn" not in text, text


def test_the_terminal_s_end_of_game_review_calls_its_player_you(game_record):
    from clients.play_abracadawhat import AbracadaPlayClient, AbracadaSession
    from clients.play_spellbook import GameSession, SpellBookPlayClient

    game, rec, _ = game_record
    session, client = (AbracadaSession, AbracadaPlayClient) if game == "abracadawhat" else (GameSession, SpellBookPlayClient)
    sess = session.from_record(rec)
    out = io.StringIO()
    client = client(sess, io.StringIO("y\nn\n"), out, prompt=False)
    client.review_iterations, client.review_estimator_iterations = 12, 12
    assert client.run() == 0
    text = out.getvalue().split("Review: ", 1)[1]
    names = ["seat 0 (" + records.seat_name(rec["seats"][0]) + ")", "You", "seat 2 (random)"]
    scores = rec["result"]["scores"]
    assert ("Final scores: " + ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores))) in text
    assert text.count("You resign") == 0 and "seat 1 (human)" not in text


def test_analyze_game_and_the_page_name_the_reviewed_seat_and_label_each_decision(game_record, tmp_path):
    game, rec, _ = game_record
    service, svc = SERVICES[game]
    from server._gen.spellbook.v1 import types_pb2 as spb

    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv, grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        answers = {}
        for seat in range(3):
            req = svc.AnalyzeGameRequest(record_json=json.dumps(rec), seat=seat, limits=spb.SearchLimits(iterations=12)
                                         if game == "spellbook" else None)
            if game != "spellbook":
                from server._gen.abracadawhat.v1 import types_pb2 as apb
                req.limits.CopyFrom(apb.SearchLimits(iterations=12))
            raw = ch.unary_unary(f"/{service}/AnalyzeGame")(req.SerializeToString(), timeout=120)
            answers[seat] = resp = svc.AnalyzeGameResponse.FromString(raw)
            assert list(resp.result.scores) == rec["result"]["scores"] and list(resp.result.winners) == rec["result"]["winners"]
            assert [p.final_score for p in resp.players] == rec["result"]["scores"]
            labels = [d.label for d in resp.decisions]
            assert labels and len(labels) == len(set(labels)) and all("You" not in x for x in labels)
            assert all(d.HasField("win_next") for d in resp.decisions)
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the page's review.js is checked where it is")
    # the page: for each seat reviewed, its names (stable: "You" is the reader's own seat only, a bot stays a
    # bot) and its labels; a loaded record's names ("Player N", "Bot N") make the reviewed seat "You" only
    # where a person sat (one of `readers`)
    base = ["You", "Bot 2 (level 5)", "Player 3"]          # a live game's names, the page's own seat first
    loaded = ["Player 1", "Bot 2 (level 5)", "Player 3"]   # the same game as a loaded record: people at 0 and 2
    payload = {s: [d.label for d in answers[s].decisions] for s in range(3)}
    script = tmp_path / "names.mjs"
    static = Path(__file__).resolve().parent.parent / "server" / "static" / "review.js"
    script.write_text(f"""import {{ reviewNames, where }} from {json.dumps(static.as_uri())};
const base = {json.dumps(base)}, labels = {json.dumps(payload)};
const out = {{}};
for (const seat of [0, 1, 2]) {{
  const names = reviewNames(base, seat);
  out[seat] = {{ names, loaded: reviewNames({json.dumps(loaded)}, seat, [0, 2]),
    where: labels[seat].map((label) => where({{ label }}, names)) }};
}}
console.log(JSON.stringify(out));
""")
    got = json.loads(subprocess.run([node, str(script)], capture_output=True, text=True, check=True, timeout=60).stdout)
    for seat in range(3):
        names = got[str(seat)]["names"]
        assert names == base                                   # never "You" for a bot, never "Player 1" for you
        shown = got[str(seat)]["where"]
        assert len(set(shown)) == len(shown) and all("of seat" not in w for w in shown)
        assert all(("your " in w) == (seat == 0) and (base[seat] in w or seat == 0) for w in shown), shown
        assert got[str(seat)]["loaded"] == [("You" if i == seat and seat != 1 else n) for i, n in enumerate(loaded)]


def test_a_resigned_game_shows_its_own_scores_and_a_split_that_says_it_ends_at_an_expectation(capsys, tmp_path):
    """Issue 51: "Final scores: You 5, Bot 2 3" beside a split whose Final column showed 23 and 24. The game's
    scores come from the record (as they stood at the resignation); the split ends at what each could expect
    there, and says so, never as "final"."""
    from clients.bots import make_bot
    from clients.play_spellbook import GameSession

    sess = GameSession(seed=3, players=2, spells="set1", seats=["human", "greedy"])
    bot = make_bot("greedy", seed=1, players=2)
    for _ in range(8):
        sess.advance()
        sess.play_human(bot.choose(sess.state)[0])
    sess.advance()
    sess.resign(0)
    rec = sess.to_record()
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(rec))
    assert cli_main(["review", str(path), "--seat", "0", *ITER]) == 0
    text = capsys.readouterr().out
    scores = rec["result"]["scores"]
    assert f"Scores when the game was resigned: You {scores[0]}, seat 1 (greedy) {scores[1]}; winner seat 1 (greedy)." in text
    assert "Final scores" not in text and "score expected when the game was resigned" in text
    split = [line for line in text.splitlines() if " + luck " in line and line.startswith("  ")]
    assert len(split) == 2 and all(line.split("= ")[1].split("    ")[0].endswith("(expected)") for line in split)
