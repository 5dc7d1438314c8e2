"""Fuzzing what outside callers give the engine (issue 12): state texts, observation texts and StateViews.

Inputs are mutations of real ones taken from seeded random games. The property: an input is either refused
with a ValueError (NotationError, or the server's FieldError naming a `state.view…` field) and nothing else,
or it is a state the engine can play: the compiled random playout reaches the end well within its decision
cap, and a short Python-driven continuation only reaches states the validation accepts again.
Hypothesis runs derandomized (fixed examples) at a size that takes a few seconds per test.
"""
from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine_c import State
from engine_c.spellbook import _engine
from engine_c.spellbook.notation import state_text
from engine_c.spellbook.state import NCOL, NTYPE, token_name

CAP = _engine.LIMITS["playout_decisions"]
CONTINUATION = 8           # Python-driven steps after an accepted input, each re-validated
FUZZ = settings(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PLAIN = {"pass", "take", "draw", "store"}


# ----------------------------------------------------------------------------------------------
# Seed corpus: states from seeded games that use many spells
# ----------------------------------------------------------------------------------------------
def _rich_start(g: int, rng: random.Random) -> State:
    """A new game in which every player already knows some random spells (so actions of all kinds occur)."""
    players = 2 + g % 3
    st = State.new(players=players, spells=("set1", "set2", "set3", "classic")[g % 4], seed=g)
    raw = st._to_raw()
    for p in range(players):
        for c in range(NCOL - 1):
            r = rng.randrange(3)
            if rng.random() < 0.6 and raw["pouch"][c * 3 + r]:
                raw["pouch"][c * 3 + r] -= 1
                raw["level"][p][c], raw["rune"][p][c] = rng.choice((3, 4, 5, 5)), r
    raw["day"] = 2 * players
    return State.from_text(_text(raw))


def _spell_biased_move(st: State, rng: random.Random):
    ms = st.legal_moves()
    spells = [m for m in ms if m.kind not in PLAIN]
    return rng.choice(spells) if spells and rng.random() < 0.8 else rng.choice(ms)


@functools.lru_cache(maxsize=1)
def corpus() -> tuple[State, ...]:
    """About 120 states at every kind of step: decisions, sub-decisions, draws, setup, game over."""
    out = []
    for g in range(8):
        rng = random.Random(g)
        st = _rich_start(g, rng) if g % 2 else State.new(players=2 + g % 3, spells="classic", seed=g)
        k = 0
        while not st.is_terminal():
            sub = st.decision not in ("morning", "midday", "evening", "chance")
            if k % (4 if sub else 25) == 0:
                out.append(st.clone())
            st.apply(st.sample_chance() if st.is_chance() else _spell_biased_move(st, rng))
            k += 1
        out.append(st)
    setup = State()
    setup._init(3, [0, 4, 8, 9, 13, 17, 20], 11)
    out.append(setup)
    return tuple(out)


def _text(raw: dict) -> str:
    class _Raw:
        def _to_raw(self):
            return raw
    return state_text(_Raw())


# ----------------------------------------------------------------------------------------------
# The property
# ----------------------------------------------------------------------------------------------
def plays_to_the_end(st: State, seed: int) -> None:
    """An accepted state: the compiled playout ends under its cap; a Python continuation stays valid."""
    done = st.clone()
    decisions = done._random_playout(seed)
    assert done.is_terminal() and decisions < CAP, (decisions, st.to_text()[:300])
    done.validate()                 # the 105 tokens and every invariant still hold at the end
    rng = random.Random(seed)
    cont = st.clone()
    for _ in range(CONTINUATION):
        if cont.is_terminal():
            break
        assert State.from_text(cont.to_text()) == cont
        if cont.is_chance():
            cont.apply(cont.sample_chance())
        else:
            moves = cont.legal_moves()
            assert moves, cont.to_text()[:300]
            cont.apply(rng.choice(moves))


def accepted_or_value_error(parse, text: str, seed: int) -> bool:
    try:
        st = parse(text)
    except ValueError as e:
        assert len(str(e)) < 400, str(e)[:400]
        return False
    plays_to_the_end(st, seed)
    return True


# ----------------------------------------------------------------------------------------------
# Mutations of the raw fields (they reach the deep checks) and of the text (they reach the parser)
# ----------------------------------------------------------------------------------------------
INTERESTING = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 20, 21, 31, 32, 127, 128, 255, 256, 300, 1000,
               29999, 30000, 30003, 32767, 32768, 65535, 2**31, 2**64)
ZONES = ("pouch", "altar", "discard", "taken", "given", "justdisc")
FRAMES = tuple(_engine.FRAME_NAMES)


