"""Spellbook TCG game state and moves (python-chess style), over the compiled rules in _engine.pyx.

    from engine_c.spellbooktcg import State

    s = State.new(seed=0)                       # the starter decks (frost_ward v fire_shock), set up
    s.legal_moves()                             # [Move('mana arcane_bolt'), ..., Move('none')]
    s.play("none")                              # a move, then any chance (draws) resolved
    s.observation(1)                            # what seat 1 knows (TI-1..TI-4)
    State.from_text(s.to_text()) == s           # True

Rules: ../shared/rules/SPELLBOOK_TCG.md; cards and decks: docs/tcg-cards.md; notation: notation.py.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from engine_c.base import GameState, IllegalMoveError, NotationError, _mix_seed, clip
from engine_c.spellbooktcg import _engine as _E
from engine_c.spellbooktcg import cards as C

PHASES = _E.PHASES
CODES = _E.CODES
LIMITS = _E.LIMITS
MAXSUM = LIMITS["summons"]
UNKNOWN = LIMITS["unknown"]
_SIMPLE = {CODES["pass"]: "pass", CODES["none"]: "none", CODES["done"]: "done", CODES["cast"]: "cast"}
_SIMPLE_CODE = {v: k for k, v in _SIMPLE.items()}
_CARD_KINDS = {CODES["mana"]: "mana", CODES["power"]: "power", CODES["charm"]: "charm", CODES["draw"]: "draw"}
_CHAR_KINDS = {CODES["attack"]: "attack", CODES["block"]: "block", CODES["on"]: "on", CODES["target"]: "target"}
_KIND_CODE = {v: k for k, v in {**_CARD_KINDS, **_CHAR_KINDS}.items()}
_CHAR_RE = re.compile(r"^(?:w([01])|s([01])\.(\d{1,2}))$", re.ASCII)
_SPELL_RE = re.compile(r"^q(\d{1,2})$", re.ASCII)
_GID_RE = re.compile(r"^#([0-9a-f]{8})$", re.ASCII)


# ----------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------
def char_text(v: int) -> str:
    """A character's listing code (TX-28) as text: w0, w1 (the wizards), s0.3 (seat 0's summon 3 by arrival)."""
    if v < 2:
        return f"w{v}"
    p, j = divmod(v - 2, MAXSUM)
    return f"s{p}.{j}"


def char_code(text: str) -> int:
    m = _CHAR_RE.match(text)
    if not m:
        raise NotationError(f"character {clip(text, 20)} must be w0, w1 or sP.J (seat P's summon J, by arrival)")
    if m.group(1) is not None:
        return int(m.group(1))
    j = int(m.group(3))
    if j >= MAXSUM:
        raise NotationError(f"character {clip(text, 20)}: a seat has at most {MAXSUM} summons")
    return 2 + int(m.group(2)) * MAXSUM + j


@dataclass(frozen=True, order=True)
class Move:
    """One decision or chance outcome as a uint64 code (kind << 32 | value; _engine.pyx):

    `none` (no mana card), `mana ID`, `attack C`, `done` (no more attackers / blockers), `block C` then
    `on C` (the attacker it blocks), `power ID`, `charm ID`, `cast` (the spell is finished), `pass`,
    `target C` or `target qI` (a queued spell) at resolution; chance: `draw ID`. C is a character (w0, w1,
    sP.J); ID a card id (copies cannot be told apart, TX-47), `#xxxxxxxx` when no loaded card has that code.
    The text is context-free: `Move.from_text(str(m)) == m`."""

    code: int

    @property
    def kind(self) -> str:
        if self.code in _SIMPLE:
            return _SIMPLE[self.code]
        k = self.code >> 32
        if k == CODES["spell"]:
            return "target"
        return _CARD_KINDS.get(k) or _CHAR_KINDS.get(k) or "?"

    @property
    def value(self) -> int:
        return self.code & 0xFFFFFFFF

    @property
    def card(self) -> str | None:
        """The card id of a mana, power, charm or draw move."""
        if (self.code >> 32) in _CARD_KINDS:
            return C.GID_NAMES.get(self.value, f"#{self.value:08x}")
        return None

    @property
    def is_chance(self) -> bool:
        return (self.code >> 32) == CODES["draw"]

    def __str__(self) -> str:
        if self.code in _SIMPLE:
            return _SIMPLE[self.code]
        k, v = self.code >> 32, self.value
        if k in _CARD_KINDS:
            return f"{_CARD_KINDS[k]} {self.card}"
        if k in _CHAR_KINDS:
            return f"{_CHAR_KINDS[k]} {char_text(v)}"
        if k == CODES["spell"]:
            return f"target q{v}"
        return f"#{self.code:x}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> "Move":
        if not isinstance(text, str):
            raise NotationError(f"move must be text, got {type(text).__name__}")
        words = text.strip().split()
        if len(words) == 1 and words[0] in _SIMPLE_CODE:
            return cls(_SIMPLE_CODE[words[0]])
        if len(words) == 2 and words[0] in _KIND_CODE:
            kind, arg = words
            code = _KIND_CODE[kind]
            if kind in _CARD_KINDS.values():
                m = _GID_RE.match(arg)
                if m:
                    return cls(code << 32 | int(m.group(1), 16))
                if not C.ID_RE.match(arg):
                    raise NotationError(f"move {clip(text)}: {clip(arg, 40)} is not a card id")
                return cls(code << 32 | C.card_gid(arg))
            if kind == "target":
                m = _SPELL_RE.match(arg)
                if m:
                    return cls(CODES["spell"] << 32 | int(m.group(1)))
            return cls(code << 32 | char_code(arg))
        raise NotationError(f"move {clip(text)} is not one of: none, mana ID, attack C, done, block C, on C, "
                            "power ID, charm ID, cast, pass, target C, target qI, draw ID")


# ----------------------------------------------------------------------------------------------
# The state
# ----------------------------------------------------------------------------------------------
def _cardset(cards) -> C.CardSet:
    if cards is None:
        return C.starter()
    if isinstance(cards, C.CardSet):
        return cards
    if isinstance(cards, (str, os.PathLike)):
        return C.load_cards(cards)
    raise ValueError(f"cards must be a CardSet, a card file's path or None (the starter set), got {cards!r}")


def _decks(decks, cs: C.CardSet) -> tuple[C.Deck, C.Deck]:
    if decks is None:
        d = C.starter_decks()
        return d["frost_ward"], d["fire_shock"]
    if isinstance(decks, (str, os.PathLike)):
        found = list(C.load_decks(decks, cs).values())
        if not found:
            raise ValueError(f"decks: {decks} holds no deck")
        return (found[0], found[1] if len(found) > 1 else found[0])
    if isinstance(decks, dict):
        decks = list(decks.values())
    decks = list(decks)
    if len(decks) != 2:
        raise ValueError("decks: two decks, one a seat")
    out = []
    for d in decks:
        if isinstance(d, str):
            starters = C.starter_decks()
            if d not in starters:
                raise ValueError(f"decks: {clip(d, 40)} is not a starter deck (pass Deck objects from load_decks)")
            d = starters[d]
        if not isinstance(d, C.Deck):
            raise ValueError(f"decks: {d!r} is not a Deck")
        C.check_deck(d, cs)                      # TW-1, TW-2, TX-38 (a CardError names deck and field)
        out.append(d)
    return out[0], out[1]


class State(GameState, _E.CoreState):
    """A complete Spellbook TCG game state (two seats; seat 0 starts, TX-1).

    `current_player` is the seat that decides next, -1 at a chance event (a draw of an unknown card, the
    setup included), -2 when the game is over. The state holds the whole truth: use `observation(p)` for
    what seat p knows and `determinize(p)` for a world sampled from it (TI-5)."""

    # -------------------------------------------------------------------- construction
    @classmethod
    def new(cls, seed: int = 0, cards=None, decks=None, wizards=None, turn_limit: int = 200,
            deal: bool = True, players: int = 2) -> "State":
        """A new game. cards: a CardSet, a card file's path, or None (the starter set); decks: two Decks (or
        starter deck ids), a deck file's path (its first two decks; one deck: both seats), or None (frost_ward
        v fire_shock); wizards: two wizard ids overriding the decks' (TX-18); turn_limit: TG-3 (200). The
        setup's draws are resolved with the state's generator seeded by `seed`, unless deal=False (then the
        first setup draw is pending). players: always 2 (TS-1; the registry's layers pass it to every game)."""
        if players != 2 or isinstance(players, bool):
            raise ValueError(f"players must be 2 (the Spellbook TCG is a two-player game), got {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
        if not isinstance(turn_limit, int) or isinstance(turn_limit, bool) or not 1 <= turn_limit <= 65000:
            raise ValueError(f"turn_limit must be an integer from 1 to 65000, got {turn_limit!r}")
        cs = _cardset(cards)
        d0, d1 = _decks(decks, cs)
        wiz = [d0.wizard, d1.wizard] if wizards is None else list(wizards)
        if len(wiz) != 2 or any(w not in cs.wizards for w in wiz):
            raise ValueError(f"wizards: two wizard ids of the card file, got {wizards!r}")
        st = cls()
        st._build(cs, [d0.counts(), d1.counts()], wiz, turn_limit)
        st._deal(_mix_seed(seed))
        if deal:
            st.resolve_chance()
        return st

    def _build(self, cs: C.CardSet, decks: list[dict], wiz: list[str], turn_limit: int) -> list[str]:
        ids = sorted(set(decks[0]) | set(decks[1]))
        for w in wiz:
            C.GID_NAMES[C.card_gid(w)] = w
        for cid in ids:
            C.GID_NAMES[C.card_gid(cid)] = cid
        from engine_c.spellbooktcg.notation import wizard_values

        self._setup(C.table_rows(cs, ids), [[d.get(cid, 0) for cid in ids] for d in decks],
                    [wizard_values(cs.wizards[w]) for w in wiz], turn_limit, bytes.fromhex(cs.digest),
                    [C.card_gid(w) for w in wiz])
        return ids

    # -------------------------------------------------------------------- the card set of this game
    @property
    def card_ids(self) -> list[str]:
        """The game's card kinds (both decks' cards, sorted by id: the engine's local numbers)."""
        return [C.GID_NAMES.get(g, f"#{g:08x}") for g in self._to_raw()["gids"]]

    @property
    def cardset(self) -> C.CardSet:
        cs = C.registered(self._to_raw()["digest"].hex())
        if cs is None:
            raise NotationError("cards: this state's card file is not loaded in this process")
        return cs

    def wizard_ids(self) -> list[str]:
        return [C.GID_NAMES.get(g, f"#{g:08x}") for g in self._to_raw()["wizard_gids"]]

    # -------------------------------------------------------------------- properties
    @property
    def phase(self) -> str:
        return PHASES[self._to_raw()["phase"]]

    @property
    def active_player(self) -> int:
        return self._to_raw()["active"]

    @property
    def turn(self) -> int:
        return self._to_raw()["turn"]

    def _ids(self, raw=None) -> list[str]:
        raw = raw or self._to_raw()
        return [C.GID_NAMES.get(g, f"#{g:08x}") for g in raw["gids"]]

    def hand(self, player: int) -> list[str]:
        """Seat `player`'s hand (card ids, sorted; the truth)."""
        self._check_seat(player, "player")
        raw = self._to_raw()
        ids = self._ids(raw)
        return [ids[k] for k in raw["hand"][player]]

    def mana(self, player: int) -> list[str]:
        self._check_seat(player, "player")
        raw = self._to_raw()
        ids = self._ids(raw)
        return [ids[k] for k, c in enumerate(raw["mana"][player]) for _ in range(c)]

    def spellbook_size(self, player: int) -> int:
        self._check_seat(player, "player")
        return len(self._to_raw()["book"][player])

    def spellbook(self, player: int) -> list[str | None]:
        """Seat `player`'s spellbook slots, bottom first: a card id where it is known (TX-31), else None."""
        raw = self._to_raw()
        ids = self._ids(raw)
        return [None if k == UNKNOWN else ids[k] for k in raw["book"][player]]

    def graveyard(self, player: int) -> list[str | None]:
        """Seat `player`'s graveyard slots, bottom first (the top last): a known card's id, else None."""
        raw = self._to_raw()
        ids = self._ids(raw)
        return [None if k == UNKNOWN else ids[k] for k in raw["grave"][player]]

    def pool(self, player: int) -> dict[str, int]:
        """The cards under `player`'s unknown spellbook and graveyard slots (the truth: nobody sees them)."""
        raw = self._to_raw()
        ids = self._ids(raw)
        return {ids[k]: c for k, c in enumerate(raw["pool"][player]) if c}

    def wizard(self, player: int) -> dict:
        """{'damage', 'tokens': (type or None, n), 'attacking', 'blocking' (uid or None), 'health' (spellbook)}"""
        raw = self._to_raw()
        return self._char(raw["wiz"][player], raw, wizard=player)

    def summons(self, player: int) -> list[dict]:
        """Seat `player`'s summons by arrival: {'cards', 'damage', 'health', 'tokens', 'uid', 'attacking',
        'blocking'}."""
        raw = self._to_raw()
        return [self._char(c, raw) for c in raw["board"][player]]

    def _char(self, c: dict, raw: dict, wizard: int | None = None) -> dict:
        from engine_c.spellbooktcg.notation import NOBODY, TOKEN_NAMES

        ids = self._ids(raw)
        out = {"damage": raw["wizards"][wizard][0] if wizard is not None else c["damage"],
               "tokens": (TOKEN_NAMES.get(c["tok"]), c["tokn"]), "uid": c["uid"], "attacking": bool(c["atk"]),
               "blocking": None if c["blk"] == NOBODY else c["blk"]}
        if wizard is not None:
            out["health"] = len(raw["book"][wizard])
        else:
            out["health"] = c["health"]
            out["cards"] = [ids[k] for k in c["cards"]]
        return out

    def queue(self) -> list[tuple[int, list[str]]]:
        """This step's spells in cast order: (caster, [power, charms...])."""
        raw = self._to_raw()
        ids = self._ids(raw)
        return [(c, [ids[k] for k in cards]) for c, cards in raw["queue"]]

    def spent(self) -> list[int]:
        return self._to_raw()["spent"]

    def final_spell(self, index: int = -1) -> dict:
        """The final form of queued spell `index` (TC-5, TC-6): {'summon': bool, 'effects': [(kind, token,
        value)], 'no_tokens': bool}; kinds damage, health, tokens, summon_damage, summon_health."""
        from engine_c.spellbooktcg.notation import TOKEN_NAMES

        n = len(self._to_raw()["queue"])
        i = index + n if index < 0 else index
        summon, effects, no_tokens = self._final_spell(i)
        return {"summon": summon, "no_tokens": no_tokens,
                "effects": [(k, TOKEN_NAMES.get(t), v) for k, t, v in effects]}

    def spell_of(self, cards: list[str], caster: int) -> dict:
        """The final form (as final_spell) of a spell of `cards` (card ids: its power, then its charms in
        attachment order) cast by `caster`, queued or not: what a spell being built becomes (TC-5, TC-6)."""
        from engine_c.spellbooktcg.notation import TOKEN_NAMES

        kinds = {cid: k for k, cid in enumerate(self.card_ids)}
        missing = [c for c in cards if c not in kinds]
        if missing:
            raise ValueError(f"cards: {missing[0]!r} is not a card of this game")
        summon, effects, no_tokens = self._final_of(caster, [kinds[c] for c in cards])
        return {"summon": summon, "no_tokens": no_tokens,
                "effects": [(k, TOKEN_NAMES.get(t), v) for k, t, v in effects]}

    # -------------------------------------------------------------------- moves
    def explain_illegal(self, move: Move) -> str:
        cp = self.current_player
        if cp == -2:
            return f"{move}: the game is over"
        if cp == -1:
            if not move.is_chance:
                return f"{move}: a draw is pending; resolve it first"
            return f"{move}: not a card the drawer's pool holds"
        if move.is_chance:
            return f"{move} is a chance outcome; seat {cp} must decide"
        legal = ", ".join(str(m) for m in self.legal_moves())
        return f"{move} is not legal in phase {self.phase} for seat {cp} (legal: {legal})"

    # -------------------------------------------------------------------- the end
    def winners(self) -> list[int]:
        """TG-1..TG-3 at the end (a draw: both seats); before it, the seat(s) with the larger spellbook."""
        mask = self._winners_mask()
        return [p for p in range(2) if mask >> p & 1]

    def scores(self) -> list[int]:
        """Each wizard's health: its spellbook's size (TX-16)."""
        raw = self._to_raw()
        return [len(raw["book"][0]), len(raw["book"][1])]

    # -------------------------------------------------------------------- information
    def observation(self, player: int) -> str:
        """Seat `player`'s observation (TI-1..TI-4, TX-31, TX-32): the state text with the opponent's hand,
        mana pool and pool (its unknown cards) as sizes, and no rng."""
        self._check_seat(player, "player")
        from engine_c.spellbooktcg.notation import _text

        raw = self._to_raw()
        return _text(raw, self._ids(raw), self.wizard_ids(), observer=player)

    @classmethod
    def from_observation(cls, text: str, seed: int = 0, cards=None) -> "State":
        """A full state sampled uniformly from those consistent with an observation (TI-5)."""
        from engine_c.spellbooktcg.notation import parse, placed_counts, validate

        cs, ids, wiz, raw, o = parse(text, True, cards)
        x = 1 - o
        nk = len(ids)
        hand_n, mana_n, pool_n = raw["hand"][x][1], raw["mana"][x][1], raw["pool"][x][1]
        placed = placed_counts(raw, x, nk, with_hand=False)
        rest = [raw["deck"][x][k] - placed[k] for k in range(nk)]
        if any(v < 0 for v in rest) or sum(rest) != hand_n + mana_n + pool_n:
            raise NotationError(f"pool{x}: the opponent's hidden cards ({hand_n} + {mana_n} + {pool_n}) do not match "
                                f"its deck list less what is placed ({sum(rest)})")
        import random

        rng = random.Random(seed)
        cards_left = [k for k in range(nk) for _ in range(rest[k])]
        rng.shuffle(cards_left)
        raw["hand"][x] = sorted(cards_left[:hand_n])
        raw["mana"][x] = [0] * nk
        for k in cards_left[hand_n:hand_n + mana_n]:
            raw["mana"][x][k] += 1
        raw["pool"][x] = [0] * nk
        for k in cards_left[hand_n + mana_n:]:
            raw["pool"][x][k] += 1
        raw["rng"] = _mix_seed(seed)
        validate(raw, ids, cs)
        st = cls()
        st._build(cs, [{cid: raw["deck"][p][k] for k, cid in enumerate(ids) if raw["deck"][p][k]} for p in range(2)],
                  wiz, raw["limit"])
        st._from_raw(raw)
        st._check_playable()
        return st

    def _check_playable(self) -> None:
        cp = self.current_player
        if cp >= 0 and not self._legal_codes():
            raise NotationError(f"phase: phase={self.phase} leaves seat {cp} no legal move")
        if cp == -1 and not self._chance_codes():
            raise NotationError(f"phase: phase={self.phase} needs a draw from an empty pool")

    def determinize(self, player: int, seed: int = 0) -> "State":
        """A copy with everything `player` cannot see resampled exactly (TI-5): the opponent's hand and mana
        pool dealt uniformly from the opponent's cards `player` cannot place (sizes kept, known slots kept);
        the hidden order of unknown slots is the draws' chance; the hidden future (rng) resampled."""
        self._check_seat(player, "player")
        other = self.clone()
        other._determinize(player, _mix_seed(seed))
        return other

    def features(self, player: int) -> list[float]:
        """The learned evaluation's state features of what `player` sees (layout: features.pxi); equal for
        every state `player` cannot tell apart, so equal for every determinization from `player`."""
        self._check_seat(player, "player")
        return self._features(player)

    # -------------------------------------------------------------------- notation
    def to_text(self) -> str:
        from engine_c.spellbooktcg.notation import _text

        raw = self._to_raw()
        if not raw["started"]:
            raise NotationError("a bare State() holds no game; use State.new()")
        return _text(raw, self._ids(raw), self.wizard_ids())

    @classmethod
    def from_text(cls, text: str, cards=None) -> "State":
        """The state a text describes (notation.py); NotationError names the field that breaks a rule.
        cards: the CardSet the text's cards= digest names, when it is not loaded in this process."""
        from engine_c.spellbooktcg.notation import parse, validate

        cs, ids, wiz, raw, _ = parse(text, False, cards)
        validate(raw, ids, cs)
        st = cls()
        st._build(cs, [{cid: raw["deck"][p][k] for k, cid in enumerate(ids) if raw["deck"][p][k]} for p in range(2)],
                  wiz, raw["limit"])
        st._from_raw(raw)
        st._check_playable()
        return st

    def validate(self) -> None:
        from engine_c.spellbooktcg.notation import validate

        raw = self._to_raw()
        validate(raw, self._ids(raw), self.cardset)


State.Move = Move
