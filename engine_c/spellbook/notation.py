"""Text notation of states and observations, their validation, and the observation tensor.

State text (one line, `key=value` fields separated by spaces; see docs/notation.md):

    sb1 n=2 spells=Sacrifice,Levitation,Purification,Offering,TimeTravel,Transmutation,Abundance
    day=0 active=0 phase=morning end=0 over=0 altar=RcPt2Kc... pouch=... discard=-
    p0=pool:RcGt;fam:-;spells:- p1=pool:...;fam:...;spells:Sacrifice4c@2 stack=endday:0,...,morning:0
    taken=- given=- justdisc=- rng=9e3779b97f4a7c15

Token multisets are written `Rc2Gt` (a count after a token when above 1) or `-`. A learned spell is
`<Name><level><rune>@<day learned>`. The stack lists pending steps bottom to top as `name:p:a:b:c:d`
(trailing zeros omitted). `rng` is the hidden future of the Pouch; observations leave it out.
"""
from __future__ import annotations

import re

import numpy as np

from engine_c.spellbook._engine import SPELL_PHASES, STEP_FLAGS
from engine_c.base import split_fields
from engine_c.spellbook.state import (COLOR_NAMES, COLORS, COPIES, FAMILIAR_SPACES, FRAME_NAMES, LIMITS, NCOL, NTYPE, PHASES,
                            POOL_LIMIT, SPELL_NAMES, NotationError, _FRAME_BY_NAME, clip, format_counts,
                            parse_counts, small_number, spell_id, token_name, RUNES)

HEADER = "sb1"
_LEARNED_RE = re.compile(r"^([A-Za-z]+)([345])([cts])@(\d+)$", re.ASCII)
_ZONES = ("altar", "pouch", "discard")


def _frame_text(fr) -> str:
    vals = list(fr[1:])
    while len(vals) > 1 and vals[-1] == 0:
        vals.pop()
    return ":".join([FRAME_NAMES[fr[0]]] + [str(v) for v in vals])


def _player_text(raw: dict, p: int) -> str:
    learned = [f"{SPELL_NAMES[raw['spell'][c]]}{raw['level'][p][c]}{RUNES[raw['rune'][p][c]]}@{raw['learned_day'][p][c]}"
               for c in range(NCOL) if raw["level"][p][c]]
    return (f"p{p}=pool:{format_counts(raw['pool'][p])};fam:{format_counts(raw['fam'][p])};"
            f"spells:{','.join(learned) or '-'}")


def _common_fields(raw: dict) -> list[str]:
    return [
        HEADER,
        f"n={raw['players']}",
        "spells=" + ",".join(SPELL_NAMES[i] for i in raw["spell"]),
        f"day={raw['day']}",
        f"active={raw['active']}",
        f"phase={PHASES[raw['phase']]}",
        f"end={raw['end_triggered']}",
        f"over={raw['over']}",
        f"altar={format_counts(raw['altar'])}",
    ]


def _tail_fields(raw: dict) -> list[str]:
    return ([_player_text(raw, p) for p in range(raw["players"])]
            + ["stack=" + (",".join(_frame_text(f) for f in raw["stack"]) or "-"),
               f"taken={format_counts(raw['taken'])}",
               f"given={format_counts(raw['given'])}",
               f"justdisc={format_counts(raw['justdisc'])}"])


def state_text(state) -> str:
    raw = state._to_raw()
    return " ".join(_common_fields(raw) + [f"pouch={format_counts(raw['pouch'])}",
                                           f"discard={format_counts(raw['discard'])}"]
                    + _tail_fields(raw) + [f"rng={raw['rng']:016x}"])


def observation_text(state, player: int, knows_discard: bool) -> str:
    raw = state._to_raw()
    if knows_discard:
        hidden = [f"pouch={format_counts(raw['pouch'])}", f"discard={format_counts(raw['discard'])}"]
    else:
        unseen = [raw["pouch"][t] + raw["discard"][t] - raw["justdisc"][t] for t in range(NTYPE)]
        hidden = [f"unseen={format_counts(unseen)}", f"pouchsize={sum(raw['pouch'])}"]
    return " ".join(_common_fields(raw) + hidden + _tail_fields(raw) + [f"observer={player}"])


# ----------------------------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------------------------
MAX_TEXT = 20_000      # a real state text is under 1,000 characters


def _fields(text: str) -> dict[str, str]:
    return split_fields(text, HEADER, MAX_TEXT)


