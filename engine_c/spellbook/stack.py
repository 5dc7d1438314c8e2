"""Which pending-step stacks the engine can reach (used to validate state texts and observations).

A state's `stack` (bottom to top) is what the engine still has to do. In play it only ever holds:
- during setup (S1, S3): `start`, the players' 2-token draws (last seat at the bottom), the Altar's 5 draws;
- during a Day of the active seat A (T1): `endday:A`, then either `resupply:A` and the Day's phases still
  to come (a prefix of evening, midday, morning, and a second morning with Swiftness L5), or the resupply's
  Altar draw (A1); on top, the steps left by the action of the phase just decided.
An action pushes a fixed list of steps (e.g. Divination 3: discard 1, take 2, draw 2 onto the Altar) and
they run from the top: what remains is a bottom part of that list, whose top step may be under way (a take
sequence with tokens left). On top of it there may be a Mirage draw (C1: right after a token taken by the
active player) or, when a decision step of the action was just decided (Swiftness' instant Morning action,
the action Clone copies), the steps of that decision's own action.

`check_stack(raw)` accepts exactly those stacks (with every step's numbers in range and the spells they
need learned) and raises NotationError naming the first step that cannot be there. The step and flag
codes come from the compiled engine (`FRAME_NAMES`, `STEP_FLAGS`), so the two cannot drift apart.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine_c.spellbook._engine import FRAME_NAMES, STEP_FLAGS
from engine_c.spellbook.state import COLOR_NAMES, NCOL, PHASES, SPELL_NAMES, NotationError

OP = {name: op for op, name in FRAME_NAMES.items()}
STORE_DIRECT = STEP_FLAGS["store_direct"]
MAY_STOP = STEP_FLAGS["may_stop"]
FIX_RUNE = STEP_FLAGS["fix_rune"]
FIX_COLOR = STEP_FLAGS["fix_color"]
FROM_JUSTDISC = STEP_FLAGS["from_justdisc"]
ALL_RUNES, ALL_COLORS = 0b111, 0x7F
RUNE_MASK_BY_LEVEL = {3: 0b001, 4: 0b011, 5: 0b111}      # [R] Levitation's runes (the engine's table)
SINGLE_RUNES = (1, 2, 4)
SINGLE_COLORS = tuple(1 << c for c in range(NCOL))
SETUP, MORNING, MIDDAY, EVENING, RESUPPLY, OVER = range(6)
_SPELL = {name: i for i, name in enumerate(SPELL_NAMES)}


def step_text(fr) -> str:
    vals = list(fr[1:])
    while len(vals) > 1 and vals[-1] == 0:
        vals.pop()
    return ":".join([FRAME_NAMES.get(fr[0], str(fr[0]))] + [str(v) for v in vals])


def _steps_text(frames, limit: int = 90) -> str:
    text = ",".join(step_text(f) for f in frames)
    return text if len(text) <= limit else text[:limit] + "…"


# ----------------------------------------------------------------------------------------------
# Steps an action pushes
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One step an action pushes: its op and seat, its numbers when pushed (`fresh`) and while under way
    (`going`: only the top remaining step of an action can be), whether a Mirage draw may follow a token
    it takes, and the context of the action chosen when it is a decision that starts one (`child`)."""

    op: int
    seat: int
    fresh: Callable[[tuple], bool]
    going: Callable[[tuple], bool]
    takes: bool = False
    child: str | None = None


def _args(fr):
    return fr[2:]


def _draw(op: str, seat: int, count: int, exact: bool = True) -> Step:
    """A draw of `count` tokens (into `seat`'s pool, or onto the Altar); under way: fewer left."""
    def going(fr):
        a, b, c, d = _args(fr)
        return 1 <= a <= count and b == c == d == 0

    def fresh(fr):
        return going(fr) and (not exact or fr[2] == count)
    return Step(OP[op], seat, fresh, going)


def _seq(op: str, seat: int, count: int, flags: int, runes: int, colors: int) -> Step:
    """A take or store sequence of `count` tokens (C10); Levitation fixes the rune and Divination 4 /
    Offering the color after the first token."""
    def fresh(fr):
        return _args(fr) == (count, flags, runes, colors)

    def going(fr):
        a, b, c, d = _args(fr)
        return (1 <= a < count and b == flags
                and (c == runes or (flags & FIX_RUNE and c in SINGLE_RUNES and c & runes))
                and (d == colors or (flags & FIX_COLOR and d in SINGLE_COLORS)))
    return Step(OP[op], seat, fresh, going, takes=op == "take")


