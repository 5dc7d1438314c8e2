"""Text notation of Abracada…What? states and observations, and their validation (docs/notation.md).

One line of `key=value` fields:

    aw1 n=3 variants=- phase=decide active=1 last=0 roll=- pending=0 life=1,5,5 points=4,3,1
    hands=45777,35678,45568 cast=-,-,- taken=-,-,- secret=3788 pile=15666778888 removed=223446
    log=1:4-,1/0,2:7-,2/0,0:1-r5,0/0 results=self:2:2:1.1.0:3.3.0,self:0:0:0.1.1:0.5.1,ko:0:0:3.1.0:6.5.0
    rng=1f970b808ff3c44e

A stone is its spell number 1-8; a multiset of stones is its sorted digits (`2368`), `-` when empty, and in
an observation `?k` for k stones the observer cannot see. Per-seat fields list seats 0..n-1 separated by
commas. The log holds the current round (XC12): `s:n+` / `s:n-` seat s cast n with success / failure,
`r<d>` after it the die roll (Ancient Dragon, Sweet Dream), `s/k` seat s's turn ended and k stones were
refilled. `results=` lists finished rounds as `reason:seat:actor:scores:lives` (scores and lives per seat,
dot-separated): reason `empty` (XR2), `ko` (XR3), `self` (XR4, seat = the loser), `last` (XV2, one
survivor); actor = the seat acting when the round ended (the next round starts at its left, XC11).
"""
from __future__ import annotations

import re

from engine_c.abracadawhat import _engine as _E
from engine_c.abracadawhat.state import PHASES, variant_bits
from engine_c.base import NotationError, clip, split_fields

HEADER = "aw1"
MAX_TEXT = 4_000          # a real state text is under 1,000 characters
HAND, LIFE, SECRETS, WIN = _E.LIMITS["hand"], _E.LIMITS["life"], _E.LIMITS["secrets"], _E.LIMITS["win"]
REASON_CODE = {v: k for k, v in _E.REASONS.items()}
ROLL_CODE = {v: k for k, v in _E.ROLL_KINDS.items()}
OK, FAIL, TURN_END = 1, 2, 3
EMPTY, KO, SELF, LAST = REASON_CODE["empty"], REASON_CODE["ko"], REASON_CODE["self"], REASON_CODE["last"]
DRAGON, DRAGON_FAIL, DREAM = ROLL_CODE["dragon"], ROLL_CODE["dragonfail"], ROLL_CODE["dream"]
DEAL, DECIDE, ROLL, SECRET, REFILL, OVER = range(6)
_CAST_RE = re.compile(r"^([0-4]):([1-8])([+-])(?:r([1-6]))?$", re.ASCII)
_END_RE = re.compile(r"^([0-4])/([0-5])$", re.ASCII)
_STONES_RE = re.compile(r"^[1-8]{1,36}$", re.ASCII)
_HIDDEN_RE = re.compile(r"^\?(\d{1,2})$", re.ASCII)
_FIELDS = ("n", "variants", "phase", "active", "last", "roll", "pending", "life", "points", "hands", "cast",
           "taken", "secret", "pile", "removed", "log", "results")


# ----------------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------------
def stones_text(counts) -> str:
    """Counts by spell 1..8 as sorted digits, '-' when empty."""
    return "".join(str(k + 1) * c for k, c in enumerate(counts)) or "-"


def _log_item(kind: int, seat: int, value: int) -> str:
    if kind == TURN_END:
        return f"{seat}/{value}"
    roll = value >> 4
    return f"{seat}:{value & 15}{'+' if kind == OK else '-'}" + (f"r{roll}" if roll else "")


def _result_item(r) -> str:
    reason, seat, actor, scores, lives = r
    return f"{_E.REASONS[reason]}:{seat}:{actor}:{'.'.join(map(str, scores))}:{'.'.join(map(str, lives))}"


