# cython: language_level=3
"""Abracada…What? rules in C (../shared/rules/ABRACADAWHAT.md; rule ids XS/XT/XR/XG/XI/XC/XV in comments).

The state is a fixed-size, trivially copyable struct (`ABState`, _engine.pxd). Stones are spell numbers
1-8; every zone is a multiset of counts (XC5: the pile's order is no part of the state), so a refill, a
deal step or a Night Singer take is a chance event whose outcome is the spell of the stone, with
probability count / size. Die rolls are chance events too (XC4).

Moves and chance outcomes are small uint64 codes: `cast n` = n (1-8), `end` = 9; chance outcomes
`stone n` = 16 + n and `roll d` = 32 + d.

Determinization (XC6) is exact: the posterior over the observer's own hand is computed by a forward pass
over hand multisets (the observer's own stones are a uniform sample without replacement from the stones
it cannot see; each own announcement keeps the hands it is consistent with), cached per observation and
thread, and sampled; the rest of the unseen stones are then split uniformly between the pile, the
remaining secret stones and the other seats' secret stones.
"""
from libc.stdint cimport uint8_t, uint16_t, uint64_t
from libc.string cimport memset, memcpy, memcmp
from libc.math cimport exp, log

from engine_c.game cimport GameVTable, PLAYER_CHANCE, PLAYER_TERMINAL
from engine_c.rng cimport rand_below, rand_unit, splitmix
from cpython.pycapsule cimport PyCapsule_New

cdef extern from *:
    """
    #include <pthread.h>
    #include <stdlib.h>
    /* One determinization cache per thread (search threads determinize concurrently); freed with the thread. */
    static pthread_key_t ab_cache_key;
    static pthread_once_t ab_cache_once = PTHREAD_ONCE_INIT;
    static void ab_cache_make_key(void) { pthread_key_create(&ab_cache_key, free); }
    static void* ab_thread_cache(size_t size) {
        void* p;
        pthread_once(&ab_cache_once, ab_cache_make_key);
        p = pthread_getspecific(ab_cache_key);
        if (p == NULL) {
            p = calloc(1, size);
            if (p != NULL && pthread_setspecific(ab_cache_key, p) != 0) { free(p); p = NULL; }
        }
        return p;
    }
    """
    void* ab_thread_cache(size_t size) nogil

# ---------------------------------------------------------------------------------------------
# Codes and enums
# ---------------------------------------------------------------------------------------------
cdef enum:
    M_END = 9
    C_STONE = 16
    C_ROLL = 32

cdef enum:
    PH_DEAL = 0
    PH_DECIDE = 1
    PH_ROLL = 2
    PH_SECRET = 3
    PH_REFILL = 4
    PH_OVER = 5

cdef enum:
    ROLL_DRAGON = 1          # Ancient Dragon cast: every other player loses the roll (§4)
    ROLL_DRAGON_FAIL = 2     # Ancient Dragon failed: the caster loses the roll (XT1, XC8)
    ROLL_DREAM = 3           # Sweet Dream: the caster gains the roll (§4)

cdef enum:
    V_EASY = 1               # XV1
    V_LAST = 2               # XV2

cdef enum:
    R_EMPTY = 1              # XR2 (and XV2's emptied hand)
    R_KO = 2                 # XR3
    R_SELF = 3               # XR4
    R_LAST = 4               # XV2: one player survives

cdef enum:
    LOG_CAST_OK = 1          # log entry [kind << 4 | seat, spell | roll << 4]
    LOG_CAST_FAIL = 2
    LOG_TURN_END = 3         # [kind << 4 | seat, stones refilled]

cdef enum:
    MS_COUNT = 1287          # multisets of 0..5 stones over 8 spells: sum of C(h + 7, 7), h = 0..5
    KEY_MAX = 2 + NSPELL + 2 * LOG_MAX
    CACHE_ENTRIES = 4

# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------
cdef inline int removed_count(int n) noexcept nogil:
    """XS2: 12 stones removed face up with 2 players, 6 with 3, none with 4-5."""
    if n == 2:
        return 12
    if n == 3:
        return 6
    return 0

cdef inline int deal_total(int n) noexcept nogil:
    return removed_count(n) + HAND_SIZE * n + SECRETS

cdef inline bint last_standing(const ABState* s) noexcept nogil:
    return (s.variants & V_LAST) != 0

cdef inline bint is_in(const ABState* s, int p) noexcept nogil:
    """In the round: every seat in the base game; in XV2 a seat at 0 life is out (XC13)."""
    return s.life[p] > 0 or not last_standing(s)

cdef inline int left_of(const ABState* s, int p) noexcept nogil:
    """The nearest seat still in on p's left (seat + 1, XT5; XC13), or -1."""
    cdef int k, q
    for k in range(1, s.nplayers):
        q = (p + k) % s.nplayers
        if is_in(s, q):
            return q
    return -1

cdef inline int right_of(const ABState* s, int p) noexcept nogil:
    cdef int k, q
    for k in range(1, s.nplayers):
        q = (p - k + s.nplayers) % s.nplayers
        if is_in(s, q):
            return q
    return -1

cdef inline void lose(ABState* s, int p, int amount) noexcept nogil:
    """XT3: life lost below 0 counts as 0."""
    if amount >= s.life[p]:
        s.life[p] = 0
    else:
        s.life[p] -= amount

cdef inline void gain(ABState* s, int p, int amount) noexcept nogil:
    """XT3: life never exceeds 6; a gain above it is lost."""
    cdef int v = s.life[p] + amount
    s.life[p] = START_LIFE if v > START_LIFE else v

cdef inline void log_push(ABState* s, int kind, int seat, int value) noexcept nogil:
    if s.log_n < LOG_MAX:      # the rules bound a round's log below LOG_MAX (see _engine.pxd)
        s.log[s.log_n][0] = (kind << 4) | seat
        s.log[s.log_n][1] = value
        s.log_n += 1

cdef inline int alive_count(const ABState* s) noexcept nogil:
    cdef int p, k = 0
    for p in range(s.nplayers):
        if s.life[p] > 0:
            k += 1
    return k

# ---------------------------------------------------------------------------------------------
# Setup, rounds (XS2, XR6)
# ---------------------------------------------------------------------------------------------
cdef void start_round(ABState* s, int first) noexcept nogil:
    """XS2/XR6: every stone gathered (the pile holds all 36 until dealt), 6 life each, the deal pending."""
    cdef int p, k
    for p in range(MAXP):
        memset(s.hand[p], 0, NS1)
        memset(s.cast[p], 0, NS1)
        memset(s.taken[p], 0, NS1)
        s.hand_n[p] = 0
        s.taken_n[p] = 0
        s.life[p] = START_LIFE if p < s.nplayers else 0
    memset(s.secret, 0, NS1)
    memset(s.removed, 0, NS1)
    s.pile[0] = 0
    for k in range(1, NS1):
        s.pile[k] = k          # XS1: spell k has k stones
    s.pile_n = STONES
    s.secret_n = 0
    s.removed_n = 0
    memset(s.log, 0, sizeof(s.log))
    s.log_n = 0
    s.phase = PH_DEAL
    s.pending = 0
    s.active = first
    s.last_cast = 0
    s.roll_kind = 0

cdef void ab_init(ABState* s, int nplayers, int variants, uint64_t seed) noexcept nogil:
    """A new game at its first chance event (the first stone of the deal). Seat 0 starts (XS3)."""
    memset(s, 0, sizeof(ABState))
    s.nplayers = nplayers
    s.variants = variants
    s.rng = seed
    start_round(s, 0)

cdef void deal_stone(ABState* s, int k) noexcept nogil:
    """XC5's order: the removed stones (2-3 players), 5 to each seat from seat 0 up, the 4 secret stones."""
    cdef int step = s.pending, nr = removed_count(s.nplayers), p
    s.pile[k] -= 1
    s.pile_n -= 1
    if step < nr:
        s.removed[k] += 1
        s.removed_n += 1
    elif step < nr + HAND_SIZE * s.nplayers:
        p = (step - nr) // HAND_SIZE
        s.hand[p][k] += 1
        s.hand_n[p] += 1
    else:
        s.secret[k] += 1
        s.secret_n += 1
    s.pending += 1
    if s.pending == deal_total(s.nplayers):
        s.pending = 0
        s.phase = PH_DECIDE
        s.last_cast = 0

