"""The Spellbook TCG's part of the game record: engine_c/records.py is the one format for every game
(docs/records.md) and asks each game's `record` module what only the game knows (D174). Here:

- the setup (the record's `decks` field) is the card file's digest and the two decks, written out as a deck
  file writes them (TF-5; deck lists are public, TX-15):

      "decks": {"cards": "63a1640b7eed",
                "seats": [{"id": "frost_ward", "name": "Frost Ward", "wizard": "apprentice", "cards": {...}}, {...}],
                "card_file": {"format": "spellbooktcg-cards/1", "cards": [...]}}      # a user's file only

  A user's card file travels inside the record (`card_file`, its cards as they load: the same digest), so
  the record replays anywhere, with no path to find again; the starter set is named by its digest alone.
- a chance event is a card drawn off an unknown spellbook slot: "deal" at the setup (zone "mana" for the
  setup's mana cards, then "hand"), "draw" in a turn's draw step; `to` the seat that drew it (D171);
- while the game runs, a viewer sees only its own draws and its own mana cards (TI-2, TI-4): another seat's
  drawn card is written "draw ?", another seat's `mana ID` decision "mana ?" (that a card went to the mana
  pool is public, which one is not, TI-1). Nothing else in a record is secret: the spellbook's order is
  never in it (each draw is a chance event when it happens, D171), and a card that reaches a graveyard
  unseen (damage moves spellbook cards unseen, TD-3) is no event at all.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from engine_c import records as R
from engine_c.spellbooktcg import cards as C
from engine_c.spellbooktcg.state import PHASES, State

EVENT_KINDS = ("deal", "draw", "move")
PUBLIC = False               # hands and mana pools are hidden from the other seat until the game is over
SECRET_MOVES = True          # a `mana ID` decision is hidden from the other seat (records.for_viewer)
DEFAULT_DECKS = ("frost_ward", "fire_shock")


@dataclass(frozen=True)
class Setup:
    """A game's setup: the card file and the two decks, one a seat."""

    cards: C.CardSet
    decks: tuple[C.Deck, C.Deck]

    def to_json(self) -> dict:
        out: dict[str, Any] = {"cards": self.cards.digest, "seats": [deck_json(d) for d in self.decks]}
        if self.cards.digest != C.starter().digest:
            out["card_file"] = self.cards.to_json()
        return out

    def names(self) -> str:
        """'frost_ward v fire_shock'."""
        return " v ".join(d.id for d in self.decks)


def deck_json(d: C.Deck) -> dict:
    """A deck as a deck file writes it (TF-5)."""
    out: dict[str, Any] = {"id": d.id, "name": d.name, "wizard": d.wizard, "cards": dict(d.cards)}
    return out


# ----------------------------------------------------------------------------------------------
# The setup from a command line (`--decks`, `--cards`) or a writer
# ----------------------------------------------------------------------------------------------
def parse_setup(decks: str | None = "", cards: str | None = "") -> Setup:
    """The setup a command line names. `cards`: a card file's path ("" the starter set). `decks`: one or two
    decks, comma-separated, each a deck id of the starter decks, a deck file's path (its first deck; given
    alone, its first two decks, or its one deck for both seats) or FILE:ID (that deck of the file); ""
    the starter decks frost_ward v fire_shock; one deck plays both seats. CardError (a ValueError) names the
    file, the card or deck id and the field; ValueError says what else is wrong."""
    cs = C.load_cards(cards) if cards else C.starter()
    items = [x.strip() for x in (decks or "").split(",") if x.strip()]
    if not items:
        if cards:
            raise ValueError("--decks: a card file of your own needs decks from a deck file (--decks FILE or "
                             "FILE:ID,FILE:ID): the starter decks hold the starter cards")
        d = C.starter_decks()
        return Setup(cs, (d[DEFAULT_DECKS[0]], d[DEFAULT_DECKS[1]]))
    if len(items) > 2:
        raise ValueError(f"--decks: one or two decks (one a seat), got {len(items)}")
    found: list[C.Deck] = []
    for item in items:
        path, colon, did = item.rpartition(":") if ":" in item and not os.path.exists(item) else (item, "", "")
        if os.path.exists(path):
            in_file = C.load_decks(path, cs)
            if colon:
                if did not in in_file:
                    raise ValueError(f"--decks: {path} holds no deck {did!r} (its decks: {', '.join(in_file)})")
                found.append(in_file[did])
            elif not in_file:
                raise ValueError(f"--decks: {path} holds no deck")
            else:
                found += list(in_file.values())[:2] if len(items) == 1 else list(in_file.values())[:1]
            continue
        starters = C.starter_decks()
        if item not in starters:
            raise ValueError(f"--decks: {item!r} is neither a starter deck ({', '.join(starters)}) nor a deck file")
        C.check_deck(starters[item], cs)          # a starter deck against a user's card file: CardError names the card
        found.append(starters[item])
    if len(found) == 1:
        found.append(found[0])
    return Setup(cs, (found[0], found[1]))