def log_entries(raw: dict) -> list[dict]:
    out = []
    for kind, seat, value in raw["log"]:
        if kind == TURN_END:
            out.append({"seat": seat, "kind": "end", "refilled": value})
        else:
            out.append({"seat": seat, "kind": "cast", "spell": value & 15, "ok": kind == OK, "roll": value >> 4})
    return out


def _text(raw: dict, hidden=None, observer=None) -> str:
    """The state text; `hidden(zone, seat)` True writes that zone as its size only (`?k`)."""
    n = raw["players"]

    def zone(counts, name, seat=None):
        if hidden is not None and hidden(name, seat) and (sum(counts) or name in ("hand", "pile", "secret")):
            return f"?{sum(counts)}"
        return stones_text(counts)

    bits = raw["variants"]
    fields = [
        HEADER, f"n={n}",
        "variants=" + (",".join(v for v, b in _E.VARIANT_BITS.items() if bits & b) or "-"),
        f"phase={PHASES[raw['phase']]}", f"active={raw['active']}", f"last={raw['last']}",
        f"roll={_E.ROLL_KINDS.get(raw['roll'], '-')}", f"pending={raw['pending']}",
        "life=" + ",".join(map(str, raw["life"])), "points=" + ",".join(map(str, raw["points"])),
        "hands=" + ",".join(zone(raw["hands"][p], "hand", p) for p in range(n)),
        "cast=" + ",".join(stones_text(raw["cast"][p]) for p in range(n)),
        "taken=" + ",".join(zone(raw["taken"][p], "taken", p) for p in range(n)),
        f"secret={zone(raw['secret'], 'secret')}", f"pile={zone(raw['pile'], 'pile')}",
        f"removed={stones_text(raw['removed'])}",
        "log=" + (",".join(_log_item(*e) for e in raw["log"]) or "-"),
        "results=" + (",".join(_result_item(r) for r in raw["history"]) or "-"),
    ]
    fields.append(f"observer={observer}" if observer is not None else f"rng={raw['rng']:016x}")
    return " ".join(fields)


def state_text(raw: dict) -> str:
    return _text(raw)


def observation_text(raw: dict, observer: int) -> str:
    """XI1-XI4: the observer's own hand, the pile, the secret stones and the others' secret stones are
    written as sizes; everything else (the others' hands, the public log, results) as is; no rng."""
    def hidden(name, seat):
        return (name == "hand" and seat == observer) or name in ("pile", "secret") or \
            (name == "taken" and seat != observer)

    return _text(raw, hidden, observer)


# ----------------------------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------------------------
def _fields(text: str) -> dict[str, str]:
    return split_fields(text, HEADER, MAX_TEXT)


def _need(f: dict, key: str) -> str:
    if key not in f:
        raise NotationError(f"missing field {key}=")
    return f[key]


def _int(text: str, field: str, lo: int, hi: int) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise NotationError(f"{field} must be a number from {lo} to {hi}, got {clip(text)}")
    v = int(text)
    if not lo <= v <= hi:
        raise NotationError(f"{field}={v} is out of range {lo}..{hi}")
    return v


def _stones(text: str, field: str, hidden_ok: bool):
    """Counts by spell from sorted or unsorted digits; with hidden_ok, `?k` gives ('?', k)."""
    if text == "-":
        return [0] * 8
    m = _HIDDEN_RE.match(text)
    if m:
        if not hidden_ok:
            raise NotationError(f"{field}: {clip(text)} hides stones; a state text shows every zone "
                                "(`?k` only in an observation, for what the observer cannot see)")
        return ("?", int(m.group(1)))
    if not _STONES_RE.match(text):
        raise NotationError(f"{field} must list stones as digits 1-8 (e.g. 2368) or '-', got {clip(text)}")
    counts = [0] * 8
    for ch in text:
        counts[int(ch) - 1] += 1
    return counts


def _per_seat(f: dict, key: str, n: int) -> list[str]:
    items = _need(f, key).split(",")
    if len(items) != n:
        raise NotationError(f"{key}= lists {len(items)} seats; n={n}")
    return items


