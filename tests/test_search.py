"""ISMCTS and the baseline bots (issue 3): determinism, fairness, deadlines, obvious moves, strength."""
import threading
import time

import pytest

from engine_c import State
from engine_c.spellbook.game import SPELLBOOK
from search import CancelToken, SearchOptionError, SearchOptions, flat_monte_carlo, ismcts
from search.hints import top_hints
from search.search import MoveStats, choose_final, lower_confidence_bound
from search.arena import play_game, win_share
from search.bots import GreedyBot, ISMCTSBot, RandomBot, make_bot
from search.levels import LEVELS, level_options
from positions import position


def stats_key(result):
    return [(str(m.move), m.visits, m.availability, round(m.mean_reward, 12), [round(x, 9) for x in m.expected_score])
            for m in result.moves]


def test_same_seed_same_move_and_statistics():
    state = State.new(players=3, spells="classic", seed=11)
    for threads in (1, 2):
        opts = SearchOptions(iterations=600, threads=threads, seed=42)
        a, b = ismcts(SPELLBOOK, state, opts), ismcts(SPELLBOOK, state, opts)
        assert a.move == b.move and stats_key(a) == stats_key(b)
        assert a.iterations == 600 and not a.cut_short
    c = ismcts(SPELLBOOK, state, SearchOptions(iterations=600, seed=43))
    assert stats_key(c) != stats_key(a)


def test_statistics_are_consistent():
    state = State.new(players=2, seed=4)
    r = ismcts(SPELLBOOK, state, SearchOptions(iterations=800, seed=1))
    assert sum(m.visits for m in r.moves) == r.iterations
    legal = {str(m) for m in state.legal_moves()}
    assert {str(m.move) for m in r.moves} <= legal
    for m in r.moves:
        assert m.availability >= m.visits
        if m.visits:
            assert abs(sum(m.win_probability) - 1.0) < 1e-9      # ties shared: shares sum to 1
        else:       # never tried (a learned prior can be that small): no estimate, all zero, never the choice
            assert sum(m.win_probability) == sum(m.expected_score) == 0 and m.move != r.move
        assert all(s >= 0 for s in m.score_std)
    assert r.move == r.moves[0].move and r.principal_variation[0] == r.move


def test_fairness_hidden_pouch_order_does_not_matter():
    """§8: two states with the same observation (different Pouch order = rng) search identically."""
    state = State.new(players=2, seed=8)
    other = state.determinize(0, knows_discard=True, seed=999)
    assert other != state and other.observation(0) == state.observation(0)
    opts = SearchOptions(iterations=500, seed=5)
    assert stats_key(ismcts(SPELLBOOK, state, opts)) == stats_key(ismcts(SPELLBOOK, other, opts))


def test_fairness_without_discard_memory():
    """The observer who does not know the Discard box: different Pouch/Discard splits, same result."""
    state = State.new(players=2, seed=8)
    for move in ["draw", "store Rs", "pass"]:
        state.play(move) if state.is_legal(move) else state.play(state.legal_moves()[0])
    while state.current_player != 1 or state.decision != "morning":
        state.play(state.legal_moves()[-1])
    a = state.determinize(1, knows_discard=False, seed=1)
    b = state.determinize(1, knows_discard=False, seed=2)
    assert a.observation(1, knows_discard=False) == b.observation(1, knows_discard=False)
    opts = SearchOptions(iterations=400, seed=3, observer_kind=1)   # SpellBook: no Discard-box memory
    assert stats_key(ismcts(SPELLBOOK, a, opts)) == stats_key(ismcts(SPELLBOOK, b, opts))


def test_stops_by_its_deadline_and_reports_cut_short():
    state = State.new(players=4, seed=2)
    start = time.monotonic()
    r = ismcts(SPELLBOOK, state, SearchOptions(iterations=10_000_000, time_ms=150, seed=1))
    assert time.monotonic() - start < 0.6 and r.cut_short and r.iterations > 0
    r = ismcts(SPELLBOOK, state, SearchOptions(iterations=0, deadline=time.monotonic() + 0.1, seed=1))
    assert r.elapsed_s < 0.5 and r.iterations > 0