def _plain(op: str, seat: int, a: int = 0, child: str | None = None) -> Step:
    def same(fr):
        return _args(fr) == (a, 0, 0, 0)
    return Step(OP[op], seat, same, same, child=child)


def _counted(op: str, seat: int, count: int, takes: bool = False) -> Step:
    """A discard of `count` pool tokens (decided at once) or `count` Purification swaps (one at a time)."""
    def fresh(fr):
        return _args(fr) == (count, 0, 0, 0)

    def going(fr):
        a, b, c, d = _args(fr)
        return 1 <= a <= count and b == c == d == 0
    return Step(OP[op], seat, fresh, going if takes else fresh, takes=takes)


def _setlevel(seat: int, color: int, level: int) -> Step:
    def same(fr):
        return _args(fr) == (color, level, 0, 0)
    return Step(OP["setlevel"], seat, same, same)


def _storm(seat: int, color: int, level: int, unseen: list[int]) -> Step:
    """Storm's discard choices (D9): a = Altar tokens discarded so far, b = the last one's type. They are in
    the Discard box (nothing is drawn before the choice ends); `unseen` is the Pouch and Discard box together,
    which is all an observation without Discard-box memory knows (§8)."""
    def fresh(fr):
        return _args(fr) == (0, 0, color, level)

    def going(fr):
        a, b, c, d = _args(fr)
        return (c, d) == (color, level) and ((a == 0 and b == 0)
                                             or (1 <= a <= sum(unseen) and b < 21 and unseen[b] >= 1))
    return Step(OP["storm"], seat, fresh, going)