def parse_raw(text: str, observation: bool) -> tuple[dict, int | None]:
    """(raw dict, observer) of a state text (observation=False) or an observation text (hidden zones are
    ('?', size) tuples). Checks the syntax and every field's range; validate_raw checks the rest."""
    f = _fields(text)
    own = {"observer"} if observation else {"rng"}
    unknown = sorted(set(f) - set(_FIELDS) - own)
    if unknown:
        raise NotationError(f"unknown field {clip(unknown[0], 30)}=")
    n = _int(_need(f, "n"), "n", 2, 5)
    try:
        variants = variant_bits(_need(f, "variants"))
    except ValueError as e:
        raise NotationError(str(e)) from None
    phase = _need(f, "phase")
    if phase not in PHASES:
        raise NotationError(f"phase must be one of {', '.join(PHASES)}, got {clip(phase)}")
    roll = _need(f, "roll")
    if roll != "-" and roll not in ROLL_CODE:
        raise NotationError(f"roll must be -, dragon, dragonfail or dream, got {clip(roll)}")
    raw = {
        "players": n, "variants": variants, "phase": PHASES.index(phase),
        "active": _int(_need(f, "active"), "active", 0, n - 1),
        "last": _int(_need(f, "last"), "last", 0, 8), "roll": ROLL_CODE.get(roll, 0),
        "pending": _int(_need(f, "pending"), "pending", 0, 99), "over": 1 if phase == "over" else 0,
        "life": [_int(v, f"life of seat {p}", 0, LIFE) for p, v in enumerate(_per_seat(f, "life", n))],
        "points": [_int(v, f"points of seat {p}", 0, 99) for p, v in enumerate(_per_seat(f, "points", n))],
    }
    for key, name in (("hands", "hand"), ("cast", "cast stones"), ("taken", "secret stones")):
        raw[key] = [_stones(v, f"{key}: seat {p}'s {name}", observation and key != "cast")
                    for p, v in enumerate(_per_seat(f, key, n))]
    for key in ("secret", "pile", "removed"):
        raw[key] = _stones(_need(f, key), key, observation and key != "removed")
    raw["log"] = _parse_log(_need(f, "log"), n)
    raw["history"] = _parse_results(_need(f, "results"), n)
    observer = None
    if observation:
        observer = _int(_need(f, "observer"), "observer", 0, n - 1)
        raw["rng"] = 0
    else:
        rng = _need(f, "rng")
        if not re.fullmatch(r"[0-9a-fA-F]{1,16}", rng):
            raise NotationError(f"rng must be up to 16 hex digits, got {clip(rng)}")
        raw["rng"] = int(rng, 16)
    return raw, observer


def _parse_log(text: str, n: int) -> list[tuple[int, int, int]]:
    if text == "-":
        return []
    items = text.split(",")
    if len(items) >= _E.LIMITS["log"]:
        raise NotationError(f"log: {len(items)} entries; a round logs fewer than {_E.LIMITS['log']}")
    out = []
    for i, item in enumerate(items):
        m = _CAST_RE.match(item)
        if m:
            seat, spell, ok, roll = int(m.group(1)), int(m.group(2)), m.group(3) == "+", int(m.group(4) or 0)
            out.append((OK if ok else FAIL, seat, spell | roll << 4))
        else:
            m = _END_RE.match(item)
            if not m:
                raise NotationError(f"log: entry {i + 1} {clip(item, 20)} is neither s:n+ / s:n- (with rD for a "
                                    "die roll) nor s/k (seat s ended its turn, k stones refilled)")
            seat = int(m.group(1))
            out.append((TURN_END, seat, int(m.group(2))))
        if seat >= n:
            raise NotationError(f"log: entry {i + 1} {clip(item, 20)} names seat {seat}, but n={n}")
    return out


