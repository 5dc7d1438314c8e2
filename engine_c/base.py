"""What every compiled game's Python face shares (each game's folder engine_c/NAME/):
the error vocabulary, the State methods over a compiled core, the state text's field splitting, and the
search adapter. A game's core (a Cython `CoreState`) provides `_legal_codes`, `_chance_codes`, `_apply_code`,
`_sample_chance_code`, `_copy_from`, `_state_bytes`, `_load_state_bytes` and `current_player`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine_c.contract import GameAdapter


class NotationError(ValueError):
    """Text that does not parse, or describes an impossible state."""


class IllegalMoveError(ValueError):
    """A move that is not legal in the state it was applied to; the message says why."""


def clip(text: str, limit: int = 60) -> str:
    """repr() of a piece of input for an error message, cut to `limit` characters (errors never echo
    unbounded input)."""
    text = str(text)
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"… ({len(text)} characters)"


def split_fields(text: str, header: str, max_text: int) -> dict[str, str]:
    """The `key=value` fields of a one-line state text that starts with `header` (NotationError otherwise)."""
    if not isinstance(text, str):
        raise NotationError(f"state text must be a string, got {type(text).__name__}")
    if len(text) > max_text:
        raise NotationError(f"state text is {len(text)} characters long; a state is at most {max_text}")
    words = text.split()
    if not words or words[0] != header:
        raise NotationError(f"state text must start with {header!r}, got {clip(text, 20)}")
    out: dict[str, str] = {}
    for w in words[1:]:
        if "=" not in w:
            raise NotationError(f"field {clip(w)} is not key=value")
        k, v = w.split("=", 1)
        if k in out:
            raise NotationError(f"field {clip(k)} appears twice")
        out[k] = v
    return out


def _mix_seed(seed: int) -> int:
    """Spread a small user seed over 64 bits (splitmix64 finalizer)."""
    z = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


class GameState:
    """The State methods every game shares (python-chess style), mixed into a game's `State(GameState,
    CoreState)`. The game sets `Move` (a class with `code`, `from_text`) and defines `explain_illegal(move)`,
    `to_text()`, `from_text()` and `_to_raw()` (a dict with "players"). `current_player` is the deciding seat, -1 at a chance event, -2 at the end."""

    Move: type
    NO_CHANCE = "no chance event is pending"

    def clone(self):
        other = type(self)()
        other._copy_from(self)
        return other

    def copy(self):
        return self.clone()

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (type(self).from_text, (self.to_text(),))

    @property
    def players(self) -> int:
        return self._to_raw()["players"]

    def is_terminal(self) -> bool:
        return self.current_player == -2

    def is_chance(self) -> bool:
        return self.current_player == -1

    def legal_moves(self) -> list:
        """The deciding player's legal moves (empty at a chance event or when the game is over)."""
        return [self.Move(c) for c in self._legal_codes()]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance event: each outcome with its probability."""
        return [(self.Move(c), p) for c, p in self._chance_codes()]

    def parse_move(self, text):
        """The move for `text`, checked to be legal here (IllegalMoveError says why not)."""
        move = text if isinstance(text, self.Move) else self.Move.from_text(text)
        if self.is_chance():
            if move.code not in {c for c, _ in self._chance_codes()}:
                raise IllegalMoveError(self.explain_illegal(move))
        elif move.code not in set(self._legal_codes()):
            raise IllegalMoveError(self.explain_illegal(move))
        return move

    def is_legal(self, move) -> bool:
        try:
            self.parse_move(move)
        except (IllegalMoveError, NotationError):
            return False
        return True

    def apply(self, move):
        """Plays one legal move (or chance outcome) in place; returns self for chaining."""
        self._apply_code(self.parse_move(move).code)
        return self

    def push(self, move):
        return self.apply(move)

    def sample_chance(self):
        """One outcome of the pending chance event, sampled with the state's own generator (not applied)."""
        if not self.is_chance():
            raise IllegalMoveError(self.NO_CHANCE)
        return self.Move(self._sample_chance_code())

    def resolve_chance(self) -> list:
        """Resolves every pending chance event with the state's seeded generator; returns the outcomes."""
        out = []
        while self.is_chance():
            m = self.Move(self._sample_chance_code())
            self._apply_code(m.code)
            out.append(m)
        return out

    def play(self, move) -> list:
        """apply(move), then resolve_chance(); returns the chance outcomes."""
        self.apply(move)
        return self.resolve_chance()

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"State.from_text({self.to_text()!r})"

    def _check_seat(self, player: int, what: str) -> None:
        n = self.players
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
            raise ValueError(f"{what} must be a seat from 0 to {n - 1}, got {player!r}")


class CompiledGameAdapter(GameAdapter):
    """The game contract's adapter (engine_c.contract.GameAdapter) for a game whose State is a GameState:
    the game's subclass sets `name`, `State`, `Move` and its `vtable` capsule, and overrides the optional
    parts it has (`default_model_path`, `level_table`, `public_chance`, ...)."""

    def state_bytes(self, state) -> bytes:
        return state._state_bytes()

    def state_from_bytes(self, data: bytes):
        st = self.State()
        st._load_state_bytes(data)
        return st

    def move(self, code: int):
        return self.Move(code)

    @staticmethod
    def code(move) -> int:
        return move.code

    @staticmethod
    def child(state, move):
        """The state right after `move`, chance left pending (for tree reuse)."""
        out = state.clone()
        out.apply(move)
        return out

    @staticmethod
    def num_players(state) -> int:
        return state.players

    @staticmethod
    def current_player(state) -> int:
        return state.current_player

    @staticmethod
    def legal_moves(state) -> list:
        return state.legal_moves()

    @staticmethod
    def sample_outcome(state, seed: int):
        """A state with the pending chance resolved as it might fall for the seat that decided last: what
        that seat cannot see resampled (`determinize` for it), then drawn (for the review's estimator)."""
        observer = max(state.active_player, 0)
        out = state.determinize(observer, seed=seed % 2**63)
        while out.is_chance():
            out.resolve_chance()
        return out

    @staticmethod
    def final_values(state) -> tuple[list[float], list[float]]:
        """A finished game's win shares (ties shared) and final scores, by seat (a score is a number or
        has a `total`, SpellBook's Score)."""
        winners = state.winners()
        wins = [1.0 / len(winners) if p in winners else 0.0 for p in range(state.players)]
        return wins, [float(getattr(s, "total", s)) for s in state.scores()]


@dataclass(frozen=True)
class Reason:
    """One measured claim of a hint's "why" (every game's engine_c/<game>/reasons.py): its kind, the
    measured value, the items it names (tokens, spells), the sentence a player reads and its aspect
    (gains, gives_up, ...)."""

    kind: str
    value: float
    items: tuple[str, ...] = field(default_factory=tuple)
    text: str = ""
    aspect: str = ""
