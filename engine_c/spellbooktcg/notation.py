"""Text notation of Spellbook TCG states, seat observations and their validation (docs/tcg-cards.md).

One line of `key=value` fields, e.g. (a new game after setup, abridged):

    tcg1 cards=63a1640b7eed limit=200 turn=1 phase=mana active=0 sub=0 caster=0 spent=0,0 resolving=0
    blocker=- uid=2 winners=- wizards=apprentice,apprentice deck0=amplify*5,...,ward*8 deck1=...
    book0=?65 book1=?65 grave0=- grave1=- pool0=amplify*5,... pool1=... hand0=arcane_bolt*2,mend,...
    hand1=... mana0=conjure_familiar,frost,ward mana1=... wiz0=-/- wiz1=-/- summons0=- summons1=- queue=-
    rng=1f970b808ff3c44e

- `cards=` the card file's digest (cards.py CardSet.digest; the starter set is always known, a user's file
  once loaded in the process or passed as `cards=`); `deck0=`/`deck1=` each seat's deck list (public, TX-15)
  as `id*count` (count 1 written bare), sorted by id; `wizards=` the two wizards' ids.
- Zones of one seat: `book`, `grave` are slot sequences bottom first (the top last, TS-2), `.`-separated:
  a card id for a known slot, `?n` for n unknown slots (TI-3, TX-31), `-` when empty. `pool` is the multiset
  of the cards under the unknown slots (the hidden order: each unknown draw is a chance event), `hand` and
  `mana` multisets (TI-4), written `id*count,...` or `-`.
- `wizN=tokens/combat`, `summonsN=` the seat's summons by arrival, each `cards/damage/health/tokens/uUID/combat`
  (cards `+`-joined, power first); tokens `-` or `fire2`, `ice1`, `shield1`, `shock3`; combat `-`, `a`
  (attacking) or `bUID` (blocking the attacker with that uid; wizards are uids 0 and 1).
- `queue=` this step's spells in cast order, `caster:cards` (`-` when empty).
- `phase` setup, draw, mana, attack, block, blockon, cast, charm, target, over; `sub` (setup: the seat dealt;
  mana: cards put this turn), `caster` (cast/charm/target: the deciding seat), `spent` (TC-2), `resolving` (the
  spell awaiting its target), `blocker` (blockon: the uid of the blocker), `uid` (the next summon's uid),
  `winners` (over: the winning seats, `0,1` a draw).

An observation (TI-1..TI-4, TX-32) writes the opponent's hand, mana pool and pool as sizes (`?n`), ends with
`observer=P` and has no `rng`.
"""
from __future__ import annotations

import re

from engine_c.base import NotationError, clip, split_fields
from engine_c.spellbooktcg import _engine as _E
from engine_c.spellbooktcg import cards as C

HEADER = "tcg1"
MAX_TEXT = 20_000
PHASES = _E.PHASES
UNKNOWN = _E.LIMITS["unknown"]
NOBODY = _E.LIMITS["nobody"]
TOKEN_NAMES = {1: "fire", 2: "ice", 3: "shield", 4: "shock"}
TOKEN_CODES = {v: k for k, v in TOKEN_NAMES.items()}
_FIELDS = ("cards", "limit", "turn", "phase", "active", "sub", "caster", "spent", "resolving", "blocker", "uid",
           "winners", "wizards", "deck0", "deck1", "book0", "book1", "grave0", "grave1", "pool0", "pool1",
           "hand0", "hand1", "mana0", "mana1", "wiz0", "wiz1", "summons0", "summons1", "queue")
_HIDDEN_RE = re.compile(r"^\?(\d{1,3})$", re.ASCII)
_ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$", re.ASCII)
_TOK_RE = re.compile(r"^(fire|ice|shield|shock)(\d{1,5})$", re.ASCII)


# ----------------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------------
def multiset_text(counts, ids) -> str:
    return ",".join(ids[k] if c == 1 else f"{ids[k]}*{c}" for k, c in enumerate(counts) if c) or "-"