def _parse_results(text: str, n: int) -> list[tuple]:
    if text == "-":
        return []
    items = text.split(",")
    if len(items) > _E.LIMITS["rounds"]:
        raise NotationError(f"results: {len(items)} rounds; a game has at most {_E.LIMITS['rounds']}")
    out = []
    for i, item in enumerate(items):
        parts = item.split(":")
        where = f"results: round {i + 1} {clip(item, 30)}"
        if len(parts) != 5 or parts[0] not in REASON_CODE:
            raise NotationError(f"{where} must be reason:seat:actor:scores:lives with reason empty, ko, self or last")
        seat = _int(parts[1], f"{where}: seat", 0, n - 1)
        actor = _int(parts[2], f"{where}: actor", 0, n - 1)
        scores, lives = parts[3].split("."), parts[4].split(".")
        if len(scores) != n or len(lives) != n:
            raise NotationError(f"{where}: scores and lives list one number per seat (n={n}), dot-separated")
        out.append((REASON_CODE[parts[0]], seat, actor, [_int(v, f"{where}: score", 0, 7) for v in scores],
                    [_int(v, f"{where}: life", 0, LIFE) for v in lives]))
    return out


# ----------------------------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------------------------
def validate_raw(raw: dict) -> None:
    """Every invariant a state text must keep; NotationError names the first broken one. Zones first (XS1's
    36 stones, hands of at most 5), then the finished rounds and points (XR2-XR5, XG1), then the current
    round replayed from its public log (turn order, XT1-XT5, XC1, XC7, the effects, life, hand sizes,
    casts, the pile and the secret stones), then the pending phase against the replay."""
    n = raw["players"]
    for k in range(8):
        total = raw["pile"][k] + raw["secret"][k] + raw["removed"][k] + sum(
            raw["hands"][p][k] + raw["cast"][p][k] + raw["taken"][p][k] for p in range(n))
        if total != k + 1:
            raise NotationError(f"stones: there are {total} stones of spell {k + 1} across the zones; spell {k + 1} "
                                f"has exactly {k + 1} (XS1)")
    for p in range(n):
        if sum(raw["hands"][p]) > HAND:
            raise NotationError(f"hands: seat {p} holds {sum(raw['hands'][p])} stones; a hand holds at most {HAND} "
                                "(XS2, XT4)")
    _check_results(raw)
    _check_round(raw)


def _check_results(raw: dict) -> None:
    n, xv2 = raw["players"], bool(raw["variants"] & 2)
    points = [0] * n
    for i, (reason, seat, actor, scores, lives) in enumerate(raw["history"]):
        where = f"results: round {i + 1}"
        if max(points) >= WIN:
            raise NotationError(f"{where}: the game had already ended (a seat had {WIN} points, XG1)")
        base = 2 if xv2 else 3
        if (xv2 and reason in (KO, SELF)) or (not xv2 and reason == LAST):
            raise NotationError(f"{where}: reason {_E.REASONS[reason]} " +
                                ("is not an XV2 ending (XV2 rounds end with empty or last)" if xv2
                                 else "needs variant xv2"))
        if reason != LAST and actor != seat:
            raise NotationError(f"{where}: the {_E.REASONS[reason]} round ends on the turn of seat {seat}, "
                                f"so actor must be {seat}")
        bonus = 0
        for p in range(n):
            s, life = scores[p], lives[p]
            if p == seat:
                ok = (life == 0 and s == 0) if reason == SELF else (life >= 1 and base <= s <= base + SECRETS)
                bonus += 0 if reason == SELF else s - base
            elif reason in (EMPTY, LAST):
                ok = life == 0 and s == 0
            elif life == 0:
                ok = s == 0 and reason == KO
            else:
                ok = 1 <= s <= 1 + SECRETS
                bonus += s - 1
            if not ok:
                raise NotationError(f"{where}: seat {p} scores {s} with life {life}, which a "
                                    f"{_E.REASONS[reason]} round does not give (XR2-XR5, XV2)")
        if bonus > SECRETS:
            raise NotationError(f"{where}: {bonus} points for secret stones; there are {SECRETS} (XR5)")
        if reason == KO and min(lives) > 0:
            raise NotationError(f"{where}: a knock-out round (ko) leaves a seat at 0 life (XR3)")
        points = [a + b for a, b in zip(points, scores)]
    if points != raw["points"]:
        raise NotationError(f"points={','.join(map(str, raw['points']))} do not add up to the finished rounds' "
                            f"scores ({','.join(map(str, points))}) (XR2-XR5)")
    if raw["over"] != (max(points) >= WIN):
        raise NotationError("phase=over needs a seat with 8 points, and a seat with 8 points ends the game (XG1)")


