# Included by _engine.pyx: SpellBook's features for a learned evaluation (search/game.pxd's
# state_features / move_features). Version FEATURE_VERSION; a model records the version it was trained on
# and refuses to load on another (search/model.py).
#
# Contract: state features are a function of what `observer` sees — every public field, the Pouch and
# Discard multisets (§8: a player who remembers the Discard box knows both), never `rng` (the Pouch's
# order, the hidden future). Seats are relative to the observer: block 0 is the observer, block k the
# seat k places to its left, zeros for absent seats. A test checks that two states with the same
# observation give identical features.

cdef enum:
    FEATURE_VERSION = 1
    SEAT_FEATURES = 54
    GLOBAL_FEATURES = 121
    STATE_FEATURES = GLOBAL_FEATURES + MAXP * SEAT_FEATURES    # 337
    MOVE_FEATURES = 69
    NFRAME_OPS = 17
    NKINDS = 24

cdef void sb_state_features(const SBState* s, int observer, float* out) noexcept nogil:
    cdef int i, k, p, c, t, n = s.nplayers, o = 0, op
    cdef int parts[11]
    cdef int total, learned
    cdef const Frame* f
    memset(out, 0, STATE_FEATURES * sizeof(float))
    # -- global block
    if 2 <= n <= 4:
        out[o + n - 2] = 1.0
    o += 3
    for c in range(NCOL):
        if s.spell[c] < NSPELL:
            out[o + c * 3 + s.spell[c] % 3] = 1.0
    o += 21
    for t in range(NTYPE):
        out[o + t] = s.altar[t] * 0.2
        out[o + 21 + t] = s.pouch[t] * 0.2
        out[o + 42 + t] = s.discard[t] * 0.2
    o += 63
    out[o] = s.altar_n * 0.1
    out[o + 1] = s.pouch_n / 105.0
    out[o + 2] = s.discard_n / 105.0
    o += 3
    if s.phase < 6:
        out[o + s.phase] = 1.0
    o += 6
    if s.sp > 0:
        f = &s.stack[s.sp - 1]
        op = f.op
        if op < NFRAME_OPS:
            out[o + op] = 1.0
        out[o + NFRAME_OPS] = f.a * 0.1
        out[o + NFRAME_OPS + 1] = f.b * 0.1
    o += NFRAME_OPS + 2
    if n > 0:
        out[o + (s.active - observer + n) % n] = 1.0
    o += 4
    out[o] = (s.day // (n if n > 0 else 1)) / 30.0
    out[o + 1] = 1.0 if s.end_triggered else 0.0
    o += 2
    # -- one block per seat, relative to the observer
    for k in range(n if n <= MAXP else MAXP):
        p = (observer + k) % n
        i = GLOBAL_FEATURES + k * SEAT_FEATURES
        out[i] = 1.0
        for t in range(NTYPE):
            out[i + 1 + t] = s.pool[p][t] / 3.0
        out[i + 22] = s.pool_n[p] / 9.0
        for c in range(NCOL):
            out[i + 23 + c] = (s.fam[p][c * 3] + s.fam[p][c * 3 + 1] + s.fam[p][c * 3 + 2]) * 0.2
        out[i + 30] = s.fam_n[p] / 16.0
        learned = 0
        for c in range(NCOL):
            if s.level[p][c]:
                learned += 1
                out[i + 31 + c] = 1.0
                out[i + 38 + c] = s.level[p][c] * 0.2
                if s.learned_day[p][c] < s.day:
                    out[i + 45 + c] = 1.0       # usable as an action today (T4)
        score_parts(s, p, parts)
        total = 0
        for c in range(11):
            total += parts[c]
        out[i + 52] = total / 40.0
        out[i + 53] = learned / 7.0

cdef inline void token_onehot(float* out, int t) noexcept nogil:
    """Color (7) and rune (3) of token type t into out[0..9]."""
    if 0 <= t < NTYPE:
        out[tcolor(t)] = 1.0
        out[7 + trune(t)] = 1.0

cdef void sb_move_features(const SBState* s, uint64_t m, float* out) noexcept nogil:
    """What a move is, from its code alone (cheap: no move is applied). The state's features give the
    context; the policy head combines the two."""
    cdef int kind = mv_kind(m), lvl = mv_level(m), a = mv_a(m), b = mv_b(m), x = mv_x(m)
    cdef int nitems = mv_n(m), i, it, o = 0
    memset(out, 0, MOVE_FEATURES * sizeof(float))
    if kind < NKINDS:
        out[kind] = 1.0
    o += NKINDS
    out[o + (lvl - 2 if 3 <= lvl <= 5 else 0)] = 1.0
    o += 4
    if kind != K_FOCUS and kind != K_ERUPTION and kind != K_SHARING:
        token_onehot(out + o, a)
    o += 10
    if x < 4:
        out[o + x] = 1.0
    o += 4
    out[o] = nitems / 8.0
    for i in range(nitems):
        it = mv_item(m, i)
        if it < NTYPE:
            out[o + 1 + tcolor(it)] += 0.25
            out[o + 8 + trune(it)] += 0.25
    o += 11
    if (kind == K_LEARN or kind == K_TRANSMUTE or kind == K_TIMETRAVEL) and b < NSPELL:
        if 3 <= lvl <= 5:
            out[o] = SPELL_POINTS[b][lvl - 3] / 8.0
        out[o + 1 + SPELL_PHASE[b]] = 1.0
    o += 5
    out[o] = b / 31.0
    o += 1
    if kind == K_GROWTH or kind == K_SWAP:
        token_onehot(out + o, b)
    o += 10                                   # o == MOVE_FEATURES

cdef void vt_state_features(const void* s, int observer, float* out) noexcept nogil:
    sb_state_features(<const SBState*>s, observer, out)

cdef void vt_move_features(const void* s, uint64_t m, float* out) noexcept nogil:
    sb_move_features(<const SBState*>s, m, out)