def mutate_raw(raw: dict, data) -> None:
    n = raw["players"]
    kind = data.draw(hs.sampled_from(("move_token", "count", "frame_field", "frame_insert", "frame_delete",
                                      "frame_swap", "counter", "spell", "rng")))
    small = hs.sampled_from(INTERESTING[:12])
    if kind == "move_token":        # keeps the 105 tokens: often still a valid state
        zones = list(ZONES[:3]) + [("pool", p) for p in range(n)] + [("fam", p) for p in range(n)]
        src, dst = data.draw(hs.sampled_from(zones)), data.draw(hs.sampled_from(zones))
        t = data.draw(hs.integers(0, NTYPE - 1))
        a = raw[src[0]][src[1]] if isinstance(src, tuple) else raw[src]
        b = raw[dst[0]][dst[1]] if isinstance(dst, tuple) else raw[dst]
        if a[t]:
            a[t] -= 1
            b[t] += 1
    elif kind == "count":
        zone = data.draw(hs.sampled_from(ZONES + ("pool", "fam")))
        counts = raw[zone][data.draw(hs.integers(0, n - 1))] if zone in ("pool", "fam") else raw[zone]
        counts[data.draw(hs.integers(0, NTYPE - 1))] = data.draw(hs.sampled_from(INTERESTING))
    elif kind == "frame_field" and raw["stack"]:
        i = data.draw(hs.integers(0, len(raw["stack"]) - 1))
        fr = list(raw["stack"][i])
        fr[data.draw(hs.integers(1, 5))] = data.draw(hs.one_of(small, hs.integers(0, 255)))
        raw["stack"][i] = tuple(fr)
    elif kind == "frame_insert":
        fr = (data.draw(hs.sampled_from(FRAMES)), data.draw(hs.integers(0, n - 1)),
              *[data.draw(small) for _ in range(4)])
        raw["stack"].insert(data.draw(hs.integers(0, len(raw["stack"]))), fr)
    elif kind == "frame_delete" and raw["stack"]:
        del raw["stack"][data.draw(hs.integers(0, len(raw["stack"]) - 1))]
    elif kind == "frame_swap" and len(raw["stack"]) >= 2:
        i = data.draw(hs.integers(0, len(raw["stack"]) - 2))
        raw["stack"][i], raw["stack"][i + 1] = raw["stack"][i + 1], raw["stack"][i]
    elif kind == "counter":
        key = data.draw(hs.sampled_from(("day", "active", "phase", "end_triggered", "over")))
        raw[key] = data.draw(hs.sampled_from(INTERESTING[:10] + (29999, 30000, 30003, 32767)))
        if key == "phase":
            raw[key] %= 6
        if key in ("end_triggered", "over"):
            raw[key] %= 2
        if key == "active":
            raw[key] %= n
    elif kind == "spell":
        p, c = data.draw(hs.integers(0, n - 1)), data.draw(hs.integers(0, NCOL - 1))
        raw["level"][p][c] = data.draw(hs.sampled_from((0, 3, 4, 5)))
        raw["rune"][p][c] = data.draw(hs.integers(0, 2))
        raw["learned_day"][p][c] = data.draw(hs.sampled_from((0, 1, raw["day"], raw["day"] + 1, 32767)))
    elif kind == "rng":
        raw["rng"] = data.draw(hs.integers(0, 2**64 - 1))


def mutate_text(text: str, data) -> str:
    kind = data.draw(hs.sampled_from(("number", "word", "char", "token")))
    if kind == "number":
        spans = [m.span() for m in re.finditer(r"\d+", text)]
        if spans:
            a, b = data.draw(hs.sampled_from(spans))
            text = text[:a] + str(data.draw(hs.sampled_from(INTERESTING))) + text[b:]
    elif kind == "word":
        words = text.split(" ")
        i = data.draw(hs.integers(0, len(words) - 1))
        op = data.draw(hs.sampled_from(("drop", "dup", "cut")))
        if op == "drop":
            del words[i]
        elif op == "dup":
            words.insert(i, words[i])
        else:
            words[i] = words[i][: data.draw(hs.integers(0, len(words[i])))]
        text = " ".join(words)
    elif kind == "char":
        i = data.draw(hs.integers(0, len(text)))
        text = text[:i] + data.draw(hs.text(min_size=1, max_size=3)) + text[i + 1:]
    else:
        tokens = [m.span() for m in re.finditer(r"[RPGKWBY][cts]", text)]
        if tokens:
            a, b = data.draw(hs.sampled_from(tokens))
            text = text[:a] + token_name(data.draw(hs.integers(0, NTYPE - 1))) + text[b:]
    return text