def test_cancel_from_another_thread_returns_best_so_far():
    state = State.new(players=2, seed=2)
    token = CancelToken()
    timer = threading.Timer(0.1, token.cancel)
    timer.start()
    start = time.monotonic()
    r = ismcts(SPELLBOOK, state, SearchOptions(iterations=50_000_000, threads=2, seed=1), cancel=token)
    assert time.monotonic() - start < 1.0 and r.cut_short and r.move in state.legal_moves()


def test_finds_the_learn_that_ends_the_game_with_a_win():
    """E1/E2: seat 1 (last in the round) learning its 7th spell ends the game, 17 to 15."""
    six = {"Sacrifice": (3, "c", 0), "Levitation": (3, "c", 0), "Purification": (3, "c", 0),
           "Offering": (3, "c", 0), "TimeTravel": (3, "c", 0), "Transmutation": (3, "c", 0)}
    state = position(players=2, spells="set1", active=1, day=9, at="evening", pools={1: "Yc2Yt"},
                     fam={0: "Kt2Ks3Gs3Ps3Pt3"}, learned={1: six})
    assert state.scores()[0].total == 15 and state.scores()[1].total == 14
    r = ismcts(SPELLBOOK, state, SearchOptions(iterations=1500, seed=7))
    assert str(r.move).startswith("learn Abundance 3"), r.moves[:3]
    assert r.moves[0].win_probability[1] > 0.95


def test_finds_the_altar_token_that_enables_a_level_5_learn():
    """L1: with 4 red tokens, taking the Altar's Rs allows Blaze at level 5 (5 points), the only win."""
    state = position(players=2, spells="set3", active=1, day=9, at="morning", end=1,
                     pools={1: "Rc2RtRs"}, altar="RsGcKtYs", discard="Rc2Rt4Rs2", fam={0: "Gs3Kc3Bc", 1: "PtYt2"})
    assert state.scores()[0].total == 8 and state.scores()[1].total == 4
    r = ismcts(SPELLBOOK, state, SearchOptions(iterations=3000, seed=3, evaluator="rollout"))
    assert str(r.move) == "take Rs", [(str(m.move), m.visits) for m in r.moves[:4]]
    # the learned search (its default evaluation) finds it with a larger budget: the learn is three
    # decisions away, and the value alone does not see it coming (docs/learned.md, "what limits it"). Its
    # model's value of this hand-built position is off the map (it expects final scores near 20 where
    # the game ends at 9), so the search finds the win late: with g5-da1d3fb4 "take Rs" had 8,998 visits
    # at 0.97 against the draw's 10,654 at 0.10 (2026-11-26), and the lower confidence bound played it
    # (SearchOptions.lcb_stdevs); with g5-bfa8ec5e it is the most visited, 13,902 at 0.95 against 5,807
    # at 0.23 (2026-11-27)
    r = ismcts(SPELLBOOK, state, SearchOptions(iterations=20000, seed=3))
    assert str(r.move) == "take Rs", [(str(m.move), m.visits) for m in r.moves[:4]]
    # hints show the move chosen first, whether or not it is the most visited (D45, D101)
    assert r.chosen.move == r.move and top_hints(r, 2)[0].move == r.move


def test_the_move_played_is_the_most_visited_unless_another_is_proven_better():
    """lcb_stdevs: a move with enough visits whose lower confidence bound beats the leader's is played."""
    def stat(name, visits, mean):
        return MoveStats(move=name, visits=visits, availability=visits, mean_reward=mean,
                         win_probability=[mean], expected_score=[0.0], score_std=[0.0])
    late_win = [stat("draw", 10_000, 0.10), stat("take", 9_000, 0.97), stat("pass", 100, 0.99)]
    assert choose_final(late_win, 0.0, 1, lcb_stdevs=5.0).move == "take"
    assert choose_final(late_win, 0.0, 1, lcb_stdevs=0.0).move == "draw"          # most visits only
    # "pass" has the best mean but fewer than LCB_MIN_VISIT_SHARE of the leader's visits: never played
    assert choose_final([stat("a", 1000, 0.5), stat("b", 100, 0.99)], 0.0, 1, lcb_stdevs=5.0).move == "a"
    # another move is played only when its bound beats the leader's mean: 0.60 - 0.20 < 0.50 keeps the
    # leader; 0.70 - 0.06 (on 1,500 visits) > 0.50 does not
    assert choose_final([stat("a", 200, 0.50), stat("b", 150, 0.60)], 0.0, 1, lcb_stdevs=5.0).move == "a"
    assert choose_final([stat("a", 2000, 0.50), stat("b", 1500, 0.70)], 0.0, 1, lcb_stdevs=5.0).move == "b"
    # near-equal moves near a certain result (tiny bounds) keep the leader: no choice by noise
    assert choose_final([stat("a", 2000, 0.990), stat("b", 1500, 0.995)], 0.0, 1, lcb_stdevs=5.0).move == "a"
    assert lower_confidence_bound(stat("a", 100, 0.5), 5.0) == pytest.approx(0.25)
    assert SearchOptions().lcb_stdevs == 5.0


