"""Abracada…What? game state and moves (python-chess style), over the compiled rules in _engine.pyx.

    from engine_c.abracadawhat import State

    s = State.new(players=3, seed=0)            # dealt; seat 0 to announce
    s.legal_moves()                              # [Move('cast 1'), ..., Move('cast 8')]
    s.play("cast 5")                             # announce 5, then resolve chance (rolls, refills)
    s.observation(1)                             # what seat 1 sees: every hand but its own
    State.from_text(s.to_text()) == s            # True

Rules: ../shared/rules/ABRACADAWHAT.md; notation: docs/notation.md ("Abracada…What?").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from engine_c.abracadawhat import _engine as _E
# one error vocabulary for every game: NotationError names the field, IllegalMoveError says why
from engine_c.base import GameState, IllegalMoveError, NotationError, _mix_seed, clip

SPELLS = ("Ancient Dragon", "Dark Wanderer", "Sweet Dream", "Night Singer", "Lightning Tempest", "Blizzard",
          "Fireball", "Magic Drink")
VARIANTS = ("xv1", "xv2")
PHASES = _E.PHASES
LIMITS = _E.LIMITS
END_CODE = _E.CODES["end"]
STONE_CODE = _E.CODES["stone"]
ROLL_CODE = _E.CODES["roll"]


# ----------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Move:
    """One decision (`cast 5`, `end`) or one chance outcome (`stone 3`: a stone of spell 3 is dealt,
    refilled or taken from the secret stones; `roll 4`: the die shows 4), as a small integer code.

    The text is context-free: `Move.from_text(str(m)) == m`. Legality depends on the state
    (State.legal_moves(), State.parse_move())."""

    code: int

    @property
    def kind(self) -> str:
        """'cast', 'end', 'stone' or 'roll'."""
        return _kind(self.code)

    @property
    def value(self) -> int:
        """The spell (cast, stone) or the die (roll); 0 for end."""
        c = self.code
        return c if c < END_CODE else 0 if c == END_CODE else c - STONE_CODE if c < ROLL_CODE else c - ROLL_CODE

    @property
    def is_chance(self) -> bool:
        return self.code > END_CODE

    def __str__(self) -> str:
        return "end" if self.code == END_CODE else f"{self.kind} {self.value}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> "Move":
        """`cast 5` (or just `5`), `end`, `stone 3`, `roll 4`; NotationError otherwise."""
        if not isinstance(text, str):
            raise NotationError(f"move must be text, got {type(text).__name__}")
        words = text.strip().lower().split()
        if words == ["end"]:
            return cls(END_CODE)
        if len(words) == 1 and _ascii_digit(words[0]):
            words = ["cast", words[0]]
        if len(words) == 2 and words[0] in ("cast", "stone", "roll") and _ascii_digit(words[1]):
            v = int(words[1])
            top = 6 if words[0] == "roll" else 8
            if 1 <= v <= top:
                return cls(v if words[0] == "cast" else v + (STONE_CODE if words[0] == "stone" else ROLL_CODE))
            raise NotationError(f"move {clip(text)}: {words[0]} takes a number from 1 to {top}")
        raise NotationError(f"move {clip(text)} is not one of: cast 1..8 (or 1..8), end, stone 1..8, roll 1..6")


def _ascii_digit(word: str) -> bool:
    """One digit 0-9 and nothing else: str.isdigit() also takes '３' and '٣', which a move text must not."""
    return len(word) == 1 and "0" <= word <= "9"


def _kind(code: int) -> str:
    if 1 <= code <= 8:
        return "cast"
    if code == END_CODE:
        return "end"
    if STONE_CODE < code <= STONE_CODE + 8:
        return "stone"
    if ROLL_CODE < code <= ROLL_CODE + 6:
        return "roll"
    raise NotationError(f"move code {code} is not an Abracada…What? move")


# ----------------------------------------------------------------------------------------------
# The state
# ----------------------------------------------------------------------------------------------
def variant_bits(variants: Iterable[str] | str) -> int:
    """The variants' bit mask from names ('xv1', 'xv2'; a comma-separated string or an iterable)."""
    if isinstance(variants, str):
        variants = [v for v in variants.replace(" ", ",").split(",") if v and v != "-"]
    bits = 0
    for v in variants:
        key = str(v).strip().lower()
        if key not in _E.VARIANT_BITS:
            raise ValueError(f"variants: unknown variant {clip(v, 20)}; the variants are xv1 (easy) and xv2 "
                             "(last magician standing)")
        bits |= _E.VARIANT_BITS[key]
    return bits


