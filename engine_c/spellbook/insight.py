"""SpellBook-specific hidden-information insight: what an observer can infer about the Pouch (what each next
draw would mean is the search's what-if over the contract: search/insight.py what_if_chance).

Beliefs follow SPELLBOOK.md §8. An observer who remembers the Discard box knows the Pouch's contents
exactly (only the order is hidden). One who does not knows the union U of Pouch and Discard box and the
Pouch's size N: by symmetry the Pouch is a uniformly random N-subset of U, so the next draw is token t
with probability u_t/|U|, and k draws contain a t with probability 1 - C(|U|-u_t, k)/C(|U|, k).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

from engine_c.spellbook.state import NTYPE, State, token_name


@dataclass
class TokenBelief:
    token: str
    expected_in_pouch: float
    p_next: float                 # probability that the next draw is this token
    p_within: list[float]         # p_within[k-1]: at least one among the next k draws (k = 1..max_k)


def _p_at_least_one(total: int, have: int, k: int) -> float:
    if have <= 0 or total <= 0:
        return 0.0
    k = min(k, total)
    return 1.0 - comb(total - have, k) / comb(total, k)


def pouch_beliefs(state: State, knows_discard: bool = True, max_k: int = 5) -> list[TokenBelief]:
    """Per token type: expected count in the Pouch, next-draw probability, and at-least-one-within-k
    probabilities (draws beyond the Pouch's current size, which refill it from the Discard box, are not
    modelled: k is capped at the Pouch size). Probabilities of the next draw sum to 1 (or all 0 when the
    Pouch and the Discard box are both empty)."""
    if max_k < 1:
        raise ValueError(f"max_k must be at least 1, got {max_k}")
    raw = state._to_raw()
    pouch, discard, justdisc = raw["pouch"], raw["discard"], raw["justdisc"]
    n = sum(pouch)
    if knows_discard or n == 0:
        counts = pouch if n else discard   # an empty Pouch is refilled from the Discard box first (A3)
        total = sum(counts)
        expected = [float(c) for c in pouch]
    else:
        counts = [pouch[t] + discard[t] - justdisc[t] for t in range(NTYPE)]
        total = sum(counts)
        expected = [c * n / total if total else 0.0 for c in counts]
    draws = n if n else total
    out = []
    for t in range(NTYPE):
        out.append(TokenBelief(token_name(t), expected[t], counts[t] / total if total else 0.0,
                               [_p_at_least_one(total, counts[t], min(k, draws)) for k in range(1, max_k + 1)]))
    return out


# The analysis engine's part of the game contract (engine_c/contract.py): the Pouch's beliefs on request.
ANALYSIS_BY_DEFAULT = False


def analysis_insight(state: State, seat: int) -> dict:
    """What `seat` may infer of the Pouch (the chance of each token among the next draws), as JSON."""
    return {"seat": seat, "pouch": [{"token": b.token, "expectedInPouch": b.expected_in_pouch, "pNext": b.p_next,
                                     "pWithin": b.p_within} for b in pouch_beliefs(state)]}


def move_fields(insight: dict, move) -> dict:
    """Nothing per move: a SpellBook move's outcome hangs on no hidden card of the mover's."""
    return {}