class _Round:
    """The current round replayed from its public log (what validate_raw compares the zones against)."""

    def __init__(self, raw: dict):
        n = self.n = raw["players"]
        self.xv1, self.xv2 = bool(raw["variants"] & 1), bool(raw["variants"] & 2)
        hist = raw["history"][:-1] if raw["over"] else raw["history"]
        self.first = (hist[-1][2] + 1) % n if hist else 0       # XS3, XR6, XC11
        self.life = [LIFE] * n
        self.hand_n = [HAND] * n
        self.cast = [[0] * 8 for _ in range(n)]
        self.taken_n = [0] * n
        self.secrets = SECRETS
        self.pile = 36 - _E.removed_stones(n) - HAND * n - SECRETS
        self.seat, self.last, self.failed = self.first, 0, False
        self.ended = None             # (reason, seat, actor, scores, lives) when the log's last cast ended it
        self.pending = None           # 'roll' kind, 'secret' or 'refill' at the log's end

    def is_in(self, p: int) -> bool:
        return self.life[p] > 0 or not self.xv2

    def side(self, p: int, step: int) -> int:
        for k in range(1, self.n):
            q = (p + step * k) % self.n
            if self.is_in(q):
                return q
        return -1

    def lose(self, p: int, amount: int) -> None:
        self.life[p] = max(0, self.life[p] - amount)

    def gain(self, p: int, amount: int) -> None:
        self.life[p] = min(LIFE, self.life[p] + amount)

    def effect(self, a: int, spell: int, roll: int) -> None:
        """§4 (XC2: all at once; XC8, XC13)."""
        others = [p for p in range(self.n) if p != a and self.is_in(p) and self.life[p] > 0]
        if spell in (1, 2):
            for p in others:
                self.lose(p, roll if spell == 1 else 1)
            if spell == 2:
                self.gain(a, 1)
        elif spell == 3:
            self.gain(a, roll)
        elif spell == 4 and self.secrets:
            self.secrets -= 1
            self.taken_n[a] += 1
        elif spell in (5, 6, 7):
            left, right = self.side(a, 1), self.side(a, -1)
            if spell in (5, 6) and left >= 0:
                self.lose(left, 1)
            if spell in (5, 7) and right >= 0 and (spell == 7 or right != left):
                self.lose(right, 1)
        elif spell == 8:
            self.gain(a, 1)

    def end_check(self, a: int, success: bool) -> None:
        """XR1 after the effect (XC9): XR2 first (XC2), then knock-outs (XR3, XR4; XV2: one survivor)."""
        n = self.n
        alive = [p for p in range(n) if self.life[p] > 0]
        if success and self.hand_n[a] == 0:
            reason, seat = EMPTY, a
            for p in range(n):
                if p != a:
                    self.life[p] = 0
        elif self.xv2:
            if len(alive) != 1:
                return
            reason, seat = LAST, alive[0]
        elif len(alive) == n:
            return
        else:
            reason, seat = (KO if success else SELF), a
        base = 2 if self.xv2 else 3
        scores = [0] * n
        for p in range(n):
            if reason in (KO, SELF) and self.life[p] > 0:
                scores[p] = 1 + self.taken_n[p]
        if reason != SELF:
            scores[seat] = base + self.taken_n[seat]
        self.ended = (reason, seat, a, scores, list(self.life))

    def replay(self, log: list, phase: int, pending: int) -> None:
        for i, (kind, who, value) in enumerate(log):
            final = i == len(log) - 1
            where = f"log: entry {i + 1} ({_log_item(kind, who, value)})"
            if self.ended:
                raise NotationError(f"{where} comes after the round ended (XR1)")
            if who != self.seat:
                raise NotationError(f"{where} is seat {who}'s, but it is seat {self.seat}'s turn (XT5, XC11, XC13)")
            if kind == TURN_END:
                self._turn_end(where, value, final and phase == REFILL, pending)
            else:
                self._cast(where, kind == OK, value & 15, value >> 4, final, phase)

    def _cast(self, where: str, ok: bool, spell: int, roll: int, final: bool, phase: int) -> None:
        a = self.seat
        if self.failed:
            raise NotationError(f"{where}: a failed cast ends the turn (XT1, XC7)")
        if self.last and not self.xv1 and spell < self.last:
            raise NotationError(f"{where}: after casting {self.last} the next cast is {self.last} or higher (XT2, XC1)")
        needs_roll = spell == 1 or (spell == 3 and ok)
        if roll and not needs_roll:
            raise NotationError(f"{where}: only Ancient Dragon (cast or failed) and Sweet Dream roll the die (§4, XC8)")
        if needs_roll and not roll:
            if not (final and phase == ROLL):
                raise NotationError(f"{where}: the die roll is missing (write r1-r6 after it)")
            self.pending = DRAGON if spell == 1 and ok else DRAGON_FAIL if spell == 1 else DREAM
        if ok:
            if self.hand_n[a] == 0:
                raise NotationError(f"{where}: seat {a}'s hand is empty")
            self.hand_n[a] -= 1
            self.cast[a][spell - 1] += 1
            self.last = spell
            if self.pending:
                return
            if spell == 4 and self.secrets and final and phase == SECRET:
                self.pending = "secret"
                return
            self.effect(a, spell, roll)
        else:
            if self.pending:
                return
            self.lose(a, roll or 1)
            self.failed = True
        self.end_check(a, ok)

    def _turn_end(self, where: str, refilled: int, refilling: bool, pending: int) -> None:
        a = self.seat
        if not self.last and not self.failed:
            raise NotationError(f"{where}: a turn ends only after a success (end) or a failure (XC7)")
        need = 0 if not self.is_in(a) else min(HAND - self.hand_n[a], self.pile)
        total = refilled + (pending if refilling else 0)
        if total != need:
            raise NotationError(f"{where}: the refill is {need} stone(s) (to 5 from a pile of {self.pile}, XT4, XC13)"
                                + (f"; {refilled} drawn and pending={pending}" if refilling else f", not {refilled}"))
        self.hand_n[a] += refilled
        self.pile -= refilled
        self.last, self.failed = 0, False
        if refilling:
            self.pending = "refill"
            return
        nxt = self.side(a, 1)
        self.seat = nxt if nxt >= 0 else a


