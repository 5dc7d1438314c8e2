# cython: language_level=3
"""Spellbook TCG rules in C (../shared/rules/SPELLBOOK_TCG.md; rule ids TS/TT/TC/TR/TD/TK/TB/TG/TI/TW/TF/TX in
comments). Cards are data: the state carries the game's card table (CardDef rows built by cards.py from the
card file and the two decks), so the state is self-contained, fixed-size and trivially copyable (memcpy).

Hidden order as chance (TS-4, TT-2, TI-3, TX-31): a spellbook or graveyard slot is either a known card or
UNKNOWN, and each player's `pool` is the multiset of the cards in its UNKNOWN slots. Nobody can tell UNKNOWN
slots apart, so the card under one is drawn when it is drawn: a draw of an UNKNOWN top card is a chance event
whose outcome is a card kind with probability count / pool size; the setup shuffle is the setup's draws
(setup_mana cards to the mana pool, then hand_size to the hand, seat 0 then seat 1, TX-18). Damage and
healing move slots unseen (TD-3, TD-4, TX-43), known or not.

Decisions are small (the issue's item 2; TT-3, TB, TC, TR-2): one mana card or `none`; attackers one at a
time then `done`; a blocker then the attacker it blocks (`block`, `on`), then `done`; a spell card by card
(`power`, `charm` ..., `cast`) or `pass`; targets at resolution by the caster. A decision with one legal
option is applied at once (TX-47): forced passes (TX-22), finishing after the second charm, an only target.

Move codes: kind << 32 | value. Card moves carry the card's 32-bit code (cards.py card_gid); character
moves the character's listing code (TX-28): wizard p = p, seat p's summon j (by arrival) = 2 + p * MAXSUM + j.
"""
from libc.stdint cimport uint8_t, uint16_t, int16_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy, memcmp, memmove

from engine_c.game cimport GameVTable, PLAYER_CHANCE, PLAYER_TERMINAL
from engine_c.rng cimport rand_below, rand_unit, splitmix
from cpython.pycapsule cimport PyCapsule_New

cdef extern from *:
    """
    #define LOW32 0xFFFFFFFFULL
    """
    uint64_t LOW32

# ---------------------------------------------------------------------------------------------
# Codes and enums
# ---------------------------------------------------------------------------------------------
cdef enum:
    M_PASS = 1
    M_NONE = 2
    M_DONE = 3
    M_CAST = 4
    K_MANA = 1
    K_POWER = 2
    K_CHARM = 3
    K_ATTACK = 4
    K_BLOCK = 5
    K_ON = 6
    K_TARGET = 7          # a character
    K_TSPELL = 8          # a queued spell
    K_DRAW = 9            # chance: the card drawn

cdef enum:
    PH_SETUP = 0
    PH_DRAW = 1
    PH_MANA = 2
    PH_ATTACK = 3
    PH_BLOCK = 4
    PH_BLOCK_ON = 5
    PH_CAST = 6
    PH_CHARM = 7
    PH_TARGET = 8
    PH_OVER = 9

cdef enum:
    TOK_NONE = 0
    TOK_FIRE = 1
    TOK_ICE = 2
    TOK_SHIELD = 3
    TOK_SHOCK = 4

cdef enum:
    E_DAMAGE = 1
    E_HEALTH = 2
    E_TOKENS = 3
    E_SUMMON = 4

cdef enum:
    MOD_ADD_DAMAGE = 1
    MOD_ADD_HEALTH = 2
    MOD_ADD_TOKENS = 3
    MOD_TOKENS_PLUS = 4
    MOD_SPELLPOWER = 5

cdef enum:
    T_NONE = 0
    T_CHAR = 1
    T_SUMMON = 2
    T_SPELL = 3

cdef enum:
    Q_DMG = 1             # final-spell quantities (TC-5)
    Q_HEAL = 2
    Q_TOK = 3
    Q_SDMG = 4            # a summon's damage: the "damage" kind of a summon spell (TX-24)
    Q_SHP = 5             # a summon's health

cdef enum:
    NOBODY = 0xFFFF
    VAL_MAX = 30000
    PLAYOUT_MAX_DECISIONS = 1000000

ctypedef struct Fin:
    int n
    int summon
    int kind[MAXFIN]
    int tok[MAXFIN]
    int val[MAXFIN]
    int modifiable[MAXFIN]
    int no_tokens          # TC-6, TX-26: two or more token types with a positive count

# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------
cdef inline int clampv(int v) noexcept nogil:
    if v > VAL_MAX:
        return VAL_MAX
    if v < -VAL_MAX:
        return -VAL_MAX
    return v

cdef inline int kind_of_gid(const TState* s, uint64_t gid) noexcept nogil:
    cdef int k
    for k in range(s.nkinds):
        if s.cards[k].gid == gid:
            return k
    return -1

cdef inline void hand_add(TState* s, int p, int k) noexcept nogil:
    cdef int i = s.hand_n[p]
    while i > 0 and s.hand[p][i - 1] > k:
        s.hand[p][i] = s.hand[p][i - 1]
        i -= 1
    s.hand[p][i] = k
    s.hand_n[p] += 1

cdef inline bint hand_remove(TState* s, int p, int k) noexcept nogil:
    cdef int i, j
    for i in range(s.hand_n[p]):
        if s.hand[p][i] == k:
            for j in range(i, s.hand_n[p] - 1):
                s.hand[p][j] = s.hand[p][j + 1]
            s.hand_n[p] -= 1
            s.hand[p][s.hand_n[p]] = 0          # vacated slots are zero: equal states are equal bytes
            return True
    return False

cdef inline Summon* char_at(TState* s, int p, int j) noexcept nogil:
    """Seat p's character j: -1 its wizard, else its summon j."""
    if j < 0:
        return &s.wiz[p]
    return &s.board[p][j]

cdef inline int char_code(int p, int j) noexcept nogil:
    return p if j < 0 else 2 + p * MAXSUM + j

