"""A compiled reader of the common, well-formed state text (the server parses one on every search call).

`fields_raw(text)` returns the raw dict engine_c/spellbook/notation.py's `state_from_text` builds from
`text` before its checks (validate_raw, the C conversion, check_resting), or None as soon as anything is
unusual: another field order or spelling the Python reader also takes, a number with a sign, an unknown
name, a missing or extra field, anything out of range. None only means "not the common shape": the
Python reader then reads the text as before and says what, if anything, is wrong, so every refusal and
its message stay the Python reader's. A test checks that the two agree on valid texts and that this one
never accepts what the Python one refuses (tests/test_notation_fast.py).
"""
from engine_c.spellbook.notation import _LEARNED_RE, HEADER, MAX_TEXT
from engine_c.spellbook.state import LIMITS, NCOL, NTYPE, PHASES, SPELL_IDS, _FRAME_BY_NAME

cdef dict _SPELLS = dict(SPELL_IDS)
cdef dict _FRAMES = dict(_FRAME_BY_NAME)
cdef dict _PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
cdef long _DAY_LIMIT = LIMITS["day"]
cdef Py_ssize_t _STACK_LIMIT = LIMITS["stack"]
cdef Py_ssize_t _MAX_TEXT = MAX_TEXT
cdef str _HEADER = HEADER
cdef object _LEARNED = _LEARNED_RE
assert NTYPE == 21 and NCOL == 7


cdef inline int _color(Py_UCS4 ch):
    # COLORS = "RPGKWBY"
    if ch == u'R':
        return 0
    if ch == u'P':
        return 1
    if ch == u'G':
        return 2
    if ch == u'K':
        return 3
    if ch == u'W':
        return 4
    if ch == u'B':
        return 5
    if ch == u'Y':
        return 6
    return -1


cdef inline int _rune(Py_UCS4 ch):
    # RUNES = "cts"
    if ch == u'c':
        return 0
    if ch == u't':
        return 1
    if ch == u's':
        return 2
    return -1


cdef object _counts(str s):
    """parse_counts(s) when s is `-` or tokens like `Rc2Gt` (counts of at most 3 digits); else None."""
    cdef Py_ssize_t i = 0, n = len(s)
    cdef int c, r, k
    cdef long v
    cdef long counts[21]
    cdef Py_UCS4 ch
    for k in range(21):
        counts[k] = 0
    if n == 1 and s[0] == u'-':
        return [0] * 21
    if n == 0:
        return None
    while i < n:
        if i + 1 >= n:
            return None
        c = _color(s[i])
        r = _rune(s[i + 1])
        if c < 0 or r < 0:
            return None
        i += 2
        v = 0
        k = 0
        while i < n:
            ch = s[i]
            if <long>ch < 48 or <long>ch > 57:        # not 0-9
                break
            if k == 3:
                return None
            v = v * 10 + (<long>ch - 48)
            k += 1
            i += 1
        counts[c * 3 + r] += v if k else 1
    return [counts[k] for k in range(21)]


cdef long _number(str s, Py_ssize_t digits, long lo, long hi):
    """int(s) when s is 1 to `digits` ASCII digits with a value in lo..hi (lo >= 0); else -1."""
    cdef Py_ssize_t n = len(s), i
    cdef long v = 0
    cdef Py_UCS4 ch
    if n == 0 or n > digits:
        return -1
    for i in range(n):
        ch = s[i]
        if <long>ch < 48 or <long>ch > 57:        # not 0-9
            return -1
        v = v * 10 + (<long>ch - 48)
    if v < lo or v > hi:
        return -1
    return v


cdef bint _hex(str s):
    cdef Py_ssize_t n = len(s), i
    cdef Py_UCS4 ch
    if n == 0 or n > 16:
        return False
    for i in range(n):
        ch = s[i]
        if not (48 <= <long>ch <= 57 or 97 <= <long>ch <= 102 or 65 <= <long>ch <= 70):    # 0-9 a-f A-F
            return False
    return True


cdef bint _player(dict raw, list spell, str text):
    """Appends seat's pool, familiar and spells to raw's lists as notation._parse_player does; False when
    the text is not in the common shape `pool:...;fam:...;spells:...`."""
    cdef list parts = text.split(";")
    cdef list level, rune, day
    cdef str pool_s, fam_s, spells_s, item, name
    cdef long sid, c
    if len(parts) != 3:
        return False
    pool_s, fam_s, spells_s = parts[0], parts[1], parts[2]
    if not (pool_s.startswith("pool:") and fam_s.startswith("fam:") and spells_s.startswith("spells:")):
        return False
    pool = _counts(pool_s[5:])
    fam = _counts(fam_s[4:])
    if pool is None or fam is None:
        return False
    level, rune, day = [0] * 7, [0] * 7, [0] * 7
    spells_s = spells_s[7:]
    if spells_s != "-":
        for item in spells_s.split(","):
            m = _LEARNED.match(item)
            if m is None or len(m.group(4)) > 6:
                return False
            name = m.group(1)
            got = _SPELLS.get(name.lower())
            if got is None:
                return False
            sid = got
            c = sid // 3
            if spell[c] != sid or level[c]:
                return False
            level[c], rune[c], day[c] = int(m.group(2)), _rune(m.group(3)[0]), int(m.group(4))
    raw["pool"].append(pool)
    raw["fam"].append(fam)
    raw["level"].append(level)
    raw["rune"].append(rune)
    raw["learned_day"].append(day)
    return True