def _check_round(raw: dict) -> None:
    n, phase = raw["players"], raw["phase"]
    r = _Round(raw)
    removed_n, secret_n, pile_n = sum(raw["removed"]), sum(raw["secret"]), sum(raw["pile"])
    if phase == DEAL:
        _check_deal(raw, r, removed_n, secret_n)
        return
    if sum(raw["removed"]) != _E.removed_stones(n):
        raise NotationError(f"removed: {removed_n} stones; with {n} players {_E.removed_stones(n)} are removed (XS2)")
    r.replay(raw["log"], phase, raw["pending"])
    if raw["over"]:
        if r.ended is None:
            raise NotationError("phase=over: the log's last entry must end the round that ended the game (XR1, XG1)")
        if tuple(r.ended) != tuple(raw["history"][-1]):
            raise NotationError(f"results: the last round must read {_result_item(r.ended)} after its log (XR1-XR5)")
        if raw["active"] != r.ended[2] or raw["last"] != r.last or raw["roll"] or raw["pending"]:
            raise NotationError(f"phase=over: active={r.ended[2]}, last={r.last}, roll=-, pending=0 "
                                "(the seat acting when the game ended)")
    else:
        if r.ended is not None:
            raise NotationError(f"log: the round ended ({_result_item(r.ended)}); a new one would have been dealt (XR6)")
        _check_pending(raw, r)
    for p in range(n):
        if raw["life"][p] != r.life[p]:
            raise NotationError(f"life: seat {p} has {raw['life'][p]}; its log gives {r.life[p]} (§4, XT3)")
        if sum(raw["hands"][p]) != r.hand_n[p]:
            raise NotationError(f"hands: seat {p} holds {sum(raw['hands'][p])} stones; the log gives {r.hand_n[p]} "
                                "(5 dealt, less the casts, plus the refills)")
        if raw["cast"][p] != r.cast[p]:
            raise NotationError(f"cast: seat {p}'s cast stones are {stones_text(raw['cast'][p])}; its log's "
                                f"successes are {stones_text(r.cast[p])}")
        if sum(raw["taken"][p]) != r.taken_n[p]:
            raise NotationError(f"taken: seat {p} holds {sum(raw['taken'][p])} secret stones; its Night Singers "
                                f"took {r.taken_n[p]} (§4, XC3)")
    if secret_n != r.secrets or pile_n != r.pile:
        raise NotationError(f"secret/pile: {secret_n} secret stones and a pile of {pile_n}; the log leaves "
                            f"{r.secrets} and {r.pile} (XS2, XT4)")


