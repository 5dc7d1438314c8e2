"""Build SpellBook positions for tests: a chosen set-up at a chosen step of a chosen Day.

    st = position(players=2, spells="set2", active=0, day=4, pools={0: "RcRcRt"}, altar="GtKs",
                  fam={0: "Kc3"}, learned={0: {"Eruption": (4, "c", 0)}}, at="morning")

Every token not placed explicitly goes into the Pouch (or, when `pouch=` is given, the rest goes into
the Discard box), so the 105 tokens are always accounted for (S1). The state is validated.
`learned` values are `(level, rune, day_learned)`, `(level, rune)` or just `level` (rune c, day 0);
a learned spell's token of its own color and rune is taken out of the supply (L1).
`at` is "morning", "midday", "evening" or "resupply" (the Day's pending steps, T1), or an explicit
stack list of (op name, p, a, b, c, d) tuples bottom..top.
"""
from __future__ import annotations

from engine_c import State
from engine_c.spellbook.state import COPIES, NCOL, NTYPE, RUNES, SPELL_NAMES, parse_counts, spell_id, token_name, _mix_seed
from engine_c.spellbook._engine import FRAME_NAMES

OP = {name: op for op, name in FRAME_NAMES.items()}
PHASE_INDEX = {"morning": 1, "midday": 2, "evening": 3, "resupply": 4}


def counts(text: str | None) -> list[int]:
    return parse_counts(text or "-", "test tokens")


def day_stack(p: int, at: str, swift_mornings: int = 1) -> list[tuple]:
    """The pending steps of player p's Day from phase `at` on (bottom..top)."""
    frames = [("endday", p), ("resupply", p)]
    order = ["evening", "midday", "morning"]
    if at == "resupply":
        return frames
    for ph in order:
        frames.append((ph, p))
        if ph == at:
            break
    if at == "morning" and swift_mornings == 2:
        frames.append(("morning", p))
    return frames


def position(players: int = 2, spells="set1", active: int = 0, day: int | None = None,
             pools: dict | None = None, altar: str = "", fam: dict | None = None,
             learned: dict | None = None, discard: str = "", pouch: str | None = None,
             at="morning", end: bool = False, seed: int = 0, swift_mornings: int = 1,
             over: bool = False) -> State:
    base = State.new(players=players, spells=spells, seed=0)
    raw = base._to_raw()
    n = players
    if over:
        active = n - 1                # E2: the game ends after the Day of the seat before the first player
    if day is None:
        day = 2 * n + active          # the third round: every spell learned on day 0 is usable
    pools = pools or {}
    fam = fam or {}
    learned = learned or {}
    raw["pool"] = [counts(pools.get(p)) for p in range(n)]
    raw["fam"] = [counts(fam.get(p)) for p in range(n)]
    raw["altar"] = counts(altar)
    raw["discard"] = counts(discard)
    raw["level"] = [[0] * NCOL for _ in range(n)]
    raw["rune"] = [[0] * NCOL for _ in range(n)]
    raw["learned_day"] = [[0] * NCOL for _ in range(n)]
    used = [0] * NTYPE
    for p, spells_p in learned.items():
        for name, spec in spells_p.items():
            sid = spell_id(name)
            c = sid // 3
            assert raw["spell"][c] == sid, f"{SPELL_NAMES[sid]} is not in play"
            if isinstance(spec, int):
                spec = (spec, "c", 0)
            if len(spec) == 2:
                spec = (*spec, 0)
            lvl, rune, lday = spec
            raw["level"][p][c] = lvl
            raw["rune"][p][c] = RUNES.index(rune)
            raw["learned_day"][p][c] = lday
            used[c * 3 + RUNES.index(rune)] += 1
    for t in range(NTYPE):
        used[t] += raw["altar"][t] + raw["discard"][t]
        used[t] += sum(raw["pool"][p][t] + raw["fam"][p][t] for p in range(n))
    if pouch is not None:
        raw["pouch"] = counts(pouch)
        for t in range(NTYPE):
            used[t] += raw["pouch"][t]
            assert used[t] <= COPIES, f"position uses {used[t]} {token_name(t)}"
            raw["discard"][t] += COPIES - used[t]
    else:
        for t in range(NTYPE):
            assert used[t] <= COPIES, f"position uses {used[t]} {token_name(t)}"
        raw["pouch"] = [COPIES - used[t] for t in range(NTYPE)]
    raw["day"] = day
    raw["active"] = active
    raw["end_triggered"] = int(end)
    raw["over"] = int(over)
    if over:
        raw["end_triggered"] = 1
        raw["phase"] = 5
        stack = []
    elif isinstance(at, str):
        stack = day_stack(active, at, swift_mornings)
        raw["phase"] = PHASE_INDEX[at]
    else:
        stack = at
        raw["phase"] = 1
    raw["stack"] = [(OP[f[0]], *f[1:], *([0] * (6 - len(f)))) for f in stack]
    raw["taken"] = [0] * NTYPE
    raw["given"] = [0] * NTYPE
    raw["justdisc"] = [0] * NTYPE
    raw["rng"] = _mix_seed(seed)
    st = State.from_text(_text_of(raw))
    return st


def _text_of(raw: dict) -> str:
    from engine_c.spellbook.notation import state_text

    class _Raw:
        def _to_raw(self):
            return raw

    return state_text(_Raw())


def pool(st: State, p: int) -> str:
    from engine_c.spellbook.state import format_counts

    return format_counts(st._to_raw()["pool"][p])


def zone(st: State, name: str, p: int | None = None) -> list[int]:
    raw = st._to_raw()
    return raw[name] if p is None else raw[name][p]


def size(st: State, name: str, p: int | None = None) -> int:
    return sum(zone(st, name, p))


def level(st: State, p: int, spell: str) -> int:
    return st._to_raw()["level"][p][spell_id(spell) // 3]


def draw(st: State, tokens: str) -> State:
    """Resolve pending Pouch draws with the given outcomes, in order (e.g. "RcRcGt")."""
    for t in _token_list(tokens):
        assert st.is_chance(), f"no draw pending for {t}: {st.decision}"
        st.apply(f"drawn {t}")
    return st


def _token_list(tokens: str) -> list[str]:
    return [tokens[i:i + 2] for i in range(0, len(tokens), 2)]


def moves(st: State) -> set[str]:
    return {str(m) for m in st.legal_moves()}


def do(st: State, *texts: str) -> State:
    """Apply moves (decisions and `drawn Xx` outcomes) in order."""
    for t in texts:
        st.apply(t)
    return st
