"""Spellbook TCG cards as data (SPELLBOOK_TCG.md §11: TF-1..TF-7, TW-1, TX-38..TX-40, TX-46): the loader.

A card file (format `spellbooktcg-cards/1`) lists powers, charms and wizards; a deck file (format
`spellbooktcg-decks/1`) lists decks. Both are JSON; cards/schema.json is the published schema and
docs/tcg-cards.md the guide. Everything is checked here, and a bad file is refused with a `CardError`
naming the file, the card (or deck) id and the field; nothing is dropped or defaulted.

    from engine_c.spellbooktcg import cards
    mine = cards.load_cards("my_cards.json")          # a CardSet
    decks = cards.load_decks("my_decks.json", mine)   # {deck id: Deck}, each checked against TW-1

`starter()` and `starter_decks()` are the shipped set of §12 (TP). `table(cardset, deck0, deck1)` is what
the compiled engine reads: the union of both decks' cards as fixed-size rows (_engine.pyx, CardDef).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
CARDS_DIR = os.path.join(HERE, "cards")
SCHEMA_PATH = os.path.join(CARDS_DIR, "schema.json")
STARTER_CARDS = os.path.join(CARDS_DIR, "starter.json")
STARTER_DECKS = os.path.join(CARDS_DIR, "starter_decks.json")

CARD_FORMAT = "spellbooktcg-cards/1"
DECK_FORMAT = "spellbooktcg-decks/1"
DECK_SIZE = 75            # TW-1
MAX_RARE = 7
MAX_EPIC = 3
MAX_NUMBER = 255          # the engine's bound on every printed number (D170)
MAX_EFFECTS = 4           # effects of one power (D170)
MAX_HAND = 15             # the engine's bound on hand_size and mana_discards_per_turn (D170)
ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$", re.ASCII)
TYPES = ("power", "charm", "wizard")
RARITIES = ("common", "rare", "epic")
TARGETS = ("none", "character", "summon", "spell")
TOKENS = ("fire", "ice", "shield", "shock")                  # TK-1; "charge" is read as shock (TX-9)
TOKEN_ALIASES = {"fire": "fire", "ice": "ice", "shield": "shield", "shock": "shock", "charge": "shock"}
MODIFIERS = ("add_damage", "add_health", "add_tokens", "tokens_plus", "spellpower_plus")
ABILITY_KEYS = {"hand_size": (7, MAX_HAND), "mana_discards_per_turn": (1, MAX_HAND), "setup_mana": (3, DECK_SIZE)}
_KEYS = {
    "power": ({"id", "name", "type", "cost", "rarity", "target", "effects"}, {"note"}),
    "charm": ({"id", "name", "type", "cost", "rarity", "modifier"}, {"note"}),
    "wizard": ({"id", "name", "type", "damage", "ability"}, {"note", "health"}),
}
_DECK_KEYS = ({"id", "name", "wizard", "cards"}, {"note"})
_FIXED = {"damage": ("damage",), "health": ("health",), "tokens": ("n",), "summon": ("damage", "health")}


class CardError(ValueError):
    """A card, wizard or deck file that breaks TF-1..TF-5, TW-1 or TX-38..TX-40 (or is not a readable file):
    `path`, `card` (the card or deck id, '-' for the file itself) and `field` name where."""

    def __init__(self, path: str, card: str, fld: str, why: str):
        self.path, self.card, self.field, self.why = path, card, fld, why
        super().__init__(f"{path}: {'card' if card != '-' else 'file'} {card}: field {fld}: {why}")


# ------------------------------------------------------------------------------------------------ data
@dataclass(frozen=True)
class Effect:
    """One effect of a power (TF-2): kind damage | health | tokens | summon; `n` its number (a summon: its
    damage), `health` a summon's health, `token` the token type (tokens), `fixed` the numbers not
    modifiable (names from 'damage', 'health', 'n')."""
    kind: str
    n: int
    token: str = ""
    health: int = 0
    fixed: tuple[str, ...] = ()

    def to_json(self) -> dict:
        if self.kind == "summon":
            out: dict = {"summon": [self.n, self.health]}
        elif self.kind == "tokens":
            out = {"tokens": self.token, "n": self.n}
        else:
            out = {self.kind: self.n}
        if self.fixed:
            out["fixed"] = list(self.fixed)
        return out


@dataclass(frozen=True)
class Card:
    """A power or a charm (TF-1..TF-3). A charm's `modifier` is (kind, token, n)."""
    id: str
    name: str
    type: str
    cost: int
    rarity: str
    target: str = "none"
    effects: tuple[Effect, ...] = ()
    modifier: tuple[str, str, int] | None = None
    note: str = ""

    @property
    def is_summon(self) -> bool:
        return any(e.kind == "summon" for e in self.effects)

    def to_json(self) -> dict:
        out: dict = {"id": self.id, "name": self.name, "type": self.type, "cost": self.cost, "rarity": self.rarity}
        if self.type == "power":
            out["target"] = self.target
            out["effects"] = [e.to_json() for e in self.effects]
        else:
            kind, token, n = self.modifier
            out["modifier"] = f"{kind} {token} {n}" if token else f"{kind} {n}"
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Wizard:
    """A wizard (TF-4, TW-2): its damage, its printed health (unused, TX-16) and the ability's values."""
    id: str
    name: str
    damage: int
    health: int | None = None
    hand_size: int = 7
    mana_discards_per_turn: int = 1
    setup_mana: int = 3
    ability: tuple[tuple[str, int], ...] = ()
    note: str = ""

    def to_json(self) -> dict:
        out: dict = {"id": self.id, "name": self.name, "type": "wizard", "damage": self.damage,
                     "ability": dict(self.ability)}
        if self.health is not None:
            out["health"] = self.health
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Deck:
    """A deck (TF-5): its wizard and card counts, in the file's order; checked against TW-1 and TX-38."""
    id: str
    name: str
    wizard: str
    cards: tuple[tuple[str, int], ...]
    note: str = ""
    path: str = ""

    def counts(self) -> dict[str, int]:
        return dict(self.cards)