def _check_deal(raw: dict, r: _Round, removed_n: int, secret_n: int) -> None:
    """XC5: the deal in order (removed stones, 5 to each seat from seat 0 up, the secret stones)."""
    n, k = raw["players"], raw["pending"]
    nr = _E.removed_stones(n)
    if k >= nr + HAND * n + SECRETS:
        raise NotationError(f"pending={k}: the deal has {nr + HAND * n + SECRETS} stones; a finished deal is not pending")
    if raw["log"] or any(map(any, raw["cast"])) or any(map(any, raw["taken"])):
        raise NotationError("phase=deal: no stone is cast or taken and the log is empty while dealing (XS2)")
    if raw["life"] != [LIFE] * n or raw["last"] or raw["roll"]:
        raise NotationError("phase=deal: every seat has 6 life (XS3), last=0, roll=-")
    if raw["active"] != r.first:
        raise NotationError(f"active={raw['active']}: this round starts with seat {r.first} (XS3, XR6, XC11)")
    want = [min(max(k - nr - HAND * p, 0), HAND) for p in range(n)]
    if removed_n != min(k, nr) or [sum(h) for h in raw["hands"]] != want or \
            secret_n != min(max(k - nr - HAND * n, 0), SECRETS):
        raise NotationError(f"pending={k}: after {k} stones dealt in XC5's order the zones hold "
                            f"removed {min(k, nr)}, hands {','.join(map(str, want))}, "
                            f"secret {min(max(k - nr - HAND * n, 0), SECRETS)}")


def _check_pending(raw: dict, r: _Round) -> None:
    """The phase, active seat, last cast, roll and pending count the log leaves."""
    phase, pending = raw["phase"], r.pending
    want_phase = ROLL if pending in (DRAGON, DRAGON_FAIL, DREAM) else SECRET if pending == "secret" else \
        REFILL if pending == "refill" else DECIDE
    if phase != want_phase:
        raise NotationError(f"phase={PHASES[phase]}: the log leaves phase={PHASES[want_phase]} pending")
    if raw["active"] != r.seat:
        raise NotationError(f"active={raw['active']}: the log gives seat {r.seat}'s turn (XT5)")
    if raw["last"] != r.last:
        raise NotationError(f"last={raw['last']}: the turn's last success in the log is {r.last}")
    if raw["roll"] != (pending if want_phase == ROLL else 0):
        raise NotationError(f"roll: the log leaves {_E.ROLL_KINDS.get(pending, '-') if want_phase == ROLL else '-'}")
    if (raw["pending"] > 0) != (want_phase == REFILL):
        raise NotationError("pending: stones still to refill, only while phase=refill (XT4)")
    if want_phase == DECIDE and r.failed:
        raise NotationError("log: a failed cast must be followed by its turn end (XC7)")
    if raw["secret"] == [0] * 8 and want_phase == SECRET:
        raise NotationError("phase=secret needs a secret stone left (XC3)")


