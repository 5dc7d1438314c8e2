"""Game records: replaying a record (setup seed, every move and draw in order) into engine states."""
from __future__ import annotations

from typing import Any

from engine_c.state import IllegalMoveError, Move, NotationError, State


class RecordError(ValueError):
    """A record that does not replay; `field` names where (e.g. 'events[12].move')."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


def replay(record: dict[str, Any]) -> tuple[State, list[tuple[State, Move, int]]]:
    """The final state and the (state before, move, seat) of every decision. Draws are applied as recorded
    (`drawn Xx`); a record without draws has them resolved with the setup seed's generator."""
    try:
        state = State.new(players=record["players"], spells=record["spells"], seed=record["seed"])
    except KeyError as e:
        raise RecordError(str(e.args[0]), "missing from the record") from None
    except (ValueError, TypeError) as e:
        raise RecordError("players" if "players" in str(e) else "spells", str(e)) from None
    steps: list[tuple[State, Move, int]] = []
    for i, ev in enumerate(record.get("events", [])):
        text = ev.get("move", "") if isinstance(ev, dict) else str(ev)
        try:
            move = Move.from_text(text)
            if move.is_chance:
                state.apply(move)
                continue
            if state.is_chance():
                state.resolve_chance()
            seat = state.current_player
            before = state.clone()
            state.apply(move)
            steps.append((before, move, seat))
        except (IllegalMoveError, NotationError) as e:
            raise RecordError(f"events[{i}].move", str(e)) from None
    if state.is_chance():
        state.resolve_chance()
    return state, steps