def mutated_raw_text(data) -> str:
    raw = data.draw(hs.sampled_from(corpus()))._to_raw()
    for _ in range(data.draw(hs.integers(1, 3))):
        mutate_raw(raw, data)
    return _text(raw)


# ----------------------------------------------------------------------------------------------
# State texts
# ----------------------------------------------------------------------------------------------
def test_corpus_is_accepted_and_plays_to_the_end():
    states = corpus()
    assert 50 < len(states) < 150 and {s.decision for s in states} >= {"chance", "morning", "take", "over"}
    for i, st in enumerate(states):
        assert accepted_or_value_error(State.from_text, st.to_text(), i)


@settings(FUZZ, max_examples=200)
@given(hs.data())
def test_fuzz_state_text_fields(data):
    """Raw-field mutations (counts, frames anywhere in the stack, counters, spells): refused with a
    ValueError or playable to the end."""
    accepted_or_value_error(State.from_text, mutated_raw_text(data), data.draw(hs.integers(0, 99)))


@settings(FUZZ, max_examples=120)
@given(hs.data())
def test_fuzz_state_text_characters(data):
    """Text-level mutations (numbers, words, characters, tokens) of real state texts."""
    text = data.draw(hs.sampled_from(corpus())).to_text()
    for _ in range(data.draw(hs.integers(1, 3))):
        text = mutate_text(text, data)
    accepted_or_value_error(State.from_text, text, data.draw(hs.integers(0, 99)))


def test_token_preserving_mutations_are_often_accepted_and_play():
    """Moving one token between the Pouch and the Discard box keeps a state valid: such inputs are accepted
    (the accepted branch of the fuzzers is exercised, not only refusals)."""
    accepted = 0
    for i, st in enumerate(corpus()):
        raw = st._to_raw()
        t = next((t for t in range(NTYPE) if raw["pouch"][t] > 1), None)
        if t is None or raw["stack"] and _engine.FRAME_NAMES[raw["stack"][-1][0]] == "start":
            continue
        raw["pouch"][t] -= 1
        raw["discard"][t] += 1
        raw["rng"] ^= 0x5DEECE66D
        accepted += accepted_or_value_error(State.from_text, _text(raw), i)
    assert accepted >= len(corpus()) // 2


# ----------------------------------------------------------------------------------------------
# Observations
# ----------------------------------------------------------------------------------------------
@settings(FUZZ, max_examples=100)
@given(hs.data())
def test_fuzz_observation_texts(data):
    st = data.draw(hs.sampled_from(corpus()))
    seat = data.draw(hs.integers(0, st.players - 1))
    text = st.observation(seat, knows_discard=data.draw(hs.booleans()))
    for _ in range(data.draw(hs.integers(1, 3))):
        text = mutate_text(text, data)
    seed = data.draw(hs.integers(0, 99))
    accepted_or_value_error(lambda x: State.from_observation(x, seed=seed), text, seed)


# ----------------------------------------------------------------------------------------------
# StateViews (the server's structured input; it maps FieldError to INVALID_ARGUMENT)
# ----------------------------------------------------------------------------------------------
pb = pytest.importorskip("server._gen.spellbook.v1.types_pb2")
from server import convert  # noqa: E402


def mutate_view(v, data) -> None:
    kind = data.draw(hs.sampled_from(("count", "token", "scalar", "stack", "spells", "seats", "learned",
                                      "strings")))
    big = hs.sampled_from((0, 1, 5, 6, 255, 256, 300, 2**31 - 1, 2**32 - 1))
    lists = [v.altar, v.pouch, v.discard, v.unseen, v.taken, v.given, v.justdisc]
    lists += [s.pool for s in v.seats] + [s.familiar for s in v.seats]
    if kind in ("count", "token"):
        target = data.draw(hs.sampled_from(lists))
        if kind == "count" or not len(target):
            target.add(token=token_name(data.draw(hs.integers(0, NTYPE - 1))), count=data.draw(big))
        else:
            target[data.draw(hs.integers(0, len(target) - 1))].token = data.draw(
                hs.sampled_from(("Rc", "Zz", "", "rc", "Rcc", "R" * 200)))
    elif kind == "scalar":
        name = data.draw(hs.sampled_from(("players", "day", "active_player", "pouch_size", "observer")))
        setattr(v, name, data.draw(hs.sampled_from((-1, 0, 1, 2, 3, 4, 5, 30000, 32767, 32768, 2**31 - 1,
                                                    -2**31))))
    elif kind == "stack":
        i = data.draw(hs.integers(0, len(v.stack))) if v.stack else 0
        v.stack.insert(i, data.draw(hs.sampled_from(("endday:0", "take:0:2:0:7:127", "setlevel:0:9:4",
                                                     "morning:0:1", "drawpool:1:300", "x", "a b", "storm:0:1:2:4:3",
                                                     "clone:0:2:3", ",", "blaze:1"))))
    elif kind == "spells":
        v.spells[data.draw(hs.integers(0, len(v.spells) - 1))] = data.draw(
            hs.sampled_from(("Storm", "Clone", "x", "", "Growth rng=1", "Sacrifice,Sacrifice")))
    elif kind == "seats":
        if data.draw(hs.booleans()) and len(v.seats):
            del v.seats[-1]
        else:
            v.seats.add(seat=len(v.seats))
    elif kind == "learned" and len(v.seats):
        seat = v.seats[data.draw(hs.integers(0, len(v.seats) - 1))]
        seat.spells.add(spell=data.draw(hs.sampled_from(("Sacrifice", "Storm", "Nope"))),
                        level=data.draw(hs.sampled_from((0, 3, 5, 6, 2**31 - 1))),
                        rune=data.draw(hs.sampled_from(("c", "s", "x", ""))),
                        learned_day=data.draw(hs.sampled_from((0, 1, 40000, -1))))
    elif kind == "strings":
        v.phase = data.draw(hs.sampled_from(("morning", "over", "setup", "", "noon")))
        v.rng = data.draw(hs.sampled_from(("", "0", "f" * 16, "f" * 17, "zz", " observer=1")))