def check_state(st) -> None:
    """validate_raw on a state's fields, then the compiled invariants, including (XC6) that every seat's
    own announcements leave at least one hand it could hold."""
    validate_raw(st._to_raw())
    err = st._check(True)
    if err:
        raise NotationError(_E.INVARIANT_ERRORS[err])


validate_state = check_state


def _build(cls, raw: dict):
    validate_raw(raw)
    st = cls()
    st._from_raw(raw)
    return st


def state_from_text(cls, text: str):
    raw, _ = parse_raw(text, observation=False)
    st = _build(cls, raw)
    err = st._check(True)
    if err:
        raise NotationError(_E.INVARIANT_ERRORS[err])
    return st


def state_from_observation(cls, text: str, seed: int):
    """Parse an observation, check it, and sample a full state from it (XC6)."""
    raw, o = parse_raw(text, observation=True)
    n = raw["players"]
    hidden = {("hand", p) for p in range(n) if p == o} | {("pile", None), ("secret", None)} | \
        {("taken", p) for p in range(n) if p != o}
    sizes = {}
    zones = [("hand", "hands", p) for p in range(n)] + [("taken", "taken", p) for p in range(n)] + \
        [("pile", "pile", None), ("secret", "secret", None)]
    for name, key, seat in zones:
        value = raw[key][seat] if seat is not None else raw[key]
        what = key + (f": seat {seat}'s {'hand stones' if name == 'hand' else 'secret stones'}" if seat is not None else "")
        if (name, seat) not in hidden:
            if isinstance(value, tuple):
                raise NotationError(f"{what} are seen by seat {o} (XI1, XI2); list the stones")
            continue
        if not isinstance(value, tuple) and (name != "taken" or sum(value)):
            raise NotationError(f"{what} are hidden from seat {o} (XI2, XI3); write ?k, their number")
        sizes[(name, seat)] = value[1] if isinstance(value, tuple) else 0
    unseen = [k + 1 - raw["removed"][k] - raw["taken"][o][k] - sum(raw["hands"][q][k] + raw["cast"][q][k] for q in range(n) if q != o) for k in range(8)]
    for k, u in enumerate(unseen):
        if u < 0:
            raise NotationError(f"stones: seat {o} sees {k + 1 - u} stones of spell {k + 1}; it has {k + 1} (XS1)")
    free = [u - c for u, c in zip(unseen, raw["cast"][o])]
    if min(free) < 0 or sum(free) != sum(sizes.values()):
        raise NotationError(f"stones: the hidden zones hold {sum(sizes.values())} stones but seat {o} cannot see "
                            f"{sum(free)} (XS1)")
    for (name, seat), size in sizes.items():        # any arrangement of the right sizes; resampled below
        counts = [0] * 8
        for k in range(8):
            take = min(free[k], size - sum(counts))
            counts[k] += take
            free[k] -= take
        key = {"hand": "hands", "taken": "taken"}.get(name, name)
        if seat is None:
            raw[key] = counts
        else:
            raw[key][seat] = counts
    raw["rng"] = seed
    st = _build(cls, raw)
    if not st._determinize(o, seed):
        raise NotationError(f"log: seat {o}'s announcements are inconsistent with every hand it could hold (XC6)")
    check_state(st)
    return st
