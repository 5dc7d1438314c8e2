# cython: language_level=3
"""SpellBook rules in C (see ../shared/rules/SPELLBOOK.md; rule ids are cited in comments).

The state is a fixed-size C struct (`SBState`, see _engine.pxd). What happens next is a small stack of
pending steps (`Frame`): decisions (a player chooses a move), chance events (one token drawn from the
Pouch) and deterministic steps (resupply, end of Day...). `sb_advance` runs deterministic steps until the
top of the stack needs a decision or a draw, or the game is over.

Moves are uint64 codes (layout below, see `engine_c/spellbook/notation.py` for their text). The Pouch is a multiset:
its "order" is the sequence of chance outcomes, sampled when a draw happens, so a state never stores it.
"""
from libc.stdint cimport uint8_t, int16_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from engine_c.game cimport GameVTable, PLAYER_CHANCE, PLAYER_TERMINAL
from engine_c.rng cimport rand_below, splitmix
from cpython.pycapsule cimport PyCapsule_New

# ---------------------------------------------------------------------------------------------
# Data tables. Every [R] value of SPELLBOOK.md lives in exactly one of these tables.
# ---------------------------------------------------------------------------------------------
# Colors (index): R P G K W B Y. Runes (index): c t s [R]. Token type = color * 3 + rune.
# Spell id = color * 3 + set index (set ◇ = 0, ◇◇ = 1, ◇◇◇ = 2) [R, S4].
cdef enum:
    RED = 0
    PURPLE = 1
    GREEN = 2
    BLACK = 3
    WHITE = 4
    BLUE = 5
    YELLOW = 6

cdef enum:
    SACRIFICE = 0
    ERUPTION = 1
    BLAZE = 2
    LEVITATION = 3
    SHARING = 4
    DIVINATION = 5
    PURIFICATION = 6
    CURE = 7
    GROWTH = 8
    OFFERING = 9
    FOCUS = 10
    FEAST = 11
    TIMETRAVEL = 12
    STORM = 13
    CLONE = 14
    TRANSMUTATION = 15
    SWIFTNESS = 16
    MIRAGE = 17
    ABUNDANCE = 18
    KNOWLEDGE = 19
    COMMUNION = 20

cdef enum:
    PHASE_RESUPPLY = 4
    PHASE_OVER = 5

cdef enum:
    # D21: the Day counter is 16-bit. A game still running at Day DAY_LIMIT (real games end within a few
    # hundred Days) has its end triggered (E1) then, so the round completes (E2) well before it overflows.
    DAY_LIMIT = 30000
    # A compiled random playout stops after this many decisions even if the game is not over (a second
    # guard after state validation: random games take a few hundred decisions, see D15).
    PLAYOUT_MAX_DECISIONS = 5000

cdef enum:
    PH_NONE = 0
    PH_MORNING = 1
    PH_MIDDAY = 2
    PH_EVENING = 3

# Points at levels 3/4/5 (§7; "–" counts 0, C15) and the phase symbol of each spell.
cdef int SPELL_POINTS[21][3]
cdef int SPELL_PHASE[21]
_SPELL_TABLE = [
    # name,           phase,      L3, L4, L5
    ("Sacrifice",     PH_MORNING, 1, 2, 3),
    ("Eruption",      PH_MORNING, 2, 3, 4),
    ("Blaze",         PH_MORNING, 0, 2, 5),
    ("Levitation",    PH_MORNING, 3, 4, 5),
    ("Sharing",       PH_MORNING, 4, 4, 4),
    ("Divination",    PH_MORNING, 2, 3, 4),
    ("Purification",  PH_MIDDAY,  1, 2, 3),
    ("Cure",          PH_MIDDAY,  3, 4, 5),
    ("Growth",        PH_EVENING, 3, 4, 6),
    ("Offering",      PH_MIDDAY,  2, 4, 6),
    ("Focus",         PH_EVENING, 3, 4, 5),
    ("Feast",         PH_MIDDAY,  2, 2, 0),
    ("TimeTravel",    PH_EVENING, 2, 4, 6),
    ("Storm",         PH_EVENING, 4, 6, 8),
    ("Clone",         PH_MIDDAY,  4, 5, 6),
    ("Transmutation", PH_EVENING, 4, 4, 4),
    ("Swiftness",     PH_NONE,    3, 6, 0),
    ("Mirage",        PH_NONE,    2, 3, 6),
    ("Abundance",     PH_NONE,    3, 5, 7),
    ("Knowledge",     PH_NONE,    0, 0, 0),
    ("Communion",     PH_NONE,    0, 0, 0),
]
SPELL_NAMES = tuple(row[0] for row in _SPELL_TABLE)
SPELL_PHASES = tuple(row[1] for row in _SPELL_TABLE)   # 0 none (instant/permanent), 1 Morning, 2 Midday, 3 Evening
for _i, _row in enumerate(_SPELL_TABLE):
    SPELL_PHASE[_i] = _row[1]
    SPELL_POINTS[_i][0] = _row[2]
    SPELL_POINTS[_i][1] = _row[3]
    SPELL_POINTS[_i][2] = _row[4]

# [R] Rune masks (bit r = rune r allowed) by level 3/4/5 for Sacrifice's discard, Levitation's pair and
# Time Travel's discard: L3 circle; L4 circle or triangle; L5 any.
cdef uint8_t RUNE_MASK_BY_LEVEL[3]
_RUNE_MASK_TABLE = (0b001, 0b011, 0b111)
for _i in range(3):
    RUNE_MASK_BY_LEVEL[_i] = _RUNE_MASK_TABLE[_i]

# [R] Familiar track: value with n tokens stored (n = 0..16): n + 1, and 18 for a full board.
cdef int FAMILIAR_VALUE[17]
_FAMILIAR_TABLE = tuple(list(range(1, 17)) + [18])
for _i in range(17):
    FAMILIAR_VALUE[_i] = _FAMILIAR_TABLE[_i]

RULE_TABLES = {
    "runes": ("c", "t", "s"),
    "rune_mask_by_level": {"Sacrifice/Levitation/TimeTravel": {3: "c", 4: "c t", 5: "c t s"}},
    "familiar_track": _FAMILIAR_TABLE,
    "sets": {"set1": [n for i, n in enumerate(SPELL_NAMES) if i % 3 == 0],
             "set2": [n for i, n in enumerate(SPELL_NAMES) if i % 3 == 1],
             "set3": [n for i, n in enumerate(SPELL_NAMES) if i % 3 == 2]},
}

# ---------------------------------------------------------------------------------------------
# Move codes: bits 0-4 kind, 5-7 level, 8-9 x (a rune tag: 0 own, 1-3 = rune + 1), 10-14 a, 15-19 b,
# 20-23 list length, 24-63: up to 8 token types of 5 bits (sorted ascending). Exactly 64 bits: a pool of
# 9 tokens spends at most 8 besides the placed one.
# ---------------------------------------------------------------------------------------------
cdef enum:
    K_PASS = 0
    K_TAKE = 1
    K_DRAW = 2
    K_STORE = 3
    K_LEARN = 4
    K_TRANSMUTE = 5
    K_SACRIFICE = 6
    K_ERUPTION = 7
    K_BLAZE = 8
    K_LEVITATION = 9
    K_SHARING = 10
    K_DIVINATION = 11
    K_PURIFICATION = 12
    K_CURE = 13
    K_OFFERING = 14
    K_FEAST = 15
    K_GROWTH = 16
    K_FOCUS = 17
    K_TIMETRAVEL = 18
    K_STORM = 19
    K_CLONE = 20
    K_SWAP = 21
    K_DISCARD = 22
    K_DRAWN = 23
    LIST_MAX = 8

cdef inline uint64_t mv(uint64_t kind, uint64_t level, uint64_t x, uint64_t a, uint64_t b) noexcept nogil:
    return kind | (level << 5) | (x << 8) | (a << 10) | (b << 15)

cdef inline int mv_kind(uint64_t m) noexcept nogil:
    return <int>(m & 31)

cdef inline int mv_level(uint64_t m) noexcept nogil:
    return <int>((m >> 5) & 7)

cdef inline int mv_x(uint64_t m) noexcept nogil:
    return <int>((m >> 8) & 3)

cdef inline int mv_a(uint64_t m) noexcept nogil:
    return <int>((m >> 10) & 31)

cdef inline int mv_b(uint64_t m) noexcept nogil:
    return <int>((m >> 15) & 31)

cdef inline int mv_n(uint64_t m) noexcept nogil:
    return <int>((m >> 20) & 15)

cdef inline int mv_item(uint64_t m, int i) noexcept nogil:
    return <int>((m >> (24 + 5 * i)) & 31)

cdef inline uint64_t mv_with_list(uint64_t m, const int* items, int n) noexcept nogil:
    # items must be sorted ascending
    cdef int i
    m |= (<uint64_t>n) << 20
    for i in range(n):
        m |= (<uint64_t>items[i]) << (24 + 5 * i)
    return m