def slots_text(slots, ids) -> str:
    out, run = [], 0
    for k in slots:
        if k == UNKNOWN:
            run += 1
            continue
        if run:
            out.append(f"?{run}")
            run = 0
        out.append(ids[k])
    if run:
        out.append(f"?{run}")
    return ".".join(out) or "-"


def tokens_text(tok: int, n: int) -> str:
    return "-" if tok == 0 else f"{TOKEN_NAMES[tok]}{n}"


def combat_text(c: dict) -> str:
    if c["atk"]:
        return "a"
    return "-" if c["blk"] == NOBODY else f"b{c['blk']}"


def summon_text(c: dict, ids) -> str:
    return (f"{'+'.join(ids[k] for k in c['cards'])}/{c['damage']}/{c['health']}/{tokens_text(c['tok'], c['tokn'])}"
            f"/u{c['uid']}/{combat_text(c)}")


def _text(raw: dict, ids: list[str], wizard_names: list[str], observer: int | None = None) -> str:
    hidden = None if observer is None else 1 - observer

    def zone(p, key, text):
        if p == hidden:
            return f"?{sum(raw[key][p]) if key != 'hand' else len(raw[key][p])}"
        return text

    f = [HEADER, f"cards={raw['digest'].hex()}", f"limit={raw['limit']}", f"turn={raw['turn']}",
         f"phase={PHASES[raw['phase']]}", f"active={raw['active']}", f"sub={raw['sub']}", f"caster={raw['caster']}",
         f"spent={raw['spent'][0]},{raw['spent'][1]}", f"resolving={raw['resolving']}",
         f"blocker={'-' if raw['pending_blocker'] == NOBODY else raw['pending_blocker']}", f"uid={raw['next_uid']}",
         "winners=" + (",".join(str(p) for p in range(2) if raw["winners"] >> p & 1) if raw["over"] else "-"),
         f"wizards={wizard_names[0]},{wizard_names[1]}"]
    for p in range(2):
        f.append(f"deck{p}={multiset_text(raw['deck'][p], ids)}")
    for key in ("book", "grave"):
        for p in range(2):
            f.append(f"{key}{p}={slots_text(raw[key][p], ids)}")
    for p in range(2):
        f.append(f"pool{p}=" + zone(p, "pool", multiset_text(raw["pool"][p], ids)))
    for p in range(2):
        counts = [0] * len(ids)
        for k in raw["hand"][p]:
            counts[k] += 1
        f.append(f"hand{p}=" + zone(p, "hand", multiset_text(counts, ids)))
    for p in range(2):
        f.append(f"mana{p}=" + zone(p, "mana", multiset_text(raw["mana"][p], ids)))
    for p in range(2):
        f.append(f"wiz{p}={tokens_text(raw['wiz'][p]['tok'], raw['wiz'][p]['tokn'])}/{combat_text(raw['wiz'][p])}")
    for p in range(2):
        f.append(f"summons{p}=" + (",".join(summon_text(c, ids) for c in raw["board"][p]) or "-"))
    f.append("queue=" + (",".join(f"{c}:{'+'.join(ids[k] for k in cards)}" for c, cards in raw["queue"]) or "-"))
    f.append(f"observer={observer}" if observer is not None else f"rng={raw['rng']:016x}")
    return " ".join(f)


# ----------------------------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------------------------
def _need(f: dict, key: str) -> str:
    if key not in f:
        raise NotationError(f"missing field {key}=")
    return f[key]


def _int(text: str, field: str, lo: int, hi: int) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise NotationError(f"{field} must be a number from {lo} to {hi}, got {clip(text)}")
    v = int(text)
    if not lo <= v <= hi:
        raise NotationError(f"{field}={v} is out of range {lo}..{hi}")
    return v


def _signed(text: str, field: str, lo: int, hi: int) -> int:
    neg = text.startswith("-") and len(text) > 1
    v = _int(text[1:] if neg else text, field, 0, max(hi, -lo))
    v = -v if neg else v
    if not lo <= v <= hi:
        raise NotationError(f"{field}={v} is out of range {lo}..{hi}")
    return v


