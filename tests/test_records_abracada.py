"""Abracada…What? in the one game record (engine_c/records.py, docs/records.md "Abracada…What?"): every
chance event (deal XS2/XC5, refills XT4, Night Singer's secret stones, die rolls XC4) is an event, so a
record replays without its seed; a view for a seat or a spectator hides what it may not see (XI1-XI3)."""
import random

import pytest

from engine_c import records as R
from engine_c.abracadawhat import State
from engine_c.registry import get_game


def _random_game(seed=3, players=3, stop=None, variants=()):
    st = State.new(players=players, seed=seed, variants=variants)
    events = R.setup_events(players, (), seed, game="abracadawhat", variants=variants)
    rng = random.Random(seed)
    while not st.is_terminal() and (stop is None or len(events) < stop):
        move = rng.choice(st.legal_moves())
        events.append(R.event("move", st.current_player, move))
        st.apply(move)
        while st.is_chance():
            outcome = st.sample_chance()
            events.append(R.chance_event(st, outcome))
            st.apply(outcome)
    return st, events


def test_the_deal_is_every_stone_in_xc5_order():
    events = R.setup_events(3, (), 5, game="abracadawhat")
    zones = [(e["kind"], e.get("zone"), e.get("to")) for e in events]
    assert zones == [("deal", "removed", None)] * 6 + [("deal", "hand", p) for p in range(3) for _ in range(5)] + \
        [("deal", "secret", None)] * 4                            # XS2 with 3 players, XC5's order
    st = State.new(players=3, seed=5)
    assert sorted(int(e["move"].split()[1]) for e in events if e.get("to") == 1) == list(st.hand(1))


@pytest.mark.parametrize("players,seed,variants", [(2, 1, ()), (3, 3, ()), (5, 8, ("xv2",)), (4, 2, ("xv1",))])
def test_a_record_replays_exactly_without_its_seed(players, seed, variants):
    final, events = _random_game(seed, players, variants=variants)
    rec = R.build(players, (), [R.seat("bot", "random")] * players, events, final, seed=seed, game="abracadawhat",
                  variants=variants)
    assert rec["game"] == "abracadawhat" and "spells" not in rec and rec["status"] == "finished"
    assert rec["result"] == {"scores": final.scores(), "winners": final.winners()}
    state, steps = R.replay(rec)
    assert state.to_text() == final.to_text()
    assert {e["kind"] for e in events} <= set(get_game("abracadawhat").record.EVENT_KINDS) and len(steps) == sum(e["kind"] == "move" for e in events)
    no_seed = {k: v for k, v in rec.items() if k != "seed"}
    assert R.replay(no_seed, rng_seed=99)[0].observation(0) == final.observation(0)
    assert R.loads(R.dumps(rec)) == R.validate(rec)


def test_a_view_hides_what_its_viewer_may_not_see():
    st, events = _random_game(seed=11, players=3, stop=60)
    rec = R.build(3, (), [], events, st, seed=11, game="abracadawhat")
    assert rec["status"] == "active" and "seed" not in rec
    for viewer in (0, 1, 2, None):
        view = R.for_viewer(rec, viewer)
        assert view["view"] == ("spectator" if viewer is None else f"seat {viewer}")
        for full, seen in zip(rec["events"], view["events"]):
            hidden = seen["move"] == R.HIDDEN_STONE
            if full["kind"] in ("move", "roll") or full.get("zone") == "removed":
                assert not hidden                                   # public (XI1)
            elif full.get("zone") == "hand":
                assert hidden == (viewer is None or viewer == full["to"])      # XI2
            elif full.get("zone") == "taken":
                assert hidden == (viewer != full["to"])                          # XI3
            else:
                assert hidden                                        # the secret stones: no one
        with pytest.raises(R.RecordError) as e:
            R.replay(view)
        assert e.value.field.startswith("events[") and e.value.field.endswith("].move")
        assert R.validate(view)["view"] == view["view"]
    finished, fevents = _random_game(seed=11, players=3)
    whole = R.build(3, (), [], fevents, finished, seed=11, game="abracadawhat")
    assert R.for_viewer(whole, None) == whole                      # after the game: shown whole


@pytest.mark.parametrize("change,field", [
    (lambda r: r.update(game="chess"), "game"),
    (lambda r: r.update(players=6), "players"),
    (lambda r: r.update(variants=["xv3"]), "variants"),
    (lambda r: r.update(view="seat 9"), "view"),
    (lambda r: r["events"][0].update(kind="draw"), "events[0].kind"),
    (lambda r: r["events"][0].update(zone="hand"), "events[0].zone"),
    (lambda r: r["events"][30].update(move="cast 9"), "events[30].move"),
])
def test_bad_records_name_the_field(change, field):
    final, events = _random_game(seed=2, players=3)
    rec = R.build(3, (), [], events, final, seed=2, game="abracadawhat")
    change(rec)
    with pytest.raises(R.RecordError) as e:
        R.replay(rec)
    assert e.value.field == field


def test_a_record_without_game_is_spellbook():
    from engine_c import State as SpellBookState

    st = SpellBookState.new(players=2, seed=1)
    rec = R.build(2, st.spells, [], R.setup_events(2, st.spells, 1), st, seed=1, seed_shown=True)
    assert "game" not in rec and R.replay(rec)[0].to_text() == st.to_text()
    assert R.for_viewer(rec, None) == rec
