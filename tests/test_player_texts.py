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
    """Issue 51 item 10: level 10 is called the strongest (the chooser, GetRules, the terminal's help) only
    where its game's ladder rates it above every other level. Abracada…What?'s ladder rated it below levels 8
    and 9 until its top was re-spaced (D230-f); both shipped ladders rate it highest now, and a table that does
    not gets the deepest search, with the levels rated above it named."""
    from pathlib import Path

    from search.levels import level_words
    from server.levels_info import ladder_table

    data = Path(__file__).resolve().parent.parent / "data"
    for table in ("ladder-abracadawhat.json", "ladder.json"):
        elo = {lv: e for lv, (e, _) in ladder_table(str(data / table)).items()}
        assert level_words(10, elo)[0] == "strongest" and max(elo, key=elo.get) == 10, table
    below = {8: 1214.2, 9: 1257.4, 10: 1178.8, 7: 1162.4}           # Abracada…What?'s table before D230-f
    name, meaning = level_words(10, below)
    assert "strongest" not in name + meaning and "below levels 8 and 9" in meaning, (name, meaning)
    assert "strongest" not in " ".join(level_words(10)) and level_words(9, below)[0] == "expert+"


def test_a_review_s_first_line_names_the_spells_as_the_game_does():
    """The terminal's review said 'spells ..., TimeTravel, ...' under a game that began 'Time Travel'."""
    from engine_c.spellbook import text as ST

    line = ST.record_line({"players": 2, "spells": ["Sacrifice", "TimeTravel", "Transmutation"]})
    assert line == "2 players, spells Sacrifice, Time Travel, Transmutation"


# ----------------------------------------------------------------------------------------------
# SpellBook's moves in words (issue 51 item 10): engine_c/spellbook/move_words.py, the one source of the
# terminal's and the page's words (the API's Move.words)
# ----------------------------------------------------------------------------------------------
SB_NOTATION = re.compile(r"\b(TimeTravel|Transmutation/|Focus/)|\b[A-Z][a-z]+ [345]\b(?! \()| : ")


def _boosted(st, rng):
    """Every seat with the spells it lacks learned at level 3, 4 or 5 on Day 0 (one color left out per seat, so
    Clone and Transmutation have something to copy and to learn), each card's token taken from the Pouch:
    the high levels random play rarely reaches."""
    from engine_c.spellbook.notation import _build

    raw = st._to_raw()
    for p in range(st.players):
        for c in range(7):
            runes = [r for r in range(3) if raw["pouch"][3 * c + r]]
            if c == (p + 1) % 7 or raw["level"][p][c] or not runes:
                continue
            r = rng.choice(runes)
            raw["pouch"][3 * c + r] -= 1
            raw["level"][p][c], raw["rune"][p][c], raw["learned_day"][p][c] = rng.choice((3, 4, 5)), r, 0
    return _build(type(st), raw)


def _sb_move_texts() -> set[str]:
    """Every legal move text met in seeded random games with each spell set (set1, set2, set3, classic), half
    of them with every seat given the spells it lacks, at levels 3 to 5, after two rounds."""
    import random

    from engine_c.spellbook.state import State as SBState

    seen: set[str] = set()
    for spells in ("set1", "set2", "set3", "classic"):
        for seed in range(8):
            st, rng, boost = SBState.new(players=2 + seed % 3, spells=spells, seed=seed), random.Random(seed), seed % 2
            while not st.is_terminal():
                if st.is_chance():
                    move = st.sample_chance()
                    seen.add(str(move))
                    st.apply(move)
                    continue
                if boost and st.day >= 2 * st.players and st.phase == "morning":
                    st, boost = _boosted(st, rng), 0
                moves = st.legal_moves()
                seen.update(str(m) for m in moves)
                spell = [m for m in moves if m.kind not in ("pass", "take", "draw", "store")]
                st.apply(rng.choice(spell) if spell and rng.random() < 0.7 else rng.choice(moves))
    return seen