# ---------------------------------------------------------------------------------------------
# Round end and scoring (XR1-XR5, XC2, XC10, XC11, XC13, XV2, XG1)
# ---------------------------------------------------------------------------------------------
cdef void round_end(ABState* s, int reason, int seat) noexcept nogil:
    cdef int p, n = s.nplayers
    cdef uint8_t sc[MAXP]
    cdef uint8_t* h
    memset(sc, 0, MAXP)
    if reason == R_EMPTY:
        for p in range(n):
            if p != seat:
                s.life[p] = 0          # XR2: every other player's life becomes 0
        sc[seat] = (2 if last_standing(s) else 3) + s.taken_n[seat]      # XR2 + XR5 / XV2, XC13
    elif reason == R_LAST:
        sc[seat] = 2 + s.taken_n[seat]                                    # XV2
    else:
        for p in range(n):
            if s.life[p] > 0:
                sc[p] = 1 + s.taken_n[p]                                  # XR3/XR4 survivors + XR5
        if reason == R_KO:
            sc[seat] = 3 + s.taken_n[seat]                                # XR3 (XC2: even if several fall)
        else:
            sc[seat] = 0                                                  # XR4: the sole loser
    if s.hist_n < HIST_MAX:
        h = s.hist[s.hist_n]
        h[0] = reason
        h[1] = seat
        h[2] = s.active
        for p in range(n):
            h[3 + p] = sc[p]
            h[3 + MAXP + p] = s.life[p]
        s.hist_n += 1
    for p in range(n):
        s.points[p] += sc[p]
    for p in range(n):
        if s.points[p] >= WIN_POINTS:
            s.over = 1                                                    # XG1
            s.phase = PH_OVER
            return
    start_round(s, (s.active + 1) % n)                                    # XR6, XC11

cdef void next_turn(ABState* s) noexcept nogil:
    """XT5: play passes to the left; in XV2 seats that are out are skipped (XC13)."""
    cdef int q = left_of(s, s.active)
    s.active = q if q >= 0 else s.active
    s.last_cast = 0
    s.phase = PH_DECIDE

cdef void end_turn(ABState* s) noexcept nogil:
    """XT4: refill to 5 from the pile (what remains if it runs out); XC13: no refill for a seat that is out."""
    cdef int a = s.active, need
    s.last_cast = 0
    log_push(s, LOG_TURN_END, a, 0)
    need = 0 if not is_in(s, a) else HAND_SIZE - s.hand_n[a]
    if need > s.pile_n:
        need = s.pile_n
    if need > 0:
        s.phase = PH_REFILL
        s.pending = need
        return
    next_turn(s)

cdef void after_effect(ABState* s) noexcept nogil:
    """XC9: the whole effect has resolved; now XR1's round-end checks (XC2: an emptied hand first)."""
    cdef int a = s.active, p
    if s.hand_n[a] == 0:
        round_end(s, R_EMPTY, a)
        return
    if last_standing(s):
        if alive_count(s) == 1:
            round_end(s, R_LAST, a)
            return
    else:
        for p in range(s.nplayers):
            if s.life[p] == 0:
                round_end(s, R_KO, a)
                return
    s.phase = PH_DECIDE      # XT2: end, or a further cast

cdef void after_fail(ABState* s) noexcept nogil:
    """A failed cast ends the turn (XT1, XC7): XR4 if it cost the last life, else the refill."""
    cdef int a = s.active, p
    if last_standing(s):
        if alive_count(s) == 1:
            for p in range(s.nplayers):
                if s.life[p] > 0:
                    s.active = a
                    round_end(s, R_LAST, p)     # XC13: the one survivor wins
                    return
    elif s.life[a] == 0:
        round_end(s, R_SELF, a)
        return
    end_turn(s)

cdef void hit_others(ABState* s, int a, int amount) noexcept nogil:
    """Ancient Dragon / Dark Wanderer: every other player still in (XC13) loses `amount` at once (XC2)."""
    cdef int p
    for p in range(s.nplayers):
        if p != a and is_in(s, p) and s.life[p] > 0:
            lose(s, p, amount)

cdef void cast_effect(ABState* s, int a, int n) noexcept nogil:
    """§4: the effect of a successful cast of spell n by seat a (chance steps leave a pending phase)."""
    cdef int l, r
    if n == 1:
        s.phase = PH_ROLL
        s.roll_kind = ROLL_DRAGON
        return
    if n == 2:
        hit_others(s, a, 1)
        gain(s, a, 1)                       # XC8: the gain above 6 is lost
    elif n == 3:
        s.phase = PH_ROLL
        s.roll_kind = ROLL_DREAM
        return
    elif n == 4:
        if s.secret_n > 0:
            s.phase = PH_SECRET
            return
        # XC3: no secret stone left: the stone is cast, nothing more
    elif n == 5:
        l = left_of(s, a)
        r = right_of(s, a)
        if l >= 0:
            lose(s, l, 1)
        if r >= 0 and r != l:               # 2 players / two survivors: 1 in total (XC8, XC13)
            lose(s, r, 1)
    elif n == 6:
        l = left_of(s, a)
        if l >= 0:
            lose(s, l, 1)
    elif n == 7:
        r = right_of(s, a)
        if r >= 0:
            lose(s, r, 1)
    else:
        gain(s, a, 1)
    after_effect(s)

cdef void announce(ABState* s, int n) noexcept nogil:
    """XT1: cast n if the active player holds one, else fail (lose 1; spell 1: the die, XC8)."""
    cdef int a = s.active
    if s.hand[a][n] > 0:
        s.hand[a][n] -= 1
        s.hand_n[a] -= 1
        s.cast[a][n] += 1
        s.last_cast = n
        log_push(s, LOG_CAST_OK, a, n)
        cast_effect(s, a, n)
        return
    log_push(s, LOG_CAST_FAIL, a, n)
    if n == 1:
        s.phase = PH_ROLL
        s.roll_kind = ROLL_DRAGON_FAIL
        return
    lose(s, a, 1)
    after_fail(s)

cdef void apply_roll(ABState* s, int d) noexcept nogil:
    cdef int a = s.active, kind = s.roll_kind
    if s.log_n > 0:
        s.log[s.log_n - 1][1] |= d << 4
    s.roll_kind = 0
    if kind == ROLL_DRAGON:
        hit_others(s, a, d)
        after_effect(s)
    elif kind == ROLL_DREAM:
        gain(s, a, d)
        after_effect(s)
    else:
        lose(s, a, d)
        after_fail(s)

# ---------------------------------------------------------------------------------------------
# The rules interface
# ---------------------------------------------------------------------------------------------
cdef int ab_current_player(const ABState* s) noexcept nogil:
    if s.over or s.nplayers == 0:       # a bare State() has no game: nothing to decide or deal
        return PLAYER_TERMINAL
    if s.phase == PH_DECIDE:
        return s.active
    return PLAYER_CHANCE

cdef int ab_legal_moves(const ABState* s, uint64_t* out) noexcept nogil:
    """At a decision: `cast 1`-`cast 8` to start a turn (XC7: even a certain failure); after a success
    `end` and casts equal to or higher than it (XT2, XC1; any number with XV1)."""
    cdef int n = 0, k, lo = 1
    if s.over or s.phase != PH_DECIDE:
        return 0
    if s.last_cast:
        out[n] = M_END
        n += 1
        if not (s.variants & V_EASY):
            lo = s.last_cast
    for k in range(lo, NS1):
        out[n] = k
        n += 1
    return n

cdef int ab_chance_outcomes(const ABState* s, uint64_t* out, double* probs) noexcept nogil:
    """The pending chance event's outcomes and exact probabilities: a stone of the pile (deal, refill,
    XC5) or of the secret stones (Night Singer), or a die roll (XC4)."""
    cdef int n = 0, k
    cdef const uint8_t* zone
    cdef int size
    if s.over or s.phase == PH_DECIDE:
        return 0
    if s.phase == PH_ROLL:
        for k in range(1, 7):
            out[n] = C_ROLL + k
            probs[n] = 1.0 / 6.0
            n += 1
        return n
    if s.phase == PH_SECRET:
        zone = &s.secret[0]
        size = s.secret_n
    else:
        zone = &s.pile[0]
        size = s.pile_n
    for k in range(1, NS1):
        if zone[k] > 0:
            out[n] = C_STONE + k
            probs[n] = <double>zone[k] / size
            n += 1
    return n

cdef uint64_t ab_sample_chance(const ABState* s, uint64_t* rng) noexcept nogil:
    cdef const uint8_t* zone
    cdef int r, k
    if s.phase == PH_ROLL:
        return C_ROLL + 1 + <int>rand_below(rng, 6)
    if s.phase == PH_SECRET:
        zone = &s.secret[0]
        r = <int>rand_below(rng, s.secret_n)
    else:
        zone = &s.pile[0]
        r = <int>rand_below(rng, s.pile_n)
    for k in range(1, NS1):
        r -= zone[k]
        if r < 0:
            return C_STONE + k
    return C_STONE + NSPELL

cdef void ab_apply(ABState* s, uint64_t m) noexcept nogil:
    """Apply a legal move or chance outcome (unchecked: the caller passes one of the listed codes)."""
    cdef int a = s.active, k
    if s.phase == PH_DECIDE:
        if m == M_END:
            end_turn(s)
        else:
            announce(s, <int>m)
    elif s.phase == PH_ROLL:
        apply_roll(s, <int>(m - C_ROLL))
    elif s.phase == PH_DEAL:
        deal_stone(s, <int>(m - C_STONE))
    elif s.phase == PH_SECRET:
        k = <int>(m - C_STONE)
        s.secret[k] -= 1
        s.secret_n -= 1
        s.taken[a][k] += 1          # XI3: known to its taker only
        s.taken_n[a] += 1
        after_effect(s)
    elif s.phase == PH_REFILL:
        k = <int>(m - C_STONE)
        s.pile[k] -= 1
        s.pile_n -= 1
        s.hand[a][k] += 1           # XI2: seen by the others, not by the drawer
        s.hand_n[a] += 1
        if s.log_n > 0:
            s.log[s.log_n - 1][1] += 1
        s.pending -= 1
        if s.pending == 0:
            next_turn(s)