def test_flat_monte_carlo_and_greedy_play_legal_moves():
    state = State.new(players=2, seed=5)
    r = flat_monte_carlo(SPELLBOOK, state, SearchOptions(iterations=300, seed=1))
    assert r.move in state.legal_moves() and sum(m.visits for m in r.moves) == 300
    move, info = GreedyBot(SPELLBOOK, seed=1).choose(state)
    assert move in state.legal_moves() and "value" in info


def test_bad_options_name_their_field():
    state = State.new(players=2, seed=5)
    for kwargs, field in [({"iterations": -1}, "iterations"), ({"threads": 0}, "threads"),
                          ({"objective": "fun"}, "objective"), ({"time_ms": -5.0}, "time_ms"),
                          ({"iterations": 0}, "iterations"), ({"rollout": "smart"}, "rollout"),
                          ({"chance": "peek"}, "chance"), ({"expand": "best"}, "expand"), ({"fpu": -1.0}, "fpu"),
                          ({"lcb_stdevs": -1.0}, "lcb_stdevs"), ({"lcb_stdevs": float("inf")}, "lcb_stdevs"),
                          ({"observer_kind": -1}, "observer_kind"), ({"observer_kind": True}, "observer_kind"),
                          ({"observer_kind": 2**31}, "observer_kind")]:
        with pytest.raises(SearchOptionError) as e:
            ismcts(SPELLBOOK, state, SearchOptions(**kwargs))
        assert e.value.field == field
    with pytest.raises(ValueError, match="chance"):
        s = State.new(players=2, seed=1)
        s.apply("draw")
        ismcts(SPELLBOOK, s, SearchOptions(iterations=10))


def test_levels_are_monotone_and_specs_parse():
    its = [LEVELS[lv][0] for lv in range(1, 11)]
    temps = [LEVELS[lv][1] for lv in range(1, 11)]
    assert its == sorted(its) and temps == sorted(temps, reverse=True)
    assert level_options(10, evaluator="rollout").time_ms == 1000 and level_options(10).time_ms == 0
    with pytest.raises(ValueError, match="level"):
        level_options(11)
    assert make_bot("ismcts:iterations=500,threads=1", SPELLBOOK).options.iterations == 500
    assert make_bot("flatmc:iterations=200", SPELLBOOK).options.iterations == 200
    with pytest.raises(ValueError, match="unknown option"):
        make_bot("ismcts:speed=3", SPELLBOOK)

