"""The Spellbook TCG through the shared clients, by the game contract only: the terminal (a scripted game with
hints, a user's own card and deck files), the demo, a tournament whose records replay and are reviewed, the
analysis engine, OpenSpiel, and what a seat may never see (TI-2..TI-4: the other seat's hand and mana
cards, the spellbooks' order) in a record exported for it and in the terminal's display."""
import io
import json
import random
import re
from contextlib import redirect_stderr, redirect_stdout

import pytest

from clients import play
from clients.cli import build_parser
from clients.cli import main as cli_main
from engine_c import records
from engine_c.registry import get_game
from engine_c.spellbooktcg import State
from engine_c.spellbooktcg import text as T
from tcg_positions import position

GAME = "spellbooktcg"

MY_CARDS = {
    "format": "spellbooktcg-cards/1", "name": "my_cards",
    "cards": [
        {"id": "arcane_bolt", "name": "Arcane Bolt", "type": "power", "cost": 2, "rarity": "common",
         "target": "character", "effects": [{"damage": 2}]},
        {"id": "fireball", "name": "Fireball", "type": "power", "cost": 3, "rarity": "rare",
         "target": "character", "effects": [{"damage": 3, "fixed": ["damage"]}, {"tokens": "fire", "n": 1}]},
        {"id": "conjure_golem", "name": "Conjure Golem", "type": "power", "cost": 3, "rarity": "common",
         "target": "none", "effects": [{"summon": [1, 5]}, {"tokens": "shield", "n": 1}]},
        {"id": "empower", "name": "Empower", "type": "charm", "cost": 1, "rarity": "common",
         "modifier": "add_damage 2"},
        {"id": "archmage", "name": "Archmage", "type": "wizard", "damage": 2, "ability": {"hand_size": 8}},
    ]}
MY_DECKS = {"format": "spellbooktcg-decks/1", "decks": [
    {"id": "burn", "name": "Burn", "wizard": "archmage",
     "cards": {"fireball": 7, "arcane_bolt": 30, "conjure_golem": 20, "empower": 18}}]}


def _play(argv, script: str) -> tuple[int, str]:
    args = build_parser().parse_args(["play", "--game", GAME, *argv])
    out = io.StringIO()
    return play.main(args, io.StringIO(script), out), out.getvalue()


# ----------------------------------------------------------------------------------------------
# The terminal and the demo
# ----------------------------------------------------------------------------------------------
def test_terminal_game_shows_the_seat_numbered_moves_and_three_hints():
    rc, out = _play(["--seed", "1", "--bots", "heuristic", "--hint-iterations", "40"],
                    "hint\nhint\nhint\n1\nmoves\n99\nbogus\ncard mend\nresign\nn\nn\n")
    assert rc == 0
    assert "you are seat 0 (you play first)" in out and "hand: Arcane Bolt x4 (power, cost 2): 2 damage to a character" in out
    assert "   1. put Arcane Bolt into your mana pool   [mana arcane_bolt]" in out
    assert "Hint 1: Think about your mana pool" in out and "Hint 2" in out and "Hint 3: " in out
    assert "The search's choice" in out                                   # the coach's ranked list (clients/play.py)
    assert "you (seat 0): put Arcane Bolt into your mana pool" in out     # the numbered move played
    assert "Choose a move from 1 to" in out and "Not a move:" in out
    assert "Mend (power, cost 2): 2 healing to a character" in out
    assert "You resign" in out


def test_terminal_with_a_users_card_and_deck_files(tmp_path):
    cards, decks = tmp_path / "my_cards.json", tmp_path / "my_decks.json"
    cards.write_text(json.dumps(MY_CARDS))
    decks.write_text(json.dumps(MY_DECKS))
    save = tmp_path / "game.json"
    rc, out = _play(["--cards", str(cards), "--decks", str(decks), "--seed", "2", "--bots", "random"],
                    f"cards\n1\nsave {save}\nquit\n")
    assert rc == 0 and "decks burn v burn" in out and "Archmage" in out
    assert "fireball: Fireball (power, cost 3): 3 damage, then 1 fire token to a character" in out
    assert "hand 8" in out                                                # the wizard's ability: hand_size 8
    # the record carries the user's card file (D174): it replays with the files gone
    rec = json.loads(save.read_text())
    assert rec["game"] == GAME and "card_file" in rec["decks"] and rec["decks"]["seats"][0]["id"] == "burn"
    cards.unlink()
    decks.unlink()
    final, _ = records.replay(records.load(rec))
    assert final.wizard_ids() == ["archmage", "archmage"]
    # a broken card file is refused naming the file, the card and the field
    bad = dict(MY_CARDS, cards=[dict(MY_CARDS["cards"][1], cost="three")] + MY_CARDS["cards"][2:])
    cards.write_text(json.dumps(bad))
    args = build_parser().parse_args(["play", "--game", GAME, "--cards", str(cards), "--decks", "frost_ward"])
    err = io.StringIO()
    with redirect_stderr(err):
        assert play.main(args, io.StringIO(""), io.StringIO()) == 2
    assert f"{cards}: card fireball: field cost:" in err.getvalue()


