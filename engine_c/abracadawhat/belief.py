"""A seat's belief over its own hand in Abracada…What?, from what the other seats chose to announce.

    from engine_c.abracadawhat import State
    from engine_c.abracadawhat.belief import Belief

    s = State.new(players=2, seed=3)
    b = Belief(observer=1)
    while s.current_player == 0:            # seat 0 announces; seat 1 watches
        s.play(s.legal_moves()[0])
    b.observe(s)                             # catch up on every public action logged since the last call
    b.hands(s)                               # {(sorted stones): probability} of seat 1's hand
    b.holding_probabilities(s)               # {spell: P(seat 1 holds at least one)}

The exact posterior of XC6 (`State.posterior`) is the count-only prior: every arrangement of the stones the
seat cannot see that fits its own announcements, equally likely. The belief multiplies in, for every
decision of another seat q this round, P(q's move | what q saw then). What q saw depends on the seat's own
hand (q sees it), so the likelihood is a vector over the seat's possible hands at that time, and the
belief is the forward pass of XC6 over the seat's own events with those vectors multiplied in at their
places in the log (SPARTA's exact belief tracking, Lerer et al. 2020). q's secret stones, which the seat
cannot see, count as unseen for q.

q's policy is not known, so it is a mixture of `models`, each a pair (floor, temperature): the count
heuristic (heuristic.py) as a softmax with that temperature, mixed with the uniform policy by the floor
(every legal move keeps at least floor / legal moves, so one surprising move never rules a hand out;
floor 1 is the uniform policy, which reveals nothing). Each seat has its own weights over the models,
updated after each of its decisions by the probability the model gave that move (with the seat's hand
from the count-only posterior then) and kept across rounds: against the count heuristic the sharp model
takes over, against a player it does not describe the uniform one does, and the belief falls back towards
the count-only prior instead of being misled. A decision's likelihood is the mixture of the models' with
the seat's current weights.

Contract:
- `observe(state)` uses only what `observer` sees of `state` (the other hands, the public log, the cast and
  removed stones, its own secret stones): two states with the same observation give the same belief.
- It is deterministic and derivable from the public history: within a round, feeding the states in order
  (every state, or only the seat's own decision states) gives the same likelihoods as feeding only the
  last, except with 3+ seats where a third seat refilled since a decision the belief did not see: the
  refill's stones are not in the log (D35), that seat's hand at that time is unknown, and that decision
  is left out (`skipped` counts them). Feeding every decision state, as the bots and `from_history` do,
  skips none. The model weights (`log_evidence`) grow with what the belief was shown, earlier rounds
  included, so a belief fed the whole game knows the other seats better than one built from the last state.
- A new round (or another game) starts the belief over hands afresh; a hand the seat's own announcements
  rule out never has weight; probabilities add up to 1.
"""
from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from engine_c.abracadawhat import _engine as _E
from engine_c.abracadawhat.heuristic import DEFAULT_THRESHOLD
from engine_c.abracadawhat.state import END_CODE, State

# A model of how the rollout searches play (D98), fitted by maximum likelihood to 2,738 decisions of
# 2-player self-play of the 2,000-iteration search (bench/abracada_fit.py, seeds 20000-20039; reproducible):
# P(move | view) ∝ exp((log p_hold(move) + b_move) / T), p_hold the decider's chance of holding the spell under
# its exact posterior (XC6, as the count heuristic computes it; 1 for `end`), (floor, T, b of spells 1-8 and
# `end`). Held-out (seeds 20040-20049): -1.496 nats a decision, the count heuristic's softmax at T 0.2 -1.577,
# uniform -1.712. Searchers cast the low spells more readily than their chances alone say, and end rarely.
SEARCHER_MODEL = (0.05, 1.0791, (0.8611, 0.331, 0.2186, 0.6435, 0.1185, 0.0627, -0.2654, -0.5758, -1.3942))
# (floor, temperature[, biases]) of the modelled policies (docs/search.md, "Belief"; D71, D98): the count
# heuristic nearly as it plays, a looser version of it, the uniform policy, and the searchers' fitted policy.
DEFAULT_MODELS = ((0.05, 0.02), (0.1, 0.2), (1.0, 0.0), SEARCHER_MODEL)
MULTISETS = _E.MULTISETS              # hypothesis id -> counts by spell 0..8 (index 0 unused)
_OK, _FAIL, _END = 1, 2, 3            # log kinds (_engine.pyx LOG_*)


def hypothesis_of(counts) -> int:
    """The hypothesis id (a MULTISETS index) of a hand given by its counts of spells 1-8 (State._to_raw's
    `hands` rows); KeyError for counts no hand has."""
    return _E.MULTISET_INDEX[(0, *counts)]