def _multiset(text: str, field: str, index: dict, nk: int, hidden_ok: bool = False):
    if text == "-":
        return [0] * nk
    m = _HIDDEN_RE.match(text)
    if m:
        if not hidden_ok:
            raise NotationError(f"{field}: {clip(text)} hides cards; a state text shows every zone (`?n` only in an "
                                "observation, for the opponent's hand, mana pool and pool)")
        return ("?", int(m.group(1)))
    counts = [0] * nk
    for item in text.split(","):
        cid, _, n = item.partition("*")
        if cid not in index:
            raise NotationError(f"{field}: {clip(cid, 40)} is not a card of either deck")
        c = _int(n, f"{field}: the count of {cid}", 2, 255) if n else 1
        if counts[index[cid]]:
            raise NotationError(f"{field}: {cid} is listed twice")
        counts[index[cid]] = c
    return counts


def _slots(text: str, field: str, index: dict) -> list[int]:
    if text == "-":
        return []
    out: list[int] = []
    for item in text.split("."):
        m = _HIDDEN_RE.match(item)
        if m:
            n = int(m.group(1))
            if n == 0:
                raise NotationError(f"{field}: ?0 is not a run of unknown slots")
            out.extend([UNKNOWN] * n)
        elif item in index:
            out.append(index[item])
        else:
            raise NotationError(f"{field}: {clip(item, 40)} is neither a card of either deck nor ?n (n unknown slots)")
        if len(out) > C.DECK_SIZE:
            raise NotationError(f"{field}: more than {C.DECK_SIZE} slots")
    return out


def _tokens(text: str, field: str) -> tuple[int, int]:
    if text == "-":
        return 0, 0
    m = _TOK_RE.match(text)
    if not m or not 1 <= int(m.group(2)) <= 30000:
        raise NotationError(f"{field}: tokens must be - or a type with a count 1-30000 (fire2, ice1, shield1, "
                            f"shock3), got {clip(text, 20)}")
    return TOKEN_CODES[m.group(1)], int(m.group(2))


def _combat(text: str, field: str) -> tuple[int, int]:
    if text == "-":
        return 0, NOBODY
    if text == "a":
        return 1, NOBODY
    if text.startswith("b"):
        return 0, _int(text[1:], f"{field}: the blocked attacker's uid", 0, 65534)
    raise NotationError(f"{field}: combat must be -, a (attacking) or bUID (blocking), got {clip(text, 20)}")


def _summons(text: str, field: str, index: dict) -> list[dict]:
    if text == "-":
        return []
    out = []
    for i, item in enumerate(text.split(",")):
        where = f"{field}: summon {i}"
        parts = item.split("/")
        if len(parts) != 6:
            raise NotationError(f"{where} {clip(item, 40)} must be cards/damage/health/tokens/uUID/combat")
        cards = []
        for cid in parts[0].split("+"):
            if cid not in index:
                raise NotationError(f"{where}: {clip(cid, 40)} is not a card of either deck")
            cards.append(index[cid])
        if not 1 <= len(cards) <= 3:
            raise NotationError(f"{where}: a summon holds its power and at most two charms (TC-1)")
        tok, tokn = _tokens(parts[3], where)
        if not parts[4].startswith("u"):
            raise NotationError(f"{where}: the uid is written uN, got {clip(parts[4], 20)}")
        atk, blk = _combat(parts[5], where)
        out.append({"cards": cards, "damage": _signed(parts[1], f"{where}: damage", -30000, 30000),
                    "health": _signed(parts[2], f"{where}: health", -30000, 30000), "tok": tok, "tokn": tokn,
                    "uid": _int(parts[4][1:], f"{where}: uid", 2, 65534), "atk": atk, "blk": blk})
        if len(out) > _E.LIMITS["summons"]:
            raise NotationError(f"{field}: more than {_E.LIMITS['summons']} summons")
    return out