cdef void ab_scores(const ABState* s, double* out) noexcept nogil:
    cdef int p
    for p in range(s.nplayers):
        out[p] = s.points[p]

cdef unsigned int ab_winners(const ABState* s) noexcept nogil:
    """XG1: among seats with 8+ points, the most points scored in the last round, then the most life at
    its end (XC10), then shared. Before any seat has 8 points: the seats with the most points."""
    cdef int p, best = -1, key
    cdef unsigned int mask = 0
    cdef const uint8_t* h
    for p in range(s.nplayers):
        if s.points[p] >= WIN_POINTS and s.hist_n > 0:
            h = s.hist[s.hist_n - 1]
            key = h[3 + p] * 16 + h[3 + MAXP + p]
        else:
            key = -1 if s.over else s.points[p] * 256
        if key > best:
            best = key
            mask = 0
        if key == best:
            mask |= 1u << p
    return mask

cdef void ab_evaluate(const ABState* s, double* out) noexcept nogil:
    """A cheap estimate of final standing for cut-off rollouts: points, plus life as a round's prospect."""
    cdef int p
    for p in range(s.nplayers):
        out[p] = s.points[p] + s.life[p] / 6.0

# ---------------------------------------------------------------------------------------------
# Own-hand posterior and determinization (XI4, XC6)
# ---------------------------------------------------------------------------------------------
cdef uint8_t MS_CNT[MS_COUNT][NS1]
cdef uint8_t MS_SIZE[MS_COUNT]
cdef short MS_ADD[MS_COUNT][NS1]      # index of the multiset plus one stone of spell k, -1 above 5 stones
cdef short MS_SUB[MS_COUNT][NS1]      # index of the multiset less one stone of spell k, -1 if none
cdef int MS_START[HAND_SIZE + 2]      # multisets are ordered by size: size h is [MS_START[h], MS_START[h+1])

def _build_multisets():
    import itertools
    table = []
    for h in range(HAND_SIZE + 1):
        for combo in itertools.combinations_with_replacement(range(1, NS1), h):
            counts = [0] * NS1
            for k in combo:
                counts[k] += 1
            table.append(tuple(counts))
    index = {c: i for i, c in enumerate(table)}
    assert len(table) == MS_COUNT
    for i, c in enumerate(table):
        MS_SIZE[i] = sum(c)
        for k in range(NS1):
            MS_CNT[i][k] = c[k]
            MS_ADD[i][k] = -1
            MS_SUB[i][k] = -1
        for k in range(1, NS1):
            up = list(c)
            up[k] += 1
            MS_ADD[i][k] = index.get(tuple(up), -1)
            if c[k]:
                down = list(c)
                down[k] -= 1
                MS_SUB[i][k] = index[tuple(down)]
    for h in range(HAND_SIZE + 2):
        MS_START[h] = next((i for i, c in enumerate(table) if sum(c) >= h), len(table))
    return table, index

MULTISETS, MULTISET_INDEX = _build_multisets()

ctypedef struct CacheEntry:
    int keylen
    uint8_t key[KEY_MAX]
    int count                       # hands with positive posterior (0: the observation is inconsistent)
    double total
    uint64_t stamp
    short idx[MS_COUNT]
    double cum[MS_COUNT]
    int has_chance                  # chance[] computed (lazily, by holding_chance)
    double chance[NS1]              # P(the observer holds at least one stone of spell k)

ctypedef struct Cache:
    uint64_t clock
    CacheEntry entry[CACHE_ENTRIES]

cdef int observer_key(const ABState* s, int o, uint8_t* key) noexcept nogil:
    """The sufficient statistic of `o`'s own-hand posterior: o, the stones o cannot see by spell (XI4:
    36 less the removed, the other hands, the others' cast stones and o's own secret stones; o's own cast
    stones stay in, they came from o's hand), the number o was dealt, then o's own announcements with
    their outcomes and o's refills, in order (XC6). Returns its length; -1 if the counts are impossible."""
    cdef int k, q, v, kind, i, n = 2 + NSPELL, succ = 0, drawn = 0
    key[0] = o
    for k in range(1, NS1):
        v = k - s.removed[k] - s.taken[o][k]
        for q in range(s.nplayers):
            if q != o:
                v -= s.hand[q][k] + s.cast[q][k]
        if v < 0:
            return -1
        key[k] = v
    for i in range(s.log_n):
        if (s.log[i][0] & 15) != o:
            continue
        kind = s.log[i][0] >> 4
        if kind == LOG_CAST_OK:
            succ += 1
            key[n] = 1
            key[n + 1] = s.log[i][1] & 15
        elif kind == LOG_CAST_FAIL:
            key[n] = 2
            key[n + 1] = s.log[i][1] & 15
        else:
            if s.log[i][1] == 0:
                continue
            drawn += s.log[i][1]
            key[n] = 3
            key[n + 1] = s.log[i][1]
        n += 2
    v = s.hand_n[o] + succ - drawn       # stones o was dealt so far this round
    if v < 0 or v > HAND_SIZE:
        return -1
    key[NS1] = v
    return n

cdef int draw_one(double* a, double* b, int h, const int* unseen, const int* cast) noexcept nogil:
    """One own draw: each hand H of size h goes to H + k with weight (stones of k o cannot see, less those
    in H or already cast by o): the next stone of a uniform sample without replacement. The weights are
    arrangement counts, left unnormalized (a round's at most 37 own draws, 5 dealt and one per success,
    keep them below 36**37, far inside a double's range). Returns whether any hand is left."""
    cdef int i, k, j, w, any_left = 0
    if h >= HAND_SIZE:
        return 0
    for i in range(MS_START[h + 1], MS_START[h + 2]):
        b[i] = 0
    for i in range(MS_START[h], MS_START[h + 1]):
        if a[i] == 0:
            continue
        for k in range(1, NS1):
            w = unseen[k] - MS_CNT[i][k] - cast[k]
            if w > 0:
                j = MS_ADD[i][k]
                b[j] += a[i] * w
                any_left = 1
    return any_left

cdef int draw_stones(double** cur, double** other, int* h, int count, const int* unseen,
                     const int* cast) noexcept nogil:
    """`count` own draws in a row (draw_one each, swapping the buffers); 0 if no hand is left."""
    cdef double* t
    cdef int r
    for r in range(count):
        if not draw_one(cur[0], other[0], h[0], unseen, cast):
            return 0
        t = cur[0]
        cur[0] = other[0]
        other[0] = t
        h[0] += 1
    return 1

cdef int forward(const uint8_t* key, int keylen, double* out, int* hand_size) noexcept nogil:
    """The forward pass over o's own-hand multisets (XC6): `out` ends as the unnormalized posterior over o's
    current hand, on the range of hands of size *hand_size (nothing else of `out` is written). 0 if no hand
    is consistent with the key (the observer's own announcements contradict what it could hold)."""
    cdef double a[MS_COUNT]
    cdef double b[MS_COUNT]
    cdef double* cur
    cdef double* other
    cdef double* t
    cdef int unseen[NS1]
    cdef int cast[NS1]
    cdef int k, i, h = 0, e, n, r, any_left
    cur = a                           # only the current size's range is ever read, and written first
    other = b
    for k in range(NS1):
        unseen[k] = key[k] if k > 0 else 0
        cast[k] = 0
    cur[0] = 1.0
    if not draw_stones(&cur, &other, &h, key[NS1], unseen, cast):      # the deal
        return 0
    e = 2 + NSPELL
    while e < keylen:
        n = key[e + 1]
        if key[e] == 1:                 # a success proves a stone of n was held; it leaves the hand
            if h == 0:
                return 0
            any_left = 0
            for i in range(MS_START[h - 1], MS_START[h]):
                other[i] = 0
            for i in range(MS_START[h], MS_START[h + 1]):
                if cur[i] != 0 and MS_CNT[i][n] > 0:
                    other[MS_SUB[i][n]] += cur[i]
                    any_left = 1
            if not any_left:
                return 0
            t = cur
            cur = other
            other = t
            h -= 1
            cast[n] += 1
        elif key[e] == 2:               # a failure proves no stone of n was held then
            any_left = 0
            for i in range(MS_START[h], MS_START[h + 1]):
                if MS_CNT[i][n] > 0:
                    cur[i] = 0
                elif cur[i] != 0:
                    any_left = 1
            if not any_left:
                return 0
        elif not draw_stones(&cur, &other, &h, n, unseen, cast):   # a refill, unseen by o (XI2)
            return 0
        e += 2
    for i in range(MS_START[h], MS_START[h + 1]):
        out[i] = cur[i]
    hand_size[0] = h
    return 1

