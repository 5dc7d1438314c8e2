"""A seat's insight in Abracada…What?: what it probably holds and what each announcement risks.

    from engine_c.abracadawhat.insight import hand_insight
    ins = hand_insight(state, seat=1)
    ins.holding[5]                       # P(seat 1 holds at least one Lightning Tempest)
    ins.announcements[0].move            # the legal cast most likely to succeed

The probabilities come from the seat's exact posterior over its own hand (XC6: the stones it cannot see,
XI4, and its own announcements' successes and failures): uniform over the stone arrangements consistent
with what the seat saw. The belief that also reads the others' announcements is belief.py's `Belief`
(the searches' root at levels with `belief`, and the coach's "what you probably hold").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine_c.abracadawhat.state import SPELLS, Move, State

# §4's effects on success, by spell.
EFFECTS = {
    1: "roll the die: every other player loses that much life",
    2: "every other player loses 1 life; you gain 1",
    3: "roll the die: you gain that much life",
    4: "take a secret stone (1 point at the round's end if you survive)",              # XR5
    5: "the players to your left and right lose 1 life each",
    6: "the player to your left loses 1 life",
    7: "the player to your right loses 1 life",
    8: "you gain 1 life",
}


@dataclass(frozen=True)
class AnnouncementRisk:
    """One announcement: its chance of success and what a failure costs (XT1, XC8)."""

    move: Move
    name: str
    success_probability: float
    expected_life_loss: float          # failure chance x the life a failure costs (spell 1: a die roll)
    self_knockout_probability: float   # the chance a failure takes the seat's last life (XR4: it scores 0)
    effect: str


@dataclass(frozen=True)
class HandInsight:
    seat: int
    holding: dict[int, float]                       # spell 1-8 -> P(holding at least one)
    announcements: list[AnnouncementRisk] = field(default_factory=list)   # most likely first
    hands_considered: int = 0                        # own hands with non-zero probability


def own_hand_posterior(state: State, seat: int) -> dict[tuple[int, ...], float]:
    """The probability of each own hand of `seat` given what it observes (today: State.posterior, XC6)."""
    return state.posterior(seat)


def hand_insight(state: State, seat: int) -> HandInsight:
    """What `seat` probably holds and, for each announcement it may make (the legal casts when it decides
    now, else every spell), the chance of success, the expected life loss and the chance of knocking
    itself out. Uses only what `seat` observes (its own hand stays hidden from it). ValueError for a seat
    that does not exist."""
    posterior = own_hand_posterior(state, seat)
    holding = {k: 0.0 for k in range(1, 9)}
    for hand, p in posterior.items():
        for k in set(hand):
            holding[k] += p
    if state.current_player == seat:
        casts = [m for m in state.legal_moves() if m.kind == "cast"]
    else:
        casts = [Move(k) for k in range(1, 9)]
    life = state.life[seat]
    out = [_risk(m, holding[m.value], life) for m in casts]
    out.sort(key=lambda a: (-round(a.success_probability, 12), a.move.value))
    return HandInsight(seat, holding, out, sum(1 for p in posterior.values() if p > 0))


def _risk(move: Move, p: float, life: int) -> AnnouncementRisk:
    fail = 1.0 - p
    if move.value == 1:      # XC8: a failed Ancient Dragon costs a die roll (1-6), not 1
        loss, knockout = 3.5, sum(1 for r in range(1, 7) if r >= life) / 6.0 if life > 0 else 0.0
    else:
        loss, knockout = 1.0, 1.0 if 0 < life <= 1 else 0.0
    return AnnouncementRisk(move, SPELLS[move.value - 1], p, fail * min(loss, life) if move.value != 1
                            else fail * _expected_roll_loss(life), fail * knockout, EFFECTS[move.value])


def _expected_roll_loss(life: int) -> float:
    """The expected life a die roll takes from `life` (XT3: life lost below 0 counts as 0)."""
    return sum(min(r, life) for r in range(1, 7)) / 6.0


# The analysis engine's part of the game contract (engine_c/contract.py): the seat's hand insight, always.
ANALYSIS_BY_DEFAULT = True


def analysis_insight(state: State, seat: int) -> dict:
    """What `seat` probably holds and what each announcement risks (hand_insight, as GetHints), as JSON."""
    ins = hand_insight(state, seat)
    return {"seat": ins.seat, "handsConsidered": ins.hands_considered,
            "holding": [{"spell": k, "name": SPELLS[k - 1], "probability": p} for k, p in ins.holding.items()],
            "announcements": [{"move": str(a.move), "name": a.name, "successProbability": a.success_probability,
                               "expectedLifeLoss": a.expected_life_loss,
                               "selfKnockoutProbability": a.self_knockout_probability, "effect": a.effect}
                              for a in ins.announcements]}


def move_fields(insight: dict, move) -> dict:
    """A move's chance of success: a cast succeeds when the seat holds the spell (GetHints' hint); `end` always."""
    holding = {h["spell"]: h["probability"] for h in insight["holding"]}
    return {"successProbability": holding[move.value] if move.kind == "cast" else 1.0}