def hand_of(hypothesis: int) -> tuple[int, ...]:
    """The hand (sorted stones) of hypothesis id `hypothesis` (a MULTISETS index)."""
    counts = MULTISETS[hypothesis]
    return tuple(k for k in range(1, 9) for _ in range(counts[k]))


class Belief:
    """Seat `observer`'s belief over its own hand (see the module's contract)."""

    def __init__(self, observer: int, models: tuple[tuple, ...] = DEFAULT_MODELS,
                 threshold: float = DEFAULT_THRESHOLD):
        if not isinstance(observer, int) or isinstance(observer, bool) or not 0 <= observer < _E.LIMITS["max_players"]:
            raise ValueError(f"observer must be a seat 0..{_E.LIMITS['max_players'] - 1}, got {observer!r}")
        if not 1 <= len(models) <= 4:
            raise ValueError(f"models: 1 to 4 (floor, temperature[, biases]) tuples, got {len(models)}")
        biases: list = []
        for model in models:
            if len(model) not in (2, 3):
                raise ValueError(f"models: (floor, temperature) or (floor, temperature, 9 biases), got {model!r}")
            floor, temperature = model[0], model[1]
            bias = model[2] if len(model) == 3 else None
            if bias is not None and (len(bias) != 9 or not all(math.isfinite(b) for b in bias)):
                raise ValueError(f"models: a fitted model has 9 finite biases (spells 1-8, end), got {bias!r}")
            if bias is not None and not temperature > 0.0:
                raise ValueError(f"models: a fitted model needs a temperature > 0, got {temperature!r}")
            biases.append(None if bias is None else [float(b) for b in bias])
            if not 0.0 < floor <= 1.0:
                raise ValueError(f"models: a floor must be within (0, 1], got {floor!r}")
            if not temperature >= 0.0:
                raise ValueError(f"models: a temperature must be >= 0, got {temperature!r}")
        self.observer, self.threshold = observer, threshold
        self.floors = [float(m[0]) for m in models]
        self.temperatures = [float(m[1]) for m in models]
        self.biases = biases if any(b is not None for b in biases) else None
        self.skipped = 0
        # per seat: log of each model's evidence (the product of the probabilities it gave the seat's moves)
        self.log_evidence: dict[int, list[float]] = {}
        self._reset(None)

    def _reset(self, rounds: int | None) -> None:
        self._rounds = rounds                 # finished rounds when this round's tracking began
        self._log: list[tuple] = []           # the round's log entries processed so far
        self._positions: list[int] = []
        self._seats: list[int] = []
        self._rows: list[np.ndarray] = []         # per decision: every model's likelihood vector
        self._snap: tuple[int, list[list[int]]] | None = None    # (log length, every hand) last observed

    # ------------------------------------------------------------------------------------------
    def observe(self, state: State) -> int:
        """Catch up on the other seats' decisions logged since the last call (same round); returns how
        many were added. Starts afresh on a new round or a state from another game."""
        raw = state._to_raw()
        if self.observer >= raw["players"]:
            raise ValueError(f"observer {self.observer} is not a seat of this {raw['players']}-player game")
        log, rounds = raw["log"], len(raw["history"])
        if rounds != self._rounds or log[:len(self._log)] != self._log:
            self._reset(rounds)
        added = 0
        o = self.observer
        for t in range(len(self._log), len(log)):
            move = _decision(log, t)
            if move is None or log[t][1] == o:
                continue
            hands = self._hands_at(raw, log, t)
            if hands is None:
                self.skipped += 1
                continue
            q = log[t][1]
            row = np.ones(len(self.floors) * _E.MULTISET_COUNT, dtype=np.float32)
            # q's hand then is left unknown even when it was seen: its refill is not in the log (D35), and
            # the belief must be the same whether it saw that state or not (the contract above)
            predictive = state._likelihood(t, hands, o, q, move, self.floors, self.temperatures, self.threshold,
                                           row, False, self.biases)
            evidence = self.log_evidence.setdefault(q, [0.0] * len(self.floors))
            for m, p in enumerate(predictive):
                evidence[m] += math.log(max(p, 1e-300))
            self._positions.append(t)
            self._seats.append(q)
            self._rows.append(row.reshape(len(self.floors), _E.MULTISET_COUNT))
            added += 1
        self._log = list(log)
        self._snap = (len(log), [list(h) for h in raw["hands"]])
        return added

    def _hands_at(self, raw: dict, log: list, t: int) -> list[list[int]] | None:
        """Every seat's hand when log entry t was decided (o's and the actor's by size only: see
        State._likelihood), or None when a seat's hand then is unknown (a refill since, not seen)."""
        q, o = log[t][1], self.observer
        out = []
        for p, now in enumerate(raw["hands"]):
            later = [e for e in log[t + 1:] if e[1] == p]
            if p in (o, q):
                first = t if p == q else t + 1
                size = (sum(now) + sum(1 for e in log[first:] if e[1] == p and e[0] == _OK)
                        - sum(e[2] for e in later if e[0] == _END))
                out.append([size] + [0] * 7)
                continue
            if any(e[0] == _END and e[2] > 0 for e in later):
                if self._snap is None or self._snap[0] > t:
                    return None
                hand = list(self._snap[1][p])
                for e in log[self._snap[0]:t]:
                    if e[1] == p and e[0] == _OK:
                        hand[(e[2] & 15) - 1] -= 1
            else:
                hand = list(now)
                for e in later:
                    if e[0] == _OK:
                        hand[(e[2] & 15) - 1] += 1
            if min(hand) < 0:
                return None
            out.append(hand)
        return out

    # ------------------------------------------------------------------------------------------
    def hypotheses(self, state: State) -> list[tuple[int, float]]:
        """[(hypothesis id, probability)] of the observer's current hand (ids index MULTISETS; a search's
        root determinizations draw from these: search.ismcts(..., hypotheses=...)). Catches up first.
        ValueError when the observer's own announcements fit no hand (an impossible state)."""
        self.observe(state)
        positions = np.asarray(self._positions, dtype=np.intc)
        weights = {q: self.model_weights(q) for q in set(self._seats)}
        lik = (np.concatenate([weights[q] @ rows for q, rows in zip(self._seats, self._rows)]).astype(np.float32)
               if self._rows else np.zeros(1, dtype=np.float32))
        out, _ = state._belief(self.observer, positions, lik)
        if not out:
            raise ValueError(f"seat {self.observer}'s announcements fit no hand it could hold")
        return out

    def hands(self, state: State) -> dict[tuple[int, ...], float]:
        """{hand (sorted stones): probability} under the belief (State.posterior's form)."""
        return {hand_of(i): p for i, p in self.hypotheses(state)}

    def holding_probabilities(self, state: State) -> dict[int, float]:
        """{spell 1-8: probability that the observer holds at least one} under the belief."""
        out = {k: 0.0 for k in range(1, 9)}
        for i, p in self.hypotheses(state):
            for k in range(1, 9):
                if MULTISETS[i][k]:
                    out[k] += p
        return out

    def model_weights(self, seat: int) -> np.ndarray:
        """The posterior weight of each model for `seat` (equal before it has decided anything)."""
        ev = np.asarray(self.log_evidence.get(seat, [0.0] * len(self.floors)))
        w = np.exp(ev - ev.max())
        return w / w.sum()

    @property
    def updates(self) -> int:
        """Other seats' decisions multiplied in this round."""
        return len(self._rows)

    @classmethod
    def from_history(cls, states: Iterable[State], observer: int, **kw) -> "Belief":
        """The belief after the given states in order (e.g. a record replayed: every state before a
        decision), as a session or the terminal rebuilds it."""
        belief = cls(observer, **kw)
        for s in states:
            belief.observe(s)
        return belief


def _decision(log: list, t: int) -> int | None:
    """The move code decided at log entry t (a cast, or `end` after a success), or None (a turn end after
    a failed cast ends the turn by itself: no decision)."""
    kind, seat, value = log[t]
    if kind in (_OK, _FAIL):
        return value & 15
    if t > 0 and log[t - 1][1] == seat and log[t - 1][0] == _OK:
        return END_CODE
    return None


def searcher_policy(state: State, model: tuple = SEARCHER_MODEL) -> dict:
    """{move: probability} of the fitted model of searchers' play (SEARCHER_MODEL, D98) at a decision of
    `state`, from the decider's own view (its exact posterior), floor included: what the belief's C code
    computes for one hand of the believing seat (bench/abracada_fit.py fits it; tests check they agree)."""
    floor, temperature, bias = model
    chances = state.holding_probabilities(state.current_player)
    moves = state.legal_moves()
    vals = [bias[8] if m.kind == "end" else math.log(max(chances[m.value], 1e-3)) + bias[m.value - 1]
            for m in moves]
    top = max(vals)
    e = [math.exp((v - top) / temperature) for v in vals]
    z = sum(e)
    return {m: floor / len(moves) + (1 - floor) * x / z for m, x in zip(moves, e)}