@settings(FUZZ, max_examples=150)
@given(hs.data())
def test_fuzz_state_views(data):
    """StateView → state (server/convert.py): a FieldError (a ValueError, INVALID_ARGUMENT on the wire)
    naming a field of the view, or a playable state."""
    st = data.draw(hs.sampled_from(corpus()))
    as_observation = data.draw(hs.booleans())
    parsed = convert.ParsedState(st, observer=0, knows_discard=data.draw(hs.booleans())) if as_observation else None
    view = convert.state_view(st, parsed)
    for _ in range(data.draw(hs.integers(1, 3))):
        mutate_view(view, data)
    try:
        got = convert.parse_state(pb.StateInput(view=view, determinize_seed=data.draw(hs.integers(0, 2**64 - 1))))
    except convert.FieldError as e:
        assert e.field.startswith("state.view") and len(e.description) < 400
        return
    plays_to_the_end(got.state, data.draw(hs.integers(0, 99)))


def test_state_view_counts_above_255_are_invalid_argument_fields():
    """The OverflowError of issue 12: a count of 300 in a StateView is a FieldError naming the field."""
    st = corpus()[3]
    for name, field in (("taken", "state.view.taken"), ("altar", "state.view.altar"),
                        ("pouch", "state.view.pouch")):
        view = convert.state_view(st)
        getattr(view, name).add(token="Rc", count=300)
        with pytest.raises(convert.FieldError) as e:
            convert.parse_state(pb.StateInput(view=view))
        assert e.value.field == field and re.match(rf"{name}: 30\d Rc; the game has 5", e.value.description)
    view = convert.state_view(st)
    view.seats[0].pool.add(token="Gs", count=2**32 - 1)
    with pytest.raises(convert.FieldError) as e:
        convert.parse_state(pb.StateInput(view=view))
    assert e.value.field == "state.view.seats[0].pool"


def test_bad_states_over_grpc_are_invalid_argument_naming_the_field():
    """End to end (a server on 127.0.0.1, any port): a StateView count of 300 and a state text whose stack
    lacks its end-of-Day step get INVALID_ARGUMENT with a BadRequest field, never INTERNAL or a hang."""
    import grpc
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    from server._gen.spellbook.v1 import service_pb2 as spb
    from server._gen.spellbook.v1 import service_pb2_grpc
    from server.main import ServerConfig, ServerThread
    from server.service import ServiceConfig

    st = corpus()[3]
    view = convert.state_view(st)
    view.taken.add(token="Rc", count=300)
    no_endday = st.to_text().replace(f"stack=endday:{st.active_player},", "stack=")
    assert no_endday != st.to_text()
    srv = ServerThread(ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, queue_size=4)))
    srv.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            stub = service_pb2_grpc.SpellBookServiceStub(ch)
            for state, field in ((pb.StateInput(view=view), "state.view.taken"),
                                 (pb.StateInput(text=no_endday), "state.text")):
                with pytest.raises(grpc.RpcError) as e:
                    stub.ListLegalMoves(spb.ListLegalMovesRequest(state=state), timeout=10)
                assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT, e.value.details()
                bad = error_details_pb2.BadRequest()
                assert any(d.Unpack(bad) for d in rpc_status.from_call(e.value).details)
                assert [v.field for v in bad.field_violations] == [field]
    finally:
        srv.stop(grace=1.0)
