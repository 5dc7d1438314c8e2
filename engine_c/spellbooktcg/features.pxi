# The Spellbook TCG's features for a learned evaluation (search/model.py, engine_c/game.pxd's
# state_features / move_features), version TCG_FEATURE_VERSION. Cards are data, so nothing here knows a card
# by name: a card is described by what its definition says (card_row), and zones by sums of those rows.
#
# What the observer may not see is never read (TI-1..TI-5): the opponent's hand and mana pool are read only
# as counts, and the cards the observer cannot place (the opponent's hand, mana and unknown slots together)
# only as one mixture, which is what the deck list minus the public cards leaves. The observer's own pool is
# its deck minus what it can see, so it is read whole. tcg_determinize changes none of this.

cdef enum:
    CARD_ROW = 10         # card_row's length
    SEAT_ROW = 23         # seat_block's length
    TCG_GLOBAL = 10 + 4 + 1 + 12 + 1 + CARD_ROW + 1 + CARD_ROW + CARD_ROW + 1
    TCG_STATE_FEATURES = 2 * SEAT_ROW + TCG_GLOBAL
    TCG_MOVE_FEATURES = 12 + CARD_ROW + 10 + 4 + 2
    TCG_FEATURE_VERSION = 1

cdef void card_row(const CardDef* c, float* out) noexcept nogil:
    """power, charm, cost/5; the printed damage, healing, tokens, summon damage and summon health /5; whether
    it takes a character or summon target; a charm's modifier number /3."""
    cdef int e
    memset(out, 0, CARD_ROW * sizeof(float))
    out[0] = 1.0 if c.kind == 1 else 0.0
    out[1] = 1.0 if c.kind == 2 else 0.0
    out[2] = c.cost / 5.0
    for e in range(c.neff):
        if c.ek[e] == E_DAMAGE:
            out[3] += c.ea[e] / 5.0
        elif c.ek[e] == E_HEALTH:
            out[4] += c.ea[e] / 5.0
        elif c.ek[e] == E_TOKENS:
            out[5] += c.ea[e] / 5.0
        elif c.ek[e] == E_SUMMON:
            out[6] += c.ea[e] / 5.0
            out[7] += c.eb[e] / 5.0
    out[8] = 1.0 if c.target == T_CHAR or c.target == T_SUMMON else 0.0
    out[9] = c.mod_n / 3.0 if c.kind == 2 else 0.0

cdef void add_rows(const TState* s, int k, float weight, float* out) noexcept nogil:
    cdef float row[CARD_ROW]
    cdef int i
    card_row(&s.cards[k], row)
    for i in range(CARD_ROW):
        out[i] += weight * row[i]

cdef void seat_block(const TState* s, int p, float* out) noexcept nogil:
    """Seat p's public counts: spellbook (its health), graveyard, hand, mana, what is left to spend this step,
    summons; the wizard's damage and tokens; the summons' damage and health (sums and largest), tokens by type,
    attackers and blockers; the wizard's mana per turn and hand size."""
    cdef int j, t
    cdef const Summon* c
    memset(out, 0, SEAT_ROW * sizeof(float))
    out[0] = s.book_n[p] / 40.0
    out[1] = s.grave_n[p] / 40.0
    out[2] = s.hand_n[p] / 10.0
    out[3] = s.mana_n[p] / 10.0
    out[4] = budget(s, p) / 10.0
    out[5] = s.board_n[p] / 5.0
    out[6] = s.wiz_damage[p] / 5.0
    if TOK_FIRE <= s.wiz[p].tok <= TOK_SHOCK:
        out[6 + s.wiz[p].tok] = s.wiz[p].tokn / 3.0
    for j in range(s.board_n[p]):
        c = &s.board[p][j]
        out[11] += c.damage / 10.0
        out[12] += (c.health if c.health > 0 else 0) / 10.0
        if c.damage / 5.0 > out[13]:
            out[13] = c.damage / 5.0
        if c.health / 5.0 > out[14]:
            out[14] = c.health / 5.0
        if TOK_FIRE <= c.tok <= TOK_SHOCK:
            out[14 + c.tok] += c.tokn / 5.0
    for j in range(-1, s.board_n[p]):
        if j < 0:
            c = &s.wiz[p]
        else:
            c = &s.board[p][j]
        out[19] += c.atk / 3.0
        out[20] += (1.0 if c.blk != NOBODY else 0.0) / 3.0
    out[21] = s.mana_per_turn[p] / 3.0
    out[22] = s.hand_size[p] / 10.0

cdef void queue_block(const TState* s, int o, float* out) noexcept nogil:
    """The spell queue by caster (the observer's, then the other's): spells, and their final spells' damage,
    healing, tokens, summon damage and summon health (TC-5), each /10."""
    cdef Fin f
    cdef int i, e, base
    memset(out, 0, 12 * sizeof(float))
    for i in range(s.queue_n):
        base = 0 if s.queue[i].caster == o else 6
        out[base] += 0.1
        final_spell(s, &s.queue[i], &f)
        for e in range(f.n):
            if 1 <= f.kind[e] <= 5:
                out[base + f.kind[e]] += f.val[e] / 10.0