cdef CacheEntry* posterior_entry(const ABState* s, int o) noexcept nogil:
    """This thread's cached posterior for o's observation (computed on a miss); NULL if impossible."""
    cdef uint8_t key[KEY_MAX]
    cdef int keylen = observer_key(s, o, key), i, victim = 0, h, c
    cdef Cache* cache
    cdef CacheEntry* e
    cdef double post[MS_COUNT]
    cdef double total = 0
    if keylen < 0:
        return NULL
    cache = <Cache*>ab_thread_cache(sizeof(Cache))
    if cache == NULL:
        return NULL
    cache.clock += 1
    for i in range(CACHE_ENTRIES):
        e = &cache.entry[i]
        if e.keylen == keylen and memcmp(e.key, key, keylen) == 0:
            e.stamp = cache.clock
            return e if e.count > 0 else NULL
        if e.stamp < cache.entry[victim].stamp:
            victim = i
    e = &cache.entry[victim]
    e.keylen = keylen
    memcpy(e.key, key, keylen)
    e.stamp = cache.clock
    e.count = 0
    e.has_chance = 0
    if not forward(key, keylen, post, &h) or h != s.hand_n[o]:
        return NULL
    c = 0
    for i in range(MS_START[h], MS_START[h + 1]):
        if post[i] > 0:
            total += post[i]
            e.idx[c] = i
            e.cum[c] = total
            c += 1
    e.count = c
    e.total = total
    return e if c > 0 else NULL

cdef inline void draw_into(int* rest, int* rest_n, uint8_t* zone, int k, uint64_t* rng) noexcept nogil:
    """k stones drawn uniformly without replacement from `rest` into `zone`."""
    cdef int j, r, t
    memset(zone, 0, NS1)
    for j in range(k):
        r = <int>rand_below(rng, rest_n[0])
        for t in range(1, NS1):
            r -= rest[t]
            if r < 0:
                break
        rest[t] -= 1
        rest_n[0] -= 1
        zone[t] += 1