def test_the_learned_searchs_levels_climb_from_the_policy_to_the_search_and_default_to_400_iterations():
    """D140: levels 1-4 play the policy's own moves (one iteration), sampled ever more sharply down to its
    first choice; 5-10 search with the network on a rising budget; a request naming no level gets 400
    iterations whichever table applies; an explicit evaluator is obeyed at every level."""
    from search.levels import NETWORK_LEVELS, PLAY_LEVEL, default_level

    opts = [level_options(lv, game=SPELLBOOK) for lv in range(1, 11)]
    assert all(o.evaluator == "auto" for o in opts)
    policy = [o for o in opts if o.policy_temperature > 0]
    assert len(policy) == 4 and all(o.iterations == 1 for o in policy)
    assert [o.policy_temperature for o in policy[:3]] == sorted((o.policy_temperature for o in policy[:3]), reverse=True)
    assert policy[3].policy_top_k == 1                       # level 4: the policy's first choice
    searched = [o.iterations for o in opts[4:]]
    assert searched == sorted(set(searched)) and searched[-1] == 400
    assert level_options(default_level(SPELLBOOK), game=SPELLBOOK).iterations == 400
    assert level_options(default_level(SPELLBOOK, "rollout"), evaluator="rollout", game=SPELLBOOK).iterations == 500
    assert level_options(1, evaluator="network", game=SPELLBOOK).evaluator == "network"
    assert level_options(1, evaluator="rollout", game=SPELLBOOK).policy_temperature == 0     # no policy there
    assert level_options(9, evaluator="rollout", game=SPELLBOOK).iterations == LEVELS[9][0]
    assert set(NETWORK_LEVELS) == set(range(1, 11)) and PLAY_LEVEL == 4


def test_a_policy_level_plays_the_policys_plausible_moves_the_same_for_a_seed():
    """A policy level samples among the policy's best moves (top k, at least a share of its first
    choice): never a move the policy rates below the floor, the same move for the same seed, and the
    first choice at level 4."""
    st = State.new(players=2, spells="set1", seed=5)
    while st.is_chance():
        st.resolve_chance()
    seen = set()
    floor, k = level_options(1, game=SPELLBOOK).policy_floor, level_options(1, game=SPELLBOOK).policy_top_k
    assert 0 < floor < 1 and k > 1
    for seed in range(30):
        r = ismcts(SPELLBOOK, st, level_options(1, seed=seed, game=SPELLBOOK))
        top = max(s.prior for s in r.moves)
        chosen = r.stats_for(r.move)
        assert chosen.prior >= floor * top and r.iterations == 1
        assert sum(s.prior > chosen.prior for s in r.moves) < k        # among the policy's k best
        assert ismcts(SPELLBOOK, st, level_options(1, seed=seed, game=SPELLBOOK)).move == r.move
        seen.add(str(r.move))
    assert len(seen) > 1                                      # level 1 does vary its moves
    r = ismcts(SPELLBOOK, st, level_options(4, seed=3, game=SPELLBOOK))
    assert r.stats_for(r.move).prior == max(s.prior for s in r.moves)
    with pytest.raises(SearchOptionError, match="policy_temperature"):
        SearchOptions(policy_temperature=1.0, evaluator="rollout").validate()


def test_ismcts_beats_random():
    """Strength: ISMCTS at 600 iterations wins at least 7 of 8 two-player games against RandomBot (four
    deals, each from both seats; 20 games at 2,000 iterations cost most of a minute and said no more)."""
    wins = 0.0
    for g in range(4):
        for seat in (0, 1):
            smart = ISMCTSBot(SPELLBOOK, SearchOptions(iterations=600, rollout="heuristic", cutoff=30, seed=g))
            bots = [RandomBot(SPELLBOOK, seed=g)] * 2
            bots[seat] = smart
            rec = play_game(lambda s: State.new(players=2, spells="set1", seed=s), bots, seed=g)
            wins += win_share(rec, seat)
    assert wins >= 7


class _AlwaysPass:
    """A bot that skips every phase it can (T2): two of them never trigger the end (E1)."""
    name = "always-pass"

    def choose(self, state):
        moves = state.legal_moves()
        return next((m for m in moves if str(m) == "pass"), moves[0]), {}


def test_a_game_that_never_ends_stops_at_the_decision_cap():
    """D15: nothing in the rules bounds a game's length; the harness stops it and shares the result."""
    rec = play_game(lambda s: State.new(players=2, spells="set1", seed=s), [_AlwaysPass(), _AlwaysPass()],
                    seed=3, max_decisions=200)
    assert rec.unfinished and rec.winners == [0, 1]
    assert sum(1 for seat, _ in rec.moves if seat >= 0) == 200
    assert win_share(rec, 0) == win_share(rec, 1) == 0.5
    finished = play_game(lambda s: State.new(players=2, spells="set1", seed=s),
                         [RandomBot(SPELLBOOK, seed=1), RandomBot(SPELLBOOK, seed=2)], seed=3)
    assert not finished.unfinished


