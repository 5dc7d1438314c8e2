"""Abracada…What? information (XI1-XI4, XC6, XC12): what each seat observes, and exact determinization.

The own-hand posterior is checked against an independent brute force written here: every trajectory of the
observer's own stones (the dealt multiset, then each refill's) is enumerated and weighted by its number of
physical stone arrangements, and trajectories its own announcements rule out are dropped."""
import math
from collections import Counter
from itertools import combinations_with_replacement

import pytest

from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.abracadawhat.state import NotationError, State
from search.search import SearchOptions, flat_monte_carlo, ismcts


def own_turn(st, casts):
    """The active seat announces `casts` in order (stopping after a failure), ends after successes, and
    chance is resolved with the state's generator."""
    for k in casts:
        ok = k in st.hand(st.active_player)
        st.play(f"cast {k}")
        if not ok:
            return
    st.play("end")


def scenario():
    """Three seats. Seat 0: two successes and a failure (refill 2), later one failure; its third turn next."""
    st = State.new(players=3, seed=21)
    hand = st.hand(0)
    held = sorted(set(hand))
    missing = [k for k in range(held[1], 9) if k not in hand and k != 1]
    own_turn(st, [held[0], held[1], missing[0]])
    for _ in range(2):
        own_turn(st, [max(st.hand(st.active_player))])
    assert st.active_player == 0
    gone = [k for k in range(2, 9) if k not in st.hand(0)]
    own_turn(st, [gone[-1]])
    for _ in range(2):
        own_turn(st, [max(st.hand(st.active_player))])
    assert st.current_player == 0 and st.round == 1
    return st


def fields(text):
    return dict(w.split("=", 1) for w in text.split()[1:])


def counts(stones):
    c = [0] * 9
    for ch in stones:
        if ch.isdigit():
            c[int(ch)] += 1
    return c


def brute_posterior(st, o):
    """P(own hand) by enumerating own-stone trajectories and counting arrangements (XI4, XC6)."""
    f = fields(st.observation(o))
    hands, casts, taken = f["hands"].split(","), f["cast"].split(","), f["taken"].split(",")
    removed = counts(f["removed"])
    unseen = [0] * 9
    for k in range(1, 9):
        unseen[k] = k - removed[k] - counts(taken[o])[k] - sum(
            counts(hands[q])[k] + counts(casts[q])[k] for q in range(len(hands)) if q != o)
    events = [e for e in st.log() if e["seat"] == o]

    def draws(drawn, size):
        """Every multiset of `size` stones from those still unseen-and-undrawn, with its arrangements."""
        for combo in combinations_with_replacement(range(1, 9), size):
            c = Counter(combo)
            w = 1
            for k, m in c.items():
                w *= math.comb(unseen[k] - drawn[k], m)
            if w:
                yield c, w

    post = Counter()

    def walk(i, hand, drawn, weight):
        if i == len(events):
            post[tuple(sorted(hand.elements()))] += weight
            return
        e = events[i]
        if e["kind"] == "cast":
            k = e["spell"]
            if e["ok"] and hand[k] >= 1:
                walk(i + 1, hand - Counter({k: 1}), drawn, weight)
            elif not e["ok"] and hand[k] == 0:
                walk(i + 1, hand, drawn, weight)
            return
        for c, w in draws(drawn, e["refilled"]):
            walk(i + 1, hand + c, drawn + c, weight * w)

    for c, w in draws(Counter(), 5):
        walk(0, c, c, w)
    total = sum(post.values())
    return {h: w / total for h, w in post.items()}


def chi2_sf(x, df):
    """P(chi-square with df degrees of freedom > x): the regularized upper incomplete gamma Q(df/2, x/2)."""
    a, x = df / 2.0, x / 2.0
    if x <= 0:
        return 1.0
    lead = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:                                # series for P
        term = total = 1.0 / a
        n = 1
        while abs(term) > 1e-15 * abs(total):
            term *= x / (a + n)
            total += term
            n += 1
        return 1.0 - total * lead
    b, c, d = x + 1 - a, 1e300, 1.0 / (x + 1 - a)   # continued fraction for Q (Lentz)
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return lead * h


