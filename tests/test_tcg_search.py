"""The Spellbook TCG through search/ (engine_c/spellbooktcg/game.py): the contract's conversions and a whole
game between two small ISMCTS searches that ends with a winner or a draw."""
from engine_c.contract import GameAdapter
from engine_c.spellbooktcg import State
from engine_c.spellbooktcg.game import TCG, SpellbookTCGGame
from search.search import SearchOptions, ismcts


def test_adapter_contract_defaults():
    assert isinstance(TCG, GameAdapter) and TCG.name == "spellbooktcg" and TCG.title == "Spellbook TCG"
    st = State.new(seed=1)
    assert TCG.num_players(st) == 2 and TCG.current_player(st) == 0
    assert [TCG.code(m) for m in TCG.legal_moves(st)] == [m.code for m in st.legal_moves()]
    assert TCG.move(TCG.code(st.legal_moves()[0])) == st.legal_moves()[0]
    child = TCG.child(st, st.legal_moves()[0])
    assert child != st and st.current_player == 0
    assert TCG.new_belief == GameAdapter.new_belief
    assert TCG.default_model_path.endswith("data/models/spellbooktcg.npz")
    # its own levels (D254): budgets that rise level by level; with the model, the policy's own moves at
    # levels 1-4, the network search above them, the heuristic between 4 and 5, 400 iterations by default
    budgets = [TCG.level_table[lv]["iterations"] for lv in range(1, 11)]
    assert budgets == sorted(set(budgets)) and TCG.heuristic_after == 4 and TCG.default_level == 9
    assert set(TCG.policy_levels) == {1, 2, 3, 4} and TCG.network_levels == frozenset(range(5, 11))
    assert TCG.level_table[TCG.default_level]["iterations"] == 400
    # the parts it gives (D175): the heuristic (greedy and `heuristic` bots) and senseless targets
    assert set(TCG.bots) == {"heuristic"} and len(TCG.move_values(st, st.legal_moves())) == len(st.legal_moves())
    assert SpellbookTCGGame.move_family(st, st.legal_moves()[0]) == ("move", st.legal_moves()[0].code)
    out = TCG.sample_outcome(TCG.child(st, st.legal_moves()[-1]), seed=3)
    assert not out.is_chance()


def test_full_game_between_two_searches_ends():
    st = State.new(seed=4, turn_limit=60)
    decisions = 0
    while not st.is_terminal():
        r = ismcts(TCG, st, SearchOptions(iterations=24, seed=decisions, cutoff=40))
        st.play(r.move)
        decisions += 1
    assert st.winners() in ([0], [1], [0, 1]) and decisions > 20
    wins, scores = TCG.final_values(st)
    assert sum(wins) == 1.0 and scores == [float(s) for s in st.scores()]


def test_heuristic_bots_play_and_senseless_targets_are_the_wrong_side():
    """D175: `greedy` and `heuristic` play whole games; at a target decision a purely harmful spell aimed at
    one's own side (or a helpful one at the other's) is senseless while the other side is a legal target."""
    from search.bots import make_bot

    found = 0
    for spec in ("greedy", "heuristic"):
        bots = [make_bot(spec, TCG, seed=1), make_bot("random", TCG, seed=2)]
        st = State.new(seed=9)
        while not st.is_terminal():
            moves = st.legal_moves()
            if st.phase == "target":
                bad = TCG.senseless_moves(st, moves)
                fin = st.final_spell(st._to_raw()["resolving"])
                kinds = {k for k, _t, v in fin["effects"] if v > 0}
                caster = st._to_raw()["queue"][st._to_raw()["resolving"]][0]
                if kinds == {"damage"} and any(str(m) == f"target w{1 - caster}" for m in moves):
                    assert any(str(m) == f"target w{caster}" for m in bad)
                    assert all(str(m) != f"target w{1 - caster}" for m in bad)
                    found += 1
                assert len(bad) < len(moves)
            st.play(bots[st.current_player].choose(st)[0])
        assert st.winners() in ([0], [1], [0, 1])
    assert found


def test_the_ladder_puts_the_heuristic_where_the_game_says(monkeypatch):
    """D254: the TCG's heuristic bot stands between levels 4 and 5 (adapter.heuristic_after), and those two
    meet directly; moved by the adapter, it moves on the chain."""
    from clients.ladder import ladder_tables

    chain, tables = ladder_tables(list(range(1, 11)), game="spellbooktcg")
    assert chain.index("greedy") == chain.index("ismcts:level=4") + 1
    assert ("ismcts:level=4", "ismcts:level=5") in tables and ("greedy", "ismcts:level=5") in tables
    monkeypatch.setattr(type(TCG), "heuristic_after", 6)
    chain, tables = ladder_tables(list(range(1, 11)), game="spellbooktcg")
    assert chain.index("greedy") == chain.index("ismcts:level=6") + 1 and ("greedy", "ismcts:level=7") in tables


def test_levels_search_with_the_shipped_model():
    """D254: with data/models/spellbooktcg.npz the levels are the policy's moves (1-4) and the network search
    (5-10) at the table's budgets, with the leaves the model was gated with; `evaluator=rollout` keeps the
    rollout search."""
    from search.levels import level_options
    from search.model import default_model

    model = default_model(TCG)
    assert model is not None and model.use_by_default and model.meta["game"] == "spellbooktcg"
    gate = model.meta["training"]["gate"]
    assert gate["games"] >= 200 and gate["elo_95"][0] > 100            # issue 50: +100 over 200 games
    for lv in range(1, 11):
        o = level_options(lv, game=TCG)
        assert o.evaluator == "auto" and o.rollout_mix == model.meta["search"]["rollout_mix"]
        assert (o.policy_temperature > 0) == (lv <= 4) and o.iterations == (1 if lv <= 4 else
                                                                          TCG.level_table[lv]["iterations"])
    assert level_options(9, evaluator="rollout", game=TCG).evaluator == "rollout"
    st = State.new(seed=2)
    st.resolve_chance()
    r = ismcts(TCG, st, level_options(9, game=TCG))
    assert r.model == model.version