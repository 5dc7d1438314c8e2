"""Playing whole games between bots (game-agnostic), with duplicate seat rotation helpers."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence


@dataclass
class GameRecord:
    seed: int
    bots: list[str]                      # by seat
    moves: list[tuple[int, str]] = field(default_factory=list)   # (seat or -1 for a draw, move text)
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    seconds: float = 0.0
    unfinished: bool = False             # stopped at max_decisions: every seat shares the result


# Nothing in the rules bounds a game's length (bots that keep passing never finish), so a harness stops a
# game after this many decisions and scores it as shared by every seat (docs/decisions.md D15). Real games
# take a few hundred at most; the cap only guards unattended tournaments against a stalling bot.
MAX_DECISIONS = 5000


def play_game(new_state: Callable[[int], Any], bots: Sequence[Any], seed: int,
              on_move: Callable[[int, Any, dict], None] | None = None,
              max_decisions: int = MAX_DECISIONS) -> GameRecord:
    """Plays `new_state(seed)` to the end; bots[seat] chooses for its seat; draws use the state's seeded
    generator, so the same seed gives the same draws whatever the bots do until they diverge. A game
    still running after `max_decisions` decisions stops `unfinished`, with every seat among the winners
    and the scores it stopped at."""
    state = new_state(seed)
    rec = GameRecord(seed=seed, bots=[b.name for b in bots])
    start = time.monotonic()
    decisions = 0
    while not state.is_terminal():
        if decisions >= max_decisions:
            rec.unfinished = True
            break
        if state.is_chance():
            for d in state.resolve_chance():
                rec.moves.append((-1, str(d)))
            continue
        seat = state.current_player
        for own_seat, bot in enumerate(bots):
            watch = getattr(bot, "observe", None)      # bots that track the game (beliefs) see every decision
            if watch is not None:
                watch(state, own_seat)
        move, info = bots[seat].choose(state)
        if on_move:
            on_move(seat, move, info)
        state.apply(move)
        rec.moves.append((seat, str(move)))
        decisions += 1
    rec.scores = [getattr(s, "total", s) for s in state.scores()]   # a Score (SpellBook) or a number
    rec.winners = list(range(len(bots))) if rec.unfinished else state.winners()
    rec.seconds = time.monotonic() - start
    return rec


def win_share(rec: GameRecord, seat: int) -> float:
    return (1.0 / len(rec.winners)) if seat in rec.winners else 0.0


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (ties counted as half wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def calibration_rows(game: Any, new_state: Callable[[int], Any], options_for: Callable[[int], Any], seed: int,
            network: Any) -> list[tuple[int, int, list[float], list[float]]]:
    """Rows for search.calibration.fit from one game `new_state(seed)` played to the end by the search that reports the
    probabilities: at every decision with a choice, `ismcts(options_for(k))` (k counts the decisions)
    with `network` (give it without a calibration map: the map is fitted on raw probabilities) plays
    its most visited move (the search's choice, which a hint shows first unless a tied move is the
    policy's favourite) and that move's per-seat win probabilities are recorded."""
    from search.search import ismcts

    reported: list[tuple[int, list[float]]] = []

    class Reporter:
        name = "calibration"

        def choose(self, state):
            moves = game.legal_moves(state)
            if len(moves) == 1:
                return moves[0], {}
            result = ismcts(game, state, options_for(len(reported)), network=network)
            best = result.chosen
            reported.append((result.player, list(best.win_probability)))
            return best.move, {}

    players = game.num_players(new_state(seed))
    rec = play_game(new_state, [Reporter() for _ in range(players)], seed)
    shares = [(1.0 / len(rec.winners)) if s in rec.winners else 0.0 for s in range(players)]
    return [(players, mover, p, shares) for mover, p in reported]