def command_setup(value: str | None = "", cards: str | None = "") -> dict:
    """The setup a command line names (engine_c.contract.command_setup: the tournament's and the ladder's
    `--decks` and `--cards`), as parse_setup reads it, written as the record's `decks` object (plain data, a
    card file of one's own inline: a worker process reads no file); ValueError names the flag, and a file
    that breaks the rules (CardError) the file, the card and the field too."""
    try:
        return parse_setup(value, cards).to_json()
    except C.CardError as e:
        flag = "--cards" if cards and os.path.abspath(e.path) == os.path.abspath(cards) else "--decks"
        raise ValueError(f"{flag}: {e}") from None


def request_setup(value: Any) -> Any:
    """The setup a remote client gives (games.v1's `setup`): starter deck ids ("frost_ward,fire_shock"; ""
    the default decks), or the record's `decks` object (a card file of its own inline). Never a path: the
    server reads no file for a client. A `decks` object with a card file and no `cards` digest takes the
    file's own (a page cannot compute the digest, a hash of the file as the loader reads it); a card file
    that does not load is refused here, naming the card and the field. ValueError says what is wrong."""
    if isinstance(value, dict):
        if "card_file" in value and "cards" not in value:
            try:
                digest = C.cards_from_data("decks.card_file", value["card_file"]).digest
            except C.CardError as e:
                raise ValueError(str(e)) from None
            value = {**value, "cards": digest}
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        value = ",".join(value)
    if not isinstance(value, str):
        raise ValueError("decks: one or two starter deck ids, or the record's `decks` object")
    starters = C.starter_decks()
    for item in (x.strip() for x in value.split(",") if x.strip()):
        if item not in starters:
            raise ValueError(f"decks: {item[:40]!r} is not a starter deck ({', '.join(starters)}); a deck of your "
                             "own goes as the record's `decks` object (JSON, its card file inline)")
    return value


def resolve(setup: Any) -> Setup:
    """A writer's or a record's setup as a Setup: None or "" (the starter decks), a `--decks` text, a Setup, or
    the record's `decks` object (read_setup checks it first)."""
    if isinstance(setup, Setup):
        return setup
    if setup is None or isinstance(setup, (str, list, tuple)):
        text = ",".join(setup) if isinstance(setup, (list, tuple)) else (setup or "")
        return parse_setup(text)
    if isinstance(setup, dict):
        return _from_json(setup)
    raise ValueError(f"decks: a Spellbook TCG setup, got {setup!r}")


def _from_json(obj: dict) -> Setup:
    """The record's `decks` object as a Setup; RecordError names the field."""
    if not isinstance(obj, dict):
        raise R.RecordError("decks", "must be an object {cards, seats[, card_file]}")
    unknown = set(obj) - {"cards", "seats", "card_file"}
    if unknown:
        raise R.RecordError(f"decks.{sorted(unknown)[0]}", "unknown field (cards, seats, card_file)")
    digest = obj.get("cards")
    if not isinstance(digest, str):
        raise R.RecordError("decks.cards", "the card file's digest, a string")
    if "card_file" in obj:
        try:
            cs = C.cards_from_data("decks.card_file", obj["card_file"])
        except C.CardError as e:
            raise R.RecordError(f"decks.card_file.{e.card}.{e.field}", e.why) from None
        if cs.digest != digest:
            raise R.RecordError("decks.cards", f"the card file in the record has digest {cs.digest}, not {digest}")
    else:
        cs = C.registered(digest)
        if cs is None:
            raise R.RecordError("decks.card_file", f"the card file {digest!r} is neither the starter set nor in the "
                                                   "record")
    seats = obj.get("seats")
    if not isinstance(seats, list) or len(seats) != 2:
        raise R.RecordError("decks.seats", "two decks, one a seat")
    decks = []
    for i, d in enumerate(seats):
        where = f"decks.seats[{i}]"
        if not isinstance(d, dict) or not isinstance(d.get("id"), str) or not C.ID_RE.match(d["id"]):
            raise R.RecordError(f"{where}.id", "each deck is an object with an id")
        try:
            decks.append(C.parse_deck(where, d["id"], d, cs))
        except C.CardError as e:
            raise R.RecordError(f"{where}.{e.field}", f"deck {d['id']}: {e.why}") from None
    return Setup(cs, (decks[0], decks[1]))