def parse(text: str, observation: bool, cardset=None):
    """(cardset, ids, wizard ids, raw, observer) of a state text (observation False) or an observation
    text (the opponent's hand, mana and pool are ('?', n)). Checks syntax and ranges; validate() the rest."""
    f = split_fields(text, HEADER, MAX_TEXT)
    own = {"observer"} if observation else {"rng"}
    unknown = sorted(set(f) - set(_FIELDS) - own)
    if unknown:
        raise NotationError(f"unknown field {clip(unknown[0], 30)}=")
    digest = _need(f, "cards")
    if not re.fullmatch(r"[0-9a-f]{12}", digest):
        raise NotationError(f"cards must be a card file's 12-digit digest, got {clip(digest)}")
    if cardset is None:
        cardset = C.registered(digest)
        if cardset is None:
            raise NotationError(f"cards={digest}: no card file with this digest is loaded; load it "
                                "(cards.load_cards) or pass cards=")
    elif cardset.digest != digest:
        raise NotationError(f"cards={digest}: the card file given has digest {cardset.digest}")
    decks = []
    for p in range(2):
        key = f"deck{p}"
        items = _need(f, key)
        counts: dict[str, int] = {}
        for item in items.split(",") if items != "-" else []:
            cid, _, n = item.partition("*")
            if cid not in cardset.cards:
                raise NotationError(f"{key}: {clip(cid, 40)} is not a power or charm of the card file")
            if cid in counts:
                raise NotationError(f"{key}: {cid} is listed twice")
            counts[cid] = _int(n, f"{key}: the count of {cid}", 2, 75) if n else 1
        if not counts or sum(counts.values()) > C.DECK_SIZE:
            raise NotationError(f"{key}: a deck lists 1 to {C.DECK_SIZE} cards")
        decks.append(counts)
    ids = sorted(set(decks[0]) | set(decks[1]))
    index = {cid: k for k, cid in enumerate(ids)}
    nk = len(ids)
    wiz = _need(f, "wizards").split(",")
    if len(wiz) != 2 or any(w not in cardset.wizards for w in wiz):
        raise NotationError(f"wizards must name two wizards of the card file, got {clip(f['wizards'])}")
    phase = _need(f, "phase")
    if phase not in PHASES:
        raise NotationError(f"phase must be one of {', '.join(PHASES)}, got {clip(phase)}")
    spent = _need(f, "spent").split(",")
    if len(spent) != 2:
        raise NotationError("spent must list two numbers (each seat's spending this step)")
    winners = _need(f, "winners")
    wmask = 0
    if winners != "-":
        for w in winners.split(","):
            wmask |= 1 << _int(w, "winners", 0, 1)
    blocker = _need(f, "blocker")
    raw = {
        "players": 2, "digest": bytes.fromhex(digest), "limit": _int(_need(f, "limit"), "limit", 1, 65000),
        "turn": _int(_need(f, "turn"), "turn", 0, 65001), "phase": PHASES.index(phase),
        "active": _int(_need(f, "active"), "active", 0, 1), "sub": _int(_need(f, "sub"), "sub", 0, 15),
        "caster": _int(_need(f, "caster"), "caster", 0, 1),
        "spent": [_int(v, "spent", 0, 255) for v in spent],
        "resolving": _int(_need(f, "resolving"), "resolving", 0, _E.LIMITS["queue"]),
        "pending_blocker": NOBODY if blocker == "-" else _int(blocker, "blocker", 0, 65534),
        "next_uid": _int(_need(f, "uid"), "uid", 2, 65534), "over": 1 if phase == "over" else 0, "winners": wmask,
        "deck": [[decks[p].get(cid, 0) for cid in ids] for p in range(2)],
        "wizards": [wizard_values(cardset.wizards[w]) for w in wiz],
    }
    observer = _int(_need(f, "observer"), "observer", 0, 1) if observation else None
    hidden = None if observer is None else 1 - observer
    for key in ("book", "grave"):
        raw[key] = [_slots(_need(f, f"{key}{p}"), f"{key}{p}", index) for p in range(2)]
    for key in ("pool", "mana"):
        raw[key] = [_multiset(_need(f, f"{key}{p}"), f"{key}{p}", index, nk, p == hidden) for p in range(2)]
    hands = []
    for p in range(2):
        h = _multiset(_need(f, f"hand{p}"), f"hand{p}", index, nk, p == hidden)
        hands.append(h if isinstance(h, tuple) else [k for k in range(nk) for _ in range(h[k])])
    raw["hand"] = hands
    raw["wiz"] = []
    for p in range(2):
        parts = _need(f, f"wiz{p}").split("/")
        if len(parts) != 2:
            raise NotationError(f"wiz{p} must be tokens/combat, got {clip(f[f'wiz{p}'], 20)}")
        tok, tokn = _tokens(parts[0], f"wiz{p}")
        atk, blk = _combat(parts[1], f"wiz{p}")
        raw["wiz"].append({"damage": raw["wizards"][p][0], "health": 0, "tok": tok, "tokn": tokn, "uid": p,
                           "atk": atk, "blk": blk, "cards": []})
    raw["board"] = [_summons(_need(f, f"summons{p}"), f"summons{p}", index) for p in range(2)]
    queue = []
    q = _need(f, "queue")
    for i, item in enumerate(q.split(",") if q != "-" else []):
        caster, _, cards = item.partition(":")
        c = _int(caster, f"queue: spell {i}'s caster", 0, 1)
        ks = []
        for cid in cards.split("+"):
            if cid not in index:
                raise NotationError(f"queue: spell {i}: {clip(cid, 40)} is not a card of either deck")
            ks.append(index[cid])
        if not 1 <= len(ks) <= 3:
            raise NotationError(f"queue: spell {i} must be a power and at most two charms (TC-1)")
        queue.append((c, ks))
    if len(queue) > _E.LIMITS["queue"]:
        raise NotationError(f"queue: more than {_E.LIMITS['queue']} spells")
    raw["queue"] = queue
    if observation:
        raw["rng"] = 0
    else:
        rng = _need(f, "rng")
        if not re.fullmatch(r"[0-9a-f]{1,16}", rng):
            raise NotationError(f"rng must be up to 16 hex digits, got {clip(rng)}")
        raw["rng"] = int(rng, 16)
    return cardset, ids, wiz, raw, observer