cdef inline bint decode_char(const TState* s, uint64_t v, int* p, int* j) noexcept nogil:
    if v < 2:
        p[0] = <int>v
        j[0] = -1
        return True
    v -= 2
    p[0] = <int>(v // MAXSUM)
    j[0] = <int>(v % MAXSUM)
    return p[0] < 2 and j[0] < s.board_n[p[0]]

cdef inline bint find_uid(const TState* s, int uid, int* p, int* j) noexcept nogil:
    cdef int q, k
    if uid < 2:
        p[0] = uid
        j[0] = -1
        return True
    for q in range(2):
        for k in range(s.board_n[q]):
            if s.board[q][k].uid == uid:
                p[0] = q
                j[0] = k
                return True
    return False

# ---------------------------------------------------------------------------------------------
# Damage, healing, tokens, death (TD, TK)
# ---------------------------------------------------------------------------------------------
cdef void kill(TState* s, int p, int j) noexcept nogil:
    """TD-2: a dead summon's cards go face down (known: they were face up) to its owner's graveyard, power
    first (TX-44); its tokens are lost; it leaves combat and play."""
    cdef Summon* c = &s.board[p][j]
    cdef int i
    for i in range(c.ncards):
        s.grave[p][s.grave_n[p]] = c.cards[i]
        s.grave_n[p] += 1
    memmove(&s.board[p][j], &s.board[p][j + 1], (s.board_n[p] - j - 1) * sizeof(Summon))
    s.board_n[p] -= 1
    memset(&s.board[p][s.board_n[p]], 0, sizeof(Summon))

cdef void wizard_loses(TState* s, int p, int n) noexcept nogil:
    """TD-3, TX-43: n cards one at a time from the spellbook's top to the graveyard's top, unseen."""
    while n > 0 and s.book_n[p] > 0:
        s.book_n[p] -= 1
        s.grave[p][s.grave_n[p]] = s.book[p][s.book_n[p]]
        s.book[p][s.book_n[p]] = 0
        s.grave_n[p] += 1
        n -= 1

cdef void wizard_heals(TState* s, int p, int n) noexcept nogil:
    """TD-4, TX-43: n cards one at a time from the graveyard's top to the spellbook's bottom, unseen."""
    while n > 0 and s.grave_n[p] > 0:
        s.grave_n[p] -= 1
        memmove(&s.book[p][1], &s.book[p][0], s.book_n[p])
        s.book[p][0] = s.grave[p][s.grave_n[p]]
        s.grave[p][s.grave_n[p]] = 0
        s.book_n[p] += 1
        n -= 1

cdef bint damage_event(TState* s, int p, int j, int amount, bint immediate) noexcept nogil:
    """One damage event (TD-1, TK-3, TX-10, TX-29) against seat p's character j; returns whether a summon
    died of it (immediate: it dies now, TD-2; else the caller collects deaths, TX-30)."""
    cdef Summon* c = char_at(s, p, j)
    cdef int taken = amount
    if c.tok == TOK_SHIELD:
        taken -= c.tokn
    elif c.tok == TOK_SHOCK:
        taken += c.tokn
    if taken < 0:
        taken = 0
    if j < 0:
        wizard_loses(s, p, taken)
        return False
    c.health = clampv(c.health - taken)
    if immediate and c.health <= 0:
        kill(s, p, j)
        return True
    return False

cdef void heal(TState* s, int p, int j, int amount) noexcept nogil:
    """TD-4: a summon gains health without cap (TX-11); a wizard takes cards back from its graveyard."""
    if j < 0:
        wizard_heals(s, p, amount)
    else:
        s.board[p][j].health = clampv(s.board[p][j].health + amount)

cdef void deal_tokens(TState* s, int p, int j, int t, int n) noexcept nogil:
    """TK-2 (TX-42: one token effect at a time): none held: it gets n; the same type: adds n; another type:
    it loses all and the new ones are ignored; 0 does nothing. TK-5, TX-33, TX-45: holding ice after the
    dealing takes it out of combat."""
    cdef Summon* c = char_at(s, p, j)
    if n <= 0:
        return
    if c.tok == TOK_NONE:
        c.tok = t
        c.tokn = clampv(n)
    elif c.tok == t:
        c.tokn = clampv(c.tokn + n)
    else:
        c.tok = TOK_NONE
        c.tokn = 0
    if c.tok == TOK_ICE:
        c.atk = 0
        c.blk = NOBODY

# ---------------------------------------------------------------------------------------------
# The final spell (TC-5, TC-6, TX-7, TX-8, TX-23..TX-26)
# ---------------------------------------------------------------------------------------------
cdef inline void fin_push(Fin* f, int kind, int tok, int val, int modifiable) noexcept nogil:
    if f.n < MAXFIN:
        f.kind[f.n] = kind
        f.tok[f.n] = tok
        f.val[f.n] = val
        f.modifiable[f.n] = modifiable
        f.n += 1

cdef void add_charm(Fin* f, int kind_a, int kind_b, int tok, int n) noexcept nogil:
    """An add charm (TC-5, TX-8, TX-23): raises each modifiable quantity of its kind; with none of that kind
    at all (a fixed one counts as present) it appends the effect with n."""
    cdef int i, present = 0
    for i in range(f.n):
        if (f.kind[i] == kind_a or f.kind[i] == kind_b) and (tok == 0 or f.tok[i] == tok):
            present = 1
            if f.modifiable[i]:
                f.val[i] += n
    if not present:
        fin_push(f, kind_a if kind_a != Q_SDMG else Q_DMG, tok, n, 1)

cdef void final_spell(const TState* s, const Spell* sp, Fin* f) noexcept nogil:
    """The spell's final effects: the power's (TF-2), then its charms in attachment order; spellpower picks
    the modifiable numbers present at its position and adds after all charms (TX-7, TX-25)."""
    cdef const CardDef* pw = &s.cards[sp.cards[0]]
    cdef const CardDef* ch
    cdef int e, i, c, nsp = 0, types = 0
    cdef unsigned int masks[2]
    cdef int adds[2]
    cdef int seen[5]
    f.n = 0
    f.summon = 0
    f.no_tokens = 0
    for e in range(pw.neff):
        if pw.ek[e] == E_SUMMON:
            f.summon = 1
            fin_push(f, Q_SDMG, 0, pw.ea[e], (pw.ef[e] & 1) == 0)
            fin_push(f, Q_SHP, 0, pw.eb[e], (pw.ef[e] & 2) == 0)
        elif pw.ek[e] == E_DAMAGE:
            fin_push(f, Q_DMG, 0, pw.ea[e], (pw.ef[e] & 1) == 0)
        elif pw.ek[e] == E_HEALTH:
            fin_push(f, Q_HEAL, 0, pw.ea[e], (pw.ef[e] & 1) == 0)
        elif pw.ek[e] == E_TOKENS:
            fin_push(f, Q_TOK, pw.et[e], pw.ea[e], (pw.ef[e] & 1) == 0)
    for c in range(1, sp.ncards):
        ch = &s.cards[sp.cards[c]]
        if ch.mod == MOD_ADD_DAMAGE:
            add_charm(f, Q_DMG, Q_SDMG, 0, ch.mod_n)        # TX-24: in a summon spell, the summon's damage
        elif ch.mod == MOD_ADD_HEALTH:
            add_charm(f, Q_HEAL, Q_SHP, 0, ch.mod_n)
        elif ch.mod == MOD_ADD_TOKENS:
            add_charm(f, Q_TOK, Q_TOK, ch.mod_tok, ch.mod_n)
        elif ch.mod == MOD_TOKENS_PLUS:
            for i in range(f.n):
                if f.kind[i] == Q_TOK and f.modifiable[i]:
                    f.val[i] += ch.mod_n
        elif ch.mod == MOD_SPELLPOWER and nsp < 2:
            masks[nsp] = 0
            for i in range(f.n):
                if f.modifiable[i]:
                    masks[nsp] |= 1u << i
            adds[nsp] = ch.mod_n
            nsp += 1
    for c in range(nsp):
        for i in range(f.n):
            if (masks[c] >> i) & 1:
                f.val[i] += adds[c]
    memset(seen, 0, sizeof(seen))
    for i in range(f.n):
        if f.kind[i] == Q_TOK and f.val[i] > 0 and not seen[f.tok[i]]:
            seen[f.tok[i]] = 1
            types += 1
    f.no_tokens = types >= 2

# ---------------------------------------------------------------------------------------------
# Turn structure (TT, TS-4, TG)
# ---------------------------------------------------------------------------------------------

cdef void game_over(TState* s, int winners) noexcept nogil:
    s.over = 1
    s.winners = winners
    s.phase = PH_OVER

cdef void continue_setup(TState* s) noexcept nogil:
    """TS-4, TX-18: seat 0 then seat 1: setup_mana cards to the mana pool, then draws up to hand_size; each
    card off the (all unknown) spellbook is a chance event."""
    cdef int p
    while s.sub < 2:
        p = s.sub
        if s.book_n[p] > 0 and (s.mana_n[p] < s.setup_mana[p] or s.hand_n[p] < s.hand_size[p]):
            s.phase = PH_SETUP
            return
        s.sub += 1
    s.sub = 0
    s.turn = 0
    s.active = 0                     # TX-1: seat 0 starts
    start_turn(s)

cdef void mana_step(TState* s) noexcept nogil:
    """TT-3, TX-19: up to mana_per_turn cards, one decision at a time; none with an empty hand."""
    cdef int a = s.active
    if s.sub >= s.mana_per_turn[a] or s.hand_n[a] == 0:
        enter_attack(s)
        return
    s.phase = PH_MANA

cdef void continue_draw(TState* s) noexcept nogil:
    """TT-2, TX-2: refill to hand_size one card at a time; a known top card (healed back, TX-31) is drawn
    without chance; an unknown one is a chance event; stops when the spellbook is empty (TX-37)."""
    cdef int a = s.active, top
    while s.hand_n[a] < s.hand_size[a] and s.book_n[a] > 0:
        top = s.book[a][s.book_n[a] - 1]
        if top == UNKNOWN:
            s.phase = PH_DRAW
            return
        s.book_n[a] -= 1
        s.book[a][s.book_n[a]] = 0
        hand_add(s, a, top)
    s.sub = 0
    mana_step(s)

cdef void start_turn(TState* s) noexcept nogil:
    """TT-1, TG-1..TG-3, TX-37: the turn limit's draw, then the loss check, then the draw step (skipped by the
    first player on turn 1, TX-1)."""
    cdef int a = s.active
    s.turn += 1
    if s.turn > s.turn_limit:
        game_over(s, 3)
        return
    if s.book_n[a] == 0:
        game_over(s, 1 << (1 - a))
        return
    if s.turn == 1:
        s.sub = 0
        mana_step(s)
        return
    continue_draw(s)

cdef inline bint can_fight(const Summon* c) noexcept nogil:
    return c.tok != TOK_ICE                       # TK-5

cdef int attack_options(const TState* s, uint64_t* out) noexcept nogil:
    """TB-1: the active player's characters without ice not yet declared."""
    cdef int a = s.active, j, n = 0
    if can_fight(&s.wiz[a]) and not s.wiz[a].atk:
        if out != NULL:
            out[n] = (<uint64_t>K_ATTACK << 32) | a
        n += 1
    for j in range(s.board_n[a]):
        if can_fight(&s.board[a][j]) and not s.board[a][j].atk:
            if out != NULL:
                out[n] = (<uint64_t>K_ATTACK << 32) | char_code(a, j)
            n += 1
    return n

cdef int attacker_count(const TState* s) noexcept nogil:
    cdef int a = s.active, j, n = s.wiz[a].atk
    for j in range(s.board_n[a]):
        n += s.board[a][j].atk
    return n

cdef bint is_blocked(const TState* s, int uid) noexcept nogil:
    cdef int d = 1 - s.active, j
    if s.wiz[d].blk == uid:
        return True
    for j in range(s.board_n[d]):
        if s.board[d][j].blk == uid:
            return True
    return False

cdef int unblocked_attackers(const TState* s, uint64_t* out) noexcept nogil:
    """TB-2: attackers not yet blocked (one blocker per attacker, TX-11)."""
    cdef int a = s.active, j, n = 0
    if s.wiz[a].atk and not is_blocked(s, s.wiz[a].uid):
        if out != NULL:
            out[n] = (<uint64_t>K_ON << 32) | a
        n += 1
    for j in range(s.board_n[a]):
        if s.board[a][j].atk and not is_blocked(s, s.board[a][j].uid):
            if out != NULL:
                out[n] = (<uint64_t>K_ON << 32) | char_code(a, j)
            n += 1
    return n

cdef int block_options(const TState* s, uint64_t* out) noexcept nogil:
    """TB-2, TX-36: the other player's characters without ice not yet blocking (a wizard may block)."""
    cdef int d = 1 - s.active, j, n = 0
    if can_fight(&s.wiz[d]) and s.wiz[d].blk == NOBODY:
        if out != NULL:
            out[n] = (<uint64_t>K_BLOCK << 32) | d
        n += 1
    for j in range(s.board_n[d]):
        if can_fight(&s.board[d][j]) and s.board[d][j].blk == NOBODY:
            if out != NULL:
                out[n] = (<uint64_t>K_BLOCK << 32) | char_code(d, j)
            n += 1
    return n

cdef void clear_combat(TState* s) noexcept nogil:
    cdef int p, j
    for p in range(2):
        s.wiz[p].atk = 0
        s.wiz[p].blk = NOBODY
        for j in range(s.board_n[p]):
            s.board[p][j].atk = 0
            s.board[p][j].blk = NOBODY

cdef void enter_attack(TState* s) noexcept nogil:
    clear_combat(s)
    s.phase = PH_ATTACK
    if attack_options(s, NULL) == 0:
        enter_cast(s)                # TX-47: `done` is the only option; TX-20: no attacker, no blocking

cdef void block_step(TState* s) noexcept nogil:
    if block_options(s, NULL) == 0 or unblocked_attackers(s, NULL) == 0:
        enter_cast(s)
        return
    s.phase = PH_BLOCK

cdef void attack_done(TState* s) noexcept nogil:
    if attacker_count(s) == 0:
        enter_cast(s)                # TX-20: no attacker, no blocking decision
        return
    block_step(s)

cdef inline int budget(const TState* s, int p) noexcept nogil:
    return s.mana_n[p] - s.spent[p]           # TC-2, TX-6

cdef bint can_afford(const TState* s, int p) noexcept nogil:
    """TX-22: some power in hand fits the rest of the step's budget."""
    cdef int i, b = budget(s, p)
    for i in range(s.hand_n[p]):
        if s.cards[s.hand[p][i]].kind == 1 and s.cards[s.hand[p][i]].cost <= b:
            return True
    return False

cdef void cast_turn(TState* s) noexcept nogil:
    """TC-3, TX-5, TX-22: the seat to act casts or passes; a seat that cannot afford a spell passes, and the
    first pass ends the step."""
    if not can_afford(s, s.caster) or s.queue_n >= MAXQ:
        s.resolving = s.queue_n
        resolve_next(s)
        return
    s.phase = PH_CAST

cdef void enter_cast(TState* s) noexcept nogil:
    s.spent[0] = 0
    s.spent[1] = 0
    s.queue_n = 0
    s.caster = s.active
    cast_turn(s)

cdef int charm_options(const TState* s, uint64_t* out) noexcept nogil:
    cdef int p = s.caster, i, n = 0, k, prev = -1, b = budget(s, p)
    for i in range(s.hand_n[p]):
        k = s.hand[p][i]
        if k != prev and s.cards[k].kind == 2 and s.cards[k].cost <= b:
            if out != NULL:
                out[n] = (<uint64_t>K_CHARM << 32) | s.cards[k].gid
            n += 1
        prev = k
    return n

cdef void finish_spell(TState* s) noexcept nogil:
    """TC-3: after each spell the other player casts or passes."""
    s.caster = 1 - s.caster
    cast_turn(s)

cdef void charm_step(TState* s) noexcept nogil:
    """TC-1: 0-2 charms; TX-47: after the second, or with no charm that fits, the spell is finished."""
    cdef Spell* sp = &s.queue[s.queue_n - 1]
    if sp.ncards >= 3 or charm_options(s, NULL) == 0:
        finish_spell(s)
        return
    s.phase = PH_CHARM

# ---------------------------------------------------------------------------------------------
# Resolution (TR), combat (TB), end (TT-8)
# ---------------------------------------------------------------------------------------------
cdef int target_options(const TState* s, int i, uint64_t* out) noexcept nogil:
    """TR-2, TX-27, TX-28: the legal targets of queue[i], in listing order."""
    cdef int t = s.cards[s.queue[i].cards[0]].target, n = 0, p, j
    if t == T_NONE:
        return 0
    if t == T_SPELL:
        for j in range(i):
            if out != NULL:
                out[n] = (<uint64_t>K_TSPELL << 32) | j
            n += 1
        return n
    if t == T_CHAR:
        for p in range(2):
            if out != NULL:
                out[n] = (<uint64_t>K_TARGET << 32) | p
            n += 1
    if t == T_CHAR or t == T_SUMMON:
        for p in range(2):
            for j in range(s.board_n[p]):
                if out != NULL:
                    out[n] = (<uint64_t>K_TARGET << 32) | char_code(p, j)
                n += 1
    return n

cdef void to_grave(TState* s, const Spell* sp) noexcept nogil:
    """TR-3, TX-44: a resolved non-summon spell's cards, face down (known), power first."""
    cdef int i, p = sp.caster
    for i in range(sp.ncards):
        s.grave[p][s.grave_n[p]] = sp.cards[i]
        s.grave_n[p] += 1

cdef void resolve_spell(TState* s, int i, uint64_t target) noexcept nogil:
    """Resolves queue[i] (TR-3, TC-5, TC-6) on `target` (a move code, 0 for none)."""
    cdef Spell sp = s.queue[i]
    cdef Fin f
    cdef int k, p = sp.caster, tp = -1, tj = -1, uid
    cdef Summon* c
    final_spell(s, &sp, &f)
    if f.summon:
        c = &s.board[p][s.board_n[p]]
        memset(c, 0, sizeof(Summon))
        c.blk = NOBODY
        c.uid = s.next_uid
        s.next_uid += 1
        c.ncards = sp.ncards
        for k in range(sp.ncards):
            c.cards[k] = sp.cards[k]
        for k in range(f.n):
            if f.kind[k] == Q_SDMG:
                c.damage = clampv(f.val[k])
            elif f.kind[k] == Q_SHP:
                c.health = clampv(f.val[k])
        tj = s.board_n[p]
        s.board_n[p] += 1
        if not f.no_tokens:
            for k in range(f.n):
                if f.kind[k] == Q_TOK:
                    deal_tokens(s, p, tj, f.tok[k], f.val[k])
        if s.board[p][tj].health <= 0:
            kill(s, p, tj)                       # TX-29
    else:
        if (target >> 32) == K_TARGET and decode_char(s, target & LOW32, &tp, &tj):
            uid = char_at(s, tp, tj).uid
            for k in range(f.n):
                if not find_uid(s, uid, &tp, &tj):
                    break                        # TR-2: the target left play: the rest does nothing
                if f.kind[k] == Q_DMG:
                    damage_event(s, tp, tj, f.val[k], True)
                elif f.kind[k] == Q_HEAL:
                    heal(s, tp, tj, f.val[k])
                elif f.kind[k] == Q_TOK and not f.no_tokens:
                    deal_tokens(s, tp, tj, f.tok[k], f.val[k])
        to_grave(s, &sp)                          # TX-27: after the dead target's cards
    s.queue_n = i
    memset(&s.queue[i], 0, sizeof(Spell))

cdef void combat(TState* s) noexcept nogil:
    """TB-4, TX-30, TX-36: all damage at once (blocked pairs both ways, unblocked attackers to the other
    wizard), then each side's dead summons in arrival order."""
    cdef int a = s.active, d = 1 - a, j, bp, bj, p, atk_dmg, blk_dmg
    cdef int uid
    for j in range(-1, s.board_n[a]):
        if not char_at(s, a, j).atk:
            continue
        uid = char_at(s, a, j).uid
        bj = -2
        if s.wiz[d].blk == uid:
            bj = -1
        else:
            for p in range(s.board_n[d]):
                if s.board[d][p].blk == uid:
                    bj = p
                    break
        atk_dmg = s.wiz_damage[a] if j < 0 else char_at(s, a, j).damage
        if bj == -2:
            damage_event(s, d, -1, atk_dmg, False)
        else:
            blk_dmg = s.wiz_damage[d] if bj < 0 else char_at(s, d, bj).damage
            damage_event(s, d, bj, atk_dmg, False)
            damage_event(s, a, j, blk_dmg, False)
    for p in range(2):
        j = 0
        while j < s.board_n[p]:
            if s.board[p][j].health <= 0:
                kill(s, p, j)
            else:
                j += 1

cdef void end_step(TState* s) noexcept nogil:
    """TT-8, TK-4, TK-5, TX-35, TX-41: fire ticks (wizard, then summons by arrival; a fire death at once),
    then ice ticks, on the active player's characters only; then the other player's turn (TT-9)."""
    cdef int a = s.active, j, amount
    cdef Summon* c
    j = -1
    while j < s.board_n[a]:
        c = char_at(s, a, j)
        if c.tok == TOK_FIRE:
            amount = c.tokn
            c.tokn -= 1
            if c.tokn <= 0:
                c.tok = TOK_NONE
                c.tokn = 0
            if damage_event(s, a, j, amount, True):
                continue
        j += 1
    for j in range(-1, s.board_n[a]):
        c = char_at(s, a, j)
        if c.tok == TOK_ICE:
            c.tokn -= 1
            if c.tokn <= 0:
                c.tok = TOK_NONE
                c.tokn = 0
    clear_combat(s)
    s.active = 1 - a
    start_turn(s)

cdef void resolve_next(TState* s) noexcept nogil:
    """TR-1: last cast first; the caster picks the target (TR-2), at once when there is one (TX-47); then
    combat (TT-7, TX-3) and the end step."""
    cdef uint64_t only[1]
    cdef int n, i
    while s.queue_n > 0:
        i = s.queue_n - 1
        n = target_options(s, i, NULL)
        if n >= 2:
            s.resolving = i
            s.caster = s.queue[i].caster
            s.phase = PH_TARGET
            return
        if n == 1:
            target_options(s, i, only)
            resolve_spell(s, i, only[0])
        else:
            resolve_spell(s, i, 0)
    combat(s)
    end_step(s)

# ---------------------------------------------------------------------------------------------
# The rules interface
# ---------------------------------------------------------------------------------------------
cdef int tcg_current_player(const TState* s) noexcept nogil:
    if s.over or not s.started:
        return PLAYER_TERMINAL
    if s.phase == PH_SETUP or s.phase == PH_DRAW:
        return PLAYER_CHANCE
    if s.phase == PH_MANA or s.phase == PH_ATTACK:
        return s.active
    if s.phase == PH_BLOCK or s.phase == PH_BLOCK_ON:
        return 1 - s.active
    return s.caster

cdef int tcg_legal_moves(const TState* s, uint64_t* out) noexcept nogil:
    cdef int n = 0, i, k, prev = -1, p, b
    if s.over or not s.started:
        return 0
    if s.phase == PH_MANA:
        p = s.active
        for i in range(s.hand_n[p]):
            k = s.hand[p][i]
            if k != prev:
                out[n] = (<uint64_t>K_MANA << 32) | s.cards[k].gid
                n += 1
            prev = k
        out[n] = M_NONE
        return n + 1
    if s.phase == PH_ATTACK:
        n = attack_options(s, out)
        out[n] = M_DONE
        return n + 1
    if s.phase == PH_BLOCK:
        n = block_options(s, out)
        out[n] = M_DONE
        return n + 1
    if s.phase == PH_BLOCK_ON:
        return unblocked_attackers(s, out)
    if s.phase == PH_CAST:
        p = s.caster
        b = budget(s, p)
        for i in range(s.hand_n[p]):
            k = s.hand[p][i]
            if k != prev and s.cards[k].kind == 1 and s.cards[k].cost <= b:
                out[n] = (<uint64_t>K_POWER << 32) | s.cards[k].gid
                n += 1
            prev = k
        out[n] = M_PASS
        return n + 1
    if s.phase == PH_CHARM:
        n = charm_options(s, out)
        out[n] = M_CAST
        return n + 1
    if s.phase == PH_TARGET:
        return target_options(s, s.resolving, out)
    return 0

cdef inline int chance_seat(const TState* s) noexcept nogil:
    return s.sub if s.phase == PH_SETUP else s.active

cdef int tcg_chance_outcomes(const TState* s, uint64_t* out, double* probs) noexcept nogil:
    """A draw of an unknown card: each kind of the drawer's pool, count / pool size (TS-4, TT-2)."""
    cdef int p, k, n = 0
    if s.over or not s.started or (s.phase != PH_SETUP and s.phase != PH_DRAW):
        return 0
    p = chance_seat(s)
    for k in range(s.nkinds):
        if s.pool[p][k] > 0:
            out[n] = (<uint64_t>K_DRAW << 32) | s.cards[k].gid
            probs[n] = <double>s.pool[p][k] / s.pool_n[p]
            n += 1
    return n

cdef uint64_t tcg_sample_chance(const TState* s, uint64_t* rng) noexcept nogil:
    cdef int p = chance_seat(s), k, r
    if s.pool_n[p] == 0:
        return 0
    r = <int>rand_below(rng, s.pool_n[p])
    for k in range(s.nkinds):
        r -= s.pool[p][k]
        if r < 0:
            return (<uint64_t>K_DRAW << 32) | s.cards[k].gid
    return 0

cdef void draw_card(TState* s, int p, int k) noexcept nogil:
    s.pool[p][k] -= 1
    s.pool_n[p] -= 1
    s.book_n[p] -= 1
    s.book[p][s.book_n[p]] = 0

cdef void tcg_apply(TState* s, uint64_t m) noexcept nogil:
    """Apply a legal move or chance outcome (unchecked: the caller passes one of the listed codes)."""
    cdef int kind = <int>(m >> 32), k, p, j, a = s.active
    cdef uint64_t v = m & LOW32
    cdef uint64_t only[MAX_MOVES]
    cdef Spell* sp
    if s.phase == PH_SETUP:
        p = s.sub
        k = kind_of_gid(s, v)
        draw_card(s, p, k)
        if s.mana_n[p] < s.setup_mana[p]:
            s.mana[p][k] += 1
            s.mana_n[p] += 1
        else:
            hand_add(s, p, k)
        continue_setup(s)
    elif s.phase == PH_DRAW:
        k = kind_of_gid(s, v)
        draw_card(s, a, k)
        hand_add(s, a, k)
        continue_draw(s)
    elif s.phase == PH_MANA:
        if m == M_NONE:
            enter_attack(s)
            return
        k = kind_of_gid(s, v)
        hand_remove(s, a, k)
        s.mana[a][k] += 1
        s.mana_n[a] += 1
        s.sub += 1
        mana_step(s)
    elif s.phase == PH_ATTACK:
        if m == M_DONE:
            attack_done(s)
            return
        decode_char(s, v, &p, &j)
        char_at(s, p, j).atk = 1
        if attack_options(s, NULL) == 0:
            attack_done(s)
    elif s.phase == PH_BLOCK:
        if m == M_DONE:
            enter_cast(s)
            return
        decode_char(s, v, &p, &j)
        s.pending_blocker = char_at(s, p, j).uid
        if unblocked_attackers(s, only) == 1:
            decode_char(s, only[0] & LOW32, &k, &j)
            find_uid(s, s.pending_blocker, &p, &a)
            char_at(s, p, a).blk = char_at(s, k, j).uid
            s.pending_blocker = NOBODY
            block_step(s)
        else:
            s.phase = PH_BLOCK_ON
    elif s.phase == PH_BLOCK_ON:
        decode_char(s, v, &k, &j)
        find_uid(s, s.pending_blocker, &p, &a)
        char_at(s, p, a).blk = char_at(s, k, j).uid
        s.pending_blocker = NOBODY
        block_step(s)
    elif s.phase == PH_CAST:
        if m == M_PASS:
            s.resolving = s.queue_n
            resolve_next(s)
            return
        p = s.caster
        k = kind_of_gid(s, v)
        hand_remove(s, p, k)
        sp = &s.queue[s.queue_n]
        sp.caster = p
        sp.ncards = 1
        sp.cards[0] = k
        sp.cards[1] = 0
        sp.cards[2] = 0
        s.queue_n += 1
        s.spent[p] += s.cards[k].cost
        charm_step(s)
    elif s.phase == PH_CHARM:
        if m == M_CAST:
            finish_spell(s)
            return
        p = s.caster
        k = kind_of_gid(s, v)
        hand_remove(s, p, k)
        sp = &s.queue[s.queue_n - 1]
        sp.cards[sp.ncards] = k
        sp.ncards += 1
        s.spent[p] += s.cards[k].cost
        charm_step(s)
    elif s.phase == PH_TARGET:
        resolve_spell(s, s.resolving, m)
        resolve_next(s)

cdef void tcg_scores(const TState* s, double* out) noexcept nogil:
    """Each wizard's health: its spellbook's size (TX-16)."""
    out[0] = s.book_n[0]
    out[1] = s.book_n[1]

cdef unsigned int tcg_winners(const TState* s) noexcept nogil:
    """TG-1..TG-3 at the end (a draw: both); before it, the larger spellbook (both when equal)."""
    if s.over:
        return s.winners
    if s.book_n[0] == s.book_n[1]:
        return 3
    return 1 if s.book_n[0] > s.book_n[1] else 2

cdef void tcg_evaluate(const TState* s, double* out) noexcept nogil:
    """A cheap estimate for cut-off rollouts: the spellbook, plus half of each summon's damage and health."""
    cdef int p, j
    cdef double v
    for p in range(2):
        v = s.book_n[p]
        for j in range(s.board_n[p]):
            v += 0.5 * (s.board[p][j].damage + (s.board[p][j].health if s.board[p][j].health > 0 else 0))
        out[p] = v

cdef double tcg_move_weight(const TState* s, uint64_t m) noexcept nogil:
    return 1.0

# ---------------------------------------------------------------------------------------------
# Determinization (TI-4, TI-5, TX-31)
# ---------------------------------------------------------------------------------------------
cdef void tcg_determinize(TState* s, int o, uint64_t* rng) noexcept nogil:
    """TI-5, exact: the observer's own unknown slots are the pool (undrawn: nothing to deal); the opponent's
    hand, mana pool and unknown slots hold the cards of its deck the observer cannot place (its hand, mana
    and pool together): dealt uniformly, sizes kept; known slots stay. The hidden future (rng) is resampled."""
    cdef int x = 1 - o, k, i, j, n = 0, t, nh, nm
    cdef uint8_t arr[MAXDECK]
    if not s.started or o < 0 or o > 1:
        return
    for i in range(s.hand_n[x]):
        arr[n] = s.hand[x][i]
        n += 1
    for k in range(s.nkinds):
        for i in range(s.mana[x][k] + s.pool[x][k]):
            arr[n] = k
            n += 1
    nh = s.hand_n[x]
    nm = s.mana_n[x]
    for i in range(nh + nm):
        j = i + <int>rand_below(rng, n - i)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
    s.hand_n[x] = 0
    for i in range(nh):
        hand_add(s, x, arr[i])
    memset(s.mana[x], 0, MAXC)
    for i in range(nh, nh + nm):
        s.mana[x][arr[i]] += 1
    memset(s.pool[x], 0, MAXC)
    for i in range(nh + nm, n):
        s.pool[x][arr[i]] += 1
    s.rng = splitmix(rng)

# ---------------------------------------------------------------------------------------------
# Playouts, the GameVTable
# ---------------------------------------------------------------------------------------------
cdef uint64_t tcg_random_playout(TState* s, uint64_t* rng) noexcept nogil:
    """Uniformly random moves and sampled chance outcomes to the end; returns the decisions made."""
    cdef uint64_t moves[MAX_MOVES]
    cdef uint64_t count = 0
    cdef int n
    while count < PLAYOUT_MAX_DECISIONS:
        if s.over:
            return count
        if s.phase == PH_SETUP or s.phase == PH_DRAW:
            tcg_apply(s, tcg_sample_chance(s, rng))
            continue
        n = tcg_legal_moves(s, moves)
        tcg_apply(s, moves[rand_below(rng, n)])
        count += 1
    return count

include "features.pxi"

cdef int vt_num_players(const void* s) noexcept nogil:
    return 2

cdef int vt_current_player(const void* s) noexcept nogil:
    return tcg_current_player(<const TState*>s)

cdef int vt_legal_moves(const void* s, uint64_t* out) noexcept nogil:
    return tcg_legal_moves(<const TState*>s, out)

cdef void vt_apply(void* s, uint64_t m) noexcept nogil:
    tcg_apply(<TState*>s, m)

cdef uint64_t vt_sample_chance(const void* s, uint64_t* rng) noexcept nogil:
    return tcg_sample_chance(<const TState*>s, rng)

cdef int vt_chance_outcomes(const void* s, uint64_t* out, double* probs) noexcept nogil:
    return tcg_chance_outcomes(<const TState*>s, out, probs)

cdef void vt_determinize(void* s, int observer, int kind, uint64_t* rng) noexcept nogil:
    tcg_determinize(<TState*>s, observer, rng)

cdef void vt_scores(const void* s, double* out) noexcept nogil:
    tcg_scores(<const TState*>s, out)

cdef unsigned int vt_winners(const void* s) noexcept nogil:
    return tcg_winners(<const TState*>s)

cdef void vt_evaluate(const void* s, double* out) noexcept nogil:
    tcg_evaluate(<const TState*>s, out)

cdef double vt_move_weight(const void* s, uint64_t m) noexcept nogil:
    return tcg_move_weight(<const TState*>s, m)

cdef void vt_state_features(const void* s, int observer, float* out) noexcept nogil:
    tcg_state_features(<const TState*>s, observer, out)

cdef void vt_move_features(const void* s, uint64_t m, float* out) noexcept nogil:
    tcg_move_features(<const TState*>s, m, out)

cdef GameVTable TCG_VTABLE
TCG_VTABLE.state_size = sizeof(TState)
TCG_VTABLE.max_moves = MAX_MOVES
TCG_VTABLE.max_players = 2
TCG_VTABLE.num_players = vt_num_players
TCG_VTABLE.current_player = vt_current_player
TCG_VTABLE.legal_moves = vt_legal_moves
TCG_VTABLE.apply_move = vt_apply
TCG_VTABLE.sample_chance = vt_sample_chance
TCG_VTABLE.chance_outcomes = vt_chance_outcomes
TCG_VTABLE.determinize = vt_determinize
TCG_VTABLE.scores = vt_scores
TCG_VTABLE.winners = vt_winners
TCG_VTABLE.evaluate = vt_evaluate
TCG_VTABLE.move_weight = vt_move_weight
TCG_VTABLE.num_state_features = TCG_STATE_FEATURES
TCG_VTABLE.num_move_features = TCG_MOVE_FEATURES
TCG_VTABLE.feature_version = TCG_FEATURE_VERSION
TCG_VTABLE.prefix_feature_version = 0
TCG_VTABLE.prefix_state_features = 0
TCG_VTABLE.state_features = vt_state_features
TCG_VTABLE.move_features = vt_move_features
TCG_VTABLE.determinize_hypothesis = NULL
TCG_VTABLE.move_fails = NULL
TCG_VTABLE.decision_prior = NULL


def game_vtable():
    """A PyCapsule named 'search.GameVTable' holding the Spellbook TCG's C interface for search/."""
    return PyCapsule_New(<void*>&TCG_VTABLE, b"search.GameVTable", NULL)

# ---------------------------------------------------------------------------------------------
# Python-facing core: engine_c.spellbooktcg.State subclasses this with notation and validation.
# ---------------------------------------------------------------------------------------------
PHASES = ("setup", "draw", "mana", "attack", "block", "blockon", "cast", "charm", "target", "over")
CODES = {"pass": M_PASS, "none": M_NONE, "done": M_DONE, "cast": M_CAST, "mana": K_MANA, "power": K_POWER,
         "charm": K_CHARM, "attack": K_ATTACK, "block": K_BLOCK, "on": K_ON, "target": K_TARGET,
         "spell": K_TSPELL, "draw": K_DRAW}
LIMITS = {"kinds": MAXC, "deck": MAXDECK, "summons": MAXSUM, "hand": HAND_MAX, "queue": MAXQ,
          "effects": MAXEFF, "max_moves": MAX_MOVES, "unknown": UNKNOWN, "nobody": NOBODY}
STATE_SIZE = sizeof(TState)

cdef uint64_t[::1] _scratch = __import__("array").array("Q", bytes(8 * MAX_MOVES))


cdef class CoreState:
    """The C state plus thin, unchecked accessors. Use engine_c.spellbooktcg.State."""
    cdef TState s

    def _setup(self, rows, decks, wizards, int turn_limit, bytes digest, wizard_gids):
        """The game's fixed part: card rows (cards.table_rows), deck counts per seat by kind, wizards
        (damage, hand_size, mana_discards_per_turn, setup_mana) per seat, the card file's digest (6 bytes)
        and the wizards' codes. Every zone emptied."""
        cdef int k, e, p
        memset(&self.s, 0, sizeof(TState))
        if len(digest) != 6:
            raise ValueError("digest: 6 bytes")
        for k in range(6):
            self.s.digest[k] = digest[k]
        self.s.wiz_gid[0], self.s.wiz_gid[1] = wizard_gids
        if len(rows) > MAXC:
            raise ValueError(f"{len(rows)} card kinds; a game has at most {MAXC}")
        self.s.nkinds = len(rows)
        for k, (gid, kind, cost, rarity, target, effs, mod) in enumerate(rows):
            self.s.cards[k].gid = gid
            self.s.cards[k].kind = kind
            self.s.cards[k].cost = cost
            self.s.cards[k].rarity = rarity
            self.s.cards[k].target = target
            if len(effs) > MAXEFF:
                raise ValueError("too many effects")
            self.s.cards[k].neff = len(effs)
            for e, (ek, et, ea, eb, ef) in enumerate(effs):
                self.s.cards[k].ek[e] = ek
                self.s.cards[k].et[e] = et
                self.s.cards[k].ea[e] = ea
                self.s.cards[k].eb[e] = eb
                self.s.cards[k].ef[e] = ef
            self.s.cards[k].mod, self.s.cards[k].mod_tok, self.s.cards[k].mod_n = mod
        for p in range(2):
            for k in range(len(rows)):
                self.s.deck[p][k] = decks[p][k]
            self.s.wiz_damage[p], self.s.hand_size[p], self.s.mana_per_turn[p], self.s.setup_mana[p] = wizards[p]
        self.s.turn_limit = turn_limit
        self.s.started = 1
        for p in range(2):
            self.s.wiz[p].uid = p
            self.s.wiz[p].blk = NOBODY
            self.s.wiz[p].damage = self.s.wiz_damage[p]
        self.s.next_uid = 2
        self.s.pending_blocker = NOBODY

    def _deal(self, uint64_t seed):
        """TS-4: every card in its owner's spellbook, unknown (the pool), then the setup's chance events."""
        cdef int p, k
        for p in range(2):
            self.s.book_n[p] = 0
            self.s.pool_n[p] = 0
            for k in range(self.s.nkinds):
                self.s.pool[p][k] = self.s.deck[p][k]
                self.s.pool_n[p] += self.s.deck[p][k]
            self.s.book_n[p] = self.s.pool_n[p]
            memset(self.s.book[p], UNKNOWN, MAXDECK)
        self.s.rng = seed
        self.s.sub = 0
        self.s.phase = PH_SETUP
        continue_setup(&self.s)

    def _copy_from(self, CoreState other):
        memcpy(&self.s, &other.s, sizeof(TState))

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        return memcmp(&self.s, &(<CoreState>other).s, sizeof(TState)) == 0

    def __hash__(self):
        return hash(self._state_bytes())

    @property
    def current_player(self):
        """The seat deciding next; -1 at a chance event (a draw); -2 when the game is over."""
        return tcg_current_player(&self.s)

    def _legal_codes(self):
        cdef uint64_t[::1] buf = _scratch
        cdef int n = tcg_legal_moves(&self.s, &buf[0])
        return [buf[i] for i in range(n)]

    def _apply_code(self, uint64_t m):
        tcg_apply(&self.s, m)

    def _chance_codes(self):
        cdef uint64_t[::1] buf = _scratch
        cdef double probs[MAX_MOVES]
        cdef int n = tcg_chance_outcomes(&self.s, &buf[0], probs)
        return [(buf[i], probs[i]) for i in range(n)]

    def _sample_chance_code(self):
        return tcg_sample_chance(&self.s, &self.s.rng)

    def _determinize(self, int observer, uint64_t seed):
        cdef uint64_t rng = seed
        tcg_determinize(&self.s, observer, &rng)

    def _winners_mask(self):
        return tcg_winners(&self.s)

    def _final_spell(self, int i):
        """queue[i]'s final effects (TC-5, TC-6): (summon, [(kind, token, value)], no_tokens); kinds: damage,
        health, tokens, summon_damage, summon_health."""
        cdef Fin f
        if not 0 <= i < self.s.queue_n:
            raise IndexError("no such queued spell")
        final_spell(&self.s, &self.s.queue[i], &f)
        names = {Q_DMG: "damage", Q_HEAL: "health", Q_TOK: "tokens", Q_SDMG: "summon_damage",
                 Q_SHP: "summon_health"}
        return (bool(f.summon), [(names[f.kind[k]], f.tok[k], f.val[k]) for k in range(f.n)], bool(f.no_tokens))

    def _final_of(self, int caster, cards):
        """The final effects (as _final_spell) of a spell of `cards` (card kinds: its power, then its charms in
        attachment order) cast by `caster`, whether or not it is queued: what a spell being built would be."""
        cdef Spell sp
        cdef Fin f
        if not 1 <= len(cards) <= 3 or not 0 <= caster <= 1:
            raise ValueError("a spell is a power and at most two charms, cast by seat 0 or 1")
        sp.caster, sp.ncards = caster, len(cards)
        for k in range(len(cards)):
            if not 0 <= cards[k] < self.s.nkinds:
                raise ValueError(f"no card kind {cards[k]}")
            if (self.s.cards[cards[k]].mod == 0) != (k == 0):
                raise ValueError("a spell is its power first, then charms")
            sp.cards[k] = cards[k]
        final_spell(&self.s, &sp, &f)
        names = {Q_DMG: "damage", Q_HEAL: "health", Q_TOK: "tokens", Q_SDMG: "summon_damage",
                 Q_SHP: "summon_health"}
        return (bool(f.summon), [(names[f.kind[k]], f.tok[k], f.val[k]) for k in range(f.n)], bool(f.no_tokens))

    def _state_bytes(self):
        return (<char*>&self.s)[:sizeof(TState)]

    def _load_state_bytes(self, bytes data):
        if len(data) != sizeof(TState):
            raise ValueError(f"state bytes must be {sizeof(TState)} long, got {len(data)}")
        memcpy(&self.s, <const char*>data, sizeof(TState))

    def _features(self, int observer):
        cdef float buf[TCG_STATE_FEATURES]
        tcg_state_features(&self.s, observer, buf)
        return [buf[i] for i in range(TCG_STATE_FEATURES)]

    def _random_playout(self, uint64_t seed):
        cdef uint64_t rng = seed
        cdef uint64_t n
        with nogil:
            n = tcg_random_playout(&self.s, &rng)
        return n

    def _table(self):
        return [(self.s.cards[k].gid, self.s.cards[k].kind, self.s.cards[k].cost, self.s.cards[k].rarity,
                 self.s.cards[k].target) for k in range(self.s.nkinds)]

    def _to_raw(self):
        """Every dynamic field of the C state as plain Python data (the notation works on this)."""
        cdef TState* s = &self.s
        nk = s.nkinds

        return {
            "players": 2, "started": s.started, "digest": bytes([s.digest[k] for k in range(6)]),
            "wizard_gids": [s.wiz_gid[0], s.wiz_gid[1]], "nkinds": nk, "gids": [s.cards[k].gid for k in range(nk)],
            "deck": [[s.deck[p][k] for k in range(nk)] for p in range(2)],
            "wizards": [(s.wiz_damage[p], s.hand_size[p], s.mana_per_turn[p], s.setup_mana[p]) for p in range(2)],
            "limit": s.turn_limit, "turn": s.turn, "phase": s.phase, "active": s.active, "over": s.over,
            "winners": s.winners, "sub": s.sub, "caster": s.caster, "spent": [s.spent[0], s.spent[1]],
            "resolving": s.resolving, "pending_blocker": s.pending_blocker, "next_uid": s.next_uid,
            "book": [[s.book[p][i] for i in range(s.book_n[p])] for p in range(2)],
            "grave": [[s.grave[p][i] for i in range(s.grave_n[p])] for p in range(2)],
            "pool": [[s.pool[p][k] for k in range(nk)] for p in range(2)],
            "hand": [[s.hand[p][i] for i in range(s.hand_n[p])] for p in range(2)],
            "mana": [[s.mana[p][k] for k in range(nk)] for p in range(2)],
            "wiz": [_char_raw(&s.wiz[0], False), _char_raw(&s.wiz[1], False)],
            "board": [[_char_raw(&s.board[p][j], True) for j in range(s.board_n[p])] for p in range(2)],
            "queue": [(s.queue[i].caster, [s.queue[i].cards[c] for c in range(s.queue[i].ncards)])
                      for i in range(s.queue_n)],
            "rng": s.rng,
        }

    def _from_raw(self, raw):
        """Load the dynamic part from a raw dict (as made by _to_raw; the caller validated it) over the fixed
        part set by _setup; sizes are recomputed."""
        cdef TState* s = &self.s
        cdef int p, i, k, j
        nk = s.nkinds
        s.turn, s.phase, s.active, s.over, s.winners = raw["turn"], raw["phase"], raw["active"], raw["over"], raw["winners"]
        s.sub, s.caster, s.resolving = raw["sub"], raw["caster"], raw["resolving"]
        s.spent[0], s.spent[1] = raw["spent"]
        s.pending_blocker, s.next_uid = raw["pending_blocker"], raw["next_uid"]
        for p in range(2):
            memset(s.book[p], 0, MAXDECK)
            memset(s.grave[p], 0, MAXDECK)
            memset(s.pool[p], 0, MAXC)
            memset(s.mana[p], 0, MAXC)
            memset(s.hand[p], 0, HAND_MAX)
            memset(s.board[p], 0, sizeof(s.board[p]))
            s.book_n[p] = len(raw["book"][p])
            for i, k in enumerate(raw["book"][p]):
                s.book[p][i] = k
            s.grave_n[p] = len(raw["grave"][p])
            for i, k in enumerate(raw["grave"][p]):
                s.grave[p][i] = k
            s.pool_n[p] = sum(raw["pool"][p])
            s.mana_n[p] = sum(raw["mana"][p])
            for k in range(nk):
                s.pool[p][k] = raw["pool"][p][k]
                s.mana[p][k] = raw["mana"][p][k]
            s.hand_n[p] = 0
            for k in sorted(raw["hand"][p]):
                s.hand[p][s.hand_n[p]] = k
                s.hand_n[p] += 1
            _load_char(&s.wiz[p], raw["wiz"][p])
            s.board_n[p] = len(raw["board"][p])
            for j, c in enumerate(raw["board"][p]):
                _load_char(&s.board[p][j], c)
        memset(s.queue, 0, sizeof(s.queue))
        s.queue_n = len(raw["queue"])
        for i, (caster, cards) in enumerate(raw["queue"]):
            s.queue[i].caster = caster
            s.queue[i].ncards = len(cards)
            for k, c in enumerate(cards):
                s.queue[i].cards[k] = c
        s.rng = raw["rng"]


cdef dict _char_raw(const Summon* c, bint cards):
    return {"damage": c.damage, "health": c.health, "tok": c.tok, "tokn": c.tokn, "uid": c.uid,
            "atk": c.atk, "blk": c.blk, "cards": [c.cards[i] for i in range(c.ncards)] if cards else []}


cdef void _load_char(Summon* c, d) except *:
    c.damage, c.health, c.tok, c.tokn = d["damage"], d["health"], d["tok"], d["tokn"]
    c.uid, c.atk, c.blk = d["uid"], d["atk"], d["blk"]
    c.ncards = len(d["cards"])
    for i, k in enumerate(d["cards"]):
        c.cards[i] = k


def random_playouts(bytes start, int games, uint64_t seed):
    """Whole random games in C from `start` (state bytes, e.g. a new game's first setup draw), each with a
    fresh hidden future: (decisions, turns) summed (the benchmark's loop)."""
    cdef TState s
    cdef TState root
    cdef uint64_t rng = seed, decisions = 0, turns = 0
    cdef int g
    if len(start) != sizeof(TState):
        raise ValueError(f"state bytes must be {sizeof(TState)} long")
    memcpy(&root, <const char*>start, sizeof(TState))
    with nogil:
        for g in range(games):
            memcpy(&s, &root, sizeof(TState))
            decisions += tcg_random_playout(&s, &rng)
            turns += s.turn
    return decisions, turns


def time_determinize(bytes state, int observer, int count, uint64_t seed):
    """Seconds for `count` determinizations of `state` for `observer`, each on a fresh copy (as a search
    iteration does)."""
    cdef TState root
    cdef TState work
    cdef uint64_t rng = seed
    cdef int i
    if len(state) != sizeof(TState):
        raise ValueError(f"state bytes must be {sizeof(TState)} long")
    memcpy(&root, <const char*>state, sizeof(TState))
    import time
    t0 = time.perf_counter()
    with nogil:
        for i in range(count):
            memcpy(&work, &root, sizeof(TState))
            tcg_determinize(&work, observer, &rng)
    return time.perf_counter() - t0