@dataclass(frozen=True)
class CardSet:
    """The cards and wizards of one card file, by id; `digest` names its content (state texts cite it)."""
    name: str
    cards: dict[str, Card]
    wizards: dict[str, Wizard]
    path: str = ""
    digest: str = field(default="")

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def to_json(self) -> dict:
        """The card file as a JSON object (`spellbooktcg-cards/1`) that loads back to the same digest: the
        cards in the file's order, then the wizards (a game record carries a user's card file so, D174)."""
        out: dict = {"format": CARD_FORMAT}
        if ID_RE.match(self.name or ""):
            out["name"] = self.name
        out["cards"] = [c.to_json() for c in self.cards.values()] + [w.to_json() for w in self.wizards.values()]
        return out


# ------------------------------------------------------------------------------------------------ reading
class _Obj(dict):
    """A JSON object that remembers its keys that appeared twice (refused with the card's id, TX-39)."""
    dups: tuple[str, ...] = ()


def _pairs(pairs):
    out = _Obj()
    dups = []
    for k, v in pairs:
        if k in out:
            dups.append(k)
        out[k] = v
    out.dups = tuple(dups)
    return out


def _read(path: str) -> Any:
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CardError(path, "-", "-", f"cannot read the file ({e.strerror or e})") from None
    if len(data) > 4_000_000:
        raise CardError(path, "-", "-", f"the file is {len(data)} bytes; a card or deck file is at most 4 MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CardError(path, "-", "-", f"not UTF-8 text (byte {e.start})") from None

    def bad_constant(name):
        raise ValueError(f"{name} is not a JSON number")

    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=bad_constant)
    except (ValueError, RecursionError) as e:
        raise CardError(path, "-", "-", f"not valid JSON ({e})") from None


def _check_dups(path: str, card: str, obj: dict, where: str = "") -> None:
    dups = getattr(obj, "dups", ())
    if dups:
        raise CardError(path, card, where + dups[0], "this key appears twice in one object")


def _int(path: str, card: str, fld: str, v: Any, lo: int = 0, hi: int = MAX_NUMBER) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise CardError(path, card, fld, f"must be an integer from {lo} to {hi}, got {_show(v)}")
    if not lo <= v <= hi:
        raise CardError(path, card, fld, f"must be an integer from {lo} to {hi}, got {v}")
    return v


def _str(path: str, card: str, fld: str, v: Any, limit: int = 60, empty: bool = False) -> str:
    if not isinstance(v, str):
        raise CardError(path, card, fld, f"must be a string, got {_show(v)}")
    if (not v.strip() and not empty) or len(v) > limit:
        raise CardError(path, card, fld, f"must be a non-empty string of at most {limit} characters")
    return v


