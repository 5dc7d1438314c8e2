"""The one-ply heuristic of the Spellbook TCG: the most damage and board now (the `greedy` bot's values,
GameAdapter.move_values; D175).

Every value is from the mover's side, read from the public board and the mover's own cards only (never
the opponent's hand or mana pool), so the heuristic plays the same in every world the mover cannot tell
apart:

- a spell's power: what it does at once (damage, healing, tokens, a summon's damage and health), a charm
  what it adds to the spell in the queue, `cast` (finishing the spell) a little less than a useful charm;
- a mana card: worth it while the pool is small, the card the hand needs least first;
- an attacker: its damage against the other wizard, less what the best blocker would do to it;
- a blocker and the attacker it takes: the damage it stops, a kill, less the blocker's loss;
- a target: the board's value after the spell resolves on it (the spell applied to a copy).
"""
from __future__ import annotations

from engine_c.spellbooktcg import cards as C
from engine_c.spellbooktcg.state import MAXSUM, Move, State

TOKEN_WORTH = {"fire": 1.0, "shock": 0.6, "ice": 0.7, "shield": 0.6}     # per token, on the right side


def spell_value(card: C.Card) -> float:
    """What a power does at once, in spellbook cards (a summon: half its damage and health, and one more
    for staying on the board)."""
    v = 0.0
    for e in card.effects:
        if e.kind == "damage":
            v += e.n
        elif e.kind == "health":
            v += 0.6 * e.n
        elif e.kind == "summon":
            v += 1.0 + 0.5 * (e.n + e.health)
        elif e.kind == "tokens":
            v += TOKEN_WORTH.get(e.token, 0.5) * e.n
    return v


def charm_value(card: C.Card, spell: list[C.Card]) -> float:
    """What a charm adds to the spell being cast (its power and the charms already attached)."""
    kind, token, n = card.modifier
    effects = [e for c in spell if c.type == "power" for e in c.effects]
    kinds = {e.kind for e in effects}
    if kind == "add_damage":
        return n * (0.5 if "summon" in kinds else 1.0)
    if kind == "add_health":
        return n * (0.5 if "summon" in kinds else 0.6)
    if kind == "add_tokens":
        return TOKEN_WORTH.get(token, 0.5) * n
    if kind == "tokens_plus":
        return 0.5 * n if "tokens" in kinds or any(c.modifier and c.modifier[0] == "add_tokens" for c in spell) else 0.0
    if kind == "spellpower_plus":
        return n * (1.5 if kinds else 0.5)
    return 0.0


def board_value(raw: dict, seat: int) -> float:
    """The cut-off evaluation's difference from `seat`'s side (D173): spellbooks, and half of each summon's
    damage and health."""
    def side(p: int) -> float:
        return len(raw["book"][p]) + sum(0.5 * (c["damage"] + max(c["health"], 0)) for c in raw["board"][p])
    return side(seat) - side(1 - seat)


def _fighter(raw: dict, code: int) -> tuple[int, int, int, bool]:
    """(owner, damage, health, is wizard) of a character code (w0, w1, sP.J)."""
    if code < 2:
        return code, raw["wizards"][code][0], len(raw["book"][code]), True
    p, j = divmod(code - 2, MAXSUM)
    c = raw["board"][p][j]
    return p, c["damage"], c["health"], False


def _fighters(raw: dict, p: int) -> list[tuple[int, int, bool]]:
    """(damage, health, is wizard) of the characters of `p` without ice (who may attack or block)."""
    out = []
    if raw["wiz"][p]["tok"] != 2:
        out.append((raw["wizards"][p][0], len(raw["book"][p]), True))
    out += [(c["damage"], c["health"], False) for c in raw["board"][p] if c["tok"] != 2]
    return out


def _attack_value(raw: dict, code: int) -> float:
    p, dmg, hp, wiz = _fighter(raw, code)
    blockers = _fighters(raw, 1 - p)
    worst = max((d for d, _h, _w in blockers), default=0)
    if wiz:                                  # a blocked wizard's damage moves its own spellbook cards
        return dmg - 0.6 * worst
    loss = 0.5 * (dmg + hp) if worst >= hp else 0.0
    return dmg - 0.5 * loss


def _block_value(raw: dict, blocker: int, attacker: int) -> float:
    _p, bd, bh, bwiz = _fighter(raw, blocker)
    _q, ad, ah, awiz = _fighter(raw, attacker)
    v = float(ad)                                   # the damage the wizard does not take
    if bwiz:
        v -= ad                                     # a wizard blocks with its spellbook: it takes it anyway
    elif ad >= bh:
        v -= 0.5 * (bd + bh) + 0.5                  # the blocker dies
    if not awiz and bd >= ah:
        v += 0.5 * (ad + ah) + 0.5                  # the attacker dies
    elif awiz:
        v += 0.8 * bd                               # cards off the attacking wizard's spellbook
    return v


def move_values(state: State, moves: list[Move], seed: int = 0) -> list[float]:
    """Each move's value for the seat to decide (the greedy bot plays the largest)."""
    seat = state.current_player
    raw = state._to_raw()
    cs = state.cardset
    ids = state.card_ids
    hand = [ids[k] for k in raw["hand"][seat]]
    mana_n = sum(raw["mana"][seat])
    spell = [cs.cards[ids[k]] for k in raw["queue"][-1][1]] if raw["queue"] else []
    base = board_value(raw, seat)
    out = []
    for m in moves:
        k = m.kind
        if k == "mana":
            need = spell_value(cs.cards[m.card]) if cs.cards[m.card].type == "power" else 1.0
            out.append(2.5 - 0.3 * mana_n - 0.2 * need + 0.1 * hand.count(m.card))
        elif k == "power":
            out.append(1.0 + spell_value(cs.cards[m.card]) - 0.05 * cs.cards[m.card].cost)
        elif k == "charm":
            out.append(charm_value(cs.cards[m.card], spell))
        elif k == "cast":
            out.append(0.3)
        elif k == "attack":
            out.append(_attack_value(raw, m.value))
        elif k == "block":
            out.append(max((_block_value(raw, m.value, a) for a in _attackers(raw)), default=0.0))
        elif k == "on":
            out.append(_on_value(raw, m))
        elif k == "target":
            child = state.clone()
            child._apply_code(m.code)
            out.append(board_value(child._to_raw(), seat) - base)
        else:                                        # none, done, pass
            out.append(0.0)
    return out


def _attackers(raw: dict) -> list[int]:
    a = raw["active"]
    out = [a] if raw["wiz"][a]["atk"] else []
    return out + [2 + a * MAXSUM + j for j, c in enumerate(raw["board"][a]) if c["atk"]]


def _on_value(raw: dict, m: Move) -> float:
    """The pending blocker (by uid) against attacker `m`."""
    uid = raw["pending_blocker"]
    d = 1 - raw["active"]
    code = d if raw["wiz"][d]["uid"] == uid else next(
        (2 + d * MAXSUM + j for j, c in enumerate(raw["board"][d]) if c["uid"] == uid), d)
    return _block_value(raw, code, m.value)


class HeuristicBot:
    """The heuristic's bot (search/bots.py's Bot protocol): the best value, ties broken by the seed."""

    def __init__(self, seed: int = 0):
        import random

        self.rng = random.Random(seed)
        self.name = "heuristic"

    def choose(self, state: State) -> tuple[Move, dict]:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over or a draw is pending")
        values = move_values(state, moves)
        best = max(values)
        return self.rng.choice([m for m, v in zip(moves, values) if v >= best - 1e-9]), {"value": best}