class State(GameState, _E.CoreState):
    """A complete Abracada…What? game state.

    Seats 0..n-1; seat 0 starts the first round (XS3), play passes to seat + 1 (XT5). `current_player` is
    the seat that decides next, -1 at a chance event (a stone dealt, refilled or taken from the secret
    stones, or a die roll), -2 when the game is over. Stones are spell numbers 1-8 and every zone is a
    multiset (XC5). Hidden information lives in the state (it is the whole truth): use `observation(p)`
    for what seat p may see and `determinize(p)` for a world sampled from it (XC6). The methods every game
    shares (clone, legal_moves, apply, play, resolve_chance...) come from engine_c.base.GameState."""

    # -------------------------------------------------------------------- construction
    @classmethod
    def new(cls, players: int = 2, seed: int = 0, variants: Iterable[str] | str = ()) -> "State":
        """A new game, dealt (XS2, XC5, with the state's generator seeded by `seed`), seat 0 to announce.
        variants: any of 'xv1' (XV1, easy) and 'xv2' (XV2, last magician standing)."""
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
            raise ValueError(f"players must be an integer from 2 to 5, got {players!r}")   # XS1
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
        st = cls()
        st._init(players, variant_bits(variants), _mix_seed(seed))
        st.resolve_chance()
        return st

    # -------------------------------------------------------------------- properties
    @property
    def variants(self) -> tuple[str, ...]:
        bits = self._to_raw()["variants"]
        return tuple(name for name, b in _E.VARIANT_BITS.items() if bits & b)

    @property
    def phase(self) -> str:
        """'deal', 'decide', 'roll', 'secret', 'refill' or 'over'."""
        return PHASES[self._to_raw()["phase"]]

    @property
    def active_player(self) -> int:
        """The seat whose turn it is (during the deal: the seat that will start the round)."""
        return self._to_raw()["active"]

    @property
    def last_cast(self) -> int:
        """The spell of this turn's last successful cast (0: none yet, only casts are legal, XC7)."""
        return self._to_raw()["last"]

    @property
    def round(self) -> int:
        """The current round, from 1 (the number of finished rounds plus one; at the end: the last one)."""
        raw = self._to_raw()
        return len(raw["history"]) + (0 if raw["over"] else 1)

    @property
    def life(self) -> list[int]:
        return self._to_raw()["life"]

    @property
    def points(self) -> list[int]:
        return self._to_raw()["points"]

    def hand(self, player: int) -> tuple[int, ...]:
        """Seat `player`'s hand, sorted (the truth: a seat never sees its own, use observation())."""
        self._check_seat(player, "player")
        return _stones(self._to_raw()["hands"][player])

    def hand_sizes(self) -> list[int]:
        return [sum(h) for h in self._to_raw()["hands"]]

    # -------------------------------------------------------------------- moves
    def explain_illegal(self, move: Move) -> str:
        """Why `move` is not legal here, in a player's terms."""
        cp = self.current_player
        if cp == -2:
            return f"{move}: the game is over"
        if cp == -1:
            if not move.is_chance:
                return f"{move}: a chance event ({self.phase}) is pending; resolve it first"
            return f"{move}: not an outcome of the pending {self.phase} (outcomes: " + \
                ", ".join(str(m) for m, _ in self.chance_outcomes()) + ")"
        if move.is_chance:
            return f"{move} is a chance outcome; seat {cp} must decide"
        last = self.last_cast
        if move.kind == "end":
            return "end: a turn starts with an announcement; end is offered only after a success"   # XC7
        return f"{move}: after a successful cast of {last} the next must be {last} or higher"   # XT2, XC1

    # -------------------------------------------------------------------- scoring
    def scores(self) -> list[int]:
        """Each seat's points (XR2-XR5); final when the game is over."""
        return self.points

    def winners(self) -> list[int]:
        """XG1: at the end, the seat(s) with 8+ points that scored most in the last round, then most life at
        its end (XC10), else shared. Before the end: the seats with the most points."""
        mask = self._winners_mask()
        return [p for p in range(self.players) if mask >> p & 1]

    def log(self) -> list[dict]:
        """The current round's public log (XC12): {'seat', 'kind': 'cast'|'end', 'spell', 'ok', 'roll'} for
        announcements (roll 0: none) and {'seat', 'kind': 'end', 'refilled'} for turn ends."""
        from engine_c.abracadawhat.notation import log_entries

        return log_entries(self._to_raw())

    def results(self) -> list[dict]:
        """Every finished round (XC12): {'reason': 'empty'|'ko'|'self'|'last', 'seat', 'actor', 'scores',
        'life'}. seat: the round's winner (the loser for 'self'); actor: the seat acting when it ended."""
        return [{"reason": _E.REASONS[r], "seat": s, "actor": a, "scores": sc, "life": lv}
                for r, s, a, sc, lv in self._to_raw()["history"]]

    # -------------------------------------------------------------------- information
    def observation(self, player: int) -> str:
        """Seat `player`'s observation text (XI1-XI4, XC12): the state text with its own hand, the pile,
        the secret stones and the others' secret stones written as sizes only (`?k`), and no `rng`."""
        self._check_seat(player, "player")
        from engine_c.abracadawhat.notation import observation_text

        return observation_text(self._to_raw(), player)

    @classmethod
    def from_observation(cls, text: str, seed: int = 0) -> "State":
        """A full state sampled uniformly from the arrangements consistent with an observation (XC6)."""
        from engine_c.abracadawhat.notation import state_from_observation

        return state_from_observation(cls, text, _mix_seed(seed))

    def determinize(self, player: int, seed: int = 0) -> "State":
        """A copy with everything `player` cannot see resampled exactly (XC6): its own hand from the
        posterior given its view and its own announcements, then the pile, the remaining secret stones and
        the others' secret stones uniformly. The observation of `player` is unchanged."""
        self._check_seat(player, "player")
        other = self.clone()
        if not other._determinize(player, _mix_seed(seed)):
            raise NotationError(f"seat {player}'s announcements are inconsistent with every hand it could hold")
        return other

    def posterior(self, player: int) -> dict[tuple[int, ...], float]:
        """The exact probability of each own hand (sorted stones) given what `player` observes (XC6)."""
        self._check_seat(player, "player")
        return {_stones(counts): p for counts, p in self._posterior(player)}

    def holding_probabilities(self, player: int) -> dict[int, float]:
        """For each spell 1-8, the probability that `player` holds at least one stone of it (from
        posterior(); what a successful announcement of it needs)."""
        self._check_seat(player, "player")
        out = {k: 0.0 for k in range(1, 9)}
        for counts, p in self._posterior(player):
            for k in range(8):
                if counts[k]:
                    out[k + 1] += p
        return out

    def unseen(self, player: int) -> dict[int, int]:
        """The stones `player` cannot see by spell (XI4): its own hand, the pile and secret stones, plus its
        own stones cast this round (the belief's key: the hand it was dealt). What a player reads of its unseen
        stones is text.unseen_by_spell, without those cast stones."""
        self._check_seat(player, "player")
        counts = self._unseen(player)
        return {k + 1: c for k, c in enumerate(counts or (0,) * 8)}

    def features(self, player: int) -> np.ndarray:
        """The learned evaluation's state features of what `player` sees (float32; layout in _engine.pyx)."""
        self._check_seat(player, "player")
        return np.asarray(self._features(player), dtype=np.float32)

    # -------------------------------------------------------------------- notation
    def to_text(self) -> str:
        from engine_c.abracadawhat.notation import state_text

        return state_text(self._to_raw())

    @classmethod
    def from_text(cls, text: str) -> "State":
        from engine_c.abracadawhat.notation import state_from_text

        return state_from_text(cls, text)

    def validate(self) -> None:
        """Raises NotationError naming the first broken invariant."""
        from engine_c.abracadawhat.notation import validate_state

        validate_state(self)