def _show(v: Any) -> str:
    text = json.dumps(v) if not isinstance(v, _Obj) else "an object"
    kind = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            type(None): "null"}.get(type(v), "an object")
    return f"{kind} {text[:30]}" if kind != "an object" else kind


def _keys(path: str, card: str, obj: dict, required: set, optional: set, where: str = "") -> None:
    _check_dups(path, card, obj, where)
    for k in obj:
        if k not in required and k not in optional:
            raise CardError(path, card, where + str(k)[:40], "unknown field")
    for k in sorted(required):
        if k not in obj:
            raise CardError(path, card, where + k, "missing (required)")


def _top(path: str, data: Any, fmt: str, listkey: str) -> list:
    if not isinstance(data, dict):
        raise CardError(path, "-", "-", f"the file must hold one JSON object with format {fmt!r}")
    _keys(path, "-", data, {"format", listkey}, {"name", "note"} if listkey == "cards" else {"note"})
    if data["format"] != fmt:
        raise CardError(path, "-", "format", f"must be {fmt!r}, got {_show(data['format'])}")
    if "name" in data and (not isinstance(data["name"], str) or not ID_RE.match(data["name"])):
        raise CardError(path, "-", "name", "must be an id: lowercase letters, digits and _, from a letter, "
                        "at most 40 characters")
    if "note" in data:
        _str(path, "-", "note", data["note"], 10_000, True)
    items = data[listkey]
    if not isinstance(items, list):
        raise CardError(path, "-", listkey, f"must be a list, got {_show(items)}")
    return items


def _card_id(path: str, obj: Any, i: int, what: str) -> str:
    if not isinstance(obj, dict):
        raise CardError(path, f"#{i + 1}", "-", f"each {what} must be a JSON object, got {_show(obj)}")
    cid = obj.get("id")
    if not isinstance(cid, str) or not ID_RE.match(cid):
        raise CardError(path, f"#{i + 1}", "id", "missing or not an id: lowercase letters, digits and _, "
                        "from a letter, at most 40 characters")
    return cid


def _effect(path: str, cid: str, i: int, e: Any) -> Effect:
    where = f"effects[{i}]"
    if not isinstance(e, dict):
        raise CardError(path, cid, where, f"an effect must be an object, got {_show(e)}")
    _check_dups(path, cid, e, where + ".")
    if "attach_charms" in e:        # TX-40: refused at load
        raise CardError(path, cid, where + ".attach_charms", "attaching charms (TX-17) is not supported: "
                        "cards with it are refused (TX-40)")
    kinds = [k for k in ("damage", "health", "tokens", "summon") if k in e]
    if len(kinds) != 1:
        raise CardError(path, cid, where, "must hold exactly one of damage, health, tokens (with n) or summon")
    kind = kinds[0]
    allowed = {kind, "fixed"} | ({"n"} if kind == "tokens" else set())
    _keys(path, cid, e, {kind} | ({"n"} if kind == "tokens" else set()), allowed - {kind, "n"}, where + ".")
    fixed: tuple[str, ...] = ()
    if "fixed" in e:
        f = e["fixed"]
        if not isinstance(f, list) or any(not isinstance(x, str) for x in f) or len(set(f)) != len(f):
            raise CardError(path, cid, where + ".fixed", "must be a list of distinct names")
        for x in f:
            if x not in _FIXED[kind]:
                raise CardError(path, cid, where + ".fixed", f"{x[:20]!r} is not a number of a {kind} effect "
                                f"(allowed: {', '.join(_FIXED[kind])}, TX-39)")
        fixed = tuple(x for x in _FIXED[kind] if x in f)
    if kind == "summon":
        v = e["summon"]
        if not isinstance(v, list) or len(v) != 2:
            raise CardError(path, cid, where + ".summon", "must be [damage, health]")
        d = _int(path, cid, where + ".summon[0]", v[0])
        h = _int(path, cid, where + ".summon[1]", v[1])
        return Effect("summon", d, health=h, fixed=fixed)
    if kind == "tokens":
        t = e["tokens"]
        if t not in TOKEN_ALIASES:
            raise CardError(path, cid, where + ".tokens", f"must be one of fire, ice, shield, shock (or charge, "
                            f"read as shock: TX-9), got {_show(t)}")
        return Effect("tokens", _int(path, cid, where + ".n", e["n"]), token=TOKEN_ALIASES[t], fixed=fixed)
    return Effect(kind, _int(path, cid, where + "." + kind, e[kind]), fixed=fixed)


