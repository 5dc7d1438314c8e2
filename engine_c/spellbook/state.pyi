"""Type stubs for engine_c.spellbook.state: the public Python API of the SpellBook engine."""
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

import numpy as np
import numpy.typing as npt

from engine_c.spellbook._engine import CoreState

COLORS: str
COLOR_NAMES: tuple[str, ...]
RUNES: str
NTYPE: int
NCOL: int
SPELL_NAMES: tuple[str, ...]
SPELL_IDS: dict[str, int]
LIMITS: dict[str, int]
POOL_LIMIT: int
FAMILIAR_SPACES: int
COPIES: int
FRAME_NAMES: dict[int, str]
PHASES: tuple[str, ...]
SPELL_SETS: dict[str, list[int]]

class K:
    """Move kind codes (the K_* enum of _engine.pyx)."""
    PASS: ClassVar[int]
    TAKE: ClassVar[int]
    DRAW: ClassVar[int]
    STORE: ClassVar[int]
    LEARN: ClassVar[int]
    TRANSMUTE: ClassVar[int]
    SACRIFICE: ClassVar[int]
    ERUPTION: ClassVar[int]
    BLAZE: ClassVar[int]
    LEVITATION: ClassVar[int]
    SHARING: ClassVar[int]
    DIVINATION: ClassVar[int]
    PURIFICATION: ClassVar[int]
    CURE: ClassVar[int]
    OFFERING: ClassVar[int]
    FEAST: ClassVar[int]
    GROWTH: ClassVar[int]
    FOCUS: ClassVar[int]
    TIMETRAVEL: ClassVar[int]
    STORM: ClassVar[int]
    CLONE: ClassVar[int]
    SWAP: ClassVar[int]
    DISCARD: ClassVar[int]
    DRAWN: ClassVar[int]

class NotationError(ValueError):
    """Text that does not parse, or describes an impossible state."""

class IllegalMoveError(ValueError):
    """A move that is not legal in the state it was applied to; the message says why."""

def token_name(t: int) -> str:
    """`Rc` for token type 0: color letter + rune letter."""
def parse_token(text: str) -> int:
    """Token type (0..20) of a text such as `Rc`; raises NotationError."""
def format_counts(counts: Sequence[int]) -> str:
    """A multiset of token types as `Rc2Gt`, or `-` when empty."""
def parse_counts(text: str, what: str) -> list[int]:
    """Counts by token type of a multiset text (`Rc2Gt`, `-`); `what` names the field in errors."""
def spell_id(name: str) -> int:
    """Spell id (color * 3 + set index) of a spell name, case-insensitive; raises NotationError."""
def clip(text: str, limit: int = 60) -> str:
    """repr() of a piece of input for an error message, cut to `limit` characters."""
def small_number(text: str, digits: int) -> bool:
    """`text` is at most `digits` ASCII digits."""
def resolve_spells(spells: str | Sequence[str], seed: int = 0) -> list[int]:
    """Spell ids by color for a spell choice (S4): set1/set2/set3, classic, or 7 names."""

@dataclass(frozen=True, order=True)
class Move:
    """One decision or chance outcome, as a 64-bit code with a context-free text form."""
    code: int
    @property
    def kind(self) -> str:
        """The move kind's name (`pass`, `take`, `learn`, `Sacrifice`, `drawn`, ...)."""
    @property
    def is_chance(self) -> bool:
        """True for a chance outcome (`drawn Xx`)."""
    def uci(self) -> str:
        """The move's text (same as str(move))."""
    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse a move text (docs/notation.md); raises NotationError."""

@dataclass(frozen=True)
class Score:
    """A player's score split by source (E3)."""
    total: int
    spells: dict[str, int] = ...
    familiar: int = ...
    feast: int = ...
    knowledge: int = ...
    communion: int = ...

class State(CoreState):
    """A complete SpellBook game state; seat 0 is the first player."""
    @classmethod
    def new(cls, players: int = 2, spells: str | Sequence[str] = "set1", seed: int = 0) -> State:
        """A new game, set up (S1-S4), at the first player's first Morning."""
    def clone(self) -> State:
        """An independent copy."""
    def copy(self) -> State:
        """An independent copy (same as clone())."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    @property
    def current_player(self) -> int:
        """The seat deciding next; -1 at a chance event (a draw); -2 when the game is over."""
    @property
    def players(self) -> int:
        """Number of players (2 to 4)."""
    @property
    def phase(self) -> str:
        """'setup', 'morning', 'midday', 'evening', 'resupply' or 'over'."""
    @property
    def decision(self) -> str:
        """What is pending: 'chance', 'over', or a decision kind ('morning', 'take', 'store', ...)."""
    @property
    def active_player(self) -> int:
        """The seat whose Day it is."""
    @property
    def day(self) -> int:
        """Days played before this one, all seats counted."""
    @property
    def spells(self) -> list[str]:
        """The seven spells in play, by color R P G K W B Y."""
    def is_terminal(self) -> bool:
        """True when the game is over."""
    def is_chance(self) -> bool:
        """True when a Pouch draw must be resolved next."""
    def legal_moves(self) -> list[Move]:
        """The deciding player's legal moves (empty at a chance event or the end)."""
    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance event: each drawable token (`drawn Xx`) with its probability."""
    def parse_move(self, text: str | Move) -> Move:
        """The move for `text`, checked legal here; raises IllegalMoveError with the reason."""
    def is_legal(self, move: Move | str) -> bool:
        """Whether `move` is legal here (False for unparsable text too)."""
    def apply(self, move: Move | str) -> State:
        """Play one legal move or chance outcome in place; returns self."""
    def push(self, move: Move | str) -> State:
        """Alias of apply()."""
    def sample_chance(self) -> Move:
        """One outcome of the pending draw, sampled with the state's own generator (not applied)."""
    def resolve_chance(self) -> list[Move]:
        """Resolve every pending draw with the state's seeded generator; returns the outcomes."""
    def play(self, move: Move | str) -> list[Move]:
        """apply(move), then resolve_chance(); returns the draws made."""
    def explain_illegal(self, move: Move) -> str:
        """Why `move` is not legal here, in words."""
    def scores(self) -> list[Score]:
        """Each seat's score (E3) at the current levels."""
    def winners(self) -> list[int]:
        """Winning seats with the E4 tie-breaks applied (shared when still tied)."""
    def determinize(self, player: int, knows_discard: bool = True, seed: int = 0) -> State:
        """A full state sampled from what `player` observes (§8); the observation is unchanged."""
    def observation(self, player: int, knows_discard: bool = True) -> str:
        """The observation text of `player` (the state text without the hidden Pouch order)."""
    @classmethod
    def from_observation(cls, text: str, seed: int = 0) -> State:
        """A full state consistent with an observation text (a determinization of it)."""
    def observation_array(self, player: int) -> npt.NDArray[np.float32]:
        """A float32 vector (size 430) of what `player` observes; layout in docs/notation.md."""
    def to_text(self) -> str:
        """The one-line state text (docs/notation.md); from_text() round-trips it."""
    @classmethod
    def from_text(cls, text: str) -> State:
        """Parse and validate a state text; raises NotationError naming what is wrong."""
    def validate(self) -> None:
        """Raise NotationError if an invariant is broken (token totals, P1, familiar size, ...)."""
    def __reduce__(self) -> tuple[Any, ...]: ...