def test_demo_is_seeded_and_ends_with_a_result():
    outs = []
    for _ in range(2):
        out = io.StringIO()
        with redirect_stdout(out):
            assert cli_main(["demo", "--game", GAME, "--seed", "3"]) == 0
        outs.append(out.getvalue())
    assert outs[0] == outs[1] and outs[0].startswith("Spellbook TCG demo: decks frost_ward v fire_shock, seed 3")
    assert "[mana " in outs[0] and "draws 1 card: " in outs[0] and "Turn 2: seat 1's turn" in outs[0]
    assert outs[0].rstrip().splitlines()[-1].startswith(("winner: seat", "a draw"))


# ----------------------------------------------------------------------------------------------
# Tournaments, records, reviews, the analysis engine
# ----------------------------------------------------------------------------------------------
def test_tournament_records_replay_and_are_reviewed(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert cli_main(["tournament", "random", "ismcts:level=1", "--game", GAME, "--games", "2",
                     "--out", str(out)]) == 0
    assert "ismcts:level=1" in capsys.readouterr().out
    recs = records.load_file(str(out))
    assert len(recs) == 2
    for rec in recs:
        assert rec["game"] == GAME and rec["status"] == "finished" and rec["decks"]["cards"] == "63a1640b7eed"
        rp = records.replayed(rec)
        assert rp.final.is_terminal() and rp.final_scores == [float(s) for s in rec["result"]["scores"]]
    assert cli_main(["review", str(out), "--game", "1", "--iterations", "30"]) == 0
    text = capsys.readouterr().out
    assert "Review: Spellbook TCG, frost_ward v fire_shock (starter cards)" in text and "Turn 1 · turn of seat 0 · mana" in text


def _drawn(rec: dict, seat: int) -> set[str]:
    """The cards `seat` drew in a game (its deal and draw events: "draw CARD")."""
    return {e["move"].split()[1] for e in rec["events"] if e["kind"] in ("deal", "draw") and e.get("to") == seat}


def test_a_tournament_plays_the_decks_its_setup_flags_name(tmp_path, capsys):
    """Issue 48: the tournament takes the game's own setup flags (Declaration.setup and flags: --decks, --cards),
    plays the decks they name and writes them to each record; a bad deck or card file is refused before any
    game, naming the flag."""
    out = tmp_path / "t.jsonl"
    assert cli_main(["tournament", "random", "greedy", "--game", GAME, "--games", "2", "--seed", "4",
                     "--decks", "fire_shock,frost_ward", "--out", str(out), "--no-progress"]) == 0
    from engine_c.spellbooktcg.cards import starter_decks

    recs = records.load_file(str(out))
    assert len(recs) == 2
    for rec in recs:           # the starter decks the other way round from the default frost_ward v fire_shock
        assert [d["id"] for d in rec["decks"]["seats"]] == ["fire_shock", "frost_ward"]
        assert rec["tournament"]["decks"] == "fire_shock,frost_ward" and records.replayed(rec).final.is_terminal()
        for seat, deck in enumerate(("fire_shock", "frost_ward")):
            assert _drawn(rec, seat) <= set(dict(starter_decks()[deck].cards))
    assert {"kindle", "static"} & set.union(*(_drawn(r, 0) for r in recs))           # fire_shock's own cards
    # resumed without the flags, the tournament continues with the setup its games were played with
    assert cli_main(["tournament", "random", "greedy", "--game", GAME, "--games", "4", "--seed", "4", "--resume",
                     "--out", str(out), "--no-progress"]) == 0
    assert "with its games' setup: --decks 'fire_shock,frost_ward'" in capsys.readouterr().err
    resumed = records.load_file(str(out))
    assert len(resumed) == 4 and {r["tournament"]["decks"] for r in resumed} == {"fire_shock,frost_ward"}
    # a card file of one's own: its cards travel inside each record, so the record replays anywhere
    cards, decks, mine = tmp_path / "cards.json", tmp_path / "decks.json", tmp_path / "mine.jsonl"
    cards.write_text(json.dumps(MY_CARDS))
    decks.write_text(json.dumps(MY_DECKS))
    assert cli_main(["tournament", "random", "greedy", "--game", GAME, "--games", "2", "--cards", str(cards),
                     "--decks", str(decks), "--out", str(mine), "--no-progress"]) == 0
    for rec in records.load_file(str(mine)):
        assert [d["id"] for d in rec["decks"]["seats"]] == ["burn", "burn"] and "card_file" in rec["decks"]
        assert _drawn(rec, 0) <= set(MY_DECKS["decks"][0]["cards"]) and records.replayed(rec).final.is_terminal()
    capsys.readouterr()
    bad = tmp_path / "bad.jsonl"
    for argv, flag in ((["--game", GAME, "--decks", "frost_ward,nope"], "--decks: 'nope' is neither a starter deck"),
                       (["--game", GAME, "--cards", str(tmp_path / "none.json")], "--cards: "),
                       (["--game", "spellbook", "--decks", "frost_ward"], "--decks: SpellBook takes no --decks")):
        assert cli_main(["tournament", "random", "greedy", "--games", "2", *argv, "--out", str(bad),
                         "--no-progress"]) == 2
        assert flag in capsys.readouterr().err and not bad.exists()


def test_analysis_engine_answers_a_position_and_a_seats_observation():
    from clients.analysis import analyse

    st = State.new(seed=2)
    for q in ({"id": 1, "position": st.to_text(), "maxVisits": 60},
              {"id": 2, "position": st.observation(0), "maxVisits": 60, "topK": 3}):
        ans = analyse(q)
        assert ans["game"] == GAME and ans["moveInfos"], ans
        assert all(st.parse_move(m["move"]) in st.legal_moves() for m in ans["moveInfos"])
    wrong = analyse({"id": 3, "position": st.observation(1), "maxVisits": 10})
    assert wrong["field"] == "position"          # seat 0 decides: seat 1's observation is refused


# ----------------------------------------------------------------------------------------------
# OpenSpiel
# ----------------------------------------------------------------------------------------------
def test_openspiel_checks_and_its_ismcts_in_a_tournament(tmp_path, capsys):
    pyspiel = pytest.importorskip("pyspiel")
    import clients.openspiel_spellbooktcg as ot  # registers python_spellbooktcg
    from openspiel_checks import play_checked

    game = pyspiel.load_game(ot.SHORT_NAME)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    final = play_checked(game, 5, (0, 30, 90))
    assert sorted(final.returns()) in ([0.0, 1.0], [0.5, 0.5])
    assert get_game(GAME).layer("openspiel") is ot
    out = tmp_path / "os.jsonl"
    assert cli_main(["tournament", "random", "openspiel-mcts:simulations=2", "--game", GAME, "--games", "2",
                     "--out", str(out)]) == 0
    assert all(records.replayed(r).final.is_terminal() for r in records.load_file(str(out)))
    # the seat's record never holds the other seat's draws or mana cards
    state = game.new_initial_state()
    rng = random.Random(1)
    while len(state.history()) < 60:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    words = state.information_state_string(0).split()
    assert all(w == "d1=?" for w in words if w.startswith("d1="))
    assert not any(w.startswith("1:mana_") for w in words) and "1:mana?" in words


# ----------------------------------------------------------------------------------------------
# Secrets (TI-2..TI-4)
# ----------------------------------------------------------------------------------------------
def _session_game(decisions: int):
    from clients.play_spellbooktcg import TCGSession

    sess = TCGSession.new(["random"], human_seat=0, seed=7)
    lines: list[str] = []
    rng = random.Random(3)
    for _ in range(decisions):
        sess.advance(lambda ev: lines.append(ev.text))
        if sess.over:
            break
        lines.append(T.render_view(sess.state, 0, sess.names))
        lines += sess.play_human(rng.choice(sess.state.legal_moves()))
    return sess, lines


def test_a_record_exported_for_seat_0_of_a_live_game_hides_seat_1s_cards():
    sess, _ = _session_game(40)
    assert not sess.over
    rec = records.for_viewer(sess.to_record(), 0)
    assert rec["view"] == "seat 0" and "seed" not in rec
    theirs = [e for e in rec["events"] if e.get("to") == 1]
    mine = [e for e in rec["events"] if e.get("to") == 0]
    assert theirs and all(e["move"] == "draw ?" for e in theirs)        # seat 1's hand and mana pool
    assert mine and all(e["move"].startswith("draw ") and e["move"] != "draw ?" for e in mine)
    their_mana = [e for e in rec["events"] if e["kind"] == "move" and e["seat"] == 1 and e["move"].startswith("mana")]
    assert their_mana and all(e["move"] == "mana ?" for e in their_mana)
    text = json.dumps(rec)
    for key in ("book0", "book1", "pool0", "pool1", "hand1=", "mana1=", "tcg1 "):   # no state text, no spellbook order
        assert key not in text
    with pytest.raises(records.RecordError, match="hidden"):
        records.replay(rec)
    spectator = records.for_viewer(sess.to_record(), None)
    assert all(e["move"] == "draw ?" for e in spectator["events"] if e["kind"] in ("deal", "draw"))


def test_the_terminal_shows_seat_0_only_what_it_may_see():
    """Two states seat 0 cannot tell apart (the engine's determinization for seat 0 redeals seat 1's hand and
    mana pool and every unknown card) render the same for it; the log names seat 1's draws by count only
    and never its mana card."""
    sess, lines = _session_game(40)
    st = sess.state
    for seed in range(5):
        assert T.render_view(st.determinize(0, seed=seed), 0, sess.names) == T.render_view(st, 0, sess.names)
    assert T.render_view(st, 1, sess.names) != T.render_view(st, 0, sess.names)
    them = [line for line in lines if line.startswith("seat 1 draws")]
    assert them and all(":" not in line.split("card")[1].split("(")[0] for line in them)
    assert any("put a card into the mana pool" in line for line in lines)
    assert not any(line.startswith("seat 1: put ") and "mana pool" in line and "a card" not in line for line in lines)


def test_a_remote_bot_plays_it_through_the_game_neutral_api(tmp_path, capsys):
    """`grpc://host:port?game=spellbooktcg` plays through games.v1 (the game has no per-game API): the bot
    sends its seat's observation only, and its games replay."""
    from clients.bots import make_bot
    from server.main import ServerConfig, ServerThread

    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
        spec = f"grpc://127.0.0.1:{srv.port}?iterations=30&game=spellbooktcg"
        bot = make_bot(spec, seed=3, game="spellbooktcg")
        sent = []
        real = bot._client.best_move
        bot._client.best_move = lambda state, **kw: sent.append((state, kw)) or real(state, **kw)
        st = State.new(seed=4)
        st.resolve_chance()
        move, info = bot.choose(st)
        assert move in st.legal_moves() and info["stats"].iterations > 0
        (obs, kw), = sent
        assert obs.text == st.observation(st.current_player) and kw["seat"] == st.current_player
        bot.close()
        out = tmp_path / "r.jsonl"
        assert cli_main(["tournament", spec, "random", "--game", "spellbooktcg", "--games", "2", "--seed", "5",
                         "--out", str(out), "--no-progress"]) == 0, capsys.readouterr().err
        for line in out.read_text().splitlines():
            g = json.loads(line)
            assert g["status"] == "finished" and records.replayed(g).final.is_terminal()


def test_every_move_has_words_without_a_state():
    """The contract's move_words (games.v1's Move.words, the review's lists): no legal move of random games is
    left as its notation, and a text it does not know comes back as it is."""
    from engine_c.contract import move_words

    words = move_words(get_game("spellbooktcg").text)
    seen = set()
    for seed in range(6):
        st, rng = State.new(seed=seed), random.Random(seed)
        while not st.is_terminal():
            if st.is_chance():
                st.resolve_chance()
                continue
            moves = st.legal_moves()
            seen |= {str(m) for m in moves}
            st.apply(rng.choice(moves))
    assert {t.split()[0] for t in seen} >= {"mana", "none", "attack", "done", "power", "charm", "cast", "pass"}
    for text in seen:
        assert words(text) != text and "_" not in words(text), text
    assert words("mana arcane_bolt") == "put Arcane Bolt into the mana pool" and words("xyz 1") == "xyz 1"


# ----------------------------------------------------------------------------------------------
# What the page draws and reads (games.v1's view_json, the log's lines, the review's labels, the setup)
# ----------------------------------------------------------------------------------------------
def _spell(*cards):
    """Seat 0 building a spell of `cards` (power first) in its spellcasting step, as far as the engine lets
    it go without finishing it (positions from tests/tcg_positions.py)."""
    st = position(phase="cast", hand=(cards, ()), mana=(("conjure_familiar",) * 8, ()))
    st.apply(f"power {cards[0]}")
    for c in cards[1:-1]:
        st.apply(f"charm {c}")
    return st


def test_the_view_says_each_queued_spell_final_form_and_what_a_charm_would_make_of_it():
    """TC-5, TC-7: the view's queue has each spell's final numbers, and the seat building a spell sees what
    each charm it may attach would make of it (the rulebook's examples), nobody else."""
    st = _spell("conjure_familiar", "ward", "spellpower")
    view = T.view(st, 0)
    assert view["queue"][-1]["final"] == "summon a 2/2 with 1 shield token"
    assert view["charm_preview"]["spellpower"] == "summon a 3/3 with 2 shield tokens"         # TC-7 example 3
    assert "charm_preview" not in T.view(st, 1) and "charm_preview" not in T.view(st, None)
    st = _spell("arcane_bolt", "frost")
    assert T.view(st, 0)["charm_preview"] == {"frost": "2 damage, then 1 ice token to a character"}   # example 2
    st = _spell("arcane_bolt", "frost", "ward")
    assert T.view(st, 0)["charm_preview"]["ward"].endswith("(its tokens are of two types, so none is dealt)")   # TC-6
    assert T.view(st, 0)["queue"][-1]["final"] == "2 damage, then 1 ice token to a character"


def test_a_card_marks_the_numbers_charms_may_change():
    """TF-2: a power's numbers are modifiable (bold on the card) unless `fixed` names them; a charm's are not."""
    from engine_c.spellbooktcg import cards as C

    mine = C.cards_from_data("my_cards.json", MY_CARDS)
    fireball = T.card_json(mine.cards["fireball"])
    assert fireball["effect"] == "3 damage, then 1 fire token to a character"
    assert [t for t, bold in fireball["effect_parts"] if bold] == ["1"]                # the 3 is fixed
    assert [t for t, bold in T.card_json(mine.cards["empower"])["effect_parts"] if bold] == []
    assert "".join(t for t, _ in fireball["effect_parts"]) == fireball["effect"]


def test_review_labels_name_the_turn_and_the_spell_and_never_repeat():
    """A review's entries (decision_labels) for the TCG: 'Turn 5 · turn of seat 1 · spells · spell 2', each
    label once in a game (the casts that alternate between the seats have their own spell numbers)."""
    st, rng, steps = State.new(seed=7), random.Random(2), []
    while not st.is_terminal() and len(steps) < 200:
        if st.is_chance():
            st.resolve_chance()
            continue
        move = rng.choice(st.legal_moves())
        steps.append((st.copy(), move, st.current_player))
        st.apply(move)
    labels = records.decision_labels(T, steps)
    assert len(set(labels)) == len(labels) and not any(re.search(r"\d(st|nd|rd|th) turn", lb) for lb in labels), labels
    assert any(re.fullmatch(r"Turn \d+ · turn of seat [01] · spells · spell \d+( · \d+(st|nd|rd|th) decision)?", lb)
               for lb in labels), labels[:20]


def test_the_log_says_a_fire_or_ice_tick_at_the_turns_end():
    """TT-8, TK-4, TK-5: one fewer fire or ice token on the active seat's character when its turn ends is
    said as a tick; any other change of tokens as it is."""
    st = position(phase="cast", wiz=("fire2/-", "-/-"), hand=((), ()), mana=((), ()))
    before = st.copy()
    st.apply("pass")                      # the step ends with nothing cast: combat, the ticks, the next turn
    st.resolve_chance()
    lines = T.event_lines(before, before.parse_move("pass"), st, [], 0)
    assert "your wizard's fire ticks at the turn's end: 2 -> 1" in lines and "your wizard takes 2 damage" in " ".join(lines), lines


def test_a_pages_own_card_file_needs_no_digest_and_a_broken_one_names_the_card_and_field():
    """request_setup: a `decks` object with a card file and no digest takes the file's own (a page cannot
    compute it); a card file that does not load is refused naming the card and the field."""
    from engine_c.spellbooktcg.record import request_setup

    setup = request_setup({"card_file": MY_CARDS, "seats": MY_DECKS["decks"] * 2})
    st = records.new_game(GAME, 2, setup, 1)
    assert st.wizard_ids() == ["archmage", "archmage"] and setup["cards"] in st.to_text()
    broken = json.loads(json.dumps(MY_CARDS))
    broken["cards"][1]["effects"][0]["damage"] = "3"
    with pytest.raises(ValueError, match=r"card fireball: field effects\[0\]\.damage"):
        request_setup({"card_file": broken, "seats": MY_DECKS["decks"] * 2})