def _modifier(path: str, cid: str, v: Any) -> tuple[str, str, int]:
    if not isinstance(v, str):
        raise CardError(path, cid, "modifier", f"must be a string such as 'add_damage 2', got {_show(v)}")
    words = v.split(" ")
    kind = words[0]
    if kind not in MODIFIERS:
        raise CardError(path, cid, "modifier", f"{v[:40]!r}: the kind must be one of {', '.join(MODIFIERS)} (TF-3)")
    want = 3 if kind == "add_tokens" else 2
    if len(words) != want:
        raise CardError(path, cid, "modifier", f"{v[:40]!r}: must be '{kind} {'T ' if want == 3 else ''}N'")
    token = ""
    if want == 3:
        if words[1] not in TOKEN_ALIASES:
            raise CardError(path, cid, "modifier", f"{v[:40]!r}: the token must be fire, ice, shield, shock or "
                            "charge (TX-9)")
        token = TOKEN_ALIASES[words[1]]
    n = words[-1]
    if not (n.isascii() and n.isdigit() and len(n) <= 3) or int(n) > MAX_NUMBER:
        raise CardError(path, cid, "modifier", f"{v[:40]!r}: N must be an integer from 0 to {MAX_NUMBER}")
    return kind, token, int(n)


def _parse_card(path: str, cid: str, obj: dict) -> Card | Wizard:
    t = obj.get("type")
    if t not in TYPES:
        _check_dups(path, cid, obj)
        raise CardError(path, cid, "type", f"must be power, charm or wizard, got {_show(t)}")
    required, optional = _KEYS[t]
    _keys(path, cid, obj, required, optional)
    name = _str(path, cid, "name", obj["name"])
    note = _str(path, cid, "note", obj["note"], 10_000, True) if "note" in obj else ""
    if t == "wizard":
        dmg = _int(path, cid, "damage", obj["damage"])
        health = _int(path, cid, "health", obj["health"], 0, 10**9) if "health" in obj else None
        ab = obj["ability"]
        if not isinstance(ab, dict):
            raise CardError(path, cid, "ability", f"must be an object ({{}} = none), got {_show(ab)}")
        _keys(path, cid, ab, set(), set(ABILITY_KEYS), "ability.")
        vals = {k: _int(path, cid, f"ability.{k}", ab[k], 0, ABILITY_KEYS[k][1]) for k in ab}
        full = {k: vals.get(k, d) for k, (d, _) in ABILITY_KEYS.items()}
        return Wizard(cid, name, dmg, health, ability=tuple(vals.items()), note=note, **full)
    cost = _int(path, cid, "cost", obj["cost"])
    rarity = obj["rarity"]
    if rarity not in RARITIES:
        raise CardError(path, cid, "rarity", f"must be common, rare or epic, got {_show(rarity)}")
    if t == "charm":
        return Card(cid, name, "charm", cost, rarity, modifier=_modifier(path, cid, obj["modifier"]), note=note)
    target = obj["target"]
    if target not in TARGETS:
        raise CardError(path, cid, "target", f"must be none, character, summon or spell, got {_show(target)}")
    effs = obj["effects"]
    if not isinstance(effs, list):
        raise CardError(path, cid, "effects", f"must be a list, got {_show(effs)}")
    if len(effs) > MAX_EFFECTS:
        raise CardError(path, cid, "effects", f"{len(effs)} effects; a power has at most {MAX_EFFECTS} (D170)")
    effects = tuple(_effect(path, cid, i, e) for i, e in enumerate(effs))
    summons = [i for i, e in enumerate(effects) if e.kind == "summon"]
    if summons:                                                     # TX-39
        if len(summons) > 1:
            raise CardError(path, cid, f"effects[{summons[1]}]", "a summon power has one summon effect (TX-39)")
        if target != "none":
            raise CardError(path, cid, "target", "a summon power has target none (TF-2, TX-39)")
        if not name.startswith("Conjure"):
            raise CardError(path, cid, "name", "a summon power's name begins with 'Conjure' (TF-2, TX-39)")
        for i, e in enumerate(effects):
            if e.kind not in ("summon", "tokens"):
                raise CardError(path, cid, f"effects[{i}]", "beside its summon effect a summon power has only "
                                "token effects (TF-2, TX-39)")
    elif name.startswith("Conjure"):                                # TX-46
        raise CardError(path, cid, "name", "a power whose name begins with 'Conjure' must be a summon power "
                        "(TX-46)")
    return Card(cid, name, "power", cost, rarity, target, effects, note=note)