# ---------------------------------------------------------------------------------------------
# Frames (pending steps)
# ---------------------------------------------------------------------------------------------
cdef enum:
    F_START_DAY = 1     # deterministic: push the Day's phases (T1)
    F_MORNING = 2       # decision p; a = 1 for Swiftness' instant Morning action
    F_MIDDAY = 3        # decision p
    F_EVENING = 4       # decision p
    F_CLONE = 5         # decision p: the action Clone copies; a = phase, b = Clone's level
    F_TAKE = 6          # decision p: take from the Altar; a = left, b = flags, c = rune mask, d = color mask
    F_STORE = 7         # decision p: store; a = left, b = flags, c = rune mask, d = color mask
    F_BLAZE = 8         # decision p (not the active player): take 1 Altar token
    F_SWAP = 9          # decision p: Purification swap; a = left
    F_DISCARD = 10      # decision p: discard a tokens from the pool
    F_STORM = 11        # decision p: Altar tokens to discard; a = count, b = lowest next type, c/d = level set after
    F_DRAW_POOL = 12    # chance: draw a tokens into p's pool
    F_DRAW_ALTAR = 13   # chance: draw a tokens onto the Altar
    F_RESUPPLY = 14     # deterministic: A1
    F_END_DAY = 15      # deterministic: E1/E2, next player
    F_SETLEVEL = 16     # deterministic: level of p's spell of color a := b (Growth/Storm/Clone move down)

cdef enum:
    TF_STORE_DIRECT = 1   # taken tokens go straight to the familiar
    TF_MAY_STOP = 2       # "up to" (Divination L4)
    TF_FIX_RUNE = 4       # after the first token, only its rune (Levitation)
    TF_FIX_COLOR = 8      # after the first token, only its color (Divination L4, Offering)
    TF_FROM_JUSTDISC = 16 # store from the tokens the current learning discarded (Communion L5)

cdef enum:
    MODE_OWN = 0
    MODE_CLONE = 1

# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------
cdef inline int tcolor(int t) noexcept nogil:
    return t // 3

cdef inline int trune(int t) noexcept nogil:
    return t % 3

cdef inline void push(SBState* s, int op, int p, int a, int b, int c, int d) noexcept nogil:
    cdef Frame* f
    if s.sp >= STACK_MAX:
        return  # cannot happen with the rules' nesting depth (at most ~16); never overflow memory
    f = &s.stack[s.sp]
    f.op = op
    f.p = p
    f.a = a
    f.b = b
    f.c = c
    f.d = d
    s.sp += 1

cdef inline Frame* top(SBState* s) noexcept nogil:
    return &s.stack[s.sp - 1]