def wizard_values(w) -> tuple[int, int, int, int]:
    return (w.damage, w.hand_size, w.mana_discards_per_turn, w.setup_mana)


# ----------------------------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------------------------
def placed_counts(raw: dict, p: int, nk: int, with_hand: bool = True) -> list[int]:
    """Seat p's cards by kind outside its pool: known slots, summons, queued spells (and hand, mana)."""
    counts = [0] * nk
    for key in ("book", "grave"):
        for k in raw[key][p]:
            if k != UNKNOWN:
                counts[k] += 1
    for c in raw["board"][p]:
        for k in c["cards"]:
            counts[k] += 1
    for caster, cards in raw["queue"]:
        if caster == p:
            for k in cards:
                counts[k] += 1
    if with_hand:
        for k in raw["hand"][p]:
            counts[k] += 1
        for k in range(nk):
            counts[k] += raw["mana"][p][k]
    return counts


def validate(raw: dict, ids: list[str], cardset) -> None:
    """Every invariant a full state text keeps; NotationError names the field."""
    nk = len(ids)
    for p in range(2):
        placed = placed_counts(raw, p, nk)
        for k in range(nk):
            if placed[k] + raw["pool"][p][k] != raw["deck"][p][k]:
                raise NotationError(f"pool{p}: seat {p} has {placed[k] + raw['pool'][p][k]} cards {ids[k]} across its "
                                    f"zones; its deck lists {raw['deck'][p][k]} (each card is in exactly one zone)")
        unknown = sum(1 for key in ("book", "grave") for k in raw[key][p] if k == UNKNOWN)
        if unknown != sum(raw["pool"][p]):
            raise NotationError(f"pool{p}: {sum(raw['pool'][p])} cards for {unknown} unknown slots of book{p} and "
                                f"grave{p}")
        if len(raw["hand"][p]) > raw["wizards"][p][1] and raw["phase"] != 0 or len(raw["hand"][p]) > _E.LIMITS["hand"]:
            raise NotationError(f"hand{p}: {len(raw['hand'][p])} cards; the hand holds at most hand_size "
                                f"({raw['wizards'][p][1]}, TT-2)")
    _check_characters(raw)
    _check_phase(raw, ids, cardset)


