"""The Python face of the engine: `State` and `Move`, their text notation, validation and scoring.

The notation (documented in docs/notation.md) round-trips exactly: `State.from_text(s.to_text()) == s`
and `Move.from_text(str(m)) == m`. Everything that parses text or applies a move validates it and
raises `NotationError` / `IllegalMoveError` with a message that names what is wrong.
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from engine_c.spellbook import _engine as _E
from engine_c.base import GameState, IllegalMoveError, NotationError, _mix_seed, clip

COLORS = "RPGKWBY"
COLOR_NAMES = ("Red", "Purple", "Green", "Black", "White", "Blue", "Yellow")
RUNES = "cts"
NTYPE = 21
NCOL = 7
SPELL_NAMES: tuple[str, ...] = _E.SPELL_NAMES
SPELL_IDS = {name.lower(): i for i, name in enumerate(SPELL_NAMES)}
SPELL_IDS["time travel"] = SPELL_IDS["timetravel"]
LIMITS = _E.LIMITS
POOL_LIMIT = LIMITS["pool"]
FAMILIAR_SPACES = LIMITS["familiar"]
COPIES = LIMITS["copies"]

# Move kinds (must match the K_* enum of _engine.pyx; MOVE_KINDS is the source of truth).
_KIND_BY_NAME = {name: k for k, name in _E.MOVE_KINDS.items()}


class K:
    """Move kind codes (the K_* enum of _engine.pyx)."""

    PASS, TAKE, DRAW, STORE, LEARN, TRANSMUTE, SACRIFICE, ERUPTION, BLAZE, LEVITATION, SHARING = range(11)
    DIVINATION, PURIFICATION, CURE, OFFERING, FEAST, GROWTH, FOCUS, TIMETRAVEL, STORM, CLONE = range(11, 21)
    SWAP, DISCARD, DRAWN = range(21, 24)


assert _E.MOVE_KINDS[K.TRANSMUTE] == "Transmutation" and _E.MOVE_KINDS[K.DRAWN] == "drawn"

FRAME_NAMES: dict[int, str] = _E.FRAME_NAMES
_FRAME_BY_NAME = {v: k for k, v in FRAME_NAMES.items()}
PHASES = ("setup", "morning", "midday", "evening", "resupply", "over")

SPELL_SETS = {
    "set1": [i for i in range(21) if i % 3 == 0],
    "set2": [i for i in range(21) if i % 3 == 1],
    "set3": [i for i in range(21) if i % 3 == 2],
}
SPELL_SETS["◇"] = SPELL_SETS["set1"]
SPELL_SETS["◇◇"] = SPELL_SETS["set2"]
SPELL_SETS["◇◇◇"] = SPELL_SETS["set3"]


# ----------------------------------------------------------------------------------------------
# Tokens
# ----------------------------------------------------------------------------------------------
def token_name(t: int) -> str:
    """`Rc` for type 0: color letter + rune letter."""
    return COLORS[t // 3] + RUNES[t % 3]


_TOKEN_INDEX = {COLORS[c] + RUNES[r]: c * 3 + r for c in range(NCOL) for r in range(3)}


def parse_token(text: str) -> int:
    """Token type (0..20) of a text such as `Rc`; raises NotationError."""
    t = _TOKEN_INDEX.get(text)
    if t is not None:
        return t
    if len(text) != 2 or text[0] not in COLORS or text[1] not in RUNES:
        raise NotationError(f"{clip(text)} is not a token: write a color letter ({COLORS}) then a rune letter ({RUNES}), e.g. 'Rc'")
    return COLORS.index(text[0]) * 3 + RUNES.index(text[1])


def format_counts(counts: Sequence[int]) -> str:
    """Multiset as `Rc2Gt` (a count after a token when above 1); `-` when empty."""
    parts = [token_name(t) + (str(n) if n > 1 else "") for t, n in enumerate(counts) if n > 0]
    return "".join(parts) or "-"


_COUNTS_RE = re.compile(r"([A-Za-z]{2})(\d{0,3})(?!\d)", re.ASCII)
_COUNTS_OK = re.compile(r"(?:[RPGKWBY][cts]\d{0,3})+", re.ASCII)
_COUNTS_ITEM = re.compile(r"([RPGKWBY][cts])(\d*)", re.ASCII)


def parse_counts(text: str, what: str) -> list[int]:
    counts = [0] * NTYPE
    if text == "-":
        return counts
    if _COUNTS_OK.fullmatch(text):          # the common, well-formed case in one pass (server hot path)
        for token, n in _COUNTS_ITEM.findall(text):
            counts[_TOKEN_INDEX[token]] += int(n) if n else 1
        return counts
    pos = 0
    for m in _COUNTS_RE.finditer(text):
        if m.start() != pos:
            break
        t = parse_token(m.group(1)) if m.group(1)[0] in COLORS and m.group(1)[1] in RUNES else None
        if t is None:
            raise NotationError(f"{what}: {m.group(1)!r} is not a token")
        counts[t] += int(m.group(2) or 1)
        pos = m.end()
    if pos != len(text):
        raise NotationError(f"{what}: cannot read {clip(text[pos:], 30)} (expected tokens like Rc2Gt with counts "
                            "up to 3 digits, or '-')")
    return counts


def spell_id(name: str) -> int:
    sid = SPELL_IDS.get(name.lower())
    if sid is None:
        raise NotationError(f"unknown spell {clip(name, 30)}; the spells are: {', '.join(SPELL_NAMES)}")
    return sid


# ----------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Move:
    """One decision (or one chance outcome, `drawn Rc`), as a 64-bit code with a text form.

    The text is context-free: `Move.from_text(str(m)) == m`. Whether a move is legal depends on the
    state; see State.legal_moves() and State.parse_move().
    """

    code: int

    @property
    def kind(self) -> str:
        return _E.MOVE_KINDS[_E.decode_move(self.code)[0]]

    @property
    def is_chance(self) -> bool:
        return _E.decode_move(self.code)[0] == K.DRAWN

    def __str__(self) -> str:
        return _move_text(self.code)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def uci(self) -> str:
        return str(self)

    @classmethod
    def from_text(cls, text: str) -> "Move":
        return cls(_parse_move_text(text))


def _spell_name(sid: int) -> str:
    if not 0 <= sid < 21:
        raise NotationError(f"spell id {sid} out of range")
    return SPELL_NAMES[sid]


@functools.lru_cache(maxsize=1 << 16)
def _move_text(code: int) -> str:
    """The text of a move code (cached: responses format the same moves again and again)."""
    kind, level, x, a, b, items = _E.decode_move(code)
    toks = " ".join(token_name(t) for t in items)
    name = _E.MOVE_KINDS.get(kind, "?")
    if kind == K.PASS:
        return "pass"
    if kind == K.DRAW:
        return "draw"
    if kind in (K.TAKE, K.STORE, K.DRAWN, K.SACRIFICE):
        return f"{name} {token_name(a)}"
    if kind in (K.LEARN, K.TRANSMUTE):
        head = "learn" if kind == K.LEARN else "Transmutation" + (f"/{RUNES[x - 1]}" if x else "")
        return f"{head} {_spell_name(b)} {level} {token_name(a)} : {toks}"
    if kind in (K.BLAZE,):
        return name
    if kind in (K.ERUPTION, K.LEVITATION, K.SHARING, K.DIVINATION, K.PURIFICATION, K.CURE, K.OFFERING, K.STORM):
        return f"{name} {level}"
    if kind == K.FEAST:
        return f"Feast {level} {token_name(a)}"
    if kind == K.GROWTH:
        return f"Growth 3 {token_name(a)} {token_name(b)}" if level == 3 else f"Growth {level}"
    if kind == K.FOCUS:
        tag = f"/{RUNES[b - 1]}" if b else ""
        return f"Focus{tag} {level} {'take' if a else 'store'}"
    if kind == K.TIMETRAVEL:
        return f"TimeTravel {token_name(a)} {_spell_name(b)}"
    if kind == K.CLONE:
        return f"Clone 5 {token_name(a)}" if level == 5 else f"Clone {level}"
    if kind == K.SWAP:
        return f"swap {token_name(a)} {token_name(b)}"
    if kind == K.DISCARD:
        return f"discard {toks}"
    raise NotationError(f"unknown move code {code:#x}")


def small_number(text: str, digits: int) -> bool:
    """`text` is at most `digits` ASCII digits (safe and cheap to pass to int())."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