State.Move = Move


def _stones(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(k + 1 for k, c in enumerate(counts) for _ in range(c))


def chance_destination(state: State) -> tuple[str, str, int]:
    """Where the pending chance outcome of `state` goes, as (kind, zone, seat), for records and views:
    ('deal', 'removed'|'hand'|'secret', seat or -1) while dealing in XC5's order (the removed stones, 5 to
    each seat from seat 0 up, the 4 secret stones); ('refill', 'hand', seat) for XT4; ('secret', 'taken',
    seat) for a Night Singer take (XT1 spell 4); ('roll', '', -1) for the die (XC4). Who may see the
    outcome follows from the zone (XI1-XI3; `outcome_visible_to`). ValueError when no chance is pending."""
    if not state.is_chance():
        raise ValueError(State.NO_CHANCE)
    raw = state._to_raw()
    phase, active = PHASES[raw["phase"]], raw["active"]
    if phase == "deal":
        n, k, nr = raw["players"], raw["pending"], _E.removed_stones(raw["players"])
        if k < nr:
            return ("deal", "removed", -1)
        if k < nr + 5 * n:
            return ("deal", "hand", (k - nr) // 5)
        return ("deal", "secret", -1)
    if phase == "refill":
        return ("refill", "hand", active)
    if phase == "secret":
        return ("secret", "taken", active)
    return ("roll", "", -1)


def outcome_visible_to(zone: str, seat: int, viewer: int | None) -> bool:
    """Whether a chance outcome that went to (zone, seat) may be seen by `viewer` (a seat, or None for a
    spectator, who sees only public information): removed stones and rolls are public (XI1); a stone in a
    hand is seen by every other seat, never its owner (XI2); a taken secret stone by its taker only (XI3);
    the secret stones by no one."""
    if zone in ("removed", ""):
        return True
    if viewer is None or zone == "secret":
        return False
    return viewer != seat if zone == "hand" else viewer == seat