cdef void tcg_state_features(const TState* s, int o, float* out) noexcept nogil:
    """Seat blocks (the observer's, then the other's), then: the phase (one-hot); whether the observer is the
    active player and the one to decide; the turn against the turn limit, and the limit /50; the queue's size
    and queue_block; which queued spell awaits its target (from the top); the observer's hand (card_row sums)
    and its castable powers; the mean card_row of the observer's own undrawn cards, and of the other's cards
    the observer cannot place; the spellbook lead /20."""
    cdef int x = 1 - o, i, k, n, g, castable = 0, b
    cdef int cnt
    cdef float* glob = out + 2 * SEAT_ROW
    memset(out, 0, TCG_STATE_FEATURES * sizeof(float))
    if not s.started or o < 0 or o > 1:
        return
    seat_block(s, o, out)
    seat_block(s, x, out + SEAT_ROW)
    if s.phase <= PH_OVER:
        glob[s.phase] = 1.0
    g = 10
    glob[g] = 1.0 if s.active == o else 0.0
    glob[g + 1] = 1.0 if tcg_current_player(s) == o else 0.0
    glob[g + 2] = s.turn / <float>(s.turn_limit if s.turn_limit > 0 else 1)
    glob[g + 3] = s.turn_limit / 50.0
    g += 4
    glob[g] = s.queue_n / 10.0
    g += 1
    queue_block(s, o, glob + g)
    g += 12
    glob[g] = (s.queue_n - s.resolving) / 10.0 if s.phase == PH_TARGET else 0.0
    g += 1
    b = budget(s, o)
    for i in range(s.hand_n[o]):
        k = s.hand[o][i]
        add_rows(s, k, 0.2, glob + g)
        if s.cards[k].kind == 1 and s.cards[k].cost <= b:
            castable += 1
    g += CARD_ROW
    glob[g] = castable / 5.0
    g += 1
    if s.pool_n[o] > 0:
        for k in range(s.nkinds):
            if s.pool[o][k]:
                add_rows(s, k, s.pool[o][k] / <float>s.pool_n[o], glob + g)
    g += CARD_ROW
    # The other's hand, mana and unknown slots as one mixture: by kind, what the observer cannot place.
    n = s.hand_n[x] + s.mana_n[x] + s.pool_n[x]
    if n > 0:
        for k in range(s.nkinds):
            cnt = s.mana[x][k] + s.pool[x][k]
            for i in range(s.hand_n[x]):
                cnt += s.hand[x][i] == k
            if cnt:
                add_rows(s, k, cnt / <float>n, glob + g)
    g += CARD_ROW
    glob[g] = (s.book_n[o] - s.book_n[x]) / 20.0

cdef void char_row(const TState* s, int mover, uint64_t v, float* out) noexcept nogil:
    """A character named by a move: the mover's or the other's, a wizard, its damage and health /5 (a wizard's
    health: its spellbook /40), its token count by type /3, declared attacking."""
    cdef int p, j
    cdef const Summon* c
    if not decode_char(s, v, &p, &j):
        return
    if j < 0:
        c = &s.wiz[p]
    else:
        c = &s.board[p][j]
    out[0] = 1.0 if p == mover else 0.0
    out[1] = 1.0 if p != mover else 0.0
    out[2] = 1.0 if j < 0 else 0.0
    out[3] = (s.wiz_damage[p] if j < 0 else c.damage) / 5.0
    out[4] = s.book_n[p] / 40.0 if j < 0 else c.health / 5.0
    if TOK_FIRE <= c.tok <= TOK_SHOCK:
        out[4 + c.tok] = c.tokn / 3.0
    out[9] = c.atk

cdef void tcg_move_features(const TState* s, uint64_t m, float* out) noexcept nogil:
    """The move's kind (one-hot: pass, none, done, cast, mana, power, charm, attack, block, block-on, target,
    target a spell); a card move's card_row; a character move's char_row; for a target, the resolving spell's
    final damage, healing and tokens /5 and whether it would kill a summon; for a spell target, whether that
    spell is the mover's and its damage /5."""
    cdef int kind = <int>(m >> 32), mover = tcg_current_player(s), k, e, p, j, dmg = 0
    cdef uint64_t v = m & LOW32
    cdef Fin f
    cdef float* card = out + 12
    cdef float* ch = card + CARD_ROW
    cdef float* tgt = ch + 10
    memset(out, 0, TCG_MOVE_FEATURES * sizeof(float))
    if kind == 0:
        if M_PASS <= m <= M_CAST:
            out[m - 1] = 1.0
        return
    if K_MANA <= kind <= K_TSPELL:
        out[3 + kind] = 1.0
    if kind == K_MANA or kind == K_POWER or kind == K_CHARM:
        k = kind_of_gid(s, v)
        if k >= 0:
            card_row(&s.cards[k], card)
    elif kind == K_ATTACK or kind == K_BLOCK or kind == K_ON or kind == K_TARGET:
        char_row(s, mover, v, ch)
        if kind == K_TARGET and s.phase == PH_TARGET and s.resolving < s.queue_n:
            final_spell(s, &s.queue[s.resolving], &f)
            for e in range(f.n):
                if f.kind[e] == Q_DMG:
                    tgt[0] += f.val[e] / 5.0
                    dmg += f.val[e]
                elif f.kind[e] == Q_HEAL:
                    tgt[1] += f.val[e] / 5.0
                elif f.kind[e] == Q_TOK:
                    tgt[2] += f.val[e] / 5.0
            if decode_char(s, v, &p, &j) and j >= 0 and dmg >= s.board[p][j].health:
                tgt[3] = 1.0
    elif kind == K_TSPELL and v < s.queue_n:
        tgt[4] = 1.0 if s.queue[v].caster == mover else 0.0
        final_spell(s, &s.queue[v], &f)
        for e in range(f.n):
            if f.kind[e] == Q_DMG:
                tgt[5] += f.val[e] / 5.0