def test_every_spellbook_move_met_in_play_is_in_words():
    """No move kind falls through to its notation: every legal move text of random games with all spell sets
    (and every effect level: half the games give every seat the spells it lacks, up to level 5) has words that differ from it, name
    spells by their titles, keep no learning's ' : ' nor a bare 'Offering 3', and cite no rule."""
    from engine_c.spellbook._engine import MOVE_KINDS
    from engine_c.spellbook.text import move_words

    texts = _sb_move_texts()
    kinds = {t.split()[0].split("/")[0] for t in texts}
    assert kinds == set(MOVE_KINDS.values()), set(MOVE_KINDS.values()) - kinds       # every kind met
    levels = {t.split()[0] + " " + t.split()[1] for t in texts if len(t.split()) > 1 and t.split()[1].isdigit()}
    for spell in ("Eruption", "Levitation", "Sharing", "Divination", "Purification", "Cure", "Offering", "Storm"):
        assert {f"{spell} {lvl}" for lvl in ((4, 5) if spell == "Storm" else (3, 4, 5))} <= levels, spell
    for text in sorted(texts):
        words = move_words(text)
        assert words != text and not SB_NOTATION.search(words) and not RULE_ID.search(words), (text, words)
        for token in re.findall(r"\b[RPGKWBY][cts]\b", text):            # its tokens stay, as codes
            assert token in words, (text, words)


def test_spellbook_move_words_say_what_the_rules_say():
    """A few sentences against SPELLBOOK.md §7 (effect level N of an action: T4)."""
    from engine_c.spellbook.text import move_words

    cases = {
        "pass": "pass: skip this action or step",
        "take Rc": "take Rc from the Altar",
        "draw": "draw 2 from the Pouch",
        "store Kt": "store Kt on the familiar",
        "drawn Rc": "a draw from the Pouch: Rc",
        "learn Transmutation 3 Bt : Bs Bs": "learn Transmutation at level 3 (rune Bt), paying Bs Bs",
        "TimeTravel Kc Abundance": "Time Travel: discard Kc, raise Abundance one level",
        "Offering 3": "Offering (level 3): store 2 pool tokens of one color on the familiar",
        "Offering 5": "Offering (level 5): store 4 pool tokens of one color on the familiar",
        "swap Rc Gt": "swap: take Rc from the Altar, give Gt from the pool to the Altar",
        "Sacrifice Rc": "Sacrifice: discard Rc, then draw 4",
        "Eruption 4": "Eruption (level 4): draw until the pool holds 5 tokens",
        "Levitation 4": "Levitation (level 4): take 2 Altar tokens of one rune, c or t",
        "Sharing 3": "Sharing (level 3): take 1 Altar token, then draw 1; then every other player draws 1",
        "Sharing 5": "Sharing (level 5): take 3 Altar tokens; then every other player draws 1",
        "Divination 4": "Divination (level 4): draw 2 from the Pouch onto the Altar, then take up to 2 tokens of one color",
        "Purification 4": "Purification (level 4): swap twice, each time 1 pool token for 1 Altar token",
        "Cure 5": "Cure (level 5): draw 3, then discard 3",
        "discard Rc Ks Ys": "discard Rc Ks Ys to the Discard box",
        "Feast 4 Rc": "Feast (level 4): take Rc from the Altar and store it at once",
        "Growth 3 Rc Kt": "Growth (level 3): swap Rc from the pool with Kt stored on the familiar",
        "Focus 4 store": "Focus (level 4): store 2 pool tokens bearing Focus's rune on the familiar",
        "Focus/t 5 take": "Focus (level 5): take 2 Altar tokens bearing rune t",
        "Clone 5 Wc": "Clone (level 5): discard Wc, then copy another player's Morning action, at their level",
    }
    for text, words in cases.items():
        assert move_words(text) == words, text
    assert move_words("Growth 5").startswith("Growth (level 5): take 3 Altar tokens and store them at once, then "
                                             "Growth moves down to level 4")
    assert move_words("Storm 4").endswith("then take 3 Altar tokens; Storm moves down to level 3")
    assert "with Transmutation" in move_words("Transmutation Sacrifice 4 Rc : Rc Bt")
    assert "rune t" in move_words("Transmutation/t Sacrifice 4 Rc : Rc Bt")
    assert move_words("Purification 2") == "Purification 2"          # no such move: its text as it is


def test_a_review_says_each_game_s_moves_in_its_own_words():
    """search/review.py stays game-agnostic: clients/review.py hands it the game's words through the contract's
    optional text part (engine_c.contract.move_words): SpellBook's sentences, Abracada…What?'s announcements, and
    a game without them says its moves by their text."""
    import types

    from engine_c.contract import move_words
    from engine_c.registry import get_game

    assert move_words(get_game("spellbook").text)("TimeTravel Kc Abundance") == \
        "Time Travel: discard Kc, raise Abundance one level"
    assert move_words(get_game("abracadawhat").text)("cast 5") == f"announce {T.spell_name(5)}"
    assert move_words(get_game("abracadawhat").text)("end") == "end the turn"
    assert move_words(types.ModuleType("a game's text without words"))("take 3") == "take 3"