# ----------------------------------------------------------------------------------------------
# The record's part (engine_c/records.py RECORD_PARTS)
# ----------------------------------------------------------------------------------------------
def new(players: int, setup: Any, seed: int) -> State:
    """State.new with the setup's card file and decks; ValueError names what is wrong."""
    s = resolve(setup)
    return State.new(seed=seed, cards=s.cards, decks=s.decks, players=players)


def fresh(players: int, setup: Any, seed: int) -> State:
    """A state before the setup's draws whose generator is `seed`'s."""
    s = resolve(setup)
    return State.new(seed=seed, cards=s.cards, decks=s.decks, players=players, deal=False)


def setup_list(setup: Any) -> dict:
    """The record's `decks` object from a writer's setup (None: the starter decks; a --decks text; a Setup)."""
    return resolve(setup).to_json()


def setup_events(st: State) -> list[dict]:
    """The setup's draws (TS-4, TX-18: seat 0's mana cards and hand, then seat 1's) as 'deal' events, applied."""
    out = []
    while st.is_chance():
        outcome = st.Move(st._sample_chance_code())
        out.append(chance_event(st, outcome))
        st._apply_code(outcome.code)
    return out


def read_setup(obj: dict, seed: int | None) -> dict:
    """The record's `decks` (the starter decks when absent), checked: RecordError names the field."""
    if "decks" not in obj:
        return setup_list(None)
    return _from_json(obj["decks"]).to_json()


def check_view(obj: dict, players: int) -> None:
    """A record made for one viewer says whose view it is: 'spectator' or 'seat N'."""
    view = obj.get("view")
    if view is not None and view not in ("spectator", *(f"seat {p}" for p in range(players))):
        raise R.RecordError("view", f"must be 'spectator' or 'seat N' (N from 0 to {players - 1}), got {view!r}")


def _drawer(state: State) -> tuple[str, str, int]:
    """(kind, zone, seat) of the pending draw."""
    raw = state._to_raw()
    if PHASES[raw["phase"]] == "setup":
        p = raw["sub"]
        return "deal", ("mana" if sum(raw["mana"][p]) < raw["wizards"][p][3] else "hand"), p
    return "draw", "hand", raw["active"]


def chance_event(state: State, outcome: Any, seq: int | None = None) -> dict:
    """A card drawn, with its kind ('deal', 'draw'), zone and the seat it went to (before it is applied)."""
    kind, zone, to = _drawer(state)
    return R.event(kind, -1, outcome, seq, zone=zone, to=to)


def check_chance_kind(st: State, ev: dict, i: int) -> None:
    """The event's kind (and zone and seat, when given) must be the pending draw's."""
    kind, zone, to = _drawer(st)
    want = {"kind": kind, "zone": zone, "to": to}
    for key in ("kind", "zone", "to"):
        if (key in ev or key == "kind") and ev.get(key) != want[key]:
            raise R.RecordError(f"events[{i}].{key}", f"the pending draw is {want}, not {ev.get(key)!r}")


def visible(ev: dict, viewer: int | None) -> bool:
    """Whether `viewer` (a seat; None: a spectator) may see event `ev` during the game: a draw by its drawer
    only, a `mana ID` decision by its maker only, everything else by all."""
    kind = ev.get("kind")
    if kind in ("deal", "draw"):
        return viewer is not None and viewer == ev.get("to")
    if kind == "move" and str(ev.get("move", "")).startswith("mana "):
        return viewer is not None and viewer == ev.get("seat")
    return True


def hidden(ev: dict) -> dict:
    """The event as a viewer who may not see it reads it: 'draw ?' (a card drawn), 'mana ?' (a mana card)."""
    return dict(ev, move="mana ?" if ev.get("kind") == "move" else "draw ?")
