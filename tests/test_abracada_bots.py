"""Every bot plays Abracada…What? through the game-agnostic search/ (search.bots.make_bot with the game's
adapter), and the count-based heuristic bot (after hctung101/ABRACAWHAT's R program) plays by its rule."""
import pytest

from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.abracadawhat.heuristic import CountingBot, move_values
from engine_c.abracadawhat.state import State
from search.arena import play_game
from search.bots import make_bot

SPECS = ["random", "greedy", "flatmc:iterations=150", "ismcts:iterations=150", "ismcts:level=2",
         "ismcts:iterations=150,chance=open,threads=2"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("players", (2, 5))
def test_search_bots_play_full_games(spec, players):
    bots = [make_bot(spec, ABRACADAWHAT, seed=s) for s in range(players)]
    rec = play_game(lambda seed: State.new(players=players, seed=seed), bots, seed=7)
    assert not rec.unfinished and max(rec.scores) >= 8 and rec.winners
    again = play_game(lambda seed: State.new(players=players, seed=seed),
                      [make_bot(spec, ABRACADAWHAT, seed=s) for s in range(players)], seed=7)
    assert again.moves == rec.moves                      # same seeds, same game


def test_counting_bot_casts_its_most_probable_spell_and_stops_below_threshold():
    st = State.new(players=3, seed=2)
    bot = CountingBot(threshold=0.2)
    move, info = bot.choose(st)
    chances = st.holding_probabilities(0)
    assert move.kind == "cast" and chances[move.value] == max(chances.values())
    # after a success: end once no legal cast reaches the threshold
    st.apply(move)
    st.resolve_chance()
    if st.current_player == 0:
        legal = st.legal_moves()
        values = move_values(st, legal, 0.2)
        best = legal[values.index(max(values))]
        casts = [st.holding_probabilities(0)[m.value] for m in legal if m.kind == "cast"]
        assert (best.kind == "end") == (max(casts) < 0.2)
    with pytest.raises(ValueError, match="threshold"):
        CountingBot(threshold=1.5)


def test_counting_bot_beats_random_play():
    wins = 0.0
    games = 30
    for g in range(games):
        bots = [CountingBot(seed=g), make_bot("random", ABRACADAWHAT, seed=g)]
        if g % 2:
            bots.reverse()
        rec = play_game(lambda seed: State.new(players=2, seed=seed), bots, seed=g)
        seat = 0 if g % 2 == 0 else 1
        wins += (1 / len(rec.winners)) if seat in rec.winners else 0
    assert wins / games > 0.7
