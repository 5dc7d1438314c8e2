"""The compiled reader of state texts (engine_c/spellbook/_notation.pyx) agrees with the Python one: the same raw
dict on every text it reads, and None (the Python reader takes over, with its messages) on anything the Python
reader refuses."""
import random

import pytest

from engine_c.base import NotationError
from engine_c.spellbook import State
from engine_c.spellbook import _notation
from engine_c.spellbook.notation import read_raw


def _texts(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = State.new(players=rng.choice([2, 3, 4]), spells=rng.choice(["set1", "set2", "set3", "classic"]),
                       seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 150)):
            if st.is_terminal():
                break
            if st.is_chance():             # a pending draw is a valid state text too
                st.apply(rng.choice(st.chance_outcomes())[0])
            else:
                st.play(rng.choice(st.legal_moves()))
            if rng.random() < 0.1:
                out.append(st.to_text())
        out.append(st.to_text())
    return out


TEXTS = _texts(300)


def test_same_raw_as_the_python_reader():
    for text in TEXTS:
        fast = _notation.fields_raw(text)
        assert fast is not None, text
        slow = read_raw(text)
        assert fast == slow and list(fast) == list(slow)
        assert [type(x) for x in fast["stack"]] == [tuple] * len(fast["stack"])
        assert State.from_text(text).to_text() == text


def _mutations(text: str, rng: random.Random):
    alphabet = "RPGKWBYcts0123456789-=:;,@ abcdefxyzAZ\u0663\u00e9pn_"
    for _ in range(40):
        i = rng.randrange(len(text))
        kind = rng.randrange(5)
        if kind == 0:
            yield text[:i] + rng.choice(alphabet) + text[i + 1:]
        elif kind == 1:
            yield text[:i] + rng.choice(alphabet) + text[i:]
        elif kind == 2:
            yield text[:i] + text[i + 1:]
        elif kind == 3:
            words = text.split()
            a, b = rng.randrange(1, len(words)), rng.randrange(1, len(words))
            words[a], words[b] = words[b], words[a]
            yield " ".join(words)
        else:
            words = text.split()
            k = rng.randrange(1, len(words))
            key, _, value = words[k].partition("=")
            yield " ".join(words[:k] + [f"{key}={rng.choice(['-', '', '-0', '007', value + value, value.upper()])}"]
                           + words[k + 1:])


def test_never_reads_what_the_python_reader_refuses():
    rng = random.Random(3)
    read = refused = 0
    for text in TEXTS[:120]:
        for bad in _mutations(text, rng):
            fast = _notation.fields_raw(bad)
            try:
                slow = read_raw(bad)
            except NotationError:
                assert fast is None, bad
                refused += 1
                continue
            if fast is not None:
                assert fast == slow, bad
                read += 1
    assert refused > 1000 and read > 100


@pytest.mark.parametrize("text", [None, 5, "", "sb1", "sb2 n=2", "x" * 30_000])
def test_odd_inputs_are_left_to_the_python_reader(text):
    assert _notation.fields_raw(text) is None


def _reference_validate(raw):
    """validate_raw as it was before the compiled count check: every check in Python."""
    from engine_c.spellbook import notation
    from engine_c.spellbook.stack import check_stack

    notation._check_zones(raw)
    notation._check_counters(raw)
    check_stack(raw)
    notation._check_bookkeeping(raw)


def _outcome(fn, raw):
    try:
        fn(raw)
    except NotationError as e:
        return str(e)
    return None


def test_count_check_agrees_with_the_python_checks():
    import copy

    from engine_c.spellbook import notation

    rng = random.Random(11)
    zones = ["pouch", "altar", "discard", "taken", "given", "justdisc"]
    differed = 0
    for text in TEXTS[:150]:
        raw = read_raw(text)
        assert _notation.counts_hold(raw)
        assert _outcome(notation.validate_raw, raw) is None
        for _ in range(12):
            bad = copy.deepcopy(raw)
            kind = rng.randrange(4)
            if kind == 0:
                bad[rng.choice(zones)][rng.randrange(21)] += rng.choice([-1, 1, 2, 6, 50])
            elif kind == 1:
                p = rng.randrange(bad["players"])
                bad[rng.choice(["pool", "fam"])][p][rng.randrange(21)] += rng.choice([-1, 1, 3, 9])
            elif kind == 2:
                p, c = rng.randrange(bad["players"]), rng.randrange(7)
                bad[rng.choice(["level", "rune", "learned_day"])][p][c] = rng.choice([0, 1, 3, 4, 5, 7, -1, 99])
            else:
                a, b = rng.randrange(21), rng.randrange(21)
                z = rng.choice(zones[:3])
                bad[z][a] += 1
                bad[z][b] -= 1
            if _notation.counts_hold(bad):
                assert _outcome(notation._check_zones, bad) is None or _outcome(notation._check_zones, bad) == \
                    _outcome(_reference_validate, bad)
            ref = _outcome(_reference_validate, bad)
            assert _outcome(notation.validate_raw, bad) == ref
            differed += ref is not None
    assert differed > 500