# ----------------------------------------------------------------------------------------------
# The actions available in a context
# ----------------------------------------------------------------------------------------------
class _Table:
    """What the validated fields say about the players' spells (levels usable in each context)."""

    def __init__(self, raw: dict):
        self.raw = raw
        self.n = raw["players"]
        self.A = raw["active"]
        self.day = raw["day"]
        self.color = {sid: sid // 3 for sid in raw["spell"]}

    def level(self, p: int, name: str) -> int:
        c = self.color.get(_SPELL[name])
        return 0 if c is None else self.raw["level"][p][c]

    def usable(self, name: str, cloned: bool) -> int:
        """The highest level at which the active player may use `name`'s action: own (learned before
        today, T4) or copied by Clone (the highest among the other players, C4)."""
        c = self.color.get(_SPELL[name])
        if c is None:
            return 0
        if cloned:
            return max(self.raw["level"][q][c] for q in range(self.n) if q != self.A)
        lvl = self.raw["level"][self.A][c]
        return lvl if lvl and self.raw["learned_day"][self.A][c] < self.day else 0

    def rune_levels(self, name: str, cloned: bool) -> dict[int, int]:
        """rune -> highest usable level, for the rune-dependent spells (Focus, Transmutation; C4)."""
        c = self.color.get(_SPELL[name])
        out: dict[int, int] = {}
        if c is None:
            return out
        seats = [q for q in range(self.n) if q != self.A] if cloned else [self.A]
        for q in seats:
            lvl = self.raw["level"][q][c]
            if lvl and (cloned or self.raw["learned_day"][q][c] < self.day):
                r = self.raw["rune"][q][c]
                out[r] = max(out.get(r, 0), lvl)
        return out

    def others(self) -> list[int]:
        """The other seats from the active player's right up to the left (the order their steps are pushed)."""
        return [(self.A + i) % self.n for i in range(self.n - 1, 0, -1)]


Variant = tuple[list[Step], bool]     # (steps pushed, may a Mirage draw follow with no step left: Take 1, Feast)


def _morning_actions(tb: _Table, cloned: bool) -> list[Variant]:
    A = tb.A
    out: list[Variant] = [([], True), ([_draw("drawpool", A, 2)], False)]           # Take 1, Draw 2 (T3)
    if tb.usable("Sacrifice", cloned):
        out.append(([_draw("drawpool", A, 4)], False))
    lvl = tb.usable("Eruption", cloned)
    if lvl:
        out.append(([_draw("drawpool", A, lvl + 1, exact=False)], False))            # C13: target - pool
    if tb.usable("Blaze", cloned):
        out.append(([_plain("blaze", q) for q in tb.others()] + [_draw("drawpool", A, 4)], False))
    lvl = tb.usable("Levitation", cloned)
    if lvl:
        out.append(([_seq("take", A, 2, FIX_RUNE, RUNE_MASK_BY_LEVEL[lvl], ALL_COLORS)], False))   # D3
    for L in range(3, tb.usable("Sharing", cloned) + 1):
        others = [_draw("drawpool", q, 1) for q in tb.others()]
        own = ([_draw("drawpool", A, 1), _seq("take", A, 1, 0, ALL_RUNES, ALL_COLORS)] if L == 3
               else [_seq("take", A, L - 2, 0, ALL_RUNES, ALL_COLORS)])
        out.append((others + own, False))
    for L in range(3, tb.usable("Divination", cloned) + 1):
        altar = _draw("drawaltar", A, 2)
        if L == 3:
            out.append(([_counted("discard", A, 1), _seq("take", A, 2, 0, ALL_RUNES, ALL_COLORS), altar], False))
        elif L == 4:
            out.append(([_seq("take", A, 2, MAY_STOP | FIX_COLOR, ALL_RUNES, ALL_COLORS), altar], False))
        else:
            out.append(([_seq("take", A, 2, 0, ALL_RUNES, ALL_COLORS), altar], False))
    return out


def _midday_actions(tb: _Table, cloned: bool) -> list[Variant]:
    A = tb.A
    out: list[Variant] = [([], True)]                              # Store 1, Feast (a take: Mirage, C1)
    for L in range(3, tb.usable("Purification", cloned) + 1):
        out.append(([_counted("swap", A, L - 2, takes=True)], False))
    for L in range(3, tb.usable("Cure", cloned) + 1):
        out.append(([_counted("discard", A, L - 2), _draw("drawpool", A, L - 2)], False))
    for L in range(3, tb.usable("Offering", cloned) + 1):
        out.append(([_seq("store", A, L - 1, FIX_COLOR, ALL_RUNES, ALL_COLORS)], False))
    clone = tb.usable("Clone", False)
    if not cloned and clone:
        for phase, need, child in ((MIDDAY, 3, "clone-midday"), (EVENING, 4, "clone-evening"),
                                   (MORNING, 5, "clone-morning")):
            if clone >= need:
                out.append(([_plain_clone(A, phase, clone, child)], False))
    return out


def _plain_clone(A: int, phase: int, level: int, child: str) -> Step:
    def same(fr):
        return _args(fr) == (phase, level, 0, 0)
    return Step(OP["clone"], A, same, same, child=child)


def _evening_actions(tb: _Table, cloned: bool) -> list[Variant]:
    A, raw = tb.A, tb.raw
    out: list[Variant] = [([], False)]                             # Time Travel, a learning with no effect
    communion5 = tb.level(A, "Communion") == 5
    for c in range(NCOL):                                          # a spell learned today (L1, T5, C7)
        lvl = raw["level"][A][c]
        if not lvl or raw["learned_day"][A][c] != tb.day:
            continue
        name = SPELL_NAMES[raw["spell"][c]]
        instant = None
        if name == "Swiftness" and lvl <= 4:
            instant = _plain("morning", A, 1, child="instant")
        elif name == "Abundance":
            instant = _draw("drawpool", A, lvl - 1)
        elif name == "Communion" and lvl == 3:
            instant = _seq("take", A, 3, STORE_DIRECT, ALL_RUNES, ALL_COLORS)
        steps = [instant] if instant else []
        if communion5:
            steps.append(_seq("store", A, 2, FROM_JUSTDISC, ALL_RUNES, ALL_COLORS))
        if steps:
            out.append((steps, False))
    growth = tb.usable("Growth", cloned)
    for L in range(4, growth + 1):
        if cloned:      # C3: Clone's token moves down instead, never below 3
            clone = tb.level(A, "Clone")
            down = _setlevel(A, tb.color[_SPELL["Clone"]], max(3, clone - 1))
        else:
            down = _setlevel(A, tb.color[_SPELL["Growth"]], L - 1)
        out.append(([down, _seq("take", A, L - 2, STORE_DIRECT, ALL_RUNES, ALL_COLORS)], False))
    for rune, lvl in tb.rune_levels("Focus", cloned).items():
        for L in range(3, lvl + 1):
            out.append(([_seq("store", A, L - 2, 0, 1 << rune, ALL_COLORS)], False))
        for L in range(4, lvl + 1):
            out.append(([_seq("take", A, L - 3, 0, 1 << rune, ALL_COLORS)], False))
    storm = 0 if cloned else tb.usable("Storm", False)      # Clone never meets Storm (C4: both White)
    if storm >= 4:
        color = tb.color[_SPELL["Storm"]]
        for L in range(4, storm + 1):
            unseen = [x + y for x, y in zip(raw["pouch"], raw["discard"])]
            out.append(([_storm(A, color, L - 1, unseen)], False))
            # their replacements (the Pouch may be refilled from the Discard box meanwhile, A3)
            out.append(([_setlevel(A, color, L - 1), _seq("take", A, 3, 0, ALL_RUNES, ALL_COLORS),
                         _draw("drawaltar", A, 105, exact=False)], False))
    return out


_CONTEXTS = {
    "morning": (_morning_actions, False), "instant": (_morning_actions, False),
    "midday": (_midday_actions, False), "evening": (_evening_actions, False),
    "clone-morning": (_morning_actions, True), "clone-midday": (_midday_actions, True),
    "clone-evening": (_evening_actions, True),
}


def _is_mirage(tb: _Table, fr) -> bool:
    """A Mirage draw (C1): 1 token at L3, 2 at L4/L5, into the active player's pool."""
    lvl = tb.level(tb.A, "Mirage")
    return (lvl >= 3 and fr[0] == OP["drawpool"] and fr[1] == tb.A
            and 1 <= fr[2] <= (1 if lvl == 3 else 2) and fr[3:] == (0, 0, 0))


def _matches(tb: _Table, frames: list, ctx: str, depth: int = 0) -> bool:
    """Whether `frames` (bottom..top) is what some action of context `ctx` can leave pending."""
    actions, cloned = _CONTEXTS[ctx]
    for steps, mirage_alone in actions(tb, cloned):
        if _matches_action(tb, frames, steps, mirage_alone, depth):
            return True
    return False


def _matches_action(tb: _Table, frames: list, steps: list[Step], mirage_alone: bool, depth: int) -> bool:
    for left in range(min(len(steps), len(frames)) + 1):   # `left`: the action's steps still pending
        if not all(_step_ok(steps[i], frames[i], under_way=i == left - 1) for i in range(left)):
            break
        rest = frames[left:]
        if not rest:
            return True
        just_done = steps[left] if left < len(steps) else None
        took = ((left and steps[left - 1].takes) or (just_done is not None and just_done.takes)
                or (not steps and mirage_alone))
        if len(rest) == 1 and took and _is_mirage(tb, rest[0]):
            return True
        if just_done is not None and just_done.child and depth < 3 and _matches(tb, rest, just_done.child, depth + 1):
            return True
    return False


def _step_ok(step: Step, fr, under_way: bool) -> bool:
    if fr[0] != step.op or fr[1] != step.seat:
        return False
    return step.fresh(fr) or (under_way and step.going(fr))


# ----------------------------------------------------------------------------------------------
# The whole stack
# ----------------------------------------------------------------------------------------------
_PHASE_FRAMES = ("evening", "midday", "morning", "morning")
_PHASE_OF_FRAME = {"morning": MORNING, "midday": MIDDAY, "evening": EVENING}


def check_stack(raw: dict) -> None:
    """Raises NotationError unless `raw["stack"]` is a stack the engine reaches in play (see the module doc)."""
    stack = raw["stack"]
    phase = raw["phase"]
    if raw["over"]:
        if stack:
            raise NotationError(f"stack: the game is over (over=1) but steps are pending ({_steps_text(stack)})")
        return
    if phase == SETUP:
        _check_setup(raw)
        return
    tb = _Table(raw)
    A = tb.A
    if not stack or stack[0] != (OP["endday"], A, 0, 0, 0, 0):
        raise NotationError(f"stack: a Day's steps start with endday:{A} (the active player's end of Day), "
                            f"got {_steps_text(stack[:1]) or '-'}")
    if len(stack) >= 2 and stack[1][:2] == (OP["drawaltar"], A):
        if len(stack) != 2 or not 1 <= stack[1][2] <= 5 or stack[1][3:] != (0, 0, 0):
            raise NotationError(f"stack: the resupply's Altar draw (A1) is 1 to 5 tokens and the last step before "
                                f"endday, got {_steps_text(stack[1:])}")
        _expect_phase(phase, RESUPPLY, "the resupply's draw is pending")
        return
    if len(stack) < 2 or stack[1] != (OP["resupply"], A, 0, 0, 0, 0):
        raise NotationError(f"stack: after endday:{A} comes resupply:{A} (A1) or its Altar draw, "
                            f"got {_steps_text(stack[1:2]) or '-'}")
    k = 0
    while (k < 4 and 2 + k < len(stack) and stack[2 + k] == (OP[_PHASE_FRAMES[k]], A, 0, 0, 0, 0)):
        k += 1
    tail = stack[2 + k:]
    swift5 = tb.usable("Swiftness", False) == 5
    if k == 4 and not swift5:
        raise NotationError(f"stack: two Morning steps need player {A}'s Swiftness at level 5 since an earlier "
                            "Day (§7 Swiftness, C11)")
    if tail and (k == 4 or (k == 3 and not swift5)):
        raise NotationError(f"stack: {_steps_text(tail)} is pending above the Day's Morning step, which is still "
                            "to be decided (an action's steps follow its phase's decision)")
    if not tail:
        if k:
            _expect_phase(phase, _PHASE_OF_FRAME[_PHASE_FRAMES[k - 1]], f"the next step is {_PHASE_FRAMES[k - 1]}")
        return
    ctx = "morning" if k >= 2 else "midday" if k == 1 else "evening"
    if not _matches(tb, list(tail), ctx):
        raise NotationError(f"stack: {_steps_text(tail)} (above the Day's remaining phases) is not what any "
                            f"{ctx.capitalize()} action of player {A} leaves pending")
    _expect_phase(phase, _PHASE_OF_FRAME[ctx], f"the steps of {'an' if ctx == 'evening' else 'a'} "
                                               f"{ctx.capitalize()} action are pending")


def _expect_phase(phase: int, want: int, why: str) -> None:
    if phase != want:
        raise NotationError(f"phase={PHASES[phase]} does not match the stack: {why}, so phase={PHASES[want]}")


def _check_setup(raw: dict) -> None:
    """S1-S3: start:0, the players' 2-token draws (last seat lowest), then the Altar's 5 draws on top."""
    n, stack = raw["players"], raw["stack"]
    if raw["day"] or raw["active"] or raw["end_triggered"]:
        raise NotationError("phase=setup needs day=0, active=0 and end=0 (S1-S3)")
    if not stack or stack[0] != (OP["start"], 0, 0, 0, 0, 0):
        raise NotationError(f"stack: during setup the bottom step is start:0, got {_steps_text(stack[:1]) or '-'}")
    draws = stack[1:]
    altar_left = 0
    if draws and draws[-1][0] == OP["drawaltar"]:
        altar_left = draws[-1][2]
        if draws[-1][1:] != (0, altar_left, 0, 0, 0) or not 1 <= altar_left <= 5:
            raise NotationError(f"stack: the setup Altar draw is drawaltar:0:<1-5>, got {step_text(draws[-1])}")
        draws = draws[:-1]
    seats = [fr[1] for fr in draws]
    if seats != list(range(n - 1, n - 1 - len(seats), -1)) or any(fr[0] != OP["drawpool"] or fr[3:] != (0, 0, 0)
                                                                     for fr in draws):
        raise NotationError(f"stack: during setup the players' draws are drawpool:{n - 1}:2 … drawpool:0:2, "
                            f"got {_steps_text(draws)}")
    counts = [fr[2] for fr in draws]
    if (any(a != 2 for a in counts[:-1]) or (counts and not 1 <= counts[-1] <= 2)
            or (altar_left and counts != [2] * n)):
        raise NotationError(f"stack: setup draws out of order or of the wrong size ({_steps_text(draws)}): "
                            "the Altar is drawn first, then seats 0, 1, … draw 2 each")
    pending = {fr[1]: fr[2] for fr in draws}
    for p in range(n):
        want = 2 - pending.get(p, 0)
        if sum(raw["pool"][p]) != want or sum(raw["fam"][p]) or any(raw["level"][p]):
            raise NotationError(f"player {p}'s pool holds {sum(raw['pool'][p])} tokens during setup; the setup "
                                f"draws have given {want} so far and nothing else happens before the first Day")
    if sum(raw["altar"]) != 5 - altar_left or sum(raw["discard"]):
        raise NotationError("altar: during setup the Altar holds the tokens drawn so far (of 5) and the "
                            "Discard box is empty (S1)")