def _check_characters(raw: dict) -> None:
    uids = {0, 1}
    for p in range(2):
        for i, c in enumerate(raw["board"][p]):
            if c["uid"] in uids or c["uid"] >= raw["next_uid"]:
                raise NotationError(f"summons{p}: summon {i}'s uid u{c['uid']} is repeated or not below uid="
                                    f"{raw['next_uid']}")
            uids.add(c["uid"])
            if c["health"] <= 0 and not (raw["phase"] == 0):
                raise NotationError(f"summons{p}: summon {i} has health {c['health']}; a summon at 0 or less is dead "
                                    "(TD-2)")
    for p in range(2):
        for i, c in enumerate([raw["wiz"][p]] + raw["board"][p]):
            where = f"wiz{p}" if i == 0 else f"summons{p}"
            if c["tok"] == 2 and (c["atk"] or c["blk"] != NOBODY):
                raise NotationError(f"{where}: a character with ice is not in combat (TK-5)")
            if c["atk"] and p != raw["active"]:
                raise NotationError(f"{where}: only the active player's characters attack (TB-1)")
            if c["blk"] != NOBODY and p == raw["active"]:
                raise NotationError(f"{where}: only the other player's characters block (TB-2)")


def _check_phase(raw: dict, ids, cardset) -> None:
    phase = PHASES[raw["phase"]]
    if raw["over"] != (phase == "over") or (phase == "over") != (raw["winners"] != 0):
        raise NotationError("winners: set exactly when phase=over")
    if phase == "target" and not raw["resolving"] < len(raw["queue"]):
        raise NotationError("resolving: the spell awaiting its target must be in the queue")
    d = 1 - raw["active"]
    if phase == "blockon":
        free = [c["uid"] for c in [raw["wiz"][d]] + raw["board"][d] if c["blk"] == NOBODY and c["tok"] != 2]
        if raw["pending_blocker"] not in free:
            raise NotationError("blocker: phase blockon needs the uid of a blocker of the other seat, free and "
                                "without ice (TB-2)")
    elif raw["pending_blocker"] != NOBODY:
        raise NotationError("blocker: only phase blockon has a pending blocker")
    if phase == "charm" and (not raw["queue"] or raw["queue"][-1][0] != raw["caster"]
                             or len(raw["queue"][-1][1]) >= 3):
        raise NotationError("queue: phase charm needs the caster's spell being built, with at most one charm")
    if phase == "mana" and raw["sub"] >= raw["wizards"][raw["active"]][2]:
        raise NotationError("sub: the mana step is over once mana_discards_per_turn cards went (TT-3)")
    if phase == "setup" and raw["sub"] > 1:
        raise NotationError("sub: the setup deals seat 0, then seat 1")
    if phase in ("setup", "draw"):
        p = raw["sub"] if phase == "setup" else raw["active"]
        if not raw["book"][p] or raw["book"][p][-1] != UNKNOWN:
            raise NotationError(f"book{p}: a pending draw takes an unknown top card (a known one is drawn at once)")
    if phase == "setup" and raw["turn"] != 0:
        raise NotationError("turn: setup happens before turn 1")
    if phase not in ("setup",) and raw["turn"] == 0:
        raise NotationError("turn: play starts at turn 1")
    if raw["turn"] > raw["limit"] + 1:
        raise NotationError(f"turn: beyond limit={raw['limit']} + 1 (TG-3)")
    for p in range(2):
        if raw["spent"][p] > sum(raw["mana"][p]) if not isinstance(raw["mana"][p], tuple) else False:
            raise NotationError(f"spent: seat {p} spent more than its mana pool holds (TC-2)")