cdef object _stack(str text, long n):
    cdef list frames = [], items, bits
    cdef str item
    cdef Py_ssize_t j
    cdef long v
    if text == "-":
        return frames
    items = text.split(",")
    if len(items) > _STACK_LIMIT:
        return None
    for item in items:
        bits = item.split(":")
        op = _FRAMES.get(bits[0])
        if op is None or len(bits) > 6:
            return None
        vals = [0, 0, 0, 0, 0]
        for j in range(1, len(bits)):
            v = _number(bits[j], 3, 0, 255)
            if v < 0:
                return None
            vals[j - 1] = v
        if vals[0] >= n:
            return None
        frames.append((op, vals[0], vals[1], vals[2], vals[3], vals[4]))
    return frames


def fields_raw(text):
    """The raw dict of a state text in the common shape, or None (module doc)."""
    cdef dict f = {}
    cdef str w, k, v
    cdef long n, c, sid, p
    if type(text) is not str or len(<str>text) > _MAX_TEXT:
        return None
    words = (<str>text).split()
    if not words or words[0] != _HEADER:
        return None
    for w in words[1:]:
        k, sep, v = w.partition("=")
        if not sep or k in f:
            return None
        f[k] = v
    s = f.get("n")
    if s is None:
        return None
    n = _number(s, 12, 2, 4)
    if n < 0 or len(f) != 15 + n:
        return None
    for k in ("spells", "day", "active", "phase", "end", "over", "altar", "pouch", "discard", "stack", "taken",
              "given", "justdisc", "rng"):
        if k not in f:
            return None
    names = (<str>f["spells"]).split(",")
    if len(names) != 7:
        return None
    spell = []
    for c in range(7):
        got = _SPELLS.get((<str>names[c]).lower())
        if got is None:
            return None
        sid = got
        if sid // 3 != c:
            return None
        spell.append(sid)
    phase = _PHASE_INDEX.get(f["phase"])
    day = _number(f["day"], 12, 0, _DAY_LIMIT + n - 1)
    active = _number(f["active"], 12, 0, n - 1)
    end = _number(f["end"], 12, 0, 1)
    over = _number(f["over"], 12, 0, 1)
    if phase is None or day < 0 or active < 0 or end < 0 or over < 0:
        return None
    altar, taken, given, justdisc = _counts(f["altar"]), _counts(f["taken"]), _counts(f["given"]), _counts(f["justdisc"])
    if altar is None or taken is None or given is None or justdisc is None:
        return None
    raw = {"players": n, "spell": spell, "day": day, "active": active, "phase": phase, "end_triggered": end,
           "over": over, "altar": altar, "taken": taken, "given": given, "justdisc": justdisc,
           "pool": [], "fam": [], "level": [], "rune": [], "learned_day": []}
    for p in range(n):
        seat = f.get(f"p{p}")
        if seat is None or not _player(raw, spell, seat):
            return None
    stack = _stack(f["stack"], n)
    pouch, discard = _counts(f["pouch"]), _counts(f["discard"])
    rng = f["rng"]
    if stack is None or pouch is None or discard is None or not _hex(rng):
        return None
    raw["stack"] = stack
    raw["pouch"] = pouch
    raw["discard"] = discard
    raw["rng"] = int(rng, 16)
    return raw


cdef long _COPIES = LIMITS["copies"]
cdef long _POOL_LIMIT = LIMITS["pool"]
cdef long _FAMILIAR_SPACES = LIMITS["familiar"]


def counts_hold(dict raw):
    """True when every token count of `raw` passes notation.validate_raw's count checks: each count of each
    zone 0..COPIES, each pool within POOL_LIMIT and familiar within FAMILIAR_SPACES, every token type's total
    over the zones (a learned spell's rune token included) COPIES, and justdisc within the Discard box.
    False when any fails or `raw` is not as expected: validate_raw then runs those checks in Python, which
    name the first that fails. Only the counts: the spells, counters, stack and bookkeeping are checked
    in Python either way."""
    cdef long totals[21]
    cdef long t, p, c, k, size, n
    try:
        n = raw["players"]
        zones = [raw["pouch"], raw["altar"], raw["discard"], raw["taken"], raw["given"], raw["justdisc"]]
        for p in range(n):
            zones.append(raw["pool"][p])
            zones.append(raw["fam"][p])
        for t in range(21):
            totals[t] = 0
        for k in range(len(zones)):
            z = zones[k]
            if type(z) is not list or len(<list>z) != 21:
                return False
            size = 0
            for t in range(21):
                c = (<list>z)[t]
                if c < 0 or c > _COPIES:
                    return False
                size += c
                if k < 3 or k >= 6:         # pouch, altar, discard, pools and familiars hold the tokens
                    totals[t] += c
            if k >= 6 and size > (_POOL_LIMIT if (k - 6) % 2 == 0 else _FAMILIAR_SPACES):
                return False
        for p in range(n):
            level, rune = raw["level"][p], raw["rune"][p]
            for c in range(7):
                if level[c]:
                    k = rune[c]
                    if k < 0 or k > 2:
                        return False
                    totals[c * 3 + k] += 1
        jd, discard = raw["justdisc"], raw["discard"]
        for t in range(21):
            if totals[t] != _COPIES or jd[t] > discard[t]:
                return False
    except (KeyError, IndexError, TypeError, OverflowError):
        return False
    return True