cdef bint ab_determinize(ABState* s, int o, uint64_t* rng) noexcept nogil:
    """XC6: resample in place everything seat o cannot see — its own hand (from the exact posterior), the
    pile, the remaining secret stones and the others' secret stones (uniform given o's hand) — and the
    hidden future `rng`. False (state unchanged) if no arrangement is consistent with o's observation."""
    cdef CacheEntry* e = posterior_entry(s, o)
    cdef int lo = 0, hi, mid
    cdef double u
    if e == NULL:
        return False
    u = rand_unit(rng) * e.total
    hi = e.count - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if e.cum[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    deal_rest(s, o, e, e.idx[lo], rng)
    return True

cdef void deal_rest(ABState* s, int o, const CacheEntry* e, int i, uint64_t* rng) noexcept nogil:
    """o's hand := multiset i; the pile, the remaining secret stones and the others' secret stones a
    uniform split of the rest of what o cannot see (e: o's cached posterior, for its unseen counts)."""
    cdef int k, q, rest_n = 0
    cdef int rest[NS1]
    rest[0] = 0
    for k in range(1, NS1):
        s.hand[o][k] = MS_CNT[i][k]
        rest[k] = e.key[k] - MS_CNT[i][k] - s.cast[o][k]
        rest_n += rest[k]
    draw_into(rest, &rest_n, s.pile, s.pile_n, rng)
    draw_into(rest, &rest_n, s.secret, s.secret_n, rng)
    for q in range(s.nplayers):
        if q != o:
            draw_into(rest, &rest_n, s.taken[q], s.taken_n[q], rng)
    s.rng = splitmix(rng)

cdef int ab_determinize_hypothesis(ABState* s, int o, int hypothesis, uint64_t* rng) noexcept nogil:
    """The companion of ab_determinize for a belief (engine_c/game.pxd): o's hand is the hand multiset
    `hypothesis` (an index of MULTISETS, from Belief.hypotheses), everything else o cannot see uniform
    given it. 0 (state unchanged) when the hand is impossible for o's observation (then the caller
    determinizes as usual)."""
    cdef CacheEntry* e = posterior_entry(s, o)
    cdef int k
    if e == NULL or hypothesis < 0 or hypothesis >= MS_COUNT or MS_SIZE[hypothesis] != s.hand_n[o]:
        return 0
    for k in range(1, NS1):
        if e.key[k] < MS_CNT[hypothesis][k] + s.cast[o][k]:
            return 0
    deal_rest(s, o, e, hypothesis, rng)
    return 1

cdef double holding_chance(const ABState* s, int o, int k) noexcept nogil:
    """P(o holds at least one stone of spell k) from o's exact posterior (cached with it); -1 if none."""
    cdef CacheEntry* e = posterior_entry(s, o)
    cdef int i, j
    cdef double prev = 0
    if e == NULL:
        return -1
    if not e.has_chance:
        for j in range(NS1):
            e.chance[j] = 0
        for i in range(e.count):
            for j in range(1, NS1):
                if MS_CNT[e.idx[i]][j]:
                    e.chance[j] += e.cum[i] - prev
            prev = e.cum[i]
        for j in range(1, NS1):
            e.chance[j] /= e.total
        e.has_chance = 1
    return e.chance[k]

cdef double ab_move_weight(const ABState* s, uint64_t m) noexcept nogil:
    """A cheap count heuristic as a move prior (rollout="heuristic", expand="prior"): a cast weighs the
    chance that a hand of the decider's size, drawn from the stones it cannot see, holds the spell
    (hypergeometric, its own announcements ignored: cheap enough for rollouts); `end` the heuristic's
    threshold 0.2; every move at least 0.02, so none is never tried."""
    cdef int a = s.active, k = <int>m, q, j, u = 0, uk = 0, v, h
    cdef double miss = 1.0
    if m == M_END or s.phase != PH_DECIDE or k < 1 or k > NSPELL:
        return 0.2
    for j in range(1, NS1):
        v = j - s.removed[j] - s.cast[a][j] - s.taken[a][j]
        for q in range(s.nplayers):
            if q != a:
                v -= s.hand[q][j] + s.cast[q][j]
        u += v
        if j == k:
            uk = v
    h = s.hand_n[a]
    for j in range(h):
        if u - j <= 0:
            break
        miss *= <double>(u - uk - j) / (u - j)
        if miss <= 0:
            miss = 0
            break
    return 0.02 if 1.0 - miss < 0.02 else 1.0 - miss

cdef double ab_decision_prior(const ABState* s, uint64_t m) noexcept nogil:
    """The count heuristic's move values (heuristic.py) as a prior at tree decisions (opponent_prior): a
    cast weighs the chance that the decider holds the spell under its exact posterior (XC6: its own
    announcements count, unlike move_weight's cheap hypergeometric), at least 0.02; `end` the threshold
    0.2. Falls back to move_weight when no posterior is at hand."""
    cdef int k = <int>m
    cdef double c
    if m == M_END or s.phase != PH_DECIDE or k < 1 or k > NSPELL:
        return 0.2
    c = holding_chance(s, s.active, k)
    if c < 0:
        return ab_move_weight(s, m)
    return 0.02 if c < 0.02 else c

cdef int ab_move_fails(const ABState* s, uint64_t m) noexcept nogil:
    """Decision m, legal in the full state s: 1 when it announces a spell the caster lacks (XT1), 0 when it
    announces one the caster holds, -1 when it is no announcement (`end`)."""
    if s.phase != PH_DECIDE or m < 1 or m > NSPELL:
        return -1
    return 1 if s.hand[s.active][m] == 0 else 0

# ---------------------------------------------------------------------------------------------
# Belief over the own hand (engine_c/abracadawhat/belief.py; docs/search.md "Belief")
# ---------------------------------------------------------------------------------------------
cdef int holding_chances(const uint8_t* key, int keylen, double* chance) noexcept nogil:
    """chance[k]: the probability that the key's observer holds at least one stone of spell k, from the
    exact posterior of that key (XC6). 0 when no hand fits the key."""
    cdef double post[MS_COUNT]
    cdef int h, i, k
    cdef double total = 0
    for k in range(NS1):
        chance[k] = 0
    if not forward(key, keylen, post, &h):
        return 0
    for i in range(MS_START[h], MS_START[h + 1]):
        if post[i] <= 0:
            continue
        total += post[i]
        for k in range(1, NS1):
            if MS_CNT[i][k]:
                chance[k] += post[i]
    if total <= 0:
        return 0
    for k in range(1, NS1):
        chance[k] /= total
    return 1

cdef double counting_policy(const ABState* v, const double* chance, uint64_t move, double temperature,
                            double threshold, int* legal, const double* bias=NULL) noexcept nogil:
    """The count heuristic (heuristic.py) as a stochastic policy: a softmax with `temperature` over its
    move values (a cast: the chance of holding the spell, a hair less for higher spells; `end`: the
    threshold). The probability of `move` among the legal moves of v (*legal: how many)."""
    cdef uint64_t moves[MAX_MOVES]
    cdef double vals[MAX_MOVES]
    cdef int n = ab_legal_moves(v, moves), i
    cdef double best = -1e300, z = 0, mine = 0, e
    legal[0] = n
    if n <= 0:
        return 0
    for i in range(n):
        if bias != NULL:       # the fitted model of searchers' play (belief.py SEARCHER_MODEL)
            vals[i] = bias[M_END] if moves[i] == M_END else log(chance[moves[i]] if chance[moves[i]] > 1e-3
                                                               else 1e-3) + bias[moves[i]]
        else:
            vals[i] = threshold if moves[i] == M_END else chance[moves[i]] - 1e-6 * moves[i]
        if vals[i] > best:
            best = vals[i]
    for i in range(n):
        if temperature > 0:
            e = exp((vals[i] - best) / temperature)
        else:
            e = 1.0 if vals[i] >= best - 1e-12 else 0.0
        z += e
        if moves[i] == move:
            mine = e
    return mine / z if z > 0 else 0

cdef enum:
    MAX_MODELS = 4
    NBIAS = 10              # a fitted model's constants: index 1-8 the spells, 9 (M_END) `end`, 0 unused

cdef int likelihood_vector(ABState* v, int o, int q, uint64_t move, int nmodels, const double* floors,
                           const double* temperatures, double threshold, float* out,
                           double* predictive, const double* biases=NULL, const int* fitted=NULL) noexcept nogil:
    """For each model m and every own-hand multiset i of o's size in v, out[m * MS_COUNT + i] = P(q plays
    `move` | q's view when o holds hand i) under model m: the count heuristic over q's exact posterior as
    a softmax with temperatures[m], mixed with the uniform policy by floors[m] (so every legal move keeps
    at least floors[m] / legal). v is the public state at q's decision (o's hand and q's secret stones are
    ignored: o sees neither, so q's secret stones count as unseen for q). Hands o could not hold get 1.
    predictive[m]: the move's probability under model m with o's hand from o's count-only posterior then
    (the model's evidence from this decision). Returns the hands evaluated."""
    cdef uint8_t key[KEY_MAX]
    cdef uint8_t base[NS1]
    cdef uint8_t saved_hand[NS1]
    cdef uint8_t saved_taken[NS1]
    cdef double chance[NS1]
    cdef int keylen, i, k, m, h = v.hand_n[o], count = 0, ok, legal = 1
    cdef double pi, w, prev = 0
    cdef CacheEntry* e = posterior_entry(v, o)
    for m in range(nmodels):
        predictive[m] = 0
        for i in range(MS_START[h], MS_START[h + 1]):
            out[m * MS_COUNT + i] = 1.0
    if e == NULL:
        return 0
    memcpy(saved_hand, v.hand[o], NS1)
    memcpy(saved_taken, v.taken[q], NS1)
    memset(v.hand[o], 0, NS1)
    memset(v.taken[q], 0, NS1)
    keylen = observer_key(v, q, key)
    memcpy(v.hand[o], saved_hand, NS1)
    memcpy(v.taken[q], saved_taken, NS1)
    if keylen < 0:
        return 0
    memcpy(base, key, NS1)
    for i in range(e.count):
        w = (e.cum[i] - prev) / e.total
        prev = e.cum[i]
        ok = 1
        for k in range(1, NS1):
            if base[k] < MS_CNT[e.idx[i]][k]:
                ok = 0
                break
            key[k] = base[k] - MS_CNT[e.idx[i]][k]
        if ok:
            ok = holding_chances(key, keylen, chance)
        for m in range(nmodels):
            if ok:
                pi = counting_policy(v, chance, move, temperatures[m], threshold, &legal,
                                     (biases + m * NBIAS) if fitted != NULL and fitted[m] else NULL)
                pi = floors[m] / legal + (1.0 - floors[m]) * pi
            else:
                pi = floors[m] / legal
            out[m * MS_COUNT + e.idx[i]] = <float>pi
            predictive[m] += w * pi
        count += 1
    return count

cdef int belief_forward(const ABState* s, int o, int nlik, const int* lik_pos, const float* lik,
                        double* out, int* hand_size, double* log_scale) noexcept nogil:
    """The forward pass of `forward` over o's own events this round, with each likelihood vector
    lik[j] (MS_COUNT floats, o's hand at that time) multiplied in just before log entry lik_pos[j]
    (ascending). `out` ends as the unnormalized belief over o's current hand, scaled down by
    exp(*log_scale) (the renormalizations', so a model's evidence can be compared). 0 if nothing fits."""
    cdef uint8_t key[KEY_MAX]
    cdef double a[MS_COUNT]
    cdef double b[MS_COUNT]
    cdef double* cur = a
    cdef double* other = b
    cdef double* t
    cdef int unseen[NS1]
    cdef int cast[NS1]
    cdef int k, i, h = 0, n, kind, j = 0, any_left, x
    cdef double top
    log_scale[0] = 0
    if observer_key(s, o, key) < 0:
        return 0
    for k in range(NS1):
        unseen[k] = key[k] if k > 0 else 0
        cast[k] = 0
    cur[0] = 1.0
    if not draw_stones(&cur, &other, &h, key[NS1], unseen, cast):
        return 0
    for i in range(s.log_n + 1):
        while j < nlik and lik_pos[j] <= i:
            top = 0
            for x in range(MS_START[h], MS_START[h + 1]):
                cur[x] *= lik[j * MS_COUNT + x]
                if cur[x] > top:
                    top = cur[x]
            if top <= 0:
                return 0
            for x in range(MS_START[h], MS_START[h + 1]):
                cur[x] /= top           # renormalized: a long round's products stay inside a double
            log_scale[0] += log(top)
            j += 1
        if i == s.log_n:
            break
        if (s.log[i][0] & 15) != o:
            continue
        kind = s.log[i][0] >> 4
        n = s.log[i][1] & 15
        if kind == LOG_CAST_OK:
            if h == 0:
                return 0
            any_left = 0
            for x in range(MS_START[h - 1], MS_START[h]):
                other[x] = 0
            for x in range(MS_START[h], MS_START[h + 1]):
                if cur[x] != 0 and MS_CNT[x][n] > 0:
                    other[MS_SUB[x][n]] += cur[x]
                    any_left = 1
            if not any_left:
                return 0
            t = cur
            cur = other
            other = t
            h -= 1
            cast[n] += 1
        elif kind == LOG_CAST_FAIL:
            any_left = 0
            for x in range(MS_START[h], MS_START[h + 1]):
                if MS_CNT[x][n] > 0:
                    cur[x] = 0
                elif cur[x] != 0:
                    any_left = 1
            if not any_left:
                return 0
        elif s.log[i][1] > 0 and not draw_stones(&cur, &other, &h, s.log[i][1], unseen, cast):
            return 0
    for x in range(MS_START[h], MS_START[h + 1]):
        out[x] = cur[x]
    hand_size[0] = h
    return 1 if h == s.hand_n[o] else 0

# ---------------------------------------------------------------------------------------------
# Invariants (the compiled fuzz test and State.validate's first line of defence)
# ---------------------------------------------------------------------------------------------
INVARIANT_ERRORS = {
    1: "stones not conserved: spell n must have exactly n stones across the zones (XS1)",
    2: "life out of range 0..6 (XT3)",
    3: "a hand holds more than 5 stones or its size is wrong (XS2, XT4)",
    4: "a zone's size does not match its counts",
    5: "secret stones: the remaining and the taken ones must add up to 4 after the deal (XS2)",
    6: "a seat at 0 life while the base game's round goes on (XR1)",
    7: "points do not add up to the finished rounds' scores (XR2-XR5)",
    8: "the round's log is full",
    9: "removed stones: 12 with 2 players, 6 with 3, none with 4-5 (XS2)",
    10: "the game is over but no seat has 8 points, or a seat has 8 and the game goes on (XG1)",
    11: "a seat's hand contradicts its own announcements this round (XC6: a failed n proves no n was held, "
        "a success that one was)",
}

cdef inline int zone_size(const uint8_t* zone) noexcept nogil:
    cdef int k, t = 0
    for k in range(1, NS1):
        t += zone[k]
    return t

cdef int ab_check(const ABState* s, bint deep) noexcept nogil:
    """0, or the number of the first broken invariant (INVARIANT_ERRORS); `deep` adds the posterior check
    (11), which costs a forward pass per seat."""
    cdef int k, p, r, t, n = s.nplayers, tot, dealt
    cdef bint reached = False
    for k in range(1, NS1):
        t = s.pile[k] + s.secret[k] + s.removed[k]
        for p in range(n):
            t += s.hand[p][k] + s.cast[p][k] + s.taken[p][k]
        if t != k:
            return 1
    for p in range(n):
        if s.life[p] > START_LIFE:
            return 2
        tot = zone_size(s.hand[p])
        if tot != s.hand_n[p] or tot > HAND_SIZE:
            return 3
        if zone_size(s.taken[p]) != s.taken_n[p]:
            return 4
    if zone_size(s.pile) != s.pile_n or zone_size(s.secret) != s.secret_n or zone_size(s.removed) != s.removed_n:
        return 4
    dealt = s.phase != PH_DEAL
    if dealt:
        tot = s.secret_n
        for p in range(n):
            tot += s.taken_n[p]
        if tot != SECRETS:
            return 5
        if s.removed_n != removed_count(n):
            return 9
        if not s.over and not last_standing(s):
            for p in range(n):
                if s.life[p] == 0:
                    return 6
    for p in range(n):
        tot = 0
        for r in range(s.hist_n):
            tot += s.hist[r][3 + p]
        if tot != s.points[p]:
            return 7
        if s.points[p] >= WIN_POINTS:
            reached = True
    if reached != (s.over != 0):
        return 10
    if s.log_n >= LOG_MAX:
        return 8
    if deep and dealt and not s.over:
        for p in range(n):
            if not hand_possible(posterior_entry(s, p), s.hand[p]):
                return 11
    return 0

cdef bint hand_possible(const CacheEntry* e, const uint8_t* hand) noexcept nogil:
    """Whether `hand` has positive posterior probability in entry `e` (NULL: no hand has)."""
    cdef int i, k
    if e == NULL:
        return False
    for i in range(e.count):
        k = 1
        while k < NS1 and MS_CNT[e.idx[i]][k] == hand[k]:
            k += 1
        if k == NS1:
            return True
    return False

# ---------------------------------------------------------------------------------------------
# Features (search/model.py): what the observer sees, seats relative to the observer
# ---------------------------------------------------------------------------------------------
cdef enum:
    SEAT_FEATURES = 1 + 4 + NSPELL + NSPELL + NSPELL + NSPELL
    GLOBAL_FEATURES = NSPELL * 3 + 2 + 6 + 9 + (MAXP + 2) + MAXP + 4 + 2 + 1
    STATE_FEATURES = MAXP * SEAT_FEATURES + GLOBAL_FEATURES
    MOVE_FEATURES = 10
    FEATURE_VERSION = 1

cdef void ab_state_features(const ABState* s, int o, float* out) noexcept nogil:
    """Per seat (observer first, then to its left): present; life/6, points/8, hand size/5, secret stones
    taken/4; the hand's faces by spell (zero for the observer's own: XI2); the stones it cast this round;
    the observer's own secret stones by spell (its block only, XI3); for the observer only, the spells its
    own announcements proved absent from its hand (a failure with no draw since). Then the stones the
    observer cannot see, the cast and the removed stones by spell, pile and secret sizes, the phase, the
    turn's last success, who decides, the active seat, the player count, the variants, rounds played."""
    cdef int k, j, p, i, base, n = s.nplayers, cp
    cdef uint8_t key[KEY_MAX]
    cdef int proved[NS1]
    memset(out, 0, STATE_FEATURES * sizeof(float))
    for k in range(NS1):
        proved[k] = 0
    for i in range(s.log_n):
        if (s.log[i][0] & 15) != o:
            continue
        if (s.log[i][0] >> 4) == LOG_CAST_FAIL:
            proved[s.log[i][1] & 15] = 1
        elif (s.log[i][0] >> 4) == LOG_TURN_END and s.log[i][1] > 0:
            for k in range(NS1):
                proved[k] = 0
    for j in range(n):
        p = (o + j) % n
        base = j * SEAT_FEATURES
        out[base] = 1.0
        out[base + 1] = s.life[p] / 6.0
        out[base + 2] = s.points[p] / 8.0
        out[base + 3] = s.hand_n[p] / 5.0
        out[base + 4] = s.taken_n[p] / 4.0
        for k in range(1, NS1):
            if j > 0:
                out[base + 5 + k - 1] = s.hand[p][k] / 2.0
            out[base + 5 + NSPELL + k - 1] = s.cast[p][k] / 2.0
            if j == 0:
                out[base + 5 + 2 * NSPELL + k - 1] = s.taken[p][k]
                out[base + 5 + 3 * NSPELL + k - 1] = proved[k]
    base = MAXP * SEAT_FEATURES
    if observer_key(s, o, key) >= 0:
        for k in range(1, NS1):
            out[base + k - 1] = key[k] / <float>k
    for k in range(1, NS1):
        for p in range(n):
            out[base + NSPELL + k - 1] += s.cast[p][k] / <float>k
        out[base + 2 * NSPELL + k - 1] = s.removed[k] / <float>k
    base += 3 * NSPELL
    out[base] = s.pile_n / 36.0
    out[base + 1] = s.secret_n / 4.0
    base += 2
    out[base + s.phase] = 1.0
    base += 6
    out[base + s.last_cast] = 1.0
    base += 9
    cp = ab_current_player(s)
    out[base + (MAXP if cp == PLAYER_CHANCE else MAXP + 1 if cp == PLAYER_TERMINAL else (cp - o + n) % n)] = 1.0
    base += MAXP + 2
    out[base + (s.active - o + n) % n] = 1.0
    base += MAXP
    out[base + n - 2] = 1.0
    base += 4
    out[base] = 1.0 if s.variants & V_EASY else 0.0
    out[base + 1] = 1.0 if s.variants & V_LAST else 0.0
    out[base + 2] = s.hist_n / 36.0

cdef void ab_move_features(const ABState* s, uint64_t m, float* out) noexcept nogil:
    """One-hot of the move (cast 1-8, end), and whether it repeats the turn's last success."""
    memset(out, 0, MOVE_FEATURES * sizeof(float))
    if 1 <= m <= M_END:
        out[m - 1] = 1.0
    out[9] = 1.0 if s.last_cast and m == s.last_cast else 0.0

# ---------------------------------------------------------------------------------------------
# Playouts
# ---------------------------------------------------------------------------------------------
cdef enum:
    PLAYOUT_MAX_DECISIONS = 100000   # a guard: the rules end every game far sooner (see _engine.pxd)

cdef uint64_t ab_random_playout(ABState* s, uint64_t* rng) noexcept nogil:
    """Uniformly random moves and sampled chance outcomes to the end; returns the decisions made."""
    cdef uint64_t moves[MAX_MOVES]
    cdef uint64_t count = 0
    cdef int n
    while count < PLAYOUT_MAX_DECISIONS:
        if s.over:
            return count
        if s.phase != PH_DECIDE:
            ab_apply(s, ab_sample_chance(s, rng))
            continue
        n = ab_legal_moves(s, moves)
        ab_apply(s, moves[rand_below(rng, n)])
        count += 1
    return count

# ---------------------------------------------------------------------------------------------
# The GameVTable for search/
# ---------------------------------------------------------------------------------------------
cdef int vt_num_players(const void* s) noexcept nogil:
    return (<const ABState*>s).nplayers

cdef int vt_current_player(const void* s) noexcept nogil:
    return ab_current_player(<const ABState*>s)

cdef int vt_legal_moves(const void* s, uint64_t* out) noexcept nogil:
    return ab_legal_moves(<const ABState*>s, out)

cdef void vt_apply(void* s, uint64_t m) noexcept nogil:
    ab_apply(<ABState*>s, m)

cdef uint64_t vt_sample_chance(const void* s, uint64_t* rng) noexcept nogil:
    return ab_sample_chance(<const ABState*>s, rng)

cdef int vt_chance_outcomes(const void* s, uint64_t* out, double* probs) noexcept nogil:
    return ab_chance_outcomes(<const ABState*>s, out, probs)

cdef void vt_determinize(void* s, int observer, int kind, uint64_t* rng) noexcept nogil:
    ab_determinize(<ABState*>s, observer, rng)

cdef void vt_scores(const void* s, double* out) noexcept nogil:
    ab_scores(<const ABState*>s, out)

cdef unsigned int vt_winners(const void* s) noexcept nogil:
    return ab_winners(<const ABState*>s)

cdef void vt_evaluate(const void* s, double* out) noexcept nogil:
    ab_evaluate(<const ABState*>s, out)

cdef double vt_move_weight(const void* s, uint64_t m) noexcept nogil:
    return ab_move_weight(<const ABState*>s, m)

cdef double vt_decision_prior(const void* s, uint64_t m) noexcept nogil:
    return ab_decision_prior(<const ABState*>s, m)

cdef int vt_determinize_hypothesis(void* s, int observer, int hypothesis, uint64_t* rng) noexcept nogil:
    return ab_determinize_hypothesis(<ABState*>s, observer, hypothesis, rng)

cdef int vt_move_fails(const void* s, uint64_t m) noexcept nogil:
    return ab_move_fails(<const ABState*>s, m)

cdef void vt_state_features(const void* s, int observer, float* out) noexcept nogil:
    ab_state_features(<const ABState*>s, observer, out)

cdef void vt_move_features(const void* s, uint64_t m, float* out) noexcept nogil:
    ab_move_features(<const ABState*>s, m, out)

cdef GameVTable ABRACADAWHAT_VTABLE
ABRACADAWHAT_VTABLE.state_size = sizeof(ABState)
ABRACADAWHAT_VTABLE.max_moves = MAX_MOVES
ABRACADAWHAT_VTABLE.max_players = MAXP
ABRACADAWHAT_VTABLE.num_players = vt_num_players
ABRACADAWHAT_VTABLE.current_player = vt_current_player
ABRACADAWHAT_VTABLE.legal_moves = vt_legal_moves
ABRACADAWHAT_VTABLE.apply_move = vt_apply
ABRACADAWHAT_VTABLE.sample_chance = vt_sample_chance
ABRACADAWHAT_VTABLE.chance_outcomes = vt_chance_outcomes
ABRACADAWHAT_VTABLE.determinize = vt_determinize
ABRACADAWHAT_VTABLE.scores = vt_scores
ABRACADAWHAT_VTABLE.winners = vt_winners
ABRACADAWHAT_VTABLE.evaluate = vt_evaluate
ABRACADAWHAT_VTABLE.move_weight = vt_move_weight
ABRACADAWHAT_VTABLE.num_state_features = STATE_FEATURES
ABRACADAWHAT_VTABLE.num_move_features = MOVE_FEATURES
ABRACADAWHAT_VTABLE.feature_version = FEATURE_VERSION
ABRACADAWHAT_VTABLE.state_features = vt_state_features
ABRACADAWHAT_VTABLE.move_features = vt_move_features
ABRACADAWHAT_VTABLE.determinize_hypothesis = vt_determinize_hypothesis
ABRACADAWHAT_VTABLE.move_fails = vt_move_fails
ABRACADAWHAT_VTABLE.decision_prior = vt_decision_prior


def game_vtable():
    """A PyCapsule named 'search.GameVTable' holding Abracada…What?'s C interface for search/."""
    return PyCapsule_New(<void*>&ABRACADAWHAT_VTABLE, b"search.GameVTable", NULL)

# ---------------------------------------------------------------------------------------------
# Python-facing core: engine_c.abracadawhat.State subclasses this with notation and validation.
# ---------------------------------------------------------------------------------------------
PHASES = ("deal", "decide", "roll", "secret", "refill", "over")
ROLL_KINDS = {ROLL_DRAGON: "dragon", ROLL_DRAGON_FAIL: "dragonfail", ROLL_DREAM: "dream"}
REASONS = {R_EMPTY: "empty", R_KO: "ko", R_SELF: "self", R_LAST: "last"}
LOG_KINDS = {LOG_CAST_OK: "ok", LOG_CAST_FAIL: "fail", LOG_TURN_END: "end"}
VARIANT_BITS = {"xv1": V_EASY, "xv2": V_LAST}
CODES = {"end": M_END, "stone": C_STONE, "roll": C_ROLL}
LIMITS = {"max_players": MAXP, "hand": HAND_SIZE, "life": START_LIFE, "secrets": SECRETS, "win": WIN_POINTS,
          "log": LOG_MAX, "rounds": HIST_MAX, "max_moves": MAX_MOVES, "stones": STONES}
MULTISET_COUNT = MS_COUNT
FEATURES = {"state": STATE_FEATURES, "move": MOVE_FEATURES, "version": FEATURE_VERSION,
            "seat": SEAT_FEATURES}


def removed_stones(int players):
    """XS2: how many stones are removed face up for this player count."""
    return removed_count(players)


cdef uint64_t[::1] _scratch = __import__("array").array("Q", bytes(8 * MAX_MOVES))


cdef class CoreState:
    """The C state plus thin, unchecked accessors. Use engine_c.abracadawhat.State."""
    cdef ABState s

    def _init(self, int players, int variants, uint64_t seed):
        ab_init(&self.s, players, variants, seed)

    def _copy_from(self, CoreState other):
        memcpy(&self.s, &other.s, sizeof(ABState))

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        return memcmp(&self.s, &(<CoreState>other).s, sizeof(ABState)) == 0

    def __hash__(self):
        return hash(self._state_bytes())

    @property
    def current_player(self):
        """The seat deciding next; -1 at a chance event (a stone or a die roll); -2 when the game is over."""
        return ab_current_player(&self.s)

    def _legal_codes(self):
        cdef uint64_t[::1] buf = _scratch
        cdef int n = ab_legal_moves(&self.s, &buf[0])
        return [buf[i] for i in range(n)]

    def _apply_code(self, uint64_t m):
        ab_apply(&self.s, m)

    def _chance_codes(self):
        cdef uint64_t[::1] buf = _scratch
        cdef double probs[MAX_MOVES]
        cdef int n = ab_chance_outcomes(&self.s, &buf[0], probs)
        return [(buf[i], probs[i]) for i in range(n)]

    def _sample_chance_code(self):
        return ab_sample_chance(&self.s, &self.s.rng)

    def _determinize(self, int observer, uint64_t seed):
        """Resample what `observer` cannot see (XC6); False if its observation is inconsistent."""
        cdef uint64_t rng = seed
        return bool(ab_determinize(&self.s, observer, &rng))

    def _posterior(self, int observer):
        """[(counts by spell 1..8, probability)] of `observer`'s own hand, exact (XC6); [] if inconsistent."""
        cdef CacheEntry* e = posterior_entry(&self.s, observer)
        cdef double prev = 0
        out = []
        if e == NULL:
            return out
        for i in range(e.count):
            out.append((MULTISETS[e.idx[i]][1:], (e.cum[i] - prev) / e.total))
            prev = e.cum[i]
        return out

    def _likelihood(self, int t, list hands, int o, int q, uint64_t move, floors, temperatures, double threshold,
                    float[::1] out, bint actor_known=True, biases=None):
        """likelihood_vector for q's decision `move` at log position t of this round, for each model
        (floors[m], temperatures[m]) into out (len(floors) x MS_COUNT floats), the seats' hands then being
        `hands` (counts by spell 1..8 per seat; o's only counts by size: it is the hypothesis). q's hand
        is no part of q's view; when it is not known (actor_known False: only its size is right) o's
        possible hands then are a superset, which costs time, not accuracy. Returns each model's
        predictive probability of the move. biases: None, or per model None (the count heuristic's softmax)
        or 9 constants (spells 1-8, `end`) of the fitted log form (belief.py SEARCHER_MODEL). The caller
        (belief.py) checked the arguments."""
        cdef ABState v
        cdef int p, k, i, n = len(floors)
        cdef double fl[MAX_MODELS]
        cdef double te[MAX_MODELS]
        cdef double pred[MAX_MODELS]
        cdef double bs[MAX_MODELS * NBIAS]
        cdef int fitted[MAX_MODELS]
        if not 1 <= n <= MAX_MODELS or len(temperatures) != n or out.shape[0] < n * MS_COUNT:
            raise ValueError(f"1 to {MAX_MODELS} models, one temperature each, and room for them")
        if biases is not None and len(biases) != n:
            raise ValueError("biases: one entry (None or 9 numbers) per model")
        for i in range(n):
            fl[i], te[i] = floors[i], temperatures[i]
            fitted[i] = 0
            bs[i * NBIAS] = 0
            if biases is not None and biases[i] is not None:
                if len(biases[i]) != NBIAS - 1:
                    raise ValueError("biases: 9 numbers (spells 1-8, end) for a fitted model")
                fitted[i] = 1
                for k in range(1, NBIAS):
                    bs[i * NBIAS + k] = biases[i][k - 1]
        memcpy(&v, &self.s, sizeof(ABState))
        v.log_n = t
        for p in range(MAXP):
            memset(v.cast[p], 0, NS1)
        for i in range(t):
            if (v.log[i][0] >> 4) == LOG_CAST_OK:
                v.cast[v.log[i][0] & 15][v.log[i][1] & 15] += 1
        for p in range(v.nplayers):
            v.hand_n[p] = 0
            for k in range(1, NS1):
                v.hand[p][k] = hands[p][k - 1]
                v.hand_n[p] += v.hand[p][k]
        if not actor_known:
            memset(v.hand[q], 0, NS1)     # q's own hand is no part of q's view; o's unseen is then a superset
        v.phase = PH_DECIDE
        v.over = 0
        v.active = q
        v.last_cast = 0
        if t > 0 and v.log[t - 1][0] == ((LOG_CAST_OK << 4) | q):
            v.last_cast = v.log[t - 1][1] & 15
        with nogil:
            likelihood_vector(&v, o, q, move, n, fl, te, threshold, &out[0], pred, bs, fitted)
        return [pred[i] for i in range(n)]

    def _belief(self, int o, int[::1] positions, float[::1] lik):
        """([(multiset index, probability)] of o's current hand under the likelihood vectors `lik`
        (len(positions) x MS_COUNT), each applied before log entry positions[j], and the log of the
        forward pass's total: the evidence of those likelihoods, up to a constant shared by every set of
        vectors for the same state). ([], -inf) if nothing fits."""
        cdef double post[MS_COUNT]
        cdef int h = 0, ok, i, n = positions.shape[0]
        cdef double total = 0, scale = 0
        if lik.shape[0] < n * MS_COUNT:
            raise ValueError("likelihood matrix too short")
        with nogil:
            ok = belief_forward(&self.s, o, n, &positions[0] if n else NULL, &lik[0] if n else NULL, post, &h,
                                &scale)
        if not ok:
            return [], float("-inf")
        for i in range(MS_START[h], MS_START[h + 1]):
            if post[i] > 0:
                total += post[i]
        if total <= 0:
            return [], float("-inf")
        return [(i, post[i] / total) for i in range(MS_START[h], MS_START[h + 1]) if post[i] > 0], scale + log(total)

    def _unseen(self, int observer):
        """The stones `observer` cannot see, by spell 1..8 (XI4); None if the counts are impossible."""
        cdef uint8_t key[KEY_MAX]
        if observer_key(&self.s, observer, key) < 0:
            return None
        return tuple(key[k] for k in range(1, NS1))

    def _check(self, bint deep=True):
        return ab_check(&self.s, deep)

    def _winners_mask(self):
        return ab_winners(&self.s)

    def _state_bytes(self):
        return (<char*>&self.s)[:sizeof(ABState)]

    def _load_state_bytes(self, bytes data):
        if len(data) != sizeof(ABState):
            raise ValueError(f"state bytes must be {sizeof(ABState)} long, got {len(data)}")
        memcpy(&self.s, <const char*>data, sizeof(ABState))

    def _random_playout(self, uint64_t seed):
        cdef uint64_t rng = seed
        cdef uint64_t n
        with nogil:
            n = ab_random_playout(&self.s, &rng)
        return n

    def _features(self, int observer):
        cdef float buf[STATE_FEATURES]
        ab_state_features(&self.s, observer, buf)
        return [buf[i] for i in range(STATE_FEATURES)]

    def _to_raw(self):
        """Every field of the C state as plain Python data (the notation works on this)."""
        cdef ABState* s = &self.s
        n = self.s.nplayers
        return {
            "players": n, "variants": s.variants, "phase": s.phase, "active": s.active,
            "last": s.last_cast, "roll": s.roll_kind, "pending": s.pending, "over": s.over,
            "hands": [[s.hand[p][k] for k in range(1, NS1)] for p in range(n)],
            "cast": [[s.cast[p][k] for k in range(1, NS1)] for p in range(n)],
            "taken": [[s.taken[p][k] for k in range(1, NS1)] for p in range(n)],
            "life": [s.life[p] for p in range(n)],
            "points": [s.points[p] for p in range(n)],
            "pile": [s.pile[k] for k in range(1, NS1)],
            "secret": [s.secret[k] for k in range(1, NS1)],
            "removed": [s.removed[k] for k in range(1, NS1)],
            "log": [(s.log[i][0] >> 4, s.log[i][0] & 15, s.log[i][1]) for i in range(s.log_n)],
            "history": [(s.hist[r][0], s.hist[r][1], s.hist[r][2], [s.hist[r][3 + p] for p in range(n)],
                         [s.hist[r][3 + MAXP + p] for p in range(n)]) for r in range(s.hist_n)],
            "rng": s.rng,
        }

    def _from_raw(self, raw):
        """Load a raw dict (as made by _to_raw; the caller validated its ranges); sizes are recomputed."""
        cdef int p, k, i, r
        cdef ABState* s = &self.s
        memset(&self.s, 0, sizeof(ABState))
        n = raw["players"]
        s.nplayers, s.variants, s.phase, s.active = n, raw["variants"], raw["phase"], raw["active"]
        s.last_cast, s.roll_kind, s.pending, s.over = raw["last"], raw["roll"], raw["pending"], raw["over"]
        for p in range(n):
            s.life[p], s.points[p] = raw["life"][p], raw["points"][p]
            for k in range(1, NS1):
                s.hand[p][k] = raw["hands"][p][k - 1]
                s.cast[p][k] = raw["cast"][p][k - 1]
                s.taken[p][k] = raw["taken"][p][k - 1]
                s.hand_n[p] += s.hand[p][k]
                s.taken_n[p] += s.taken[p][k]
        for k in range(1, NS1):
            s.pile[k], s.secret[k], s.removed[k] = raw["pile"][k - 1], raw["secret"][k - 1], raw["removed"][k - 1]
            s.pile_n += s.pile[k]
            s.secret_n += s.secret[k]
            s.removed_n += s.removed[k]
        if len(raw["log"]) >= LOG_MAX or len(raw["history"]) > HIST_MAX:
            raise ValueError("log or history too long")
        s.log_n = len(raw["log"])
        for i, (kind, seat, value) in enumerate(raw["log"]):
            s.log[i][0] = (kind << 4) | seat
            s.log[i][1] = value
        s.hist_n = len(raw["history"])
        for r, (reason, seat, actor, scores, lives) in enumerate(raw["history"]):
            s.hist[r][0], s.hist[r][1], s.hist[r][2] = reason, seat, actor
            for p in range(n):
                s.hist[r][3 + p] = scores[p]
                s.hist[r][3 + MAXP + p] = lives[p]
        s.rng = raw["rng"]


def random_playouts(int players, int variants, int games, uint64_t seed):
    """Whole random games in C from fresh states (the benchmark's loop): (decisions, rounds) summed."""
    cdef ABState s
    cdef uint64_t rng = seed, decisions = 0, rounds = 0
    cdef int g
    with nogil:
        for g in range(games):
            ab_init(&s, players, variants, splitmix(&rng))
            decisions += ab_random_playout(&s, &rng)
            rounds += s.hist_n
    return decisions, rounds


def random_games_checked(int players, int variants, int games, uint64_t seed, int max_decisions=20000):
    """Random games in C with every invariant (ab_check) checked after every move and chance outcome.

    Returns (decisions, rounds, failures, samples): failures lists (game, step, error number) (empty when
    all hold), samples one state (bytes) per game taken at a random decision, for checks in Python.
    A game that has not ended after `max_decisions` decisions is a failure (error 0)."""
    cdef ABState s
    cdef uint64_t rng = seed, decisions = 0, rounds = 0, steps, dec
    cdef uint64_t moves[MAX_MOVES]
    cdef int g, n, err = 0, pick
    failures = []
    samples = []
    for g in range(games):
        sample = None
        with nogil:
            ab_init(&s, players, variants, splitmix(&rng))
            steps = 0
            dec = 0
            err = 0
            pick = <int>rand_below(&rng, 40)
            while not s.over and dec < <uint64_t>max_decisions:
                if s.phase != PH_DECIDE:
                    ab_apply(&s, ab_sample_chance(&s, &rng))
                else:
                    n = ab_legal_moves(&s, moves)
                    if n <= 0:
                        err = 12
                        break
                    ab_apply(&s, moves[rand_below(&rng, n)])
                    dec += 1
                steps += 1
                err = ab_check(&s, dec == <uint64_t>pick)
                if err:
                    break
                if dec == <uint64_t>pick and s.phase == PH_DECIDE:
                    with gil:
                        if sample is None:
                            sample = (<char*>&s)[:sizeof(ABState)]
        if err == 0 and not s.over:
            err = -1
        if err:
            failures.append((g, steps, err))
        decisions += dec
        rounds += s.hist_n
        samples.append(sample if sample is not None else (<char*>&s)[:sizeof(ABState)])
    return decisions, rounds, failures, samples


def time_determinize(bytes state, int observer, int count, uint64_t seed, bint cold=False):
    """Seconds for `count` determinizations of `state` for `observer`, each on a fresh copy (what a search
    iteration does). cold: the posterior cache is emptied before each one, so every call runs the forward
    pass (the cost of the first determinization of a new observation)."""
    cdef ABState root, work
    cdef uint64_t rng = seed
    cdef int i, j
    cdef double t0, t1
    cdef Cache* cache
    if len(state) != sizeof(ABState):
        raise ValueError(f"state bytes must be {sizeof(ABState)} long")
    memcpy(&root, <const char*>state, sizeof(ABState))
    import time
    t0 = time.perf_counter()
    with nogil:
        for i in range(count):
            if cold:
                cache = <Cache*>ab_thread_cache(sizeof(Cache))
                if cache != NULL:
                    for j in range(CACHE_ENTRIES):
                        cache.entry[j].keylen = -1
            memcpy(&work, &root, sizeof(ABState))
            ab_determinize(&work, observer, &rng)
    t1 = time.perf_counter()
    return t1 - t0


def decision_priors(bytes state):
    """The tree prior of every move at `state` (the adapter's state_bytes, a decision): {spell 1-8 or
    "end": ab_decision_prior}, for tests and docs."""
    cdef ABState s
    cdef int k
    if len(state) != sizeof(ABState):
        raise ValueError(f"state bytes must be {sizeof(ABState)} long")
    memcpy(&s, <const char*>state, sizeof(ABState))
    out = {k: ab_decision_prior(&s, k) for k in range(1, NS1)}
    out["end"] = ab_decision_prior(&s, M_END)
    return out
