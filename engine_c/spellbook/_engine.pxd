# C-level SpellBook state and rules, cimportable by other Cython modules (nogil, no Python objects).
from libc.stdint cimport uint8_t, int16_t, uint64_t

cdef enum:
    NCOL = 7
    NRUNE = 3
    NTYPE = 21
    NSPELL = 21
    MAXP = 4
    POOL_LIMIT = 9
    FAMILIAR_SPACES = 16
    COPIES = 5
    STACK_MAX = 32
    MAX_MOVES = 8192

ctypedef struct Frame:
    uint8_t op
    uint8_t p
    uint8_t a
    uint8_t b
    uint8_t c
    uint8_t d

ctypedef struct SBState:
    uint8_t nplayers
    uint8_t spell[NCOL]            # spell id in play for each color
    uint8_t pouch[NTYPE]
    uint8_t altar[NTYPE]
    uint8_t discard[NTYPE]
    uint8_t pool[MAXP][NTYPE]
    uint8_t fam[MAXP][NTYPE]
    uint8_t level[MAXP][NCOL]      # 0 = not learned, else 3..5
    uint8_t rune[MAXP][NCOL]       # rune of the token on the card
    int16_t learned_day[MAXP][NCOL]
    uint8_t pouch_n
    uint8_t altar_n
    uint8_t discard_n
    uint8_t pool_n[MAXP]
    uint8_t fam_n[MAXP]
    int16_t day                    # global Day counter; seat `active` plays Day `day`
    uint8_t active
    uint8_t end_triggered
    uint8_t over
    uint8_t phase                  # 0 setup, 1 morning, 2 midday, 3 evening, 4 resupply, 5 over
    uint8_t sp                     # stack depth
    uint8_t taken[NTYPE]           # Purification: tokens taken by the current action (C5)
    uint8_t given[NTYPE]           # Purification: tokens given by the current action (C5)
    uint8_t justdisc[NTYPE]        # Communion L5: tokens discarded by the learning being resolved
    Frame stack[STACK_MAX]         # pending steps; the top one is what happens next (last: see hash)
    uint64_t rng                   # the hidden future: seeds the Pouch draws of sample_chance()

cdef void sb_init(SBState* s, int nplayers, const uint8_t* spells, uint64_t seed) noexcept nogil
cdef void sb_advance(SBState* s) noexcept nogil
cdef int sb_current_player(const SBState* s) noexcept nogil
cdef bint sb_is_chance(const SBState* s) noexcept nogil
cdef int sb_legal_moves(const SBState* s, uint64_t* out) noexcept nogil
cdef void sb_apply(SBState* s, uint64_t m) noexcept nogil
cdef int sb_chance_outcomes(const SBState* s, uint64_t* out, double* probs) noexcept nogil
cdef uint64_t sb_sample_chance(const SBState* s, uint64_t* rng) noexcept nogil
cdef void sb_determinize(SBState* s, int observer, int knows_discard, uint64_t* rng) noexcept nogil
cdef void sb_scores(const SBState* s, double* out) noexcept nogil
cdef unsigned int sb_winners(const SBState* s) noexcept nogil
cdef void sb_evaluate(const SBState* s, double* out) noexcept nogil
cdef uint64_t sb_observation_hash(const SBState* s, int player) noexcept nogil
cdef void sb_canonicalize(SBState* s) noexcept nogil
cdef uint64_t sb_random_playout(SBState* s, uint64_t* rng) noexcept nogil