def _int(text: str, what: str, lo: int, hi: int) -> int:
    if not small_number(text, 3) or not lo <= int(text) <= hi:
        raise NotationError(f"{what} must be a number from {lo} to {hi}, got {clip(text)}")
    return int(text)


def _parse_move_text(text: str) -> int:
    words = text.strip().split()
    if not words:
        raise NotationError("empty move text")
    head, args = words[0], words[1:]
    enc = _E.encode_move

    def need(n: int, usage: str) -> None:
        if len(args) != n:
            raise NotationError(f"{clip(head, 30)} takes {n} argument(s): {usage}; got {clip(text)}")

    low = head.lower()
    if low == "pass":
        need(0, "pass")
        return enc(K.PASS)
    if low == "draw":
        need(0, "draw")
        return enc(K.DRAW)
    if low in ("take", "store", "drawn"):
        need(1, f"{low} Rc")
        return enc(_KIND_BY_NAME[low], a=parse_token(args[0]))
    if low == "swap":
        need(2, "swap <Altar token taken> <pool token given>, e.g. swap Rc Gt")
        return enc(K.SWAP, a=parse_token(args[0]), b=parse_token(args[1]))
    if low == "discard":
        if not 1 <= len(args) <= LIMITS["list"]:
            raise NotationError(f"discard lists 1 to {LIMITS['list']} tokens, e.g. 'discard Rc Ks'")
        return enc(K.DISCARD, items=[parse_token(w) for w in args])
    tag = 0
    base = head
    if "/" in head:
        base, rune = head.split("/", 1)
        if rune not in RUNES or len(rune) != 1:
            raise NotationError(f"{clip(head, 30)}: the rune after '/' must be one of {RUNES}")
        tag = RUNES.index(rune) + 1
        if base.lower() not in ("focus", "transmutation"):
            raise NotationError(f"{clip(head, 30)}: only Focus and Transmutation take a '/rune' (the copied player's rune)")
    low = base.lower()
    if low in ("learn", "transmutation"):
        usage = f"{base} <Spell> <level 3-5> <placed token> : <other spent tokens>, e.g. learn Sacrifice 4 Rc : Rc Rt Gt Bt"
        if len(args) < 4 or args[3] != ":":
            raise NotationError(f"{usage}; got {clip(text)}")
        sid = spell_id(args[0])
        level = _int(args[1], "the learning level", 3, 5)
        placed = parse_token(args[2])
        if placed // 3 != sid // 3:
            raise NotationError(f"the placed token {args[2]} must be {COLOR_NAMES[sid // 3]} like {SPELL_NAMES[sid]}")
        items = [parse_token(w) for w in args[4:]]
        if len(items) > LIMITS["list"]:
            raise NotationError(f"at most {LIMITS['list']} spent tokens besides the placed one")
        kind = K.LEARN if low == "learn" else K.TRANSMUTE
        if kind == K.LEARN and tag:
            raise NotationError("learn takes no '/rune'")
        return enc(kind, level=level, x=tag, a=placed, b=sid, items=items)
    if low not in SPELL_IDS:
        raise NotationError(f"unknown move {clip(head, 30)}: moves start with pass, take, draw, store, learn, swap, discard, drawn or a spell name")
    sid = SPELL_IDS[low]
    name = SPELL_NAMES[sid]
    if name == "Sacrifice":
        need(1, "Sacrifice <pool token to discard>")
        return enc(K.SACRIFICE, a=parse_token(args[0]))
    if name == "Blaze":
        need(0, "Blaze")
        return enc(K.BLAZE)
    if name in ("Eruption", "Levitation", "Sharing", "Divination", "Purification", "Cure", "Offering", "Storm"):
        need(1, f"{name} <effect level>")
        lo = 4 if name == "Storm" else 3
        return enc(_KIND_BY_NAME[name], level=_int(args[0], f"{name}'s effect level", lo, 5))
    if name == "Feast":
        need(2, "Feast <3|4> <Altar token>")
        return enc(K.FEAST, level=_int(args[0], "Feast's effect level", 3, 4), a=parse_token(args[1]))
    if name == "Growth":
        if args and args[0] == "3":
            need(3, "Growth 3 <pool token> <stored token>")
            return enc(K.GROWTH, level=3, a=parse_token(args[1]), b=parse_token(args[2]))
        need(1, "Growth <4|5>")
        return enc(K.GROWTH, level=_int(args[0], "Growth's effect level", 4, 5))
    if name == "Focus":
        need(2, "Focus <level> store|take")
        if args[1] not in ("store", "take"):
            raise NotationError(f"Focus: the option is 'store' or 'take', got {clip(args[1], 20)}")
        lvl = _int(args[0], "Focus's effect level", 3 if args[1] == "store" else 4, 5)
        return enc(K.FOCUS, level=lvl, a=1 if args[1] == "take" else 0, b=tag)
    if name == "TimeTravel":
        need(2, "TimeTravel <pool token> <spell to raise>")
        return enc(K.TIMETRAVEL, a=parse_token(args[0]), b=spell_id(args[1]))
    if name == "Clone":
        if args and args[0] == "5":
            need(2, "Clone 5 <pool token with Clone's rune>")
            return enc(K.CLONE, level=5, a=parse_token(args[1]))
        need(1, "Clone <3|4>  or  Clone 5 <token>")
        return enc(K.CLONE, level=_int(args[0], "Clone's effect level", 3, 4))
    raise NotationError(f"{name} has no action of its own (it is an instant or permanent effect)")


