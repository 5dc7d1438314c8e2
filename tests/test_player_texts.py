"""What a player reads says no rule id and counts right (issue 42 item 5). Rule ids (XR3, XC8, ...) stay in
code comments, tests and docs; the texts a player reads in the terminal, the insight and the review have none.
Rules: ../shared/rules/ABRACADAWHAT.md (XI4: a seat's unseen stones are its own hand, the pile, the secret stones)."""
import re

from engine_c.abracadawhat import State
from engine_c.abracadawhat import text as T
from engine_c.abracadawhat.heuristic import CountingBot

RULE_ID = re.compile(r"\b(X[A-Z]{1,2}\d+|S\d+[a-z]?|[A-Z]{1,2}\d+\.\d+)\b")


def _truth(st: State, seat: int) -> dict[int, int]:
    """XI4 by hand: the seat's own hand, the pile, the secret stones and the others' taken secret stones."""
    raw = st._to_raw()
    return {k: st.hand(seat).count(k) + raw["pile"][k - 1] + raw["secret"][k - 1]
            + sum(raw["taken"][q][k - 1] for q in range(st.players) if q != seat) for k in range(1, 9)}


def test_hold_counts_unseen_stones_after_the_seat_s_own_cast():
    """Seed 0, 3 players: seat 0 casts its 8 successfully; the cast stone lies face up, so of spell 8's
    stones 3 are unseen, not 4 (the engine's belief key still counts the cast one)."""
    st = State.new(players=3, seed=0)
    st.play("cast 8")
    assert st.current_player == 0 and st.unseen(0)[8] == 4
    assert T.unseen_by_spell(st, 0) == _truth(st, 0) and T.unseen_by_spell(st, 0)[8] == 3
    text = T.holding_text(st, 0)
    assert "(3 of its 8 stones unseen)" in text and "of its 1 stones" not in text and "of its 1 stone unseen" in text


def test_unseen_counts_follow_XI4_through_whole_games():
    for seed in range(3):
        st, bots = State.new(players=3, seed=seed), [CountingBot(seed=s) for s in range(3)]
        while not st.is_terminal():
            if st.is_chance():
                st.apply(st.sample_chance())
                continue
            seat = st.current_player
            assert T.unseen_by_spell(st, seat) == _truth(st, seat)
            st.play(bots[seat].choose(st)[0])


def test_announcement_texts_name_no_rule_and_read_as_sentences():
    for variants in ("", "xv2"):
        for seed in range(6):
            st, bots = State.new(players=3, seed=seed, variants=variants), [CountingBot(seed=s) for s in range(3)]
            while not st.is_terminal():
                if st.is_chance():
                    st.apply(st.sample_chance())
                    continue
                seat = st.current_player
                for text in (T.holding_text(st, seat), T.announcements_text(st, seat), T.render_view(st, seat)):
                    assert not RULE_ID.search(text), text
                    assert "1 a secret stone" not in text
                # names that carry parentheses (the terminal's "seat 1 (counting)", the page's "Bot 2 (level 2)")
                # never meet another pair: "Bot 2 (level 2) (6 life, 17%)" read as two asides
                labelled = [f"seat {p} (level {p + 1})" for p in range(3)]
                assert ") (" not in T.announcements_text(st, seat, labelled)
                before = st.clone()
                move = bots[seat].choose(st)[0]
                st.play(move)
                for line in T.describe_changes(before, move, st, T.seat_names(3)):
                    assert not RULE_ID.search(line), line
            assert not RULE_ID.search(T.describe_final(st, T.seat_names(3)))
    assert not RULE_ID.search(" ".join(T.EFFECTS.values()) + " ".join(T.REASONS.values()))


def test_a_level_is_called_the_strongest_only_where_its_ladder_rates_it_highest():
    """Issue 51 item 10: Abracada…What?'s ladder rates level 10 below levels 8 and 9, so it is not called
    the strongest there (the chooser, GetRules, the terminal's help); SpellBook's rates it highest."""
    import json
    from pathlib import Path

    from search.levels import level_words
    from server.levels_info import ladder_table

    data = Path(__file__).resolve().parent.parent / "data"
    aw = {lv: e for lv, (e, _) in ladder_table(str(data / "ladder-abracadawhat.json")).items()}
    sb = {lv: e for lv, (e, _) in ladder_table(str(data / "ladder.json")).items()}
    name, meaning = level_words(10, aw)
    assert "strongest" not in name + meaning and "below levels 8 and 9" in meaning, (name, meaning)
    assert level_words(10, sb)[0] == "strongest" and max(sb, key=sb.get) == 10
    assert "strongest" not in " ".join(level_words(10)) and level_words(9, aw)[0] == "expert+"
    assert json.loads((data / "ladder-abracadawhat.json").read_text())["levels"]


def test_a_review_s_first_line_names_the_spells_as_the_game_does():
    """The terminal's review said 'spells ..., TimeTravel, ...' under a game that began 'Time Travel'."""
    from engine_c.spellbook import text as ST

    line = ST.record_line({"players": 2, "spells": ["Sacrifice", "TimeTravel", "Transmutation"]})
    assert line == "2 players, spells Sacrifice, Time Travel, Transmutation"
