# Included by _engine.pyx: SpellBook's features for a learned evaluation (engine_c/game.pxd's
# state_features / move_features). Version FEATURE_VERSION; a model records the version it was trained on
# and refuses to load on another (search/model.py), except version 1: version 2 appends a block to
# version 1's layout (D100), so a version-1 model reads the first STATE_FEATURES_V1 floats.
#
# Contract: state features are a function of what `observer` sees — every public field, the Pouch and
# Discard multisets (§8: a player who remembers the Discard box knows both), never `rng` (the Pouch's
# order, the hidden future). Seats are relative to the observer: block 0 is the observer, block k the
# seat k places to its left, zeros for absent seats. A test checks that two states with the same
# observation give identical features.

cdef enum:
    FEATURE_VERSION = 2
    SEAT_FEATURES = 54
    GLOBAL_FEATURES = 121
    STATE_FEATURES_V1 = GLOBAL_FEATURES + MAXP * SEAT_FEATURES    # 337: version 1, the prefix of version 2
    # Version 2's block, after version 1's: the end of the game (issue 22 item 3), where version 1's value
    # was weakest. Derived from the same observation (no new information), but the quantities a player
    # counts with are nonlinear in it: tokens still lacking per spell, the chance of drawing them, points
    # still in reach, Days left.
    GLOBAL_FEATURES_V2 = 10
    SEAT_FEATURES_V2 = 26
    STATE_FEATURES = STATE_FEATURES_V1 + GLOBAL_FEATURES_V2 + MAXP * SEAT_FEATURES_V2   # 451
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
    sb_state_features_v2(s, observer, out + STATE_FEATURES_V1)


cdef inline double draw_at_least(int pool_size, int kind, int draws, int need) noexcept nogil:
    """P(at least `need` of `kind` tokens among `draws` (0..2) drawn from `pool_size`) (hypergeometric)."""
    cdef double none
    if need <= 0:
        return 1.0
    if draws <= 0 or need > draws or pool_size <= 0 or kind <= 0:
        return 0.0
    if draws == 1 or pool_size < 2:
        return kind / <double>pool_size if need == 1 else 0.0
    none = (pool_size - kind) * (pool_size - kind - 1) / <double>(pool_size * (pool_size - 1))
    if need == 1:
        return 1.0 - none
    return kind * (kind - 1) / <double>(pool_size * (pool_size - 1))


cdef inline int lacking(int real, int wilds, int level) noexcept nogil:
    """Tokens still missing to learn a spell at `level` (L1, L2): `real` of its color in the pool (one must
    be real: it goes on the card), `wilds` complete same-rune triples of other colors."""
    cdef int need = level - real - wilds
    if real == 0 and need < 1:
        need = 1
    return need if need > 0 else 0


cdef void sb_state_features_v2(const SBState* s, int observer, float* out) noexcept nogil:
    """Version 2's block (STATE_FEATURES - STATE_FEATURES_V1 floats, already zeroed), from what `observer`
    sees: the Pouch and Discard multisets, every pool, familiar and spell (the same sources as version 1)."""
    cdef int n = s.nplayers, k, p, c, r, t, i, lvl, best, real, wilds, lack3, draws, src_n, pts
    cdef int src[NCOL]
    cdef int color_n[NCOL]
    cdef int rune_n[NRUNE]
    cdef int altar_color[NCOL]
    cdef int fewest_spells = 7, fewest_spaces = 16, reach, now_pts, headroom, ready
    # -- global: where the next draw comes from (the Discard box when the Pouch is empty, A3)
    src_n = s.pouch_n if s.pouch_n > 0 else s.discard_n
    for c in range(NCOL):
        src[c] = 0
        altar_color[c] = 0
        for r in range(NRUNE):
            src[c] += s.pouch[c * 3 + r] if s.pouch_n > 0 else s.discard[c * 3 + r]
            altar_color[c] += s.altar[c * 3 + r]
        if src_n > 0:
            out[c] = src[c] / <double>src_n             # one draw's chance of this color
    for k in range(n if n <= MAXP else MAXP):
        p = (observer + k) % n
        t = 0
        for c in range(NCOL):
            if s.level[p][c]:
                t += 1
        fewest_spells = min(fewest_spells, 7 - t)
        fewest_spaces = min(fewest_spaces, 16 - s.fam_n[p] if s.fam_n[p] <= 16 else 0)
    out[7] = fewest_spells / 7.0                        # how near the end trigger is (E1)
    out[8] = fewest_spaces / 16.0
    if s.end_triggered and n > 0 and s.active < n:
        out[9] = (n - 1 - s.active) / 3.0               # Days after this one (E2: seat n-1 plays last)
    # -- one block per seat, relative to the observer
    for k in range(n if n <= MAXP else MAXP):
        p = (observer + k) % n
        i = GLOBAL_FEATURES_V2 + k * SEAT_FEATURES_V2
        for r in range(NRUNE):
            rune_n[r] = 0
        for c in range(NCOL):
            color_n[c] = s.pool[p][c * 3] + s.pool[p][c * 3 + 1] + s.pool[p][c * 3 + 2]
            for r in range(NRUNE):
                rune_n[r] += s.pool[p][c * 3 + r]
        draws = 9 - s.pool_n[p] if s.pool_n[p] < 9 else 0     # P1: a full pool gains nothing
        if draws > 2:
            draws = 2
        reach = 0
        now_pts = 0
        headroom = 0
        ready = 0
        for c in range(NCOL):
            if s.spell[c] >= NSPELL:
                continue
            if s.level[p][c]:
                pts = SPELL_POINTS[s.spell[c]][2] - SPELL_POINTS[s.spell[c]][s.level[p][c] - 3]
                headroom += pts if pts > 0 else 0        # what Time Travel could still add
                continue
            real = color_n[c]
            wilds = 0
            for r in range(NRUNE):                      # same-rune triples of the other colors
                wilds += (rune_n[r] - s.pool[p][c * 3 + r]) // 3
            # progress towards learning it at level 3 and at level 5 (0: nothing towards it, 1: learnable;
            # progress rather than what is lacking keeps the early game's features zero, which is cheap)
            lack3 = lacking(real, wilds, 3)
            out[i + c] = (3 - lack3) / 3.0
            out[i + 7 + c] = (5 - lacking(real, wilds, 5)) / 5.0
            # the chance one Morning action (Take 1 or Draw 2) leaves it learnable at level 3
            if lack3 == 0:
                out[i + 14 + c] = 1.0
            elif lack3 == 1 and altar_color[c] > 0 and draws > 0:
                out[i + 14 + c] = 1.0
            else:
                out[i + 14 + c] = draw_at_least(src_n, src[c], draws, lack3)
            best = 0
            for lvl in range(3, 6):
                if SPELL_POINTS[s.spell[c]][lvl - 3] > best:
                    best = SPELL_POINTS[s.spell[c]][lvl - 3]
            reach += best
            if lack3 == 0:
                ready += 1
                best = 0
                for lvl in range(3, 6):
                    if lacking(real, wilds, lvl) == 0 and SPELL_POINTS[s.spell[c]][lvl - 3] > best:
                        best = SPELL_POINTS[s.spell[c]][lvl - 3]
                now_pts += best
        if s.end_triggered and p > s.active:
            out[i + 21] = 1.0                           # this seat still has a Day (E2)
        out[i + 22] = reach / 40.0                      # points its unlearned spells could still give
        out[i + 23] = now_pts / 20.0                    # points it could learn with its pool as it is
        out[i + 24] = headroom / 20.0
        out[i + 25] = ready / 7.0

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