# ----------------------------------------------------------------------------------------------
# Scores
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Score:
    """A player's score split by source (E3)."""

    total: int
    spells: dict[str, int] = field(default_factory=dict)
    familiar: int = 0
    feast: int = 0
    knowledge: int = 0
    communion: int = 0


# ----------------------------------------------------------------------------------------------
# The state
# ----------------------------------------------------------------------------------------------
_FRAME_ARGS = 5  # p, a, b, c, d


class State(GameState, _E.CoreState):
    """A complete SpellBook game state (python-chess style).

    Seat 0 is the first player (S2: who sits there is the caller's choice). `current_player` is the
    seat that decides next, -1 when a Pouch draw (a chance event) must be resolved, -2 when the game is
    over. A decision's moves come from `legal_moves()`; `apply(move)` plays one; `resolve_chance()`
    samples the pending draws with the state's own seeded generator. The methods every game shares
    (clone, legal_moves, apply, play, resolve_chance...) come from engine_c.base.GameState.
    """

    NO_CHANCE = "no draw is pending (not a chance event)"

    # -------------------------------------------------------------------- construction
    @classmethod
    def new(cls, players: int = 2, spells: str | Sequence[str] = "set1", seed: int = 0) -> "State":
        """A new game, set up (S1-S4) and at the first player's first Morning.

        spells: "set1"/"set2"/"set3" (also "◇", "◇◇", "◇◇◇"), "classic" (one random spell per color,
        drawn with `seed`), or seven spell names, one per color, in any order.
        """
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players must be an integer from 2 to 4, got {players!r}")
        if players == 1:
            raise ValueError("players=1 is the solo mode (§9), which is not implemented yet; use 2 to 4")
        if not 2 <= players <= 4:
            raise ValueError(f"players must be from 2 to 4, got {players}")
        if not isinstance(seed, int) or seed < 0 or seed >= 2**64:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
        ids = resolve_spells(spells, seed)
        st = cls()
        st._init(players, ids, _mix_seed(seed))
        st.resolve_chance()
        return st

    # -------------------------------------------------------------------- properties
    @property
    def phase(self) -> str:
        """'setup', 'morning', 'midday', 'evening', 'resupply' or 'over' (the Day's phase in progress)."""
        return PHASES[self._to_raw()["phase"]]

    @property
    def decision(self) -> str:
        """What is pending: 'chance', 'over', or the decision kind ('morning', 'midday', 'evening',
        'clone', 'take', 'store', 'blaze', 'swap', 'discard', 'storm')."""
        cp = self.current_player
        if cp == -2:
            return "over"
        if cp == -1:
            return "chance"
        return FRAME_NAMES[self._to_raw()["stack"][-1][0]]

    def draw_destination(self) -> tuple[str, int]:
        """Where the pending Pouch draw goes: ("pool", seat), ("altar", -1), or ("", -1) when no draw is
        pending (P3, S1/S3: a draw fills a pool or the Altar; which one is public, as the draw is)."""
        if self.current_player != -1:
            return "", -1
        frame = self._to_raw()["stack"][-1]
        name = FRAME_NAMES.get(frame[0], "")
        if name == "drawpool":
            return "pool", frame[1]
        if name == "drawaltar":
            return "altar", -1
        return "", -1

    @property
    def active_player(self) -> int:
        """The seat whose Day it is."""
        return self._to_raw()["active"]

    @property
    def day(self) -> int:
        """Days played before this one (all seats counted); the round is day // players + 1."""
        return self._to_raw()["day"]

    @property
    def spells(self) -> list[str]:
        """The seven spells in play, by color R P G K W B Y."""
        return [SPELL_NAMES[i] for i in self._to_raw()["spell"]]

    def explain_illegal(self, move: Move) -> str:
        from engine_c.spellbook.explain import explain_illegal

        return explain_illegal(self, move)

    # -------------------------------------------------------------------- scoring
    def scores(self) -> list[Score]:
        """Each seat's score (E3) at the current levels; final when the game is over."""
        raw = self._to_raw()
        out = []
        for parts in self._score_parts():
            spells = {SPELL_NAMES[raw["spell"][c]]: parts[c] for c in range(NCOL)}
            out.append(Score(total=sum(parts), spells=spells, familiar=parts[7], feast=parts[8],
                             knowledge=parts[9], communion=parts[10]))
        return out

    def winners(self) -> list[int]:
        """Seats that win (E4 tie-breaks applied; shared when still tied). Meaningful at game end."""
        mask = self._winners_mask()
        return [p for p in range(self.players) if mask >> p & 1]

    # -------------------------------------------------------------------- information
    def determinize(self, player: int, knows_discard: bool = True, seed: int = 0) -> "State":
        """A full state sampled from what `player` observes (§8): a new Pouch order (the future draws),
        and, if the observer does not know the Discard box, a new split of the unseen tokens between the
        Pouch (same size) and the Discard box. The observation is unchanged."""
        self._check_seat(player, "player")
        other = self.clone()
        other._determinize(player, bool(knows_discard), _mix_seed(seed))
        return other

    def observation(self, player: int, knows_discard: bool = True) -> str:
        """The observation text of `player` (§8): the state text without the Pouch order (the `rng`);
        without Discard-box memory the Pouch and Discard box become `unseen=` and `pouchsize=`."""
        self._check_seat(player, "player")
        from engine_c.spellbook.notation import observation_text

        return observation_text(self, player, knows_discard)

    @classmethod
    def from_observation(cls, text: str, seed: int = 0) -> "State":
        """A full state consistent with an observation text (a determinization of it)."""
        from engine_c.spellbook.notation import state_from_observation

        return state_from_observation(cls, text, _mix_seed(seed))

    def observation_array(self, player: int) -> np.ndarray:
        """A float32 vector of what `player` observes, for learning code (layout: docs/notation.md)."""
        self._check_seat(player, "player")
        from engine_c.spellbook.notation import observation_array

        return observation_array(self, player)

    # -------------------------------------------------------------------- notation
    def to_text(self) -> str:
        from engine_c.spellbook.notation import state_text

        return state_text(self)

    @classmethod
    def from_text(cls, text: str) -> "State":
        from engine_c.spellbook.notation import state_from_text

        return state_from_text(cls, text)

    def validate(self) -> None:
        """Raises NotationError if an invariant is broken (token totals, P1, familiar size...)."""
        from engine_c.spellbook.notation import validate_raw

        validate_raw(self._to_raw())