cdef inline int spell_color(const SBState* s, int spell) noexcept nogil:
    # the color of `spell` if it is in play, else -1
    if s.spell[spell // 3] == spell:
        return spell // 3
    return -1

cdef inline int own_level(const SBState* s, int p, int spell) noexcept nogil:
    """Level of p's copy of `spell` (0 if not in play or not learned)."""
    cdef int c = spell_color(s, spell)
    if c < 0:
        return 0
    return s.level[p][c]

cdef inline int action_level(const SBState* s, int p, int spell) noexcept nogil:
    """Level usable for p's own action of `spell`: learned on an earlier Day (T4, C11), else 0."""
    cdef int c = spell_color(s, spell)
    if c < 0 or s.level[p][c] == 0 or s.learned_day[p][c] >= s.day:
        return 0
    return s.level[p][c]

cdef inline int others_level(const SBState* s, int p, int spell) noexcept nogil:
    """Highest level of `spell` among the other players (what Clone may copy, C4)."""
    cdef int c = spell_color(s, spell)
    cdef int q, best = 0
    if c < 0:
        return 0
    for q in range(s.nplayers):
        if q != p and s.level[q][c] > best:
            best = s.level[q][c]
    return best

cdef inline int pouch_and_discard(const SBState* s) noexcept nogil:
    return s.pouch_n + s.discard_n

cdef inline void to_discard_from_pool(SBState* s, int p, int t) noexcept nogil:
    s.pool[p][t] -= 1
    s.pool_n[p] -= 1
    s.discard[t] += 1
    s.discard_n += 1

cdef inline void check_familiar_end(SBState* s, int p) noexcept nogil:
    if s.fam_n[p] >= FAMILIAR_SPACES:
        s.end_triggered = 1  # E1, checked at every step (C16)

cdef inline void store_from_pool(SBState* s, int p, int t) noexcept nogil:
    s.pool[p][t] -= 1
    s.pool_n[p] -= 1
    s.fam[p][t] += 1
    s.fam_n[p] += 1
    check_familiar_end(s, p)

cdef void take_from_altar(SBState* s, int p, int t, bint store_direct) noexcept nogil:
    """One Altar token to p's pool (or familiar); Mirage (∞) may trigger (C1)."""
    cdef int c, lvl
    s.altar[t] -= 1
    s.altar_n -= 1
    if store_direct:
        s.fam[p][t] += 1
        s.fam_n[p] += 1
        check_familiar_end(s, p)
    else:
        s.pool[p][t] += 1
        s.pool_n[p] += 1
    # Mirage: only during its owner's own Day (never for Blaze's other players), once per token (C1).
    if p == s.active:
        c = spell_color(s, MIRAGE)
        if c >= 0:
            lvl = s.level[p][c]
            if lvl >= 3 and s.rune[p][c] == trune(t):
                push(s, F_DRAW_POOL, p, 1 if lvl == 3 else 2, 0, 0, 0)

cdef void refill_pouch(SBState* s) noexcept nogil:
    """A3: the Discard box goes back into the empty Pouch."""
    cdef int t
    for t in range(NTYPE):
        s.pouch[t] += s.discard[t]
        s.discard[t] = 0
    s.pouch_n += s.discard_n
    s.discard_n = 0

cdef inline bint can_draw(const SBState* s) noexcept nogil:
    return s.pouch_n + s.discard_n > 0

# ---------------------------------------------------------------------------------------------
# Setup (S1-S4) and the Day (T1)
# ---------------------------------------------------------------------------------------------
cdef void sb_init(SBState* s, int nplayers, const uint8_t* spells, uint64_t seed) noexcept nogil:
    """A new game at its first chance event: all tokens in the Pouch (S1), then 5 Altar draws and
    2 draws per player in seat order (S3). Seat 0 is the first player (S2: seating is the caller's)."""
    cdef int t, c, p
    memset(s, 0, sizeof(SBState))
    s.nplayers = nplayers
    for c in range(NCOL):
        s.spell[c] = spells[c]
    for t in range(NTYPE):
        s.pouch[t] = COPIES
    s.pouch_n = NTYPE * COPIES
    s.rng = seed
    push(s, F_START_DAY, 0, 0, 0, 0, 0)
    for p in range(nplayers - 1, -1, -1):
        push(s, F_DRAW_POOL, p, 2, 0, 0, 0)
    push(s, F_DRAW_ALTAR, 0, 5, 0, 0, 0)
    sb_advance(s)

cdef void start_day(SBState* s) noexcept nogil:
    cdef int p = s.active
    cdef int c = spell_color(s, SWIFTNESS)
    push(s, F_END_DAY, p, 0, 0, 0, 0)
    push(s, F_RESUPPLY, p, 0, 0, 0, 0)
    push(s, F_EVENING, p, 0, 0, 0, 0)
    push(s, F_MIDDAY, p, 0, 0, 0, 0)
    push(s, F_MORNING, p, 0, 0, 0, 0)
    # Swiftness L5 (∞): two Morning actions, from the Day after it reached L5 (C11).
    if c >= 0 and s.level[p][c] == 5:
        push(s, F_MORNING, p, 0, 0, 0, 0)

cdef void resupply(SBState* s) noexcept nogil:
    """A1: fewer than 5 -> draw to 5; 5..9 -> draw 1; 10 or more -> discard all, draw 5."""
    cdef int t
    if s.altar_n < 5:
        push(s, F_DRAW_ALTAR, s.active, 5 - s.altar_n, 0, 0, 0)
    elif s.altar_n < 10:
        push(s, F_DRAW_ALTAR, s.active, 1, 0, 0, 0)
    else:
        for t in range(NTYPE):
            s.discard[t] += s.altar[t]
            s.altar[t] = 0
        s.discard_n += s.altar_n
        s.altar_n = 0
        push(s, F_DRAW_ALTAR, s.active, 5, 0, 0, 0)

cdef void end_day(SBState* s) noexcept nogil:
    # E2: the round is completed; the seat before the first player (seat 0) plays last.
    if s.end_triggered and s.active == s.nplayers - 1:
        s.over = 1
        s.phase = PHASE_OVER
        return
    s.active = (s.active + 1) % s.nplayers
    s.day += 1
    if s.day >= DAY_LIMIT:
        s.end_triggered = 1   # D21: the counter never overflows (int16)
    start_day(s)

# ---------------------------------------------------------------------------------------------
# Eligibility for the generic take / store loops (C10: one at a time, as far as possible)
# ---------------------------------------------------------------------------------------------
cdef inline bint take_ok(const SBState* s, const Frame* f, int t) noexcept nogil:
    return (s.altar[t] > 0 and ((f.c >> trune(t)) & 1) and ((f.d >> tcolor(t)) & 1))

cdef inline bint take_room(const SBState* s, const Frame* f) noexcept nogil:
    if f.b & TF_STORE_DIRECT:
        return s.fam_n[f.p] < FAMILIAR_SPACES   # P2
    return s.pool_n[f.p] < POOL_LIMIT          # P1

cdef inline bint store_ok(const SBState* s, const Frame* f, int t) noexcept nogil:
    cdef int have
    if f.b & TF_FROM_JUSTDISC:
        have = s.justdisc[t]
    else:
        have = s.pool[f.p][t]
    return have > 0 and ((f.c >> trune(t)) & 1) and ((f.d >> tcolor(t)) & 1)

cdef bint frame_has_options(const SBState* s, const Frame* f) noexcept nogil:
    cdef int t, u
    if f.op == F_TAKE:
        if f.a == 0 or not take_room(s, f):
            return False
        for t in range(NTYPE):
            if take_ok(s, f, t):
                return True
        return False
    if f.op == F_STORE:
        if f.a == 0 or s.fam_n[f.p] >= FAMILIAR_SPACES:
            return False
        for t in range(NTYPE):
            if store_ok(s, f, t):
                return True
        return False
    if f.op == F_BLAZE:
        return s.altar_n > 0 and s.pool_n[f.p] < POOL_LIMIT
    if f.op == F_SWAP:
        if f.a == 0:
            return False
        for t in range(NTYPE):
            if s.altar[t] > s.given[t]:
                for u in range(NTYPE):
                    if s.pool[f.p][u] > s.taken[u]:
                        return True
        return False
    if f.op == F_DISCARD:
        return f.a > 0 and s.pool_n[f.p] > 0
    return True

cdef void pop_frame(SBState* s) noexcept nogil:
    cdef Frame* f = top(s)
    if f.op == F_STORE and (f.b & TF_FROM_JUSTDISC):
        memset(s.justdisc, 0, NTYPE)
    elif f.op == F_SWAP:
        memset(s.taken, 0, NTYPE)
        memset(s.given, 0, NTYPE)
    s.sp -= 1

cdef void sb_advance(SBState* s) noexcept nogil:
    """Run deterministic steps until a decision, a chance event or the end of the game."""
    cdef Frame* f
    cdef int op
    while not s.over and s.sp > 0:
        f = top(s)
        op = f.op
        if op == F_START_DAY:
            s.sp -= 1
            start_day(s)
        elif op == F_RESUPPLY:
            s.sp -= 1
            s.phase = PHASE_RESUPPLY
            resupply(s)
        elif op == F_END_DAY:
            s.sp -= 1
            end_day(s)
        elif op == F_SETLEVEL:
            s.level[f.p][f.a] = f.b
            s.sp -= 1
        elif op == F_DRAW_POOL or op == F_DRAW_ALTAR:
            if f.a == 0 or (op == F_DRAW_POOL and s.pool_n[f.p] >= POOL_LIMIT):
                s.sp -= 1          # P1: the rest of the gain is simply not done
                continue
            if s.pouch_n == 0:
                refill_pouch(s)    # A3
                if s.pouch_n == 0:
                    s.sp -= 1      # both empty: the draw is not done
                    continue
            return                 # a chance event
        else:
            if op == F_MORNING and f.a == 0:
                s.phase = PH_MORNING
            elif op == F_MIDDAY:
                s.phase = PH_MIDDAY
            elif op == F_EVENING:
                s.phase = PH_EVENING
            if frame_has_options(s, f):
                return             # a decision
            pop_frame(s)

cdef int sb_current_player(const SBState* s) noexcept nogil:
    cdef int op
    if s.over or s.sp == 0:
        return PLAYER_TERMINAL
    op = s.stack[s.sp - 1].op
    if op == F_DRAW_POOL or op == F_DRAW_ALTAR:
        return PLAYER_CHANCE
    return s.stack[s.sp - 1].p

cdef bint sb_is_chance(const SBState* s) noexcept nogil:
    return sb_current_player(s) == PLAYER_CHANCE

# ---------------------------------------------------------------------------------------------
# Move generation
# ---------------------------------------------------------------------------------------------
cdef inline int emit(uint64_t* out, int n, uint64_t m) noexcept nogil:
    if n < MAX_MOVES:
        out[n] = m
        return n + 1
    return n

cdef int gen_learn(const SBState* s, int p, uint64_t* out, int n) noexcept nogil:
    """L1/L2/C12: every (spell, level N, placed token, spent multiset) that pays exactly N Materia,
    each Materia being one token of the spell's color or three tokens sharing a rune."""
    cdef int types[NTYPE]
    cdef int cnt[NTYPE]
    cdef int sel[NTYPE]
    cdef int k = 0, t, i, c, r, pr, N, size, total
    cdef int rune_tot[NRUNE]
    cdef int items[LIST_MAX]
    cdef int ni, j
    cdef uint32_t rmask, acc, nacc, bit
    cdef int nr, mr, x
    cdef bint any_color = False
    for c in range(NCOL):
        if s.level[p][c] == 0:
            for r in range(NRUNE):
                if s.pool[p][c * 3 + r] > 0:
                    any_color = True
    if not any_color or s.pool_n[p] < 3:
        return n
    for t in range(NTYPE):
        if s.pool[p][t] > 0:
            types[k] = t
            cnt[k] = s.pool[p][t]
            sel[k] = 0
            k += 1
    # odometer over sub-multisets of the pool
    while True:
        i = 0
        while i < k and sel[i] == cnt[i]:
            sel[i] = 0
            i += 1
        if i == k:
            break
        sel[i] += 1
        size = 0
        rune_tot[0] = 0
        rune_tot[1] = 0
        rune_tot[2] = 0
        for i in range(k):
            size += sel[i]
            rune_tot[trune(types[i])] += sel[i]
        if size < 3:
            continue
        for c in range(NCOL):
            if s.level[p][c] != 0:
                continue
            for i in range(k):
                if sel[i] == 0 or tcolor(types[i]) != c:
                    continue
                pr = trune(types[i])   # the placed token; its rune becomes the spell's rune
                # achievable Materia counts of the rest, as a bitmask of totals
                acc = 1
                for r in range(NRUNE):
                    mr = 0
                    for j in range(k):
                        if types[j] == c * 3 + r:
                            mr = sel[j]
                    if r == pr:
                        mr -= 1
                    nr = rune_tot[r] - (mr + (1 if r == pr else 0))  # rune-r tokens of other colors
                    rmask = 0
                    for x in range(mr + 1):
                        if (nr + x) % 3 == 0:
                            rmask |= (<uint32_t>1) << ((nr + x) // 3 + mr - x)
                    nacc = 0
                    for bit in range(16):
                        if (acc >> bit) & 1:
                            nacc |= rmask << bit
                    acc = nacc & 0xFFFF
                if acc & ((1 << 2) | (1 << 3) | (1 << 4)) == 0:
                    continue
                ni = 0
                for j in range(k):
                    for x in range(sel[j] - (1 if j == i else 0)):
                        items[ni] = types[j]
                        ni += 1
                for N in range(3, 6):
                    if (acc >> (N - 1)) & 1:
                        n = emit(out, n, mv_with_list(mv(K_LEARN, N, 0, types[i], s.spell[c]), items, ni))
    return n

cdef int gen_transmute(const SBState* s, int p, int rune, int maxw, int tag, uint64_t* out, int n) noexcept nogil:
    """Transmutation L4/L5 (L4 rule): learn where up to `maxw` pool tokens of another color bearing
    `rune` count as one Materia each; no 3-rune wilds. At least one such wild (else it is a plain Learn)."""
    cdef int c, pt, t, i, N, w, reals, ni
    cdef int r0, r1, r2, a0, b0
    cdef int items[LIST_MAX]
    cdef int pool2[NTYPE]
    for c in range(NCOL):
        if s.level[p][c] != 0:
            continue
        for pt in range(c * 3, c * 3 + 3):
            if s.pool[p][pt] == 0:
                continue
            for t in range(NTYPE):
                pool2[t] = s.pool[p][t]
            pool2[pt] -= 1
            # w = 1 or 2 wilds (other colors bearing `rune`), as a sorted pair of types a0 <= b0
            for a0 in range(NTYPE):
                if tcolor(a0) == c or trune(a0) != rune or pool2[a0] == 0:
                    continue
                for b0 in range(a0, NTYPE + 1):   # b0 == NTYPE: a single wild
                    if b0 < NTYPE:
                        if maxw < 2 or tcolor(b0) == c or trune(b0) != rune:
                            continue
                        if pool2[b0] - (1 if b0 == a0 else 0) <= 0:
                            continue
                        w = 2
                    else:
                        w = 1
                    # reals: any sub-multiset of the remaining color-c tokens
                    for r0 in range(pool2[c * 3] + 1):
                        for r1 in range(pool2[c * 3 + 1] + 1):
                            for r2 in range(pool2[c * 3 + 2] + 1):
                                reals = r0 + r1 + r2
                                N = 1 + reals + w
                                if N < 3 or N > 5:
                                    continue
                                ni = 0
                                for i in range(r0):
                                    items[ni] = c * 3
                                    ni += 1
                                for i in range(r1):
                                    items[ni] = c * 3 + 1
                                    ni += 1
                                for i in range(r2):
                                    items[ni] = c * 3 + 2
                                    ni += 1
                                items[ni] = a0
                                ni += 1
                                if w == 2:
                                    items[ni] = b0
                                    ni += 1
                                sort_items(items, ni)
                                n = emit(out, n, mv_with_list(mv(K_TRANSMUTE, N, tag, pt, s.spell[c]), items, ni))
    return n

cdef inline void sort_items(int* items, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = items[i]
        j = i - 1
        while j >= 0 and items[j] > v:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = v

cdef inline int lvl_for(const SBState* s, int p, int spell, int mode) noexcept nogil:
    if mode == MODE_OWN:
        return action_level(s, p, spell)
    if spell == CLONE:
        return 0   # Clone never copies another Clone
    return others_level(s, p, spell)

cdef int gen_morning(const SBState* s, int p, int mode, uint64_t* out, int n) noexcept nogil:
    cdef int t, L, lvl, q
    cdef bint room = s.pool_n[p] < POOL_LIMIT
    cdef bint others_room
    # T3 primary: Take 1 or Draw 2
    if room:
        for t in range(NTYPE):
            if s.altar[t] > 0:
                n = emit(out, n, mv(K_TAKE, 0, 0, t, 0))
        if can_draw(s):
            n = emit(out, n, mv(K_DRAW, 0, 0, 0, 0))
    lvl = lvl_for(s, p, SACRIFICE, mode)
    if lvl:
        for t in range(NTYPE):
            if s.pool[p][t] > 0 and (RUNE_MASK_BY_LEVEL[lvl - 3] >> trune(t)) & 1:
                n = emit(out, n, mv(K_SACRIFICE, 0, 0, t, 0))
    lvl = lvl_for(s, p, ERUPTION, mode)
    if lvl and can_draw(s):
        for L in range(3, lvl + 1):
            if s.pool_n[p] < L + 1:
                n = emit(out, n, mv(K_ERUPTION, L, 0, 0, 0))
    lvl = lvl_for(s, p, BLAZE, mode)
    if lvl:
        others_room = False
        for q in range(s.nplayers):
            if q != p and s.pool_n[q] < POOL_LIMIT:
                others_room = True
        if (room and can_draw(s)) or (s.altar_n > 0 and others_room):
            n = emit(out, n, mv(K_BLAZE, 0, 0, 0, 0))
    lvl = lvl_for(s, p, LEVITATION, mode)
    if lvl and room:
        for t in range(NTYPE):
            if s.altar[t] > 0 and (RUNE_MASK_BY_LEVEL[lvl - 3] >> trune(t)) & 1:
                n = emit(out, n, mv(K_LEVITATION, lvl, 0, 0, 0))
                break
    lvl = lvl_for(s, p, SHARING, mode)
    if lvl:
        others_room = False
        for q in range(s.nplayers):
            if q != p and s.pool_n[q] < POOL_LIMIT:
                others_room = True
        # C6: offered only if it moves a token. L3 takes 1 then draws 1; L4/L5 only take (then the
        # others draw 1 each): with an empty Altar and no one else able to draw, L4/L5 move nothing.
        others_room = others_room and can_draw(s)
        for L in range(3, lvl + 1):
            if others_room or (room and (s.altar_n > 0 or (L == 3 and can_draw(s)))):
                n = emit(out, n, mv(K_SHARING, L, 0, 0, 0))
    lvl = lvl_for(s, p, DIVINATION, mode)
    if lvl:
        # C6: the 2 Altar draws and the takes move tokens; L3's discard moves one even when nothing
        # can be drawn or taken (an empty Pouch and Discard box and a full pool, C10).
        for L in range(3, lvl + 1):
            if can_draw(s) or (room and s.altar_n > 0) or (L == 3 and s.pool_n[p] > 0):
                n = emit(out, n, mv(K_DIVINATION, L, 0, 0, 0))
    return n

cdef int gen_midday(const SBState* s, int p, int mode, uint64_t* out, int n) noexcept nogil:
    cdef int t, u, L, lvl, c, k
    cdef bint room = s.pool_n[p] < POOL_LIMIT
    cdef bint fam_room = s.fam_n[p] < FAMILIAR_SPACES
    cdef uint8_t colors_stored = 0
    cdef SBState tmp
    # T3 primary: Store 1
    if fam_room:
        for t in range(NTYPE):
            if s.pool[p][t] > 0:
                n = emit(out, n, mv(K_STORE, 0, 0, t, 0))
    lvl = lvl_for(s, p, PURIFICATION, mode)
    if lvl and s.altar_n > 0 and s.pool_n[p] > 0:
        for L in range(3, lvl + 1):
            n = emit(out, n, mv(K_PURIFICATION, L, 0, 0, 0))
    lvl = lvl_for(s, p, CURE, mode)
    if lvl and (s.pool_n[p] > 0 or (room and can_draw(s))):
        for L in range(3, lvl + 1):
            n = emit(out, n, mv(K_CURE, L, 0, 0, 0))
    lvl = lvl_for(s, p, OFFERING, mode)
    if lvl and fam_room and s.pool_n[p] > 0:
        for L in range(3, lvl + 1):
            n = emit(out, n, mv(K_OFFERING, L, 0, 0, 0))
    lvl = lvl_for(s, p, FEAST, mode)
    if lvl:
        for t in range(NTYPE):
            if s.fam[p][t] > 0:
                colors_stored |= 1 << tcolor(t)
        for t in range(NTYPE):
            if s.altar[t] == 0:
                continue
            if room and (colors_stored >> tcolor(t)) & 1:
                n = emit(out, n, mv(K_FEAST, 3, 0, t, 0))
            if lvl >= 4 and fam_room:
                n = emit(out, n, mv(K_FEAST, 4, 0, t, 0))
    if mode == MODE_OWN:
        lvl = action_level(s, p, CLONE)
        c = spell_color(s, CLONE)
        if lvl >= 3 and clone_has_copy(s, p, PH_MIDDAY):
            n = emit(out, n, mv(K_CLONE, 3, 0, 0, 0))
        if lvl >= 4 and clone_has_copy(s, p, PH_EVENING):
            n = emit(out, n, mv(K_CLONE, 4, 0, 0, 0))
        if lvl >= 5:
            for t in range(NTYPE):
                if s.pool[p][t] > 0 and trune(t) == s.rune[p][c]:
                    memcpy(&tmp, s, sizeof(SBState))
                    to_discard_from_pool(&tmp, p, t)
                    if clone_has_copy(&tmp, p, PH_MORNING):
                        n = emit(out, n, mv(K_CLONE, 5, 0, t, 0))
    return n

cdef bint clone_has_copy(const SBState* s, int p, int phase) noexcept nogil:
    cdef uint64_t buf[MAX_MOVES]
    return gen_phase(s, p, phase, MODE_CLONE, buf) > 0

cdef void rune_levels(const SBState* s, int p, int spell, int mode, int* levels) noexcept nogil:
    """levels[r]: the level at which p may use `spell` with rune r (0: not at all). Own action: p's own
    copy, learned before today (T4). Clone (C4): every other player who learned it, at the highest level
    among those holding rune r (a lower level is then available too)."""
    cdef int c = spell_color(s, spell), q, lvl
    levels[0] = 0
    levels[1] = 0
    levels[2] = 0
    if c < 0:
        return
    for q in range(s.nplayers):
        if mode == MODE_OWN:
            if q != p:
                continue
            lvl = action_level(s, p, spell)
        else:
            if q == p:
                continue
            lvl = own_level(s, q, spell)
        if lvl > levels[s.rune[q][c]]:
            levels[s.rune[q][c]] = lvl


cdef int gen_evening(const SBState* s, int p, int mode, uint64_t* out, int n) noexcept nogil:
    cdef int t, u, L, lvl, c, rune, c2
    cdef int levels[NRUNE]
    # T3 primary: Learn 1 Spell
    n = gen_learn(s, p, out, n)
    lvl = lvl_for(s, p, GROWTH, mode)
    if lvl:
        # D16: like Storm (C17), Growth L4/L5 is offered whenever the Altar holds a token; at a full
        # familiar its take-and-store moves nothing (P2), but moving its token down counts (C3, C6).
        if lvl >= 4 and s.altar_n > 0:
            for L in range(4, lvl + 1):
                n = emit(out, n, mv(K_GROWTH, L, 0, 0, 0))
        for t in range(NTYPE):
            if s.pool[p][t] > 0:
                for u in range(NTYPE):
                    if u != t and s.fam[p][u] > 0:
                        n = emit(out, n, mv(K_GROWTH, 3, 0, t, u))
    # Focus and Transmutation use the spell's rune: one's own, or (Clone, C4) the copied player's, at
    # that player's level or lower: per rune, the highest level any other player holds it at.
    rune_levels(s, p, FOCUS, mode, levels)
    for rune in range(NRUNE):
        if levels[rune]:
            n = gen_focus(s, p, levels[rune], rune, 0 if mode == MODE_OWN else rune + 1, out, n)
    rune_levels(s, p, TRANSMUTATION, mode, levels)
    for rune in range(NRUNE):
        if levels[rune] >= 4:
            n = gen_transmute(s, p, rune, levels[rune] - 3, 0 if mode == MODE_OWN else rune + 1, out, n)
    lvl = lvl_for(s, p, STORM, mode)
    # C17: Storm is offered whenever the Altar holds a token (its own token moving down counts, C6).
    if lvl >= 4 and s.altar_n > 0:
        for L in range(4, lvl + 1):
            n = emit(out, n, mv(K_STORM, L, 0, 0, 0))
    if mode == MODE_OWN:
        lvl = action_level(s, p, TIMETRAVEL)
        if lvl:
            for c2 in range(NCOL):
                if s.spell[c2] == TIMETRAVEL or s.level[p][c2] == 0 or s.level[p][c2] >= 5:
                    continue
                for t in range(NTYPE):
                    if s.pool[p][t] > 0 and (RUNE_MASK_BY_LEVEL[lvl - 3] >> trune(t)) & 1:
                        n = emit(out, n, mv(K_TIMETRAVEL, 0, 0, t, s.spell[c2]))
    return n

cdef int gen_focus(const SBState* s, int p, int lvl, int rune, int tag, uint64_t* out, int n) noexcept nogil:
    cdef int t, L
    cdef bint pool_match = False, altar_match = False
    for t in range(NTYPE):
        if trune(t) == rune:
            if s.pool[p][t] > 0:
                pool_match = True
            if s.altar[t] > 0:
                altar_match = True
    if pool_match and s.fam_n[p] < FAMILIAR_SPACES:
        for L in range(3, lvl + 1):
            n = emit(out, n, mv(K_FOCUS, L, 0, 0, tag))       # a = 0: store L-2
    if altar_match and s.pool_n[p] < POOL_LIMIT:
        for L in range(4, lvl + 1):
            n = emit(out, n, mv(K_FOCUS, L, 0, 1, tag))       # a = 1: take L-3
    return n

cdef int gen_phase(const SBState* s, int p, int phase, int mode, uint64_t* out) noexcept nogil:
    if phase == PH_MORNING:
        return gen_morning(s, p, mode, out, 0)
    if phase == PH_MIDDAY:
        return gen_midday(s, p, mode, out, 0)
    return gen_evening(s, p, mode, out, 0)

cdef int gen_discards(const SBState* s, int p, int k, uint64_t* out, int n) noexcept nogil:
    """All sub-multisets of size k of p's pool (Cure, Divination L3)."""
    cdef int types[NTYPE]
    cdef int cnt[NTYPE]
    cdef int sel[NTYPE]
    cdef int items[LIST_MAX]
    cdef int nt = 0, t, i, size, ni, x
    for t in range(NTYPE):
        if s.pool[p][t] > 0:
            types[nt] = t
            cnt[nt] = s.pool[p][t]
            sel[nt] = 0
            nt += 1
    while True:
        i = 0
        while i < nt and sel[i] == cnt[i]:
            sel[i] = 0
            i += 1
        if i == nt:
            break
        sel[i] += 1
        size = 0
        for i in range(nt):
            size += sel[i]
        if size != k:
            continue
        ni = 0
        for i in range(nt):
            for x in range(sel[i]):
                items[ni] = types[i]
                ni += 1
        n = emit(out, n, mv_with_list(mv(K_DISCARD, 0, 0, 0, 0), items, ni))
    return n

cdef int sb_legal_moves(const SBState* s, uint64_t* out) noexcept nogil:
    """The deciding player's legal moves at the current decision (0 at chance nodes / game over)."""
    cdef const Frame* f
    cdef int n = 0, t, u, p, k
    if s.over or s.sp == 0:
        return 0
    f = &s.stack[s.sp - 1]
    p = f.p
    if f.op == F_MORNING:
        out[0] = mv(K_PASS, 0, 0, 0, 0)
        return gen_morning(s, p, MODE_OWN, out, 1)
    if f.op == F_MIDDAY:
        out[0] = mv(K_PASS, 0, 0, 0, 0)
        return gen_midday(s, p, MODE_OWN, out, 1)
    if f.op == F_EVENING:
        out[0] = mv(K_PASS, 0, 0, 0, 0)
        return gen_evening(s, p, MODE_OWN, out, 1)
    if f.op == F_CLONE:
        return gen_phase(s, p, f.a, MODE_CLONE, out)
    if f.op == F_TAKE:
        if f.b & TF_MAY_STOP:
            n = emit(out, n, mv(K_PASS, 0, 0, 0, 0))
        for t in range(NTYPE):
            if take_ok(s, f, t):
                n = emit(out, n, mv(K_TAKE, 0, 0, t, 0))
        return n
    if f.op == F_STORE:
        for t in range(NTYPE):
            if store_ok(s, f, t):
                n = emit(out, n, mv(K_STORE, 0, 0, t, 0))
        return n
    if f.op == F_BLAZE:
        for t in range(NTYPE):
            if s.altar[t] > 0:
                n = emit(out, n, mv(K_TAKE, 0, 0, t, 0))
        return n
    if f.op == F_SWAP:
        for t in range(NTYPE):
            if s.altar[t] > s.given[t]:
                for u in range(NTYPE):
                    if s.pool[p][u] > s.taken[u]:
                        n = emit(out, n, mv(K_SWAP, 0, 0, t, u))
        return n
    if f.op == F_DISCARD:
        k = f.a if f.a < s.pool_n[p] else s.pool_n[p]
        return gen_discards(s, p, k, out, 0)
    if f.op == F_STORM:
        n = emit(out, n, mv(K_PASS, 0, 0, 0, 0))
        for t in range(f.b, NTYPE):
            if s.altar[t] > 0:
                n = emit(out, n, mv_with_list(mv(K_DISCARD, 0, 0, 0, 0), &t, 1))
        return n
    return 0

# ---------------------------------------------------------------------------------------------
# Applying moves
# ---------------------------------------------------------------------------------------------
cdef void apply_learn(SBState* s, int p, uint64_t m) noexcept nogil:
    """L1: place one token on the card at level N, the rest to the Discard box; then C7 Communion L5,
    then the instant effect (T5) of the exact level learned."""
    cdef int c = mv_b(m) // 3, N = mv_level(m), placed = mv_a(m), i, t, nl = 0
    cdef int spell = s.spell[c]
    cdef int comm_c = spell_color(s, COMMUNION)
    cdef bint communion5
    memset(s.justdisc, 0, NTYPE)
    s.pool[p][placed] -= 1
    s.pool_n[p] -= 1
    for i in range(mv_n(m)):
        t = mv_item(m, i)
        to_discard_from_pool(s, p, t)
        s.justdisc[t] += 1
    s.level[p][c] = N
    s.rune[p][c] = trune(placed)
    s.learned_day[p][c] = s.day
    for i in range(NCOL):
        if s.level[p][i] != 0:
            nl += 1
    if nl == NCOL:
        s.end_triggered = 1   # E1
    communion5 = comm_c >= 0 and s.level[p][comm_c] == 5
    # instant effects of the exact level (T5)
    if spell == SWIFTNESS and N <= 4:
        push(s, F_MORNING, p, 1, 0, 0, 0)
    elif spell == ABUNDANCE:
        push(s, F_DRAW_POOL, p, N - 1, 0, 0, 0)
    elif spell == COMMUNION and N == 3:
        push(s, F_TAKE, p, 3, TF_STORE_DIRECT, 0b111, 0x7F)
    if communion5:
        push(s, F_STORE, p, 2, TF_FROM_JUSTDISC, 0b111, 0x7F)   # C7: before the instant effect
    else:
        memset(s.justdisc, 0, NTYPE)

cdef void apply_action(SBState* s, int p, uint64_t m, bint cloned, int clone_level) noexcept nogil:
    """A phase action (primary or spell). `cloned`: copied by Clone, whose level moves down instead (C3)."""
    cdef int kind = mv_kind(m), L = mv_level(m), t = mv_a(m), u = mv_b(m), i, q, c, rune
    cdef int down_c, down_l
    if kind == K_TAKE:
        take_from_altar(s, p, t, False)
    elif kind == K_DRAW:
        push(s, F_DRAW_POOL, p, 2, 0, 0, 0)
    elif kind == K_STORE:
        store_from_pool(s, p, t)
    elif kind == K_LEARN or kind == K_TRANSMUTE:
        apply_learn(s, p, m)
    elif kind == K_SACRIFICE:
        to_discard_from_pool(s, p, t)
        push(s, F_DRAW_POOL, p, 4, 0, 0, 0)
    elif kind == K_ERUPTION:
        push(s, F_DRAW_POOL, p, L + 1 - s.pool_n[p], 0, 0, 0)   # C13: fixed when it starts
    elif kind == K_BLAZE:
        for i in range(s.nplayers - 1, 0, -1):                  # C14: then the others, from the left
            push(s, F_BLAZE, (p + i) % s.nplayers, 0, 0, 0, 0)
        push(s, F_DRAW_POOL, p, 4, 0, 0, 0)
    elif kind == K_LEVITATION:
        push(s, F_TAKE, p, 2, TF_FIX_RUNE, RUNE_MASK_BY_LEVEL[L - 3], 0x7F)
    elif kind == K_SHARING:
        for i in range(s.nplayers - 1, 0, -1):
            push(s, F_DRAW_POOL, (p + i) % s.nplayers, 1, 0, 0, 0)
        if L == 3:
            push(s, F_DRAW_POOL, p, 1, 0, 0, 0)
            push(s, F_TAKE, p, 1, 0, 0b111, 0x7F)
        else:
            push(s, F_TAKE, p, L - 2, 0, 0b111, 0x7F)
    elif kind == K_DIVINATION:
        if L == 3:
            push(s, F_DISCARD, p, 1, 0, 0, 0)
            push(s, F_TAKE, p, 2, 0, 0b111, 0x7F)
        elif L == 4:
            push(s, F_TAKE, p, 2, TF_MAY_STOP | TF_FIX_COLOR, 0b111, 0x7F)
        else:
            push(s, F_TAKE, p, 2, 0, 0b111, 0x7F)
        push(s, F_DRAW_ALTAR, p, 2, 0, 0, 0)
    elif kind == K_PURIFICATION:
        memset(s.taken, 0, NTYPE)
        memset(s.given, 0, NTYPE)
        push(s, F_SWAP, p, L - 2, 0, 0, 0)
    elif kind == K_CURE:
        push(s, F_DISCARD, p, L - 2, 0, 0, 0)
        push(s, F_DRAW_POOL, p, L - 2, 0, 0, 0)
    elif kind == K_OFFERING:
        push(s, F_STORE, p, L - 1, TF_FIX_COLOR, 0b111, 0x7F)
    elif kind == K_FEAST:
        take_from_altar(s, p, t, L == 4)
    elif kind == K_GROWTH:
        if L == 3:
            s.pool[p][t] -= 1
            s.fam[p][t] += 1
            s.fam[p][u] -= 1
            s.pool[p][u] += 1
        else:
            if cloned:
                down_c = spell_color(s, CLONE)
                down_l = clone_level - 1 if clone_level > 3 else 3
            else:
                down_c = spell_color(s, GROWTH)
                down_l = L - 1
            push(s, F_SETLEVEL, p, down_c, down_l, 0, 0)
            push(s, F_TAKE, p, L - 2, TF_STORE_DIRECT, 0b111, 0x7F)
    elif kind == K_FOCUS:
        c = spell_color(s, FOCUS)
        rune = (u - 1) if u else s.rune[p][c]
        if t == 0:
            push(s, F_STORE, p, L - 2, 0, 1 << rune, 0x7F)
        else:
            push(s, F_TAKE, p, L - 3, 0, 1 << rune, 0x7F)
    elif kind == K_TIMETRAVEL:
        to_discard_from_pool(s, p, t)
        s.level[p][mv_b(m) // 3] += 1       # raising never triggers instant effects (§7 Time Travel)
    elif kind == K_STORM:
        if cloned:
            down_c = spell_color(s, CLONE)
            down_l = clone_level - 1 if clone_level > 3 else 3
        else:
            down_c = spell_color(s, STORM)
            down_l = L - 1
        push(s, F_STORM, p, 0, 0, down_c, down_l)
    elif kind == K_CLONE:
        c = spell_color(s, CLONE)
        if L == 5:
            to_discard_from_pool(s, p, t)
            push(s, F_CLONE, p, PH_MORNING, s.level[p][c], 0, 0)
        else:
            push(s, F_CLONE, p, PH_MIDDAY if L == 3 else PH_EVENING, s.level[p][c], 0, 0)

cdef void sb_apply(SBState* s, uint64_t m) noexcept nogil:
    """Apply a legal move (or a chance outcome K_DRAWN) and advance. The move must be legal."""
    cdef Frame* f = top(s)
    cdef int kind = mv_kind(m), p = f.p, t = mv_a(m), u, i, clone_level, count, down_c, down_l
    cdef bint store_direct
    if kind == K_DRAWN:
        s.pouch[t] -= 1
        s.pouch_n -= 1
        if f.op == F_DRAW_POOL:
            s.pool[p][t] += 1
            s.pool_n[p] += 1
        else:
            s.altar[t] += 1
            s.altar_n += 1
        f.a -= 1
    elif f.op == F_MORNING or f.op == F_MIDDAY or f.op == F_EVENING:
        s.sp -= 1
        if kind != K_PASS:
            apply_action(s, p, m, False, 0)
    elif f.op == F_CLONE:
        clone_level = f.b
        s.sp -= 1
        apply_action(s, p, m, True, clone_level)
    elif f.op == F_TAKE:
        if kind == K_PASS:
            s.sp -= 1
        else:
            f.a -= 1
            if f.b & TF_FIX_RUNE:
                f.c = 1 << trune(t)
            if f.b & TF_FIX_COLOR:
                f.d = 1 << tcolor(t)
            store_direct = f.b & TF_STORE_DIRECT
            if f.a == 0:
                s.sp -= 1
            take_from_altar(s, p, t, store_direct)
    elif f.op == F_STORE:
        f.a -= 1
        if f.b & TF_FIX_COLOR:
            f.d = 1 << tcolor(t)
        if f.b & TF_FROM_JUSTDISC:
            s.justdisc[t] -= 1
            s.discard[t] -= 1
            s.discard_n -= 1
            s.fam[p][t] += 1
            s.fam_n[p] += 1
            check_familiar_end(s, p)
        else:
            store_from_pool(s, p, t)
        if f.a == 0:
            pop_frame(s)
    elif f.op == F_BLAZE:
        s.sp -= 1
        take_from_altar(s, p, t, False)
    elif f.op == F_SWAP:
        f.a -= 1
        # give first, then take: the pool never exceeds 9 (P1 "swaps are allowed at 9")
        u = mv_b(m)
        s.pool[p][u] -= 1
        s.altar[u] += 1
        s.given[u] += 1
        s.pool[p][t] += 1
        s.altar[t] -= 1
        s.taken[t] += 1
        if f.a == 0:
            pop_frame(s)
        if p == s.active:
            # Mirage on the taken token (C1); counts were already moved above
            mirage_after_take(s, p, t)
    elif f.op == F_DISCARD:
        s.sp -= 1
        for i in range(mv_n(m)):
            to_discard_from_pool(s, p, mv_item(m, i))
    elif f.op == F_STORM:
        if kind == K_PASS:
            count, down_c, down_l = f.a, f.c, f.d
            s.sp -= 1
            # C13: replacements drawn onto the Altar, then take 3, then the level moves down
            push(s, F_SETLEVEL, p, down_c, down_l, 0, 0)
            push(s, F_TAKE, p, 3, 0, 0b111, 0x7F)
            push(s, F_DRAW_ALTAR, p, count, 0, 0, 0)
        else:
            t = mv_item(m, 0)
            s.altar[t] -= 1
            s.altar_n -= 1
            s.discard[t] += 1
            s.discard_n += 1
            f.a += 1
            f.b = t
    sb_advance(s)

cdef void mirage_after_take(SBState* s, int p, int t) noexcept nogil:
    cdef int c = spell_color(s, MIRAGE), lvl
    if c >= 0:
        lvl = s.level[p][c]
        if lvl >= 3 and s.rune[p][c] == trune(t):
            push(s, F_DRAW_POOL, p, 1 if lvl == 3 else 2, 0, 0, 0)

# ---------------------------------------------------------------------------------------------
# Chance, information, scoring
# ---------------------------------------------------------------------------------------------
cdef int sb_chance_outcomes(const SBState* s, uint64_t* out, double* probs) noexcept nogil:
    cdef int t, n = 0
    if sb_current_player(s) != PLAYER_CHANCE:
        return 0
    for t in range(NTYPE):
        if s.pouch[t] > 0:
            out[n] = mv(K_DRAWN, 0, 0, t, 0)
            probs[n] = <double>s.pouch[t] / s.pouch_n
            n += 1
    return n

cdef uint64_t sb_sample_chance(const SBState* s, uint64_t* rng) noexcept nogil:
    cdef int r = <int>rand_below(rng, s.pouch_n), t
    for t in range(NTYPE):
        r -= s.pouch[t]
        if r < 0:
            return mv(K_DRAWN, 0, 0, t, 0)
    return mv(K_DRAWN, 0, 0, NTYPE - 1, 0)

cdef void sb_determinize(SBState* s, int observer, int knows_discard, uint64_t* rng) noexcept nogil:
    """§8: resample what `observer` cannot see. The Pouch's order (the future draws, i.e. `rng`) always;
    without Discard-box memory also which of the unseen tokens are in the Pouch vs the Discard box
    (the Pouch keeps its size; the tokens just discarded by a learning in progress stay visible)."""
    cdef int t, k, left, r
    cdef int hidden[NTYPE]
    cdef int total = 0
    s.rng = splitmix(rng)
    if knows_discard:
        return
    for t in range(NTYPE):
        hidden[t] = s.pouch[t] + s.discard[t] - s.justdisc[t]
        total += hidden[t]
        s.discard[t] = s.justdisc[t]
        s.pouch[t] = 0
    left = s.pouch_n
    for k in range(left):
        r = <int>rand_below(rng, total)
        for t in range(NTYPE):
            r -= hidden[t]
            if r < 0:
                break
        hidden[t] -= 1
        total -= 1
        s.pouch[t] += 1
    for t in range(NTYPE):
        s.discard[t] += hidden[t]

cdef int spell_points(const SBState* s, int p, int c) noexcept nogil:
    cdef int lvl = s.level[p][c]
    if lvl == 0:
        return 0
    return SPELL_POINTS[s.spell[c]][lvl - 3]

cdef void score_parts(const SBState* s, int p, int* parts) noexcept nogil:
    """parts[0..6] spells by color, [7] familiar, [8] Feast L5, [9] Knowledge, [10] Communion L4 (E3)."""
    cdef int c, t, nl = 0, lvl, colors = 0, other
    cdef int kc = spell_color(s, KNOWLEDGE), fc = spell_color(s, FEAST), cc = spell_color(s, COMMUNION)
    for c in range(NCOL):
        parts[c] = spell_points(s, p, c)
    parts[7] = FAMILIAR_VALUE[s.fam_n[p] if s.fam_n[p] <= 16 else 16]
    parts[8] = 0
    parts[9] = 0
    parts[10] = 0
    if fc >= 0 and s.level[p][fc] == 5:
        for c in range(NCOL):
            if s.fam[p][c * 3] + s.fam[p][c * 3 + 1] + s.fam[p][c * 3 + 2] > 0:
                colors += 1
        parts[8] = colors
    if kc >= 0 and s.level[p][kc] >= 3:
        lvl = s.level[p][kc]
        for c in range(NCOL):
            if c == kc or s.level[p][c] == 0:
                continue
            other = s.level[p][c]
            if lvl == 3:
                parts[9] += 1
            elif lvl == 4:
                parts[9] += 2 if other >= 4 else 1
            else:
                parts[9] += 2
    if cc >= 0 and s.level[p][cc] == 4:
        for t in range(NTYPE):
            if trune(t) == s.rune[p][cc]:
                parts[10] += s.fam[p][t]

cdef void sb_scores(const SBState* s, double* out) noexcept nogil:
    cdef int parts[11]
    cdef int p, i, total
    for p in range(s.nplayers):
        score_parts(s, p, parts)
        total = 0
        for i in range(11):
            total += parts[i]
        out[p] = total

cdef unsigned int sb_winners(const SBState* s) noexcept nogil:
    """E4: highest score; ties by most spells learned, then most pool tokens; then shared."""
    cdef double sc[MAXP]
    cdef long key[MAXP]
    cdef long best = -1
    cdef int p, c, nl
    cdef unsigned int mask = 0
    sb_scores(s, sc)
    for p in range(s.nplayers):
        nl = 0
        for c in range(NCOL):
            if s.level[p][c]:
                nl += 1
        key[p] = (<long>sc[p]) * 10000 + nl * 100 + s.pool_n[p]
        if key[p] > best:
            best = key[p]
    for p in range(s.nplayers):
        if key[p] == best:
            mask |= 1u << p
    return mask

cdef void sb_evaluate(const SBState* s, double* out) noexcept nogil:
    """Static estimate of each final score: current score plus a small value for pool tokens
    (raw material for spells and the familiar). Used only by truncated rollouts."""
    cdef int p
    sb_scores(s, out)
    for p in range(s.nplayers):
        out[p] += 0.35 * s.pool_n[p]

cdef uint64_t sb_observation_hash(const SBState* s, int player) noexcept nogil:
    """FNV-1a over the public part of the state: every field but `rng`, and only the live stack."""
    cdef const uint8_t* b = <const uint8_t*>s
    cdef size_t i, n = <size_t>(<const uint8_t*>&s.stack[s.sp] - b)
    cdef uint64_t h = <uint64_t>14695981039346656037ULL
    for i in range(n):
        h ^= b[i]
        h *= <uint64_t>1099511628211ULL
    return h ^ (<uint64_t>player * <uint64_t>0x9E3779B97F4A7C15ULL)

cdef void sb_canonicalize(SBState* s) noexcept nogil:
    """Zero the stale frames above the stack top so equal states are equal bytes."""
    memset(&s.stack[s.sp], 0, (STACK_MAX - s.sp) * sizeof(Frame))

cdef uint64_t sb_random_playout(SBState* s, uint64_t* rng) noexcept nogil:
    """Plays uniformly random moves and sampled draws to the end; returns the number of decisions made.
    Always returns: it stops early (the state then not over) after PLAYOUT_MAX_DECISIONS decisions, or at a
    decision without a legal move or a draw from an empty Pouch, which no valid state reaches."""
    cdef uint64_t moves[MAX_MOVES]
    cdef uint64_t count = 0
    cdef int n, cp
    while count < PLAYOUT_MAX_DECISIONS:
        cp = sb_current_player(s)
        if cp == PLAYER_TERMINAL:
            return count
        if cp == PLAYER_CHANCE:
            if s.pouch_n == 0:
                return count
            sb_apply(s, sb_sample_chance(s, rng))
        else:
            n = sb_legal_moves(s, moves)
            if n <= 0:
                return count
            sb_apply(s, moves[rand_below(rng, n)])
            count += 1
    return count

# ---------------------------------------------------------------------------------------------
# The GameVTable for search/ (game-agnostic interface)
# ---------------------------------------------------------------------------------------------
cdef int vt_num_players(const void* s) noexcept nogil:
    return (<const SBState*>s).nplayers

cdef int vt_current_player(const void* s) noexcept nogil:
    return sb_current_player(<const SBState*>s)

cdef int vt_legal_moves(const void* s, uint64_t* out) noexcept nogil:
    return sb_legal_moves(<const SBState*>s, out)

cdef void vt_apply(void* s, uint64_t m) noexcept nogil:
    sb_apply(<SBState*>s, m)

cdef uint64_t vt_sample_chance(const void* s, uint64_t* rng) noexcept nogil:
    return sb_sample_chance(<const SBState*>s, rng)

cdef int vt_chance_outcomes(const void* s, uint64_t* out, double* probs) noexcept nogil:
    return sb_chance_outcomes(<const SBState*>s, out, probs)

cdef void vt_determinize(void* s, int observer, int kind, uint64_t* rng) noexcept nogil:
    sb_determinize(<SBState*>s, observer, kind == 0, rng)

cdef void vt_scores(const void* s, double* out) noexcept nogil:
    sb_scores(<const SBState*>s, out)

cdef unsigned int vt_winners(const void* s) noexcept nogil:
    return sb_winners(<const SBState*>s)

cdef void vt_evaluate(const void* s, double* out) noexcept nogil:
    sb_evaluate(<const SBState*>s, out)

cdef double vt_move_weight(const void* s, uint64_t m) noexcept nogil:
    """Heuristic rollout prior: learning (more for higher levels) >> other actions > passing."""
    cdef int kind = mv_kind(m)
    if kind == K_LEARN or kind == K_TRANSMUTE:
        return 8.0 * (mv_level(m) - 2)
    if kind == K_PASS:
        return 0.25
    if kind == K_STORE:
        return 1.5
    return 1.0

include "features.pxi"

cdef GameVTable SPELLBOOK_VTABLE
SPELLBOOK_VTABLE.state_size = sizeof(SBState)
SPELLBOOK_VTABLE.max_moves = MAX_MOVES
SPELLBOOK_VTABLE.max_players = MAXP
SPELLBOOK_VTABLE.num_players = vt_num_players
SPELLBOOK_VTABLE.current_player = vt_current_player
SPELLBOOK_VTABLE.legal_moves = vt_legal_moves
SPELLBOOK_VTABLE.apply_move = vt_apply
SPELLBOOK_VTABLE.sample_chance = vt_sample_chance
SPELLBOOK_VTABLE.chance_outcomes = vt_chance_outcomes
SPELLBOOK_VTABLE.determinize = vt_determinize
SPELLBOOK_VTABLE.scores = vt_scores
SPELLBOOK_VTABLE.winners = vt_winners
SPELLBOOK_VTABLE.evaluate = vt_evaluate
SPELLBOOK_VTABLE.move_weight = vt_move_weight
SPELLBOOK_VTABLE.num_state_features = STATE_FEATURES
SPELLBOOK_VTABLE.num_move_features = MOVE_FEATURES
SPELLBOOK_VTABLE.feature_version = FEATURE_VERSION
SPELLBOOK_VTABLE.prefix_feature_version = 1                  # D100: version 2 extends version 1
SPELLBOOK_VTABLE.prefix_state_features = STATE_FEATURES_V1
SPELLBOOK_VTABLE.state_features = vt_state_features
SPELLBOOK_VTABLE.move_features = vt_move_features


def game_vtable():
    """A PyCapsule named 'search.GameVTable' holding SpellBook's C interface for search/."""
    return PyCapsule_New(<void*>&SPELLBOOK_VTABLE, b"search.GameVTable", NULL)


# ---------------------------------------------------------------------------------------------
# Python-facing core. `engine_c.State` (state.py) subclasses this with notation and validation.
# ---------------------------------------------------------------------------------------------
from libc.string cimport memcmp

FRAME_NAMES = {F_START_DAY: "start", F_MORNING: "morning", F_MIDDAY: "midday", F_EVENING: "evening",
               F_CLONE: "clone", F_TAKE: "take", F_STORE: "store", F_BLAZE: "blaze", F_SWAP: "swap",
               F_DISCARD: "discard", F_STORM: "storm", F_DRAW_POOL: "drawpool",
               F_DRAW_ALTAR: "drawaltar", F_RESUPPLY: "resupply", F_END_DAY: "endday",
               F_SETLEVEL: "setlevel"}
STEP_FLAGS = {"store_direct": TF_STORE_DIRECT, "may_stop": TF_MAY_STOP, "fix_rune": TF_FIX_RUNE,
              "fix_color": TF_FIX_COLOR, "from_justdisc": TF_FROM_JUSTDISC}
MOVE_KINDS = {K_PASS: "pass", K_TAKE: "take", K_DRAW: "draw", K_STORE: "store", K_LEARN: "learn",
              K_TRANSMUTE: "Transmutation", K_SACRIFICE: "Sacrifice", K_ERUPTION: "Eruption",
              K_BLAZE: "Blaze", K_LEVITATION: "Levitation", K_SHARING: "Sharing",
              K_DIVINATION: "Divination", K_PURIFICATION: "Purification", K_CURE: "Cure",
              K_OFFERING: "Offering", K_FEAST: "Feast", K_GROWTH: "Growth", K_FOCUS: "Focus",
              K_TIMETRAVEL: "TimeTravel", K_STORM: "Storm", K_CLONE: "Clone", K_SWAP: "swap",
              K_DISCARD: "discard", K_DRAWN: "drawn"}
LIMITS = {"pool": POOL_LIMIT, "familiar": FAMILIAR_SPACES, "copies": COPIES, "stack": STACK_MAX,
          "max_players": MAXP, "max_moves": MAX_MOVES, "list": LIST_MAX, "day": DAY_LIMIT,
          "playout_decisions": PLAYOUT_MAX_DECISIONS}


def encode_move(int kind, int level=0, int x=0, int a=0, int b=0, items=()):
    """Pack move fields into the uint64 code (items: token types, sorted here)."""
    cdef int buf[LIST_MAX]
    cdef int i
    lst = sorted(items)
    if len(lst) > LIST_MAX:
        raise ValueError(f"a move lists at most {LIST_MAX} tokens, got {len(lst)}")
    for i in range(len(lst)):
        buf[i] = lst[i]
    return mv_with_list(mv(kind, level, x, a, b), buf, len(lst))


def decode_move(uint64_t m):
    """(kind, level, x, a, b, items) of a move code."""
    return (mv_kind(m), mv_level(m), mv_x(m), mv_a(m), mv_b(m),
            tuple(mv_item(m, i) for i in range(mv_n(m))))


cdef class CoreState:
    """The C state plus thin, unchecked accessors. Use engine_c.State."""
    cdef SBState s

    def _init(self, int players, spells, uint64_t seed):
        cdef uint8_t sp[NCOL]
        for c in range(NCOL):
            sp[c] = spells[c]
        sb_init(&self.s, players, sp, seed)

    def _copy_from(self, CoreState other):
        memcpy(&self.s, &other.s, sizeof(SBState))

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        sb_canonicalize(&self.s)
        sb_canonicalize(&(<CoreState>other).s)
        return memcmp(&self.s, &(<CoreState>other).s, sizeof(SBState)) == 0

    def __hash__(self):
        return <Py_ssize_t>sb_observation_hash(&self.s, 0) ^ <Py_ssize_t>self.s.rng

    @property
    def current_player(self):
        """The seat deciding next; -1 at a chance event (a draw); -2 when the game is over."""
        return sb_current_player(&self.s)

    def _legal_codes(self):
        cdef uint64_t[::1] buf = _scratch
        cdef int n = sb_legal_moves(&self.s, &buf[0])
        return [buf[i] for i in range(n)]

    def _apply_code(self, uint64_t m):
        sb_apply(&self.s, m)

    def _chance_codes(self):
        cdef uint64_t[::1] buf = _scratch
        cdef double probs[NTYPE]
        cdef int n = sb_chance_outcomes(&self.s, &buf[0], probs)
        return [(buf[i], probs[i]) for i in range(n)]

    def _sample_chance_code(self):
        """One chance outcome drawn with the state's own rng (which then advances)."""
        return sb_sample_chance(&self.s, &self.s.rng)

    def _determinize(self, int observer, bint knows_discard, uint64_t seed):
        cdef uint64_t rng = seed
        sb_determinize(&self.s, observer, knows_discard, &rng)

    def _score_parts(self):
        cdef int parts[11]
        out = []
        for p in range(self.s.nplayers):
            score_parts(&self.s, p, parts)
            out.append([parts[i] for i in range(11)])
        return out

    def _winners_mask(self):
        return sb_winners(&self.s)

    def _state_bytes(self):
        """The C state as bytes (what search/ copies into its own buffers)."""
        sb_canonicalize(&self.s)
        return (<char*>&self.s)[:sizeof(SBState)]

    def _load_state_bytes(self, bytes data):
        if len(data) != sizeof(SBState):
            raise ValueError(f"state bytes must be {sizeof(SBState)} long, got {len(data)}")
        memcpy(&self.s, <const char*>data, sizeof(SBState))

    def _random_playout(self, uint64_t seed):
        """Random moves and draws to the end, all in C; returns the number of decisions."""
        cdef uint64_t rng = seed
        cdef uint64_t n
        with nogil:
            n = sb_random_playout(&self.s, &rng)
        return n

    def _to_raw(self):
        """Every field of the C state as plain Python data (the notation works on this)."""
        cdef int p, i
        n = self.s.nplayers
        return {
            "players": n,
            "spell": [self.s.spell[c] for c in range(NCOL)],
            "pouch": [self.s.pouch[t] for t in range(NTYPE)],
            "altar": [self.s.altar[t] for t in range(NTYPE)],
            "discard": [self.s.discard[t] for t in range(NTYPE)],
            "pool": [[self.s.pool[p][t] for t in range(NTYPE)] for p in range(n)],
            "fam": [[self.s.fam[p][t] for t in range(NTYPE)] for p in range(n)],
            "level": [[self.s.level[p][c] for c in range(NCOL)] for p in range(n)],
            "rune": [[self.s.rune[p][c] for c in range(NCOL)] for p in range(n)],
            "learned_day": [[self.s.learned_day[p][c] for c in range(NCOL)] for p in range(n)],
            "day": self.s.day,
            "active": self.s.active,
            "end_triggered": self.s.end_triggered,
            "over": self.s.over,
            "phase": self.s.phase,
            "stack": [(self.s.stack[i].op, self.s.stack[i].p, self.s.stack[i].a, self.s.stack[i].b,
                       self.s.stack[i].c, self.s.stack[i].d) for i in range(self.s.sp)],
            "taken": [self.s.taken[t] for t in range(NTYPE)],
            "given": [self.s.given[t] for t in range(NTYPE)],
            "justdisc": [self.s.justdisc[t] for t in range(NTYPE)],
            "rng": self.s.rng,
        }

    def _from_raw(self, raw):
        """Load a raw dict (as made by _to_raw, already validated); derived counts are recomputed."""
        cdef int p, t, c, i
        memset(&self.s, 0, sizeof(SBState))
        n = raw["players"]
        self.s.nplayers = n
        for c in range(NCOL):
            self.s.spell[c] = raw["spell"][c]
        for t in range(NTYPE):
            self.s.pouch[t] = raw["pouch"][t]
            self.s.altar[t] = raw["altar"][t]
            self.s.discard[t] = raw["discard"][t]
            self.s.taken[t] = raw["taken"][t]
            self.s.given[t] = raw["given"][t]
            self.s.justdisc[t] = raw["justdisc"][t]
            self.s.pouch_n += raw["pouch"][t]
            self.s.altar_n += raw["altar"][t]
            self.s.discard_n += raw["discard"][t]
        for p in range(n):
            for t in range(NTYPE):
                self.s.pool[p][t] = raw["pool"][p][t]
                self.s.fam[p][t] = raw["fam"][p][t]
                self.s.pool_n[p] += raw["pool"][p][t]
                self.s.fam_n[p] += raw["fam"][p][t]
            for c in range(NCOL):
                self.s.level[p][c] = raw["level"][p][c]
                self.s.rune[p][c] = raw["rune"][p][c]
                self.s.learned_day[p][c] = raw["learned_day"][p][c]
        self.s.day = raw["day"]
        self.s.active = raw["active"]
        self.s.end_triggered = raw["end_triggered"]
        self.s.over = raw["over"]
        self.s.phase = raw["phase"]
        if len(raw["stack"]) > STACK_MAX:
            raise ValueError(f"the pending-step stack holds at most {STACK_MAX} steps")
        self.s.sp = len(raw["stack"])
        for i, fr in enumerate(raw["stack"]):
            self.s.stack[i].op, self.s.stack[i].p, self.s.stack[i].a = fr[0], fr[1], fr[2]
            self.s.stack[i].b, self.s.stack[i].c, self.s.stack[i].d = fr[3], fr[4], fr[5]
        self.s.rng = raw["rng"]


cdef uint64_t[::1] _scratch = __import__("array").array("Q", bytes(8 * MAX_MOVES))


def random_playouts(int players, spells, int games, uint64_t seed):
    """Whole random games in C from fresh states (the benchmark's compiled loop).
    Returns (decisions, days) summed over the games."""
    cdef SBState s
    cdef uint8_t sp[NCOL]
    cdef uint64_t rng = seed, decisions = 0, days = 0
    cdef int g
    for c in range(NCOL):
        sp[c] = spells[c]
    with nogil:
        for g in range(games):
            sb_init(&s, players, sp, splitmix(&rng))
            decisions += sb_random_playout(&s, &rng)
            days += s.day + 1
    return decisions, days