def _need(f: dict[str, str], key: str) -> str:
    if key not in f:
        raise NotationError(f"missing field {key}=")
    return f[key]


def _num(f: dict[str, str], key: str, lo: int, hi: int) -> int:
    v = _need(f, key)
    if not small_number(v.removeprefix("-"), 12):
        raise NotationError(f"{key} must be a number from {lo} to {hi}, got {clip(v)}")
    n = int(v)
    if not lo <= n <= hi:
        raise NotationError(f"{key}={n} is out of range {lo}..{hi}")
    return n


def _parse_common(f: dict[str, str]) -> dict:
    n = _num(f, "n", 1, 4)
    if n == 1:
        raise NotationError("n=1 is the solo mode (§9), not implemented yet; use 2 to 4 players")
    if n < 2:
        raise NotationError(f"n must be 2 to 4 players, got {n}")
    names = _need(f, "spells").split(",")
    if len(names) != NCOL:
        raise NotationError(f"spells= lists {len(names)} spells; it must list 7, one per color in the order {COLORS}")
    spell = []
    for c, name in enumerate(names):
        sid = spell_id(name)
        if sid // 3 != c:
            raise NotationError(f"spells=: position {c + 1} is {COLOR_NAMES[c]}, but {SPELL_NAMES[sid]} is {COLOR_NAMES[sid // 3]}")
        spell.append(sid)
    phase = _need(f, "phase")
    if phase not in PHASES:
        raise NotationError(f"phase must be one of {', '.join(PHASES)}, got {clip(phase)}")
    raw = {
        "players": n, "spell": spell,
        "day": _num(f, "day", 0, LIMITS["day"] + n - 1), "active": _num(f, "active", 0, n - 1),
        "phase": PHASES.index(phase), "end_triggered": _num(f, "end", 0, 1), "over": _num(f, "over", 0, 1),
        "altar": parse_counts(_need(f, "altar"), "altar"),
        "taken": parse_counts(_need(f, "taken"), "taken"),
        "given": parse_counts(_need(f, "given"), "given"),
        "justdisc": parse_counts(_need(f, "justdisc"), "justdisc"),
        "pool": [], "fam": [], "level": [], "rune": [], "learned_day": [],
    }
    for p in range(n):
        _parse_player(raw, p, _need(f, f"p{p}"))
    extra = [k for k in f if k.startswith("p") and k[1:].isdigit() and int(k[1:]) >= n]
    if extra:
        raise NotationError(f"field {extra[0]}= names a seat beyond n={n}")
    raw["stack"] = _parse_stack(_need(f, "stack"), n)
    return raw


def _parse_player(raw: dict, p: int, text: str) -> None:
    parts = dict(x.split(":", 1) for x in text.split(";") if ":" in x)
    if set(parts) != {"pool", "fam", "spells"} or len(text.split(";")) != 3:
        raise NotationError(f"p{p}= must be pool:<tokens>;fam:<tokens>;spells:<learned spells>, got {clip(text)}")
    raw["pool"].append(parse_counts(parts["pool"], f"player {p}'s pool"))
    raw["fam"].append(parse_counts(parts["fam"], f"player {p}'s familiar"))
    level, rune, day = [0] * NCOL, [0] * NCOL, [0] * NCOL
    if parts["spells"] != "-":
        for item in parts["spells"].split(","):
            m = _LEARNED_RE.match(item)
            if not m or len(m.group(4)) > 6:
                raise NotationError(f"player {p}'s spell {clip(item)}: write <Name><level 3-5><rune c/t/s>@<day>, e.g. Sacrifice4c@2")
            name, rest = m.group(1), m.group(2) + m.group(3) + "@" + m.group(4)
            sid = spell_id(name)
            c = sid // 3
            if raw["spell"][c] != sid:
                raise NotationError(f"player {p} has learned {SPELL_NAMES[sid]}, which is not in play ({COLOR_NAMES[c]} is {SPELL_NAMES[raw['spell'][c]]})")
            if level[c]:
                raise NotationError(f"player {p} lists {SPELL_NAMES[sid]} twice")
            level[c], rune[c], day[c] = int(rest[0]), RUNES.index(rest[1]), int(rest[3:])
    raw["level"].append(level)
    raw["rune"].append(rune)
    raw["learned_day"].append(day)