def load_cards(path: str) -> CardSet:
    """The card file at `path` (TF-1..TF-4, TF-7), every card checked; CardError names file, card, field."""
    path = os.fspath(path)
    return cards_from_data(path, _read(path))


def cards_from_data(path: str, data: Any) -> CardSet:
    """A card file's parsed JSON (`path`: where it came from, for the errors: a file, or a record's field),
    every card checked as load_cards checks a file's; CardError names file, card, field."""
    items = _top(path, data, CARD_FORMAT, "cards")
    cards: dict[str, Card] = {}
    wizards: dict[str, Wizard] = {}
    gids: dict[int, str] = {}
    for i, obj in enumerate(items):
        cid = _card_id(path, obj, i, "card")
        if cid in cards or cid in wizards:
            raise CardError(path, cid, "id", "this id appears twice in the file (TX-39)")
        c = _parse_card(path, cid, obj)
        if isinstance(c, Wizard):
            wizards[cid] = c
        else:
            g = card_gid(cid)
            if g in gids:
                raise CardError(path, cid, "id", f"its 32-bit code equals that of {gids[g]!r}; rename one (D170)")
            gids[g] = cid
            cards[cid] = c
    name = data.get("name") or os.path.splitext(os.path.basename(path))[0]
    canon = json.dumps({"cards": [c.to_json() for c in cards.values()],
                        "wizards": [w.to_json() for w in wizards.values()]}, sort_keys=True)
    digest = hashlib.sha256(canon.encode()).hexdigest()[:12]
    cs = CardSet(name, cards, wizards, path, digest)
    _REGISTRY[digest] = cs
    for cid in cards:
        GID_NAMES[card_gid(cid)] = cid
    return cs


def load_decks(path: str, cardset: CardSet) -> dict[str, Deck]:
    """The deck file at `path` (TF-5), each deck checked against `cardset` and TW-1, TX-38."""
    path = os.fspath(path)
    return decks_from_data(path, _read(path), cardset)


def decks_from_data(path: str, data: Any, cardset: CardSet) -> dict[str, Deck]:
    """A deck file's parsed JSON (`path`: where it came from, for the errors), each deck checked."""
    items = _top(path, data, DECK_FORMAT, "decks")
    out: dict[str, Deck] = {}
    for i, obj in enumerate(items):
        did = _card_id(path, obj, i, "deck")
        if did in out:
            raise CardError(path, did, "id", "this deck id appears twice in the file")
        out[did] = parse_deck(path, did, obj, cardset)
    return out


def parse_deck(path: str, did: str, obj: dict, cardset: CardSet) -> Deck:
    """One deck object (TF-5, TW-1, TX-38); CardError names the file, the deck id and the field."""
    _keys(path, did, obj, *_DECK_KEYS)
    name = _str(path, did, "name", obj["name"])
    note = _str(path, did, "note", obj["note"], 10_000, True) if "note" in obj else ""
    wiz = obj["wizard"]
    if not isinstance(wiz, str) or wiz not in cardset.wizards:
        raise CardError(path, did, "wizard", f"{_show(wiz)} is not a wizard of the card file "
                        f"{os.path.basename(cardset.path) or cardset.name} (TW-2)")
    counts = obj["cards"]
    if not isinstance(counts, dict):
        raise CardError(path, did, "cards", f"must be an object {{card id: count}}, got {_show(counts)}")
    _check_dups(path, did, counts, "cards.")
    check_counts(path, did, counts, cardset)
    return Deck(did, name, wiz, tuple(counts.items()), note, path)