def test_chi2_sf_known_values():
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(18.307038053275146, 10) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(100.0, 100) == pytest.approx(0.481192, abs=1e-5)


def test_XC6_posterior_equals_brute_force_arrangement_count():
    st = scenario()
    for o in range(3):
        exact = st.posterior(o)
        brute = brute_posterior(st, o)
        assert set(exact) == set(brute)
        for hand, p in brute.items():
            assert exact[hand] == pytest.approx(p, rel=1e-9, abs=1e-12)
    # the true hand is always possible, and seat 0's own failures rule spells out (XC6)
    assert all(st.posterior(p)[st.hand(p)] > 0 for p in range(3))
    assert len(st.posterior(0)) > 20


def test_XC6_determinization_frequencies_match_exact_posterior_chi_square():
    """10,000 determinizations of one observation: each own-hand multiset's frequency against its exact
    (brute-force) posterior, bins with an expected count under 5 pooled; chi-square p > 0.01."""
    st = scenario()
    post = brute_posterior(st, 0)
    samples = 10_000
    seen = Counter(st.determinize(0, seed=i).hand(0) for i in range(samples))
    assert set(seen) <= set(post)
    bins, pooled_expected, pooled_seen = [], 0.0, 0
    for hand, p in post.items():
        if p * samples >= 5:
            bins.append((seen[hand], p * samples))
        else:
            pooled_expected += p * samples
            pooled_seen += seen[hand]
    if pooled_expected > 0:
        bins.append((pooled_seen, pooled_expected))
    chi2 = sum((o - e) ** 2 / e for o, e in bins)
    assert len(bins) >= 10
    assert chi2_sf(chi2, len(bins) - 1) > 0.01


def test_XC6_rest_split_uniformly_given_the_hand():
    """Given the sampled hand, the pile, the secret stones and the others' secret stones are a uniform split
    of the rest: each spell's mean count in the pile matches its expectation under the exact posterior."""
    st = scenario()
    post = brute_posterior(st, 0)
    unseen = st.unseen(0)
    f = fields(st.to_text())
    own_cast = counts(f["cast"].split(",")[0])
    pile_n = sum(counts(f["pile"])[1:])
    rest_n = sum(unseen.values()) - 5 - sum(own_cast)
    expect = {k: sum(p * (unseen[k] - h.count(k) - own_cast[k]) for h, p in post.items()) * pile_n / rest_n
              for k in range(1, 9)}
    samples = 4000
    total = Counter()
    for i in range(samples):
        pile = counts(fields(st.determinize(0, seed=10_000 + i).to_text())["pile"])
        for k in range(1, 9):
            total[k] += pile[k]
    for k in range(1, 9):
        assert total[k] / samples == pytest.approx(expect[k], abs=0.06 + 0.03 * expect[k])


def test_same_observation_same_features_determinizations_and_search():
    """Two states that differ only in what seat 0 cannot see: identical features, identical determinizations
    (seed by seed, hence the same distribution) and the same search answer with the same seed."""
    a = scenario()
    b = a.determinize(0, seed=5)
    assert a != b and a.hand(0) != b.hand(0) or a.to_text() != b.to_text()
    assert a.observation(0) == b.observation(0)
    assert (a.features(0) == b.features(0)).all()
    for i in range(50):
        assert a.determinize(0, seed=i) == b.determinize(0, seed=i)
    opts = SearchOptions(iterations=400, seed=3)
    ra, rb = ismcts(ABRACADAWHAT, a, opts), ismcts(ABRACADAWHAT, b, opts)
    assert ra.move == rb.move
    assert [(m.move, m.visits) for m in ra.moves] == [(m.move, m.visits) for m in rb.moves]
    fa, fb = flat_monte_carlo(ABRACADAWHAT, a, opts), flat_monte_carlo(ABRACADAWHAT, b, opts)
    assert fa.move == fb.move and [m.mean_reward for m in fa.moves] == [m.mean_reward for m in fb.moves]