# Found by bot-vs-bot play: seat 1 leads 26-21 and wins in every rollout whatever it does; with a pure
# win-probability reward every move scored 1.0, `pass` came first in the tie order, and both bots passed
# for ever instead of ending the game (E1: storing the 16th token would).
DECIDED_POSITION = (
    "sb1 n=2 spells=Sacrifice,Levitation,Purification,Offering,TimeTravel,Transmutation,Abundance day=129 "
    "active=1 phase=midday end=0 over=0 altar=RtRsGsWtBcBsYcYs pouch=RtPs2GtKcKsBtBsYt2Ys "
    "discard=RcRtRs2Pc2Pt4PsGc2Gt2Gs2Kc2Kt2Ks2Wc3WtWs2Bc2Bt4BsYcYtYs2 "
    "p0=pool:PtWc;fam:Rc3KtWcWt3WsBcBs2YcYtYs;spells:Offering3s@6,Abundance3c@12 "
    "p1=pool:RtPcGcGtGsKc2KtWs;fam:RcRtRs2PcPs2Gc2GsKtKsWsYt;spells:Levitation3c@19,Purification3t@49,"
    "Transmutation3c@11,Abundance3c@7 stack=endday:1,resupply:1,evening:1,midday:1 taken=- given=- "
    "justdisc=- rng=c69b2bc70a62c24d")


@pytest.mark.parametrize("search,evaluator", [(ismcts, "rollout"), (ismcts, "network"),
                                              (flat_monte_carlo, "rollout")])
def test_a_won_game_is_closed_out_not_stalled(search, evaluator):
    state = State.from_text(DECIDED_POSITION)
    result = search(SPELLBOOK, state, SearchOptions(iterations=2000, seed=3, evaluator=evaluator))
    won = min(m.win_probability[1] for m in result.moves if m.visits)
    # every move wins: exactly in every rollout; as the learned value estimates it, nearly (reported
    # through the shipped model's calibration map, D26, which at 2 players pulls 0.97-0.99 to 0.88-0.93)
    assert won == 1.0 if evaluator == "rollout" else won > 0.85
    assert str(result.move).startswith("store")      # ...and the one chosen scores (and ends the game, E1)


def test_stop_early_gives_the_same_move_with_fewer_iterations():
    """stop_early ends a search once more iterations could not change the most visited move."""
    states = [State.new(players=2, seed=s) for s in (1, 2)] + [State.from_text(DECIDED_POSITION)]
    stopped = 0
    for st in states:
        full = ismcts(SPELLBOOK, st, SearchOptions(iterations=3000, seed=9))
        early = ismcts(SPELLBOOK, st, SearchOptions(iterations=3000, seed=9, stop_early=True))
        assert early.move == full.move and not early.cut_short
        assert early.iterations <= full.iterations == 3000
        stopped += early.stopped_early
        if early.stopped_early:
            assert early.iterations < 3000
            lead = early.moves[0].visits - (early.moves[1].visits if len(early.moves) > 1 else 0)
            assert lead > 3000 - early.iterations
    assert stopped >= 1
    assert level_options(10, evaluator="rollout").stop_early and not level_options(1).stop_early   # temperature 0
    assert not level_options(10).stop_early          # the learned search's level 10 samples at 0.15 (D104)


@pytest.mark.parametrize("variant", [{"chance": "open"}, {"expand": "prior"}, {"fpu": 1.0}])
def test_search_variants_play_legal_reproducible_moves(variant):
    state = State.new(players=3, seed=6)
    opts = SearchOptions(iterations=400, seed=2, **variant)
    a, b = ismcts(SPELLBOOK, state, opts), ismcts(SPELLBOOK, state, opts)
    assert a.move in state.legal_moves() and stats_key(a) == stats_key(b)
    assert sum(m.visits for m in a.moves) == 400


