"""The Spellbook TCG's features for a learned evaluation (engine_c/spellbooktcg/features.pxi): what the
observer sees and nothing else (TI-1..TI-5), through the same vtable search/ reads."""
import random

import numpy as np

from engine_c.spellbooktcg import State
from engine_c.spellbooktcg.game import TCG
from search import _mcts


def positions(seeds=range(6), plies=(0, 8, 25, 60, 120)):
    """States along random games (fixed seeds), every decision kind included."""
    for seed in seeds:
        st, rng = State.new(seed=seed), random.Random(seed)
        for ply in range(max(plies) + 1):
            st.resolve_chance()
            if st.is_terminal():
                break
            if ply in plies:
                yield st.clone()
            st.apply(rng.choice(st.legal_moves()))


def test_feature_sizes_and_version_are_declared():
    n_state, n_move, version, players = _mcts.feature_info(TCG.vtable)
    assert (n_state, n_move, version, players) == (106, 38, 1, 2)


def test_TI5_features_equal_across_every_determinization_and_the_vtable():
    """A learned evaluation must not peek: from each seat, every determinization (the other's hand and mana
    dealt anew) has the same features as the true state; the vtable's features are State.features."""
    seen = 0
    for st in positions():
        for p in (0, 1):
            mine = np.asarray(st.features(p), dtype=np.float32)
            raw = np.frombuffer(_mcts.state_features(TCG.vtable, st._state_bytes(), p), dtype=np.float32)
            assert (raw == mine).all()
            for seed in range(4):
                assert (np.asarray(st.determinize(p, seed=seed).features(p), dtype=np.float32) == mine).all()
            seen += 1
    assert seen >= 40


def test_features_see_what_changes_the_game():
    """The features are not constant: along a game they move, and the two seats' blocks swap places."""
    rows = [np.asarray(st.features(0)) for st in positions(seeds=[1])]
    assert len({r.tobytes() for r in rows}) == len(rows)
    st = next(iter(positions(seeds=[2], plies=(30,))))
    a, b = np.asarray(st.features(0)), np.asarray(st.features(1))
    assert (a[:23] == b[23:46]).all() and (a[23:46] == b[:23]).all()


def test_move_features_name_each_legal_moves_kind():
    """Every legal move has exactly one kind in its first 12 columns, and two different legal moves of a
    decision never share a feature row unless they are the same card (TI-4: a hand is a multiset)."""
    checked = 0
    for st in positions():
        moves = st.legal_moves()
        x = np.frombuffer(_mcts.move_features(TCG.vtable, st._state_bytes(), [m.code for m in moves]),
                          dtype=np.float32).reshape(len(moves), 38)
        assert (x[:, :12].sum(axis=1) == 1).all()
        assert np.isfinite(x).all()
        checked += len(moves)
    assert checked > 100