def _parse_stack(text: str, n: int) -> list[tuple]:
    if text == "-":
        return []
    frames = []
    items = text.split(",")
    if len(items) > LIMITS["stack"]:
        raise NotationError(f"stack: {len(items)} steps; the engine holds at most {LIMITS['stack']}")
    for item in items:
        bits = item.split(":")
        if bits[0] not in _FRAME_BY_NAME:
            raise NotationError(f"stack: unknown step {clip(bits[0])}; steps are {', '.join(_FRAME_BY_NAME)}")
        if len(bits) > 6 or not all(small_number(b, 3) and int(b) < 256 for b in bits[1:]):
            raise NotationError(f"stack: step {clip(item)} must be name:p:a:b:c:d with numbers 0..255")
        vals = [int(b) for b in bits[1:]] + [0] * (6 - len(bits))
        if vals[0] >= n:
            raise NotationError(f"stack: step {clip(item)} names seat {vals[0]}, but n={n}")
        frames.append((_FRAME_BY_NAME[bits[0]], *vals))
    return frames


def state_from_text(cls, text: str):
    f = _fields(text)
    raw = _parse_common(f)
    raw["pouch"] = parse_counts(_need(f, "pouch"), "pouch")
    raw["discard"] = parse_counts(_need(f, "discard"), "discard")
    rng = _need(f, "rng")
    if not re.fullmatch(r"[0-9a-fA-F]{1,16}", rng):
        raise NotationError(f"rng must be 16 hex digits, got {clip(rng)}")
    raw["rng"] = int(rng, 16)
    _refuse_unknown(f, raw["players"], {"pouch", "discard", "rng"})
    return _build(cls, raw)


_COMMON_KEYS = {"n", "spells", "day", "active", "phase", "end", "over", "altar", "stack", "taken", "given",
                "justdisc"}


def _refuse_unknown(f: dict[str, str], n: int, own: set[str]) -> None:
    unknown = sorted(set(f) - _COMMON_KEYS - own - {f"p{p}" for p in range(n)})
    if unknown:
        raise NotationError(f"unknown field {clip(unknown[0], 30)}=")


def _build(cls, raw: dict):
    """The engine state of validated fields: every invariant checked before the C conversion."""
    validate_raw(raw)
    st = cls()
    try:
        st._from_raw(raw)
    except (OverflowError, TypeError, ValueError) as e:       # cannot happen after validate_raw
        raise NotationError(f"state out of range for the engine: {clip(str(e))}") from None
    check_resting(st, raw)
    return st


def state_from_observation(cls, text: str, seed: int):
    f = _fields(text)
    raw = _parse_common(f)
    raw["rng"] = seed
    observer = _num(f, "observer", 0, raw["players"] - 1) if "observer" in f else 0
    if "unseen" in f:
        _refuse_unknown(f, raw["players"], {"unseen", "pouchsize", "observer"})
        unseen = parse_counts(f["unseen"], "unseen")
        _check_counts(unseen, "unseen")
        size = _num(f, "pouchsize", 0, sum(unseen))
        pouch, left = [0] * NTYPE, size
        for t in range(NTYPE):
            pouch[t] = min(unseen[t], left)
            left -= pouch[t]
        raw["pouch"] = pouch
        raw["discard"] = [unseen[t] - pouch[t] + raw["justdisc"][t] for t in range(NTYPE)]
        knows = False
    else:
        _refuse_unknown(f, raw["players"], {"pouch", "discard", "observer"})
        raw["pouch"] = parse_counts(_need(f, "pouch"), "pouch")
        raw["discard"] = parse_counts(_need(f, "discard"), "discard")
        knows = True
    st = _build(cls, raw)
    st._determinize(observer, knows, seed)
    return st


# ----------------------------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------------------------
_COUNT_FIELDS = ("pouch", "altar", "discard", "taken", "given", "justdisc")


def _check_counts(counts: list[int], what: str) -> None:
    if max(counts) <= COPIES:       # the common case, in C (parse_counts and the C state never give < 0)
        return
    for t, k in enumerate(counts):
        if not 0 <= k <= COPIES:
            raise NotationError(f"{what}: {k} {token_name(t)}; the game has {COPIES} of each token")