def test_tree_reuse_continues_below_the_played_move():
    """A bot with reuse_tree searches its next decision (same player, no draw in between) below the node
    of the move it played: the visits already there count towards the budget. The same seed gives the
    same game; a state the bot did not expect starts a new tree."""
    from search.search import TreeReuse

    def play(reuse_tree: bool):
        st = State.new(players=2, seed=3)
        bot = make_bot(f"ismcts:iterations=1500,reuse_tree={reuse_tree}", SPELLBOOK, seed=1)
        log = []
        for _ in range(40):
            if st.is_chance():
                st.resolve_chance()
                continue
            move, info = bot.choose(st)
            r = info.get("result")
            if r is not None:
                log.append((str(move), r.iterations, sum(m.visits for m in r.moves)))
            st.apply(move)
        return log

    with_reuse = play(True)
    assert with_reuse == play(True)                              # reproducible
    continued = [(its, total) for _, its, total in with_reuse if total > its]
    # topped up to the budget: the continued node's visits (its own first one included) reach 1500
    assert continued and all(total == 1499 for its, total in continued)
    assert all(its == total == 1500 for _, its, total in play(False))

    st = State.new(players=2, seed=3)
    reuse = TreeReuse()
    first = ismcts(SPELLBOOK, st, SearchOptions(iterations=500, seed=2), reuse=reuse)
    other = State.new(players=2, seed=4)                         # not where the played move leads
    again = ismcts(SPELLBOOK, other, SearchOptions(iterations=500, seed=2), reuse=reuse)
    assert sum(m.visits for m in again.moves) == again.iterations == 500 and first.iterations == 500


class _CountingSlicer:
    """A search.search.Slicer that only counts its pauses (and may sleep in them, as a waiting search does)."""

    def __init__(self, slice_s: float, sleep_s: float = 0.0):
        self.slice_s, self.sleep_s, self.pauses = slice_s, sleep_s, 0

    def pause(self):
        self.pauses += 1
        time.sleep(self.sleep_s)


@pytest.mark.parametrize("options", [
    dict(iterations=1500, seed=5, evaluator="rollout"),
    dict(iterations=1500, seed=5, evaluator="network"),
    dict(iterations=1200, seed=7, threads=2, evaluator="rollout"),
    dict(iterations=2000, seed=9, stop_early=True, evaluator="rollout"),
    dict(iterations=1200, seed=9, evaluator="network", root_halving=8),
])
def test_a_search_in_slices_gives_the_unsliced_answer(options):
    """Run in 2 ms slices (a server interleaving it with other calls: search.search.slicing), a fixed-seed
    search with an iteration budget makes the same iterations: the same move, statistics, tree and
    principal variation as one uninterrupted run."""
    from search.search import slicing

    state = State.new(players=2, seed=3)
    whole = ismcts(SPELLBOOK, state, SearchOptions(**options))
    slicer = _CountingSlicer(0.002)
    with slicing(slicer):
        sliced = ismcts(SPELLBOOK, state, SearchOptions(**options))
    assert slicer.pauses >= 5
    assert (sliced.move, stats_key(sliced), sliced.nodes, sliced.iterations, sliced.principal_variation,
            sliced.stopped_early) == (whole.move, stats_key(whole), whole.nodes, whole.iterations,
                                      whole.principal_variation, whole.stopped_early)


def test_a_sliced_search_time_budget_counts_its_own_time_not_its_pauses():
    """Paused for 40 ms after each 20 ms slice, a 150 ms search still searches about 150 ms (it spends
    about 450 ms in all), and the options' deadline still ends it on the wall clock."""
    from search.search import slicing

    state = State.new(players=2, seed=3)
    slicer = _CountingSlicer(0.02, sleep_s=0.04)
    t0 = time.monotonic()
    with slicing(slicer):
        result = ismcts(SPELLBOOK, state, SearchOptions(iterations=0, time_ms=150.0, seed=1, evaluator="rollout"))
    wall = time.monotonic() - t0
    assert slicer.pauses >= 3 and 0.14 <= result.elapsed_s and wall >= result.elapsed_s + 0.04 * slicer.pauses
    with slicing(_CountingSlicer(0.02, sleep_s=0.04)):
        cut = ismcts(SPELLBOOK, state, SearchOptions(iterations=0, time_ms=5000.0, seed=1, evaluator="rollout",
                                                     deadline=time.monotonic() + 0.3))
    assert cut.cut_short and cut.elapsed_s < 0.3