State.Move = Move


def resolve_spells(spells: str | Sequence[str], seed: int = 0) -> list[int]:
    """Spell ids by color for a spell choice (S4); raises ValueError naming what is wrong."""
    if isinstance(spells, str):
        key = spells.strip().lower()
        if key in SPELL_SETS:
            return list(SPELL_SETS[key])
        if key == "classic":
            rng = random.Random(seed)
            return [c * 3 + rng.randrange(3) for c in range(NCOL)]
        names = [w for w in re.split(r"[,\s]+", spells.strip()) if w]
        if len(names) != NCOL:
            raise ValueError(f"spells must be set1, set2, set3, classic or 7 spell names; got {clip(spells)}")
        spells = names
    ids = [None] * NCOL
    for name in spells:
        try:
            sid = spell_id(name)
        except NotationError as e:
            raise ValueError(str(e)) from None
        c = sid // 3
        if ids[c] is not None:
            raise ValueError(f"two {COLOR_NAMES[c]} spells chosen ({SPELL_NAMES[ids[c]]} and {SPELL_NAMES[sid]}); choose one per color")
        ids[c] = sid
    missing = [COLOR_NAMES[c] for c in range(NCOL) if ids[c] is None]
    if missing:
        raise ValueError(f"no spell chosen for {', '.join(missing)}; choose one spell per color")
    return ids  # type: ignore[return-value]