def validate_raw(raw: dict) -> None:
    """Checks every invariant of a state; raises NotationError naming the first broken one.

    Counts first (so nothing out of range reaches the C conversion), then the 105 tokens (S1), the players'
    zones and spells, the counters (day, active seat, end, over, phase), the pending-step stack
    (engine_c.spellbook.stack) and what depends on it (Purification's and Communion's bookkeeping)."""
    n = raw["players"]
    for zone in _COUNT_FIELDS:
        _check_counts(raw[zone], zone)
    for p in range(n):
        _check_counts(raw["pool"][p], f"player {p}'s pool")
        _check_counts(raw["fam"][p], f"player {p}'s familiar")
        size = sum(raw["pool"][p])
        if size > POOL_LIMIT:
            raise NotationError(f"player {p}'s pool holds {size} tokens; the limit is {POOL_LIMIT} (P1)")
        fam = sum(raw["fam"][p])
        if fam > FAMILIAR_SPACES:
            raise NotationError(f"player {p}'s familiar holds {fam} tokens; it has {FAMILIAR_SPACES} spaces")
        _check_spells(raw, p)
    # token totals by type across every zone (summed zone by zone: this runs on every parsed request)
    totals = [a + b + c for a, b, c in zip(raw["pouch"], raw["altar"], raw["discard"])]
    for p in range(n):
        totals = [x + y + z for x, y, z in zip(totals, raw["pool"][p], raw["fam"][p])]
        for c in range(NCOL):
            if raw["level"][p][c]:
                totals[c * 3 + raw["rune"][p][c]] += 1
    for t, total in enumerate(totals):
        if total != COPIES:
            raise NotationError(f"there are {total} {token_name(t)} across the zones; the game has {COPIES}")
        if raw["justdisc"][t] > raw["discard"][t]:
            raise NotationError(f"justdisc lists {raw['justdisc'][t]} {token_name(t)}, more than the Discard box holds")
    _check_counters(raw)
    from engine_c.spellbook.stack import check_stack

    check_stack(raw)
    _check_bookkeeping(raw)


def _check_spells(raw: dict, p: int) -> None:
    for c, lvl in enumerate(raw["level"][p]):
        if not lvl:
            continue
        name = SPELL_NAMES[raw["spell"][c]]
        day = raw["learned_day"][p][c]
        if lvl not in (3, 4, 5):
            raise NotationError(f"player {p}'s {name} is at level {lvl}; levels are 3 to 5")
        if not 0 <= raw["rune"][p][c] < 3:
            raise NotationError(f"player {p}'s {name} has rune {raw['rune'][p][c]}; runes are c, t, s")
        if day > raw["day"]:
            raise NotationError(f"player {p}'s {name} was learned on day {day}, after the current day {raw['day']}")
        if day == raw["day"] and p != raw["active"]:
            raise NotationError(f"player {p}'s {name} was learned today (day {day}), but only the active player "
                                "learns (L1)")


def _check_counters(raw: dict) -> None:
    """The Day counter and active seat, the end trigger (E1, E2) and the phase against `over`."""
    n, day, active = raw["players"], raw["day"], raw["active"]
    if day % n != active:
        raise NotationError(f"active={active} does not match day={day}: seat day mod n plays Day `day` "
                            f"(seat 0 plays Day 0, T1), so active={day % n}")
    full = [p for p in range(n) if sum(raw["fam"][p]) >= FAMILIAR_SPACES or all(raw["level"][p])]
    if full and not raw["end_triggered"]:
        raise NotationError(f"end=0, but player {full[0]} has a full familiar or 7 spells: the end is triggered (E1)")
    if day >= LIMITS["day"] and not raw["end_triggered"]:
        raise NotationError(f"day={day} needs end=1: the engine triggers the end at Day {LIMITS['day']} (D21)")
    if raw["over"]:
        if not raw["end_triggered"]:
            raise NotationError("over=1 needs end=1: the game ends only after the end is triggered (E1)")
        if raw["phase"] != PHASES.index("over") or active != n - 1:
            raise NotationError(f"over=1 needs phase=over and active={n - 1}: the game ends after the Day of the "
                                "seat before the first player (E2)")
    elif raw["phase"] == PHASES.index("over"):
        raise NotationError("phase=over needs over=1")


def _check_bookkeeping(raw: dict) -> None:
    """Purification's taken/given (C5) exist only during its swaps; justdisc only while Communion L5 stores."""
    stack, A = raw["stack"], raw["active"]
    swaps = [fr for fr in stack if FRAME_NAMES[fr[0]] == "swap"]
    taken, given = sum(raw["taken"]), sum(raw["given"])
    if not swaps:
        if taken or given:
            raise NotationError("taken/given: Purification's moved tokens are listed, but no swap is pending (C5)")
    else:
        if taken != given or taken + swaps[0][2] > 3:
            raise NotationError(f"taken/given: {taken} taken and {given} given; Purification swaps one for one, "
                                "at most 3 in all")
        for t in range(NTYPE):
            if raw["taken"][t] > raw["pool"][A][t] or raw["given"][t] > raw["altar"][t]:
                raise NotationError(f"taken/given: {token_name(t)} moved by Purification is no longer where it went (C5)")
    store = [fr for fr in stack if FRAME_NAMES[fr[0]] == "store" and fr[3] == STEP_FLAGS["from_justdisc"]]
    held = sum(raw["justdisc"])
    if not store and held:
        raise NotationError("justdisc: tokens are listed, but no Communion L5 storage is pending")
    if store and held < store[0][2]:
        raise NotationError(f"justdisc: Communion L5 stores {store[0][2]} more, but only {held} are listed")