def check_deck(deck: Deck, cardset: CardSet) -> None:
    """TW-1, TW-2, TX-38 for a Deck however made (State.new checks the decks it is given)."""
    if deck.wizard not in cardset.wizards:
        raise CardError(deck.path or "-", deck.id, "wizard", f"{deck.wizard!r} is not a wizard of the card file (TW-2)")
    check_counts(deck.path or "-", deck.id, dict(deck.cards), cardset)


def check_counts(path: str, did: str, counts: dict, cardset: CardSet) -> None:
    total = rare = epic = 0
    for cid, n in counts.items():
        fld = f"cards.{str(cid)[:40]}"
        if cid in cardset.wizards:
            raise CardError(path, did, fld, "a wizard is not part of a deck (TW-2, TX-38)")
        if cid not in cardset.cards:
            raise CardError(path, did, fld, "no power or charm with this id in the card file (TX-38)")
        _int(path, did, fld, n, 1, DECK_SIZE)
        total += n
        rare += n if cardset.cards[cid].rarity == "rare" else 0
        epic += n if cardset.cards[cid].rarity == "epic" else 0
    if total != DECK_SIZE:
        raise CardError(path, did, "cards", f"{total} cards; a deck has exactly {DECK_SIZE} (TW-1)")
    if rare > MAX_RARE:
        raise CardError(path, did, "cards", f"{rare} rare cards; a deck has at most {MAX_RARE} (TW-1)")
    if epic > MAX_EPIC:
        raise CardError(path, did, "cards", f"{epic} epic cards; a deck has at most {MAX_EPIC} (TW-1)")


# ------------------------------------------------------------------------------------------------ the starter set
_REGISTRY: dict[str, CardSet] = {}      # card sets loaded in this process, by digest (state texts cite it)
GID_NAMES: dict[int, str] = {}          # a card's 32-bit code -> its id (move texts)
_STARTER: list = []


def starter() -> CardSet:
    """The starter set of §12 (TP), loaded once."""
    if not _STARTER:
        cs = load_cards(STARTER_CARDS)
        _STARTER.append((cs, load_decks(STARTER_DECKS, cs)))
    return _STARTER[0][0]


def starter_decks() -> dict[str, Deck]:
    starter()
    return _STARTER[0][1]


def registered(digest: str) -> CardSet | None:
    """The card set with this digest loaded in this process (the starter set always), or None."""
    starter()
    return _REGISTRY.get(digest)


def card_gid(card_id: str) -> int:
    """A card's 32-bit code in moves (FNV-1a of its id): the same in every process."""
    h = 0x811C9DC5
    for b in card_id.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


# ------------------------------------------------------------------------------------------------ the C tables
TOKEN_CODE = {"fire": 1, "ice": 2, "shield": 3, "shock": 4}
EFFECT_CODE = {"damage": 1, "health": 2, "tokens": 3, "summon": 4}
MODIFIER_CODE = {m: i + 1 for i, m in enumerate(MODIFIERS)}
TARGET_CODE = {t: i for i, t in enumerate(TARGETS)}
RARITY_CODE = {r: i for i, r in enumerate(RARITIES)}


def table_ids(deck0: Deck, deck1: Deck) -> list[str]:
    """The card kinds of one game: both decks' cards, sorted by id (the engine's local card numbers)."""
    return sorted(set(deck0.counts()) | set(deck1.counts()))


def table_rows(cardset: CardSet, ids: list[str]) -> list[tuple]:
    """One row a card kind for the engine (_engine.pyx CoreState._set_cards): (gid, type 1 power / 2 charm,
    cost, rarity, target, [(effect, token, a, b, fixed bits)], (modifier, token, n))."""
    rows = []
    for cid in ids:
        c = cardset.cards[cid]
        effs = []
        for e in c.effects:
            bits = 0
            if e.kind == "summon":
                bits = (1 if "damage" in e.fixed else 0) | (2 if "health" in e.fixed else 0)
            elif e.fixed:
                bits = 1
            effs.append((EFFECT_CODE[e.kind], TOKEN_CODE.get(e.token, 0), e.n, e.health, bits))
        mod = (0, 0, 0)
        if c.modifier:
            kind, token, n = c.modifier
            mod = (MODIFIER_CODE[kind], TOKEN_CODE.get(token, 0), n)
        rows.append((card_gid(cid), 1 if c.type == "power" else 2, c.cost, RARITY_CODE[c.rarity],
                     TARGET_CODE[c.target], effs, mod))
    return rows
