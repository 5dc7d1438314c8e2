"""What a seat may infer of the other seat's hidden hand: the chance of each card, exact under the rules'
uniform reading of hidden cards (TI-5).

A seat cannot see the other's hand, mana pool, or the unknown slots of its spellbook and graveyard (TI-2 to
TI-4). What it can place of that seat's deck list: the known slots of its spellbook and graveyard, its
summons (cards beneath included) and its queued spells. The rest of the list (`unseen` cards) fills the
hidden slots, and every way of dealing them is equally likely (TI-5): so of a hand of h cards drawn from
N unseen cards of which r are a given card, the chance of holding at least one is 1 - C(N-r, h) / C(N, h),
and h*r/N copies are expected. Every card the other seat has played, or that died, is placed and so no
longer unseen: the belief follows their plays through what they reveal. What they chose not to play is
not read into it (that is the search's part).

`hand_belief(state, seat)` reads only what `seat` may see (the state's observation for it), never the
other seat's cards. `analysis_insight` / `move_fields`: the analysis engine's and GetHints' part of the
game contract (engine_c/contract.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

from engine_c.spellbooktcg.state import State
from engine_c.spellbooktcg.text import card_name


@dataclass(frozen=True)
class CardChance:
    card: str            # card id
    name: str            # its name as players read it
    unseen: int          # copies of the other seat's deck list this seat cannot place
    chance: float        # of at least one copy in the other seat's hand
    expected: float      # copies expected in that hand


@dataclass(frozen=True)
class HandBelief:
    seat: int            # who infers
    other: int           # whose hand
    hand_size: int
    unseen_total: int    # cards of the other seat's list in its hidden slots (hand, mana pool, unknown slots)
    cards: list[CardChance]


def _at_least_one(total: int, copies: int, drawn: int) -> float:
    if copies <= 0 or drawn <= 0 or total <= 0:
        return 0.0
    return 1.0 - comb(total - copies, drawn) / comb(total, drawn)


def hand_belief(state: State, seat: int) -> HandBelief:
    """The chance of each card in the other seat's hand, from what `seat` may see (its observation)."""
    from engine_c.spellbooktcg.notation import parse, placed_counts

    other = 1 - seat
    _cs, ids, _wiz, raw, _observer = parse(state.observation(seat), True, state.cardset)
    hand = raw["hand"][other][1]               # the observation gives the other's hand as a size
    placed = placed_counts(raw, other, len(ids), with_hand=False)
    unseen = [raw["deck"][other][k] - placed[k] for k in range(len(ids))]
    total = sum(unseen)
    cards = [CardChance(ids[k], card_name(state.cardset, ids[k]), unseen[k], _at_least_one(total, unseen[k], hand),
                        hand * unseen[k] / total if total else 0.0)
             for k in range(len(ids)) if unseen[k] > 0]
    cards.sort(key=lambda c: (-c.chance, c.name))
    return HandBelief(seat, other, hand, total, cards)


# The analysis engine's part of the game contract (engine_c/contract.py): the other hand's belief, always.
ANALYSIS_BY_DEFAULT = True


def analysis_insight(state: State, seat: int) -> dict:
    """What `seat` may infer of the other seat's hand (hand_belief), as JSON."""
    b = hand_belief(state, seat)
    return {"seat": b.seat, "opponent": b.other, "opponentHandSize": b.hand_size, "unseenCards": b.unseen_total,
            "opponentHand": [{"card": c.card, "name": c.name, "unseen": c.unseen, "probability": round(c.chance, 4),
                              "expected": round(c.expected, 3)} for c in b.cards],
            "basis": "every card of their deck list you cannot place (their hand, mana pool and unknown spellbook "
                     "and graveyard cards) is equally likely anywhere among those places"}


def move_fields(insight: dict, move) -> dict:
    """Nothing per move: a move's outcome never hangs on the mover's own hidden cards."""
    return {}


def hold_lines(belief: HandBelief, top: int = 6) -> list[str]:
    """The belief in a player's words (the terminal's `hold`), the likeliest cards first."""
    lines = [f"Their hand: {belief.hand_size} card{'s' if belief.hand_size != 1 else ''}, from {belief.unseen_total} "
             f"cards of their deck you cannot place (hand, mana pool, unknown spellbook and graveyard cards)."]
    for c in belief.cards[:top]:
        lines.append(f"  {c.name}: {round(100 * c.chance)}% to hold at least one ({c.unseen} unseen, "
                     f"{c.expected:.1f} expected)")
    return lines