def test_XI2_XI3_observation_hides_own_hand_pile_and_others_secret_stones():
    st = scenario()
    for p in range(3):
        f = fields(st.observation(p))
        hands = f["hands"].split(",")
        assert hands[p] == f"?{len(st.hand(p))}"                    # XI2: never one's own hand
        assert all(hands[q] == ("".join(map(str, st.hand(q))) or "-") for q in range(3) if q != p)
        assert f["pile"].startswith("?") and f["secret"].startswith("?")   # XI3
        assert "rng" not in f and f["observer"] == str(p)
        # nothing hidden from p changes p's observation (XI4)
        for seed in range(5):
            assert st.determinize(p, seed=seed).observation(p) == st.observation(p)


def test_XI3_secret_stone_known_to_its_taker_only():
    """A Night Singer's stone is shown to its taker, as a count to everyone else (XI3, XI1)."""
    for seed in range(200):
        st = State.new(players=2, seed=seed)
        if 4 in st.hand(0):
            break
    st.play("cast 4")
    taken = fields(st.to_text())["taken"].split(",")[0]
    assert len(taken) == 1
    assert fields(st.observation(0))["taken"].split(",")[0] == taken
    assert fields(st.observation(1))["taken"].split(",")[0] == "?1"


def test_XI1_XC12_observation_carries_the_public_log_and_results():
    st = scenario()
    text = st.observation(1)
    f = fields(text)
    assert f["log"] == fields(st.to_text())["log"] and f["log"].startswith("0:")
    # finished rounds' results appear once a round is over
    s2 = State.new(players=2, seed=4)
    while s2.round == 1:
        s2.play(s2.legal_moves()[-1])
    assert fields(s2.observation(0))["results"] == fields(s2.to_text())["results"] != "-"
    assert s2.results()[0]["reason"] in ("empty", "ko", "self")


def test_XC6_failure_and_success_are_remembered_until_a_refill():
    """A failed n proves no n then (probability 0 until the next own refill); a success proves one was held."""
    st = State.new(players=4, seed=8)
    missing = next(k for k in range(2, 9) if k not in st.hand(0))
    before = st.holding_probabilities(0)[missing]
    assert 0 < before < 1
    st.apply(f"cast {missing}")
    assert st.holding_probabilities(0)[missing] == 0.0
    assert st.phase in ("refill", "decide")


def test_from_observation_samples_a_consistent_state_and_rejects_inconsistent_ones():
    st = scenario()
    obs = st.observation(0)
    for seed in range(10):
        sampled = State.from_observation(obs, seed=seed)
        assert sampled.observation(0) == obs
        sampled.validate()
    f = fields(obs)
    # seat 0's own hand written out: an observation hides it
    with pytest.raises(NotationError, match="hands: seat 0's hand stones are hidden from seat 0"):
        State.from_observation(obs.replace(f"hands={f['hands']}", "hands=12345," + f["hands"].split(",", 1)[1]))
    with pytest.raises(NotationError, match="observer"):
        State.from_observation(obs.replace(" observer=0", ""))


def test_features_through_the_vtable_are_the_observers_view_only():
    """search/'s state_features (what a learned evaluation sees) equal State.features, have the declared
    size and version, and do not change when only what the observer cannot see changes."""
    import numpy as np
    from search import _mcts

    st = scenario()
    n_state, n_move, version, max_players = _mcts.feature_info(ABRACADAWHAT.vtable)
    assert (n_state, n_move, version, max_players) == (245, 10, 1, 5)
    for p in range(3):
        raw = np.frombuffer(_mcts.state_features(ABRACADAWHAT.vtable, st._state_bytes(), p), dtype=np.float32)
        assert (raw == st.features(p)).all()
        other = st.determinize(p, seed=99)
        assert (other.features(p) == st.features(p)).all()
        own_block = st.features(p)[5:13]                       # the observer's own hand faces: never shown
        assert not own_block.any()
    moves = np.frombuffer(_mcts.move_features(ABRACADAWHAT.vtable, st._state_bytes(),
                                              [m.code for m in st.legal_moves()]), dtype=np.float32)
    assert moves.reshape(-1, n_move)[:, :9].sum() == len(st.legal_moves())


def test_pickle_and_copy_keep_the_whole_state():
    import copy
    import pickle

    st = scenario()
    assert pickle.loads(pickle.dumps(st)) == st and copy.deepcopy(st) == st and st.clone() == st