_DECISIONS = {"morning", "midday", "evening", "clone", "take", "store", "blaze", "swap", "discard", "storm"}


def check_resting(st, raw: dict) -> None:
    """A state text is taken where the engine rests: at a decision with a legal move, at a draw from a
    non-empty Pouch, or at the end. Anything else (e.g. hand-written) would make the engine draw from an
    empty Pouch or ask for a move that does not exist, so it is refused with the reason."""
    if raw["over"] or not raw["stack"]:
        return
    top = raw["stack"][-1]
    name = FRAME_NAMES[top[0]]
    if name in ("drawpool", "drawaltar"):
        if top[2] == 0:
            raise NotationError(f"stack: the top step {name} draws 0 tokens; a finished draw is not pending")
        if sum(raw["pouch"]) == 0:
            raise NotationError(f"stack: a draw ({name}) is pending but the Pouch is empty; the Discard box is "
                                "poured back before a draw is pending (A3)")
        if name == "drawpool" and sum(raw["pool"][top[1]]) >= POOL_LIMIT:
            raise NotationError(f"stack: a draw into player {top[1]}'s pool is pending but that pool is full (P1)")
        return
    if name not in _DECISIONS:
        raise NotationError(f"stack: the top step is {name!r}, which the engine runs by itself; a state text "
                            "stops at a decision, a draw or the end of the game")
    if not st._legal_codes():
        raise NotationError(f"stack: player {top[1]} must decide ({name}) but has no legal move; the engine "
                            "skips such a step (C6), so this state cannot occur")


# ----------------------------------------------------------------------------------------------
# Observation tensor
# ----------------------------------------------------------------------------------------------
PER_PLAYER = 21 + 21 + 7 + 21 + 7
OBSERVATION_LAYOUT = (
    ("altar", 21), ("discard", 21), ("pouch", 21),
    ("players", 4 * PER_PLAYER),
    ("spells_in_play", 21), ("phase", 6), ("decision", 17), ("to_move", 6), ("active", 4),
    ("end_triggered", 1), ("day", 1), ("player_count", 3),
)
OBSERVATION_SIZE = sum(n for _, n in OBSERVATION_LAYOUT)


def observation_array(state, player: int) -> np.ndarray:
    """float32[OBSERVATION_SIZE]; seats are ordered from `player` (self first), see docs/notation.md."""
    raw = state._to_raw()
    n = raw["players"]
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    i = 0
    for zone in ("altar", "discard", "pouch"):
        out[i:i + 21] = raw[zone]
        i += 21
    for k in range(4):
        if k < n:
            p = (player + k) % n
            out[i:i + 21] = raw["pool"][p]
            out[i + 21:i + 42] = raw["fam"][p]
            for c in range(NCOL):
                lvl = raw["level"][p][c]
                if lvl:
                    out[i + 42 + c] = lvl / 5.0
                    out[i + 49 + c * 3 + raw["rune"][p][c]] = 1.0
                    has_action = SPELL_PHASES[raw["spell"][c]] != 0   # T4: only phase spells give actions
                    out[i + 70 + c] = 1.0 if has_action and raw["learned_day"][p][c] < raw["day"] else 0.0
        i += PER_PLAYER
    for sid in raw["spell"]:
        out[i + sid] = 1.0
    i += 21
    out[i + raw["phase"]] = 1.0
    i += 6
    if raw["stack"] and not raw["over"]:
        out[i + raw["stack"][-1][0]] = 1.0
    i += 17
    cp = state.current_player
    out[i + (4 if cp == -1 else 5 if cp == -2 else (cp - player) % n)] = 1.0
    i += 6
    out[i + (raw["active"] - player) % n] = 1.0
    i += 4
    out[i] = raw["end_triggered"]
    out[i + 1] = raw["day"] / 100.0
    out[i + 2 + n - 2] = 1.0
    return out
