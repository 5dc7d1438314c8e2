"""Spellbook TCG test positions: a state text built from the zones a test names (the rest of each deck is
the seat's unknown pool, in its spellbook), loaded through State.from_text (its validation included)."""
from collections import Counter

from engine_c.spellbooktcg import State

_BASES = {}


def base(cards=None, decks=None):
    key = (id(cards), tuple(id(d) for d in decks) if decks else None)
    if key not in _BASES:
        _BASES[key] = State.new(seed=0, cards=cards, decks=decks)
    return _BASES[key]


def fields(text):
    return dict(w.split("=", 1) for w in text.split()[1:])


def multiset(items):
    c = Counter(items)
    return ",".join(k if n == 1 else f"{k}*{n}" for k, n in sorted(c.items())) or "-"


def position(phase="mana", active=0, turn=3, caster=None, sub=0, spent=(0, 0), hand=((), ()),
             mana=(("mend",) * 3, ("mend",) * 3), summons=((), ()), grave=((), ()), book=(("*",), ("*",)),
             wiz=("-/-", "-/-"), queue=(), resolving=0, blocker="-", uid=None, limit=200, winners="-",
             cards=None, decks=None, rng="1"):
    """A state text: summons as the notation writes them (`cards/damage/health/tokens/uUID/combat`); grave and
    book list slots bottom first, with `?n` for unknown runs; `*` in book stands for every unknown card left."""
    b = base(cards, decks)
    f = fields(b.to_text())
    ids = b.card_ids
    out = {k: f[k] for k in ("cards", "wizards", "deck0", "deck1")}
    uids = [2]
    for p in range(2):
        deck = Counter()
        for item in f[f"deck{p}"].split(","):
            cid, _, n = item.partition("*")
            deck[cid] = int(n or 1)
        placed = Counter(hand[p]) + Counter(mana[p])
        for s in summons[p]:
            placed.update(s.split("/")[0].split("+"))
            uids.append(int(s.split("/")[4][1:]))
        for c, cs in queue:
            if c == p:
                placed.update(cs.split("+"))
        unknown_grave = 0
        for g in list(grave[p]) + [x for x in book[p] if x != "*"]:
            if g.startswith("?"):
                unknown_grave += int(g[1:])
            else:
                placed[g] += 1
        pool = deck - placed
        assert not (placed - deck), f"seat {p} places cards its deck lacks: {placed - deck}"
        left = sum(pool.values()) - unknown_grave
        assert left >= 0
        bk = [f"?{left}" if x == "*" else x for x in book[p]]
        bk = [x for x in bk if x != "?0"]
        out[f"book{p}"] = ".".join(bk) or "-"
        out[f"grave{p}"] = ".".join(grave[p]) or "-"
        out[f"pool{p}"] = multiset(pool.elements())
        out[f"hand{p}"] = multiset(hand[p])
        out[f"mana{p}"] = multiset(mana[p])
        out[f"wiz{p}"] = wiz[p]
        out[f"summons{p}"] = ",".join(summons[p]) or "-"
    text = (f"tcg1 cards={out['cards']} limit={limit} turn={turn} phase={phase} active={active} sub={sub} "
            f"caster={active if caster is None else caster} spent={spent[0]},{spent[1]} resolving={resolving} "
            f"blocker={blocker} uid={max(uids) + 1 if uid is None else uid} winners={winners} "
            f"wizards={out['wizards']} deck0={out['deck0']} deck1={out['deck1']} "
            + " ".join(f"{k}{p}={out[f'{k}{p}']}" for k in ("book", "grave", "pool", "hand", "mana", "wiz", "summons")
                       for p in range(2))
            + " queue=" + (",".join(f"{c}:{cs}" for c, cs in queue) or "-") + f" rng={rng}")
    return State.from_text(text, cards=cards)
