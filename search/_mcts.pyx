# cython: language_level=3
"""Compiled search over any game exposing a GameVTable (engine_c/game.pxd): single-observer ISMCTS
(Cowling, Powley & Whitehouse 2012), flat Monte Carlo over determinizations, and a one-ply greedy player.

Everything below runs without the GIL on raw state buffers; search.py wraps it for Python.

ISMCTS, as implemented here:
- each iteration copies the root, then `determinize`s it for the searching observer (the hidden Pouch
  order, and its contents when the Discard box is unknown);
- descent only considers moves legal in that determinization; every existing child legal there gets its
  availability count incremented, and UCB uses it instead of the parent's visits (subset-armed bandit);
- chance events are tree nodes keyed by the *observed* outcome, sampled from the determinized state: a
  draw's result is public once it happens, so a node below it only ever aggregates worlds where that
  result was seen, and the statistics of the decision above it average over sampled outcomes. No node's
  statistics depend on a draw the player has not observed yet (no clairvoyance);
- rewards are per-player vectors; each player maximizes their own component at their decisions;
- with `chance="expected"` a chance node's value is the probability-weighted mean of its outcomes'
  values (the game's own probabilities, `chance_outcomes`), not the mean over how often each outcome
  happened to be sampled: expectimax's back-up at chance nodes (Ballard 1983), without its width. The
  correction travels up as `Node.corr` (the node's value times its visits, less its reward sum), so a
  decision node's value is still the visit-weighted mean of its children's.
"""
from libc.stdint cimport uint64_t, int64_t, uint32_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memcpy, memset
from libc.math cimport sqrt, log, exp, INFINITY
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.pycapsule cimport PyCapsule_GetPointer

from engine_c.game cimport GameVTable, PLAYER_CHANCE, PLAYER_TERMINAL
from engine_c.rng cimport rand_below, rand_unit, splitmix

cdef enum:
    MAXP = 5                # the most seats any game may have (SpellBook 4, Abracada…What? 5); checked in vtable_of
    MAX_PATH = 8192
    OBJ_WIN = 0
    OBJ_MARGIN = 1
    OBJ_BLEND = 2
    POLICY_RANDOM = 0
    POLICY_HEURISTIC = 1
    # A rollout stops after this many decisions (scored by the static evaluation), a guard so a playout
    # always returns whatever the state: real games take a few hundred decisions.
    MAX_ROLLOUT_DECISIONS = 20000
    NODE_EXPANDED = 1       # Node.flags: priors assigned to the children (learned evaluation)

# Weight of the final-score margin in the "win" objective's reward (a tie-break; see outcome()).
cdef double WIN_TIEBREAK = 0.02

include "net.pxi"
include "endgame.pxi"

ctypedef struct Node:
    uint64_t move
    int parent
    int first_child
    int next_sibling
    int visits
    int avail
    int player              # who chose `move` (-1: a chance outcome)
    int flags
    float prior             # the policy's prior of `move` at the parent (learned evaluation); a chance
                            # outcome's probability (chance="expected")
    double reward[MAXP]
    double score[MAXP]
    double score_sq[MAXP]
    double wins[MAXP]
    double corr[MAXP]       # chance="expected": value * visits - reward (0 elsewhere)

ctypedef struct Tree:
    Node* nodes
    int n
    int cap
    int max_nodes
    int* table              # open addressing: (parent, move) -> node index, -1 empty
    int tcap                # power of two

ctypedef struct Config:
    int64_t iterations      # <= 0: no iteration limit
    double deadline         # CLOCK_MONOTONIC seconds; <= 0: none
    double exploration
    int objective
    double blend            # weight of the win term in OBJ_BLEND
    double margin_scale     # points that map to a full reward swing in the margin objective
    int policy
    int cutoff              # rollout decisions before a static evaluation; 0 = play to the end
    int observer
    int observer_kind
    double fpu              # first-play urgency of untried moves (0: try every move before any twice)
    int stop_early          # 1: stop once the most visited root move can no longer be overtaken
    double lcb_min_share    # > 0: the move played may be another with this share of the leader's visits
    int expand_by_prior     # 1: an untried move is drawn by the game's move prior, not uniformly
    int open_loop           # 1: chance outcomes are not tree nodes (statistics pooled over draws)
    int chance_expect       # 1: chance nodes back up probability-weighted means (chance="expected")
    int64_t solve_nodes     # > 0: network leaves near the end are solved exactly within this many nodes
    int solve_horizon       # ... when their random rollout ended within this many decisions (endgame.pxi)
    uint64_t seed
    const Net* net          # not NULL: PUCT with the network's priors and leaf values (evaluator "network")
    double c_puct           # PUCT exploration constant
    double fpu_reduction    # an unvisited child's value: the parent's mean minus this
    double rollout_mix      # weight of one random rollout mixed into a network leaf value (0: none)
    int root_halving        # > 1: Sequential Halving over this many root moves (network, iteration budgets)
    double mover_bias       # the network's measured optimism for the seat to move, removed from its values
    int rollout_head        # 1: the rollout_mix share of a leaf comes from the network's rollout head, not a rollout
    double pause_at         # CLOCK_MONOTONIC seconds; > 0: return at this time, resumable (Progress)
    int redeterminize       # 1: at another seat's decision, the world is re-determinized from that seat's view
    double opponent_prior   # > 0: other seats' decisions (rollout search) by PUCT over the game's move prior
    int nhyp                # > 0: root determinizations draw the observer's hidden part from these hypotheses
    const int* hyp_ids      # the game's hypothesis ids (GameVTable.determinize_hypothesis)
    const double* hyp_cum   # their cumulative weights (the last is the total)

ctypedef struct Progress:
    # Where a search stands between calls (a search run in slices: Config.pause_at): the next call with the
    # same tree, root and options continues exactly where this one paused, so a search run in slices makes
    # the same iterations, in the same order, as one uninterrupted run.
    int started
    uint64_t rng
    int64_t it
    double active_s         # seconds spent in earlier calls (for stop_early's rate)
    int ncand
    int phases
    int phase_it
    int64_t per_phase
    int cand[64]

ctypedef struct Work:
    int64_t opp_moves       # decisions by other seats inside the tree that could fail (GameVTable.move_fails)
    int64_t opp_fails       # of which failed
    uint64_t* moves
    uint64_t* untried
    int* avail
    double* weights
    int* path
    char* det               # determinized state buffer
    char* tmp               # scratch state buffer
    double* priors          # max_moves
    NetScratch ns
    Solver sv               # exact endgames (Config.solve_nodes > 0; else its buffers are NULL)


cdef inline double now_s() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9

# ---------------------------------------------------------------------------------------------
# Tree storage
# ---------------------------------------------------------------------------------------------
cdef inline uint64_t slot_hash(int parent, uint64_t move) noexcept nogil:
    cdef uint64_t h = move * <uint64_t>0x9E3779B97F4A7C15 + <uint64_t>parent * <uint64_t>0xC2B2AE3D27D4EB4F
    return h ^ (h >> 29)

cdef bint tree_init(Tree* t, int max_nodes) noexcept nogil:
    t.cap = 1024
    t.n = 0
    t.max_nodes = max_nodes
    t.nodes = <Node*>malloc(t.cap * sizeof(Node))
    t.tcap = 2048
    t.table = <int*>malloc(t.tcap * sizeof(int))
    if t.nodes == NULL or t.table == NULL:
        return False
    memset(t.table, 0xFF, t.tcap * sizeof(int))
    return True

cdef void tree_free(Tree* t) noexcept nogil:
    free(t.nodes)
    free(t.table)
    t.nodes = NULL
    t.table = NULL

cdef int tree_find(const Tree* t, int parent, uint64_t move) noexcept nogil:
    cdef uint64_t mask = t.tcap - 1
    cdef uint64_t i = slot_hash(parent, move) & mask
    cdef int idx
    while True:
        idx = t.table[i]
        if idx < 0:
            return -1
        if t.nodes[idx].parent == parent and t.nodes[idx].move == move:
            return idx
        i = (i + 1) & mask

cdef void table_insert(Tree* t, int idx) noexcept nogil:
    cdef uint64_t mask = t.tcap - 1
    cdef uint64_t i = slot_hash(t.nodes[idx].parent, t.nodes[idx].move) & mask
    while t.table[i] >= 0:
        i = (i + 1) & mask
    t.table[i] = idx

cdef int tree_add(Tree* t, int parent, uint64_t move, int player) noexcept nogil:
    """A new node (statistics zero); -1 when the tree is full or memory runs out."""
    cdef Node* nn
    cdef int* nt
    cdef int i, idx
    if t.n >= t.max_nodes:
        return -1
    if t.n == t.cap:
        nn = <Node*>realloc(t.nodes, 2 * t.cap * sizeof(Node))
        if nn == NULL:
            return -1
        t.nodes = nn
        t.cap *= 2
    if 2 * (t.n + 1) > t.tcap:
        nt = <int*>malloc(2 * t.tcap * sizeof(int))
        if nt == NULL:
            return -1
        free(t.table)
        t.table = nt
        t.tcap *= 2
        memset(t.table, 0xFF, t.tcap * sizeof(int))
        for i in range(t.n):
            if t.nodes[i].parent >= 0:
                table_insert(t, i)
    idx = t.n
    t.n += 1
    memset(&t.nodes[idx], 0, sizeof(Node))
    t.nodes[idx].move = move
    t.nodes[idx].parent = parent
    t.nodes[idx].first_child = -1
    t.nodes[idx].next_sibling = -1
    t.nodes[idx].player = player
    if parent >= 0:
        t.nodes[idx].next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = idx
        table_insert(t, idx)
    return idx

# ---------------------------------------------------------------------------------------------
# Rewards, policies, rollouts
# ---------------------------------------------------------------------------------------------
cdef void outcome(const GameVTable* g, const void* s, const Config* cfg, double* rew, double* scores,
                  double* wins) noexcept nogil:
    """Per-player reward in [0, 1], final (or estimated) scores, and win shares (ties shared)."""
    cdef int n = g.num_players(s), p, q, k = 0
    cdef unsigned int mask
    cdef double best_other, margin
    if g.current_player(s) == PLAYER_TERMINAL:
        g.scores(s, scores)
        mask = g.winners(s)
        for p in range(n):
            if (mask >> p) & 1:
                k += 1
        for p in range(n):
            wins[p] = (1.0 / k) if ((mask >> p) & 1) else 0.0
    else:
        g.evaluate(s, scores)
        for p in range(n):
            best_other = -INFINITY
            for q in range(n):
                if q != p and scores[q] > best_other:
                    best_other = scores[q]
            wins[p] = 1.0 / (1.0 + exp(-(scores[p] - best_other) / 3.0))
    reward_from(cfg, n, scores, wins, rew)

cdef void reward_from(const Config* cfg, int n, const double* scores, const double* wins,
                      double* rew) noexcept nogil:
    """Each player's reward in [0, 1] from (estimated) final scores and win shares, by the objective."""
    cdef int p, q
    cdef double best_other, margin
    for p in range(n):
        best_other = -INFINITY
        for q in range(n):
            if q != p and scores[q] > best_other:
                best_other = scores[q]
        margin = (scores[p] - best_other) / cfg.margin_scale
        if margin > 1.0:
            margin = 1.0
        elif margin < -1.0:
            margin = -1.0
        margin = 0.5 * (margin + 1.0)
        if cfg.objective == OBJ_WIN:
            # A small margin term breaks ties between moves of equal win probability: without it a
            # player whose every move wins (or loses) in all rollouts is indifferent, picks `pass` by
            # the tie order, and two such bots can pass forever instead of ending the game.
            rew[p] = (1.0 - WIN_TIEBREAK) * wins[p] + WIN_TIEBREAK * margin
        elif cfg.objective == OBJ_MARGIN:
            rew[p] = margin
        else:
            rew[p] = cfg.blend * wins[p] + (1.0 - cfg.blend) * margin

cdef uint64_t weighted_move(const GameVTable* g, const void* s, const uint64_t* moves, double* weights, int n,
                            uint64_t* rng) noexcept nogil:
    """One of `moves`, drawn in proportion to the game's move prior (`weights`: scratch, n long)."""
    cdef int i
    cdef double total = 0.0, r
    for i in range(n):
        weights[i] = g.move_weight(s, moves[i])
        total += weights[i]
    r = rand_unit(rng) * total
    for i in range(n):
        r -= weights[i]
        if r < 0:
            return moves[i]
    return moves[n - 1]

cdef uint64_t policy_move(const GameVTable* g, const void* s, Work* w, int n, int policy,
                          uint64_t* rng) noexcept nogil:
    if policy == POLICY_RANDOM or n == 1:
        return w.moves[rand_below(rng, n)]
    return weighted_move(g, s, w.moves, w.weights, n, rng)

cdef int rollout(const GameVTable* g, void* s, const Config* cfg, Work* w, uint64_t* rng) noexcept nogil:
    """Plays to the end (or `cutoff` decisions, or MAX_ROLLOUT_DECISIONS); returns the decisions made."""
    cdef int cp, n, depth = 0
    while True:
        cp = g.current_player(s)
        if cp == PLAYER_TERMINAL:
            return depth
        if cp == PLAYER_CHANCE:
            g.apply_move(s, g.sample_chance(s, rng))
            continue
        if (cfg.cutoff > 0 and depth >= cfg.cutoff) or depth >= MAX_ROLLOUT_DECISIONS:
            return depth
        n = g.legal_moves(s, w.moves)
        g.apply_move(s, policy_move(g, s, w, n, cfg.policy, rng))
        depth += 1

cdef bint work_init(Work* w, const GameVTable* g) noexcept nogil:
    w.moves = <uint64_t*>malloc(g.max_moves * sizeof(uint64_t))
    w.untried = <uint64_t*>malloc(g.max_moves * sizeof(uint64_t))
    w.avail = <int*>malloc(g.max_moves * sizeof(int))
    w.weights = <double*>malloc(g.max_moves * sizeof(double))
    w.path = <int*>malloc(MAX_PATH * sizeof(int))
    w.det = <char*>malloc(g.state_size)
    w.tmp = <char*>malloc(g.state_size)
    w.priors = <double*>malloc(g.max_moves * sizeof(double))
    memset(&w.ns, 0, sizeof(NetScratch))
    memset(&w.sv, 0, sizeof(Solver))
    w.opp_moves = 0
    w.opp_fails = 0
    return (w.moves != NULL and w.untried != NULL and w.avail != NULL and w.weights != NULL
            and w.path != NULL and w.det != NULL and w.tmp != NULL and w.priors != NULL)

cdef void work_free(Work* w) noexcept nogil:
    free(w.moves)
    free(w.untried)
    free(w.avail)
    free(w.weights)
    free(w.path)
    free(w.det)
    free(w.tmp)
    solver_free(&w.sv)
    free(w.priors)
    scratch_free(&w.ns)

cdef inline bint should_stop(const Config* cfg, int64_t it, const int* cancel, double stop_at) noexcept nogil:
    """`stop_at`: the deadline, or the pause time when that comes first (CLOCK_MONOTONIC; <= 0: none)."""
    if cancel[0]:
        return True
    if cfg.iterations > 0 and it >= cfg.iterations:
        return True
    if stop_at > 0 and (it & 15) == 0 and now_s() >= stop_at:
        return True
    return False

# ---------------------------------------------------------------------------------------------
# ISMCTS
# ---------------------------------------------------------------------------------------------
cdef void determinize_root(const GameVTable* g, const Config* cfg, void* det, uint64_t* rng) noexcept nogil:
    """One determinization of the root for the observer: its hidden part drawn from the belief's
    hypotheses (weights cfg.hyp_cum) when the search was given some, else the game's own (uniform over
    what the observer cannot see). A hypothesis the game refuses falls back to the game's own."""
    cdef int lo = 0, hi, mid
    cdef double u
    if cfg.nhyp > 0 and g.determinize_hypothesis != NULL:
        u = rand_unit(rng) * cfg.hyp_cum[cfg.nhyp - 1]
        hi = cfg.nhyp - 1
        while lo < hi:
            mid = (lo + hi) >> 1
            if cfg.hyp_cum[mid] > u:
                hi = mid
            else:
                lo = mid + 1
        if g.determinize_hypothesis(det, cfg.observer, cfg.hyp_ids[lo], rng):
            return
    g.determinize(det, cfg.observer, cfg.observer_kind, rng)


cdef inline void opponent_view(const GameVTable* g, const Config* cfg, Work* w, int cp,
                               uint64_t* rng) noexcept nogil:
    """Re-determinizing ISMCTS (Goodman 2019): before another seat decides inside the tree, everything
    that seat cannot see is resampled from its own view, so it chooses (and its cast succeeds or fails)
    as it would knowing only what it knows; the searcher's own determinized hidden part, which that seat
    sees, is kept."""
    if cfg.redeterminize and cp != cfg.observer:
        g.determinize(w.det, cp, cfg.observer_kind, rng)


cdef inline void count_opponent(const GameVTable* g, const Config* cfg, Work* w, int cp,
                                uint64_t move) noexcept nogil:
    """Another seat's decision inside the tree that could fail (GameVTable.move_fails), and whether it did."""
    cdef int fails
    if cp != cfg.observer and cp >= 0 and g.move_fails != NULL:
        fails = g.move_fails(w.det, move)
        if fails >= 0:
            w.opp_moves += 1
            w.opp_fails += fails


cdef uint64_t opponent_pick(const GameVTable* g, const Config* cfg, Tree* t, int node, Work* w, int nm,
                            int cp) noexcept nogil:
    """Another seat's decision in the rollout search with options.opponent_prior > 0: PUCT over the game's
    move prior (AlphaGo's selection, the prior being GameVTable.decision_prior, else move_weight, normalized
    over the legal moves of this determinization),
        Q + opponent_prior * P * sqrt(parent visits) / (1 + visits),
    an untried move's Q being the parent's mean for that seat. So a simulated opponent first plays what
    the prior favours and turns to other moves only as the search finds them better, instead of trying
    every move once (fpu 0), which makes it play moves no real player would (Abracada's certain-to-fail
    casts). The searcher's own decisions keep UCB. Increments the existing children's availability."""
    cdef int i, child, best = 0
    cdef double total = 0.0, v, bestv = -INFINITY, q, parent_q, root_n
    cdef Node* c = &t.nodes[node]
    parent_q = c.reward[cp] / c.visits if c.visits > 0 else 0.5
    root_n = sqrt(<double>(c.visits if c.visits > 1 else 1))
    for i in range(nm):
        w.weights[i] = (g.decision_prior(w.det, w.moves[i]) if g.decision_prior != NULL
                        else g.move_weight(w.det, w.moves[i]))
        if w.weights[i] < 0:
            w.weights[i] = 0
        total += w.weights[i]
    for i in range(nm):
        v = (w.weights[i] / total) if total > 0 else 1.0 / nm
        child = tree_find(t, node, w.moves[i])
        if child >= 0:
            c = &t.nodes[child]
            c.avail += 1
            q = c.reward[cp] / c.visits if c.visits > 0 else parent_q
            v = q + cfg.opponent_prior * v * root_n / (1.0 + c.visits)
        else:
            v = parent_q + cfg.opponent_prior * v * root_n
        if v > bestv:
            bestv = v
            best = i
    return w.moves[best]


cdef bint decided(const Tree* t, int root_node, const Config* cfg, int64_t it, double started) noexcept nogil:
    """True when the root's most visited move leads the next by more visits than the rest of the budget
    can give (iterations left, or those the time left allows at the rate so far): running on could not
    change the most visited move, so stopping returns the same move sooner. When the move played may
    also be another with lcb_min_share of the leader's visits (by its lower confidence bound), every
    move that could still reach that share must look no better than the leader now."""
    cdef int c = t.nodes[root_node].first_child, lead = -1
    cdef int64_t first = 0, second = 0, left = -1, by_time
    cdef double now, rate, lead_mean
    while c >= 0:
        if t.nodes[c].visits > first:
            second = first
            first = t.nodes[c].visits
            lead = c
        elif t.nodes[c].visits > second:
            second = t.nodes[c].visits
        c = t.nodes[c].next_sibling
    if cfg.iterations > 0:
        left = cfg.iterations - it
    if cfg.deadline > 0:
        now = now_s()
        rate = it / max(now - started, 1e-9)
        by_time = <int64_t>(rate * (cfg.deadline - now) * 1.25) + 1   # generous: never stop too soon
        if left < 0 or by_time < left:
            left = by_time
    if left < 0 or first - second <= left:
        return False
    if cfg.lcb_min_share <= 0 or second + left < cfg.lcb_min_share * first:
        return True
    lead_mean = t.nodes[lead].reward[cfg.observer] / first
    c = t.nodes[root_node].first_child
    while c >= 0:
        if c != lead and t.nodes[c].visits > 0 and t.nodes[c].visits + left >= cfg.lcb_min_share * first \
                and t.nodes[c].reward[cfg.observer] / t.nodes[c].visits > lead_mean:
            return False
        c = t.nodes[c].next_sibling
    return True

cdef int64_t ismcts_run(const GameVTable* g, const void* root, const Config* cfg, Tree* t, int root_node,
                        const int* cancel, double* rollout_decisions, int* stopped_early,
                        Progress* pr, int64_t* opp) noexcept nogil:
    """Grows tree `t` below `root_node` (the node of the state `root`) until the budget ends, or until
    cfg.pause_at; continues from `pr` when it has started, and leaves in it where it stopped. Returns the
    iterations done in this call."""
    cdef Work w
    cdef uint64_t rng = cfg.seed
    cdef int64_t it = 0, it0 = 0
    cdef int node, child, cp, nm, nun, na, i, plen, best, p, n
    cdef double bestv, v, lg
    cdef double rew[MAXP]
    cdef double scores[MAXP]
    cdef double wins[MAXP]
    cdef uint64_t m
    cdef bint expanded
    cdef Node* c
    cdef double started = now_s()
    cdef double stop_at = cfg.deadline
    cdef int cand[64]
    cdef int ncand = 0, phases = 0, phase_it = 0, forced
    cdef int64_t per_phase = 0
    if (not work_init(&w, g) or (cfg.net != NULL and not scratch_init(&w.ns, cfg.net))
            or (cfg.net != NULL and cfg.solve_nodes > 0 and not solver_init(&w.sv, g))):
        work_free(&w)
        return 0
    n = g.num_players(root)
    rollout_decisions[0] = 0
    stopped_early[0] = 0
    if cfg.pause_at > 0 and (stop_at <= 0 or cfg.pause_at < stop_at):
        stop_at = cfg.pause_at
    if pr.started:
        rng, it, it0 = pr.rng, pr.it, pr.it
        started -= pr.active_s
        ncand, phases, phase_it, per_phase = pr.ncand, pr.phases, pr.phase_it, pr.per_phase
        memcpy(cand, pr.cand, sizeof(cand))
    if not pr.started and cfg.net != NULL and not (t.nodes[root_node].flags & NODE_EXPANDED) and not cancel[0]:
        # the root's own evaluation and priors: not an iteration, so every iteration visits one root
        # move and the root moves' visits add up to the iterations, as in the rollout search
        memcpy(w.det, root, g.state_size)
        determinize_root(g, cfg, w.det, &rng)
        plen = puct_descend(g, cfg, t, root_node, &w, &rng, rew, scores, wins, rollout_decisions)
        backup(t, &w, plen, n, rew, scores, wins, cfg)
    if not pr.started and cfg.net != NULL and cfg.root_halving > 1 and cfg.iterations > 0:
        # Sequential Halving at the root (Karnin et al. 2013; Gumbel MuZero's root without the noise):
        # the policy's best few moves share the budget evenly, phase by phase, and the worse half by mean
        # value is dropped after each phase; the last eighth goes to the survivor, so it is also the most
        # visited. Below the root the search is PUCT as usual.
        ncand = halving_start(t, root_node, min(cfg.root_halving, 64), cand)
        while (1 << phases) < ncand:
            phases += 1
        if phases > 0:
            per_phase = (cfg.iterations - cfg.iterations // 8) // phases
    while not should_stop(cfg, it, cancel, stop_at):
        if ncand > 1 and per_phase > 0 and phase_it >= per_phase:
            ncand = halving_keep(t, cfg.observer, cand, ncand)
            phase_it = 0
            if ncand == 1:
                per_phase = 0
        if cfg.stop_early and ncand <= 1 and it >= 64 and (it & 31) == 0 and \
                decided(t, root_node, cfg, it, started):
            stopped_early[0] = 1
            break
        memcpy(w.det, root, g.state_size)
        determinize_root(g, cfg, w.det, &rng)
        if cfg.net != NULL:
            forced = halving_pick(t, cand, ncand) if ncand >= 1 and phases > 0 else -1
            plen = puct_descend(g, cfg, t, root_node, &w, &rng, rew, scores, wins, rollout_decisions, forced)
            backup(t, &w, plen, n, rew, scores, wins, cfg)
            it += 1
            phase_it += 1
            continue
        node = root_node
        plen = 1
        w.path[0] = root_node
        expanded = False
        # selection and expansion
        while plen < MAX_PATH:
            cp = g.current_player(w.det)
            if cp == PLAYER_TERMINAL:
                break
            if cp == PLAYER_CHANCE:
                m = g.sample_chance(w.det, &rng)
                if cfg.open_loop:
                    g.apply_move(w.det, m)
                    continue
                child = chance_child(g, cfg, t, node, w.det, m, &w)
                g.apply_move(w.det, m)
                if child < 0:
                    break
                node = child
                w.path[plen] = node
                plen += 1
                continue
            if expanded:
                break
            opponent_view(g, cfg, &w, cp, &rng)
            nm = g.legal_moves(w.det, w.moves)
            if cfg.opponent_prior > 0 and cp != cfg.observer:
                m = opponent_pick(g, cfg, t, node, &w, nm, cp)
                child = tree_find(t, node, m)
                count_opponent(g, cfg, &w, cp, m)
                g.apply_move(w.det, m)
                if child < 0:
                    child = tree_add(t, node, m, cp)
                    if child < 0:
                        break
                    t.nodes[child].avail = 1
                    expanded = True
                node = child
                w.path[plen] = node
                plen += 1
                continue
            nun = 0
            na = 0
            for i in range(nm):
                child = tree_find(t, node, w.moves[i])
                if child < 0:
                    w.untried[nun] = w.moves[i]
                    nun += 1
                else:
                    w.avail[na] = child
                    na += 1
            for i in range(na):
                t.nodes[w.avail[i]].avail += 1
            # An untried move is expanded first (fpu 0: infinite urgency), or, with first-play urgency
            # fpu > 0, only while no tried move's UCB value reaches fpu.
            best = -1
            bestv = -INFINITY
            if nun == 0 or cfg.fpu > 0:
                for i in range(na):
                    c = &t.nodes[w.avail[i]]
                    v = node_q(c, cp) + cfg.exploration * sqrt(log(<double>c.avail) / c.visits)
                    if v > bestv:
                        bestv = v
                        best = w.avail[i]
            if nun > 0 and (best < 0 or bestv < cfg.fpu):
                m = w.untried[rand_below(&rng, nun)] if not cfg.expand_by_prior else \
                    weighted_move(g, w.det, w.untried, w.weights, nun, &rng)
                child = tree_add(t, node, m, cp)
                count_opponent(g, cfg, &w, cp, m)
                g.apply_move(w.det, m)
                if child < 0:
                    break
                t.nodes[child].avail = 1
                node = child
                w.path[plen] = node
                plen += 1
                expanded = True
                continue
            count_opponent(g, cfg, &w, cp, t.nodes[best].move)
            g.apply_move(w.det, t.nodes[best].move)
            node = best
            w.path[plen] = node
            plen += 1
        # simulation (decisions counted: those in the tree below the root, then the rollout's)
        for i in range(1, plen):
            if t.nodes[w.path[i]].player >= 0:
                rollout_decisions[0] += 1
        rollout_decisions[0] += rollout(g, w.det, cfg, &w, &rng)
        outcome(g, w.det, cfg, rew, scores, wins)
        backup(t, &w, plen, n, rew, scores, wins, cfg)
        it += 1
    opp[0] += w.opp_moves
    opp[1] += w.opp_fails
    work_free(&w)
    pr.started = 1
    pr.rng, pr.it, pr.active_s = rng, it, now_s() - started
    pr.ncand, pr.phases, pr.phase_it, pr.per_phase = ncand, phases, phase_it, per_phase
    memcpy(pr.cand, cand, sizeof(cand))
    return it - it0


cdef void backup(Tree* t, const Work* w, int plen, int n, const double* rew, const double* scores,
                 const double* wins, const Config* cfg) noexcept nogil:
    cdef int i, p
    cdef Node* c
    for i in range(plen):
        c = &t.nodes[w.path[i]]
        c.visits += 1
        for p in range(n):
            c.reward[p] += rew[p]
            c.score[p] += scores[p]
            c.score_sq[p] += scores[p] * scores[p]
            c.wins[p] += wins[p]
    if cfg.chance_expect:
        backup_expected(t, w, plen, n)


cdef inline double node_q(const Node* c, int p) noexcept nogil:
    """A node's value for seat p: its mean reward, corrected at chance nodes below (chance="expected")."""
    return (c.reward[p] + c.corr[p]) / c.visits


cdef int chance_child(const GameVTable* g, const Config* cfg, Tree* t, int node, const void* s, uint64_t m,
                      Work* w) noexcept nogil:
    """The tree node of chance outcome m below `node` (added when new; -1 when the tree is full). With
    chance="expected" a new outcome keeps its probability in `prior`, from the state before the draw."""
    cdef int child = tree_find(t, node, m), i, k
    if child >= 0:
        return child
    child = tree_add(t, node, m, -1)
    if child >= 0 and cfg.chance_expect:
        k = g.chance_outcomes(s, w.moves, w.priors)
        for i in range(k):
            if w.moves[i] == m:
                t.nodes[child].prior = <float>w.priors[i]
                break
    return child


cdef void backup_expected(Tree* t, const Work* w, int plen, int n) noexcept nogil:
    """After backup(): from the leaf up, a chance node's `corr` makes its value the probability-weighted
    mean of its outcomes' values (those visited, renormalized); any other node adds the change of its
    child's `corr` to its own, so its value stays the visit-weighted mean of its children's values."""
    cdef int i, p, k
    cdef double delta[MAXP]
    cdef double num[MAXP]
    cdef double mass, new
    cdef Node* c
    cdef Node* o
    for p in range(n):
        delta[p] = 0.0
    for i in range(plen - 1, -1, -1):
        c = &t.nodes[w.path[i]]
        k = c.first_child
        if k >= 0 and t.nodes[k].player == -1:
            mass = 0.0
            for p in range(n):
                num[p] = 0.0
            while k >= 0:
                o = &t.nodes[k]
                if o.visits > 0 and o.prior > 0:
                    mass += o.prior
                    for p in range(n):
                        num[p] += o.prior * node_q(o, p)
                k = o.next_sibling
            if mass > 0:
                for p in range(n):
                    new = c.visits * num[p] / mass - c.reward[p]
                    delta[p] = new - c.corr[p]
                    c.corr[p] = new
                continue
        for p in range(n):
            c.corr[p] += delta[p]


cdef void unbias_mover(const Config* cfg, int n, int cp, double* wins) noexcept nogil:
    """Removes the network's measured optimism for the seat to move from a value (search/train.py
    measures it along the games it trained on). Uncorrected, a leaf's value depends on whose turn it falls on:
    leaves inside the searching seat's own Day would look better by about twice the bias than leaves in
    the next seat's, and a deeper tree mixes those parities unevenly across root moves (docs/search.md)."""
    cdef int p
    if cfg.mover_bias == 0 or n < 2:
        return
    for p in range(n):
        wins[p] += (-cfg.mover_bias if p == cp else cfg.mover_bias / (n - 1))
        wins[p] = min(1.0, max(0.0, wins[p]))


cdef bint expand_with_priors(const GameVTable* g, const Config* cfg, Tree* t, int node, const void* s, int cp,
                             Work* w) noexcept nogil:
    """Adds a child for every legal move of `s` at `node`, each with the network's prior (the trunk's
    activations for `s` must be in w.ns). False when the tree is full."""
    cdef int nm = g.legal_moves(s, w.moves), i, child
    net_policy_q(cfg.net, &w.ns)
    net_priors(cfg.net, g, s, &w.ns, w.moves, nm, w.priors)
    for i in range(nm):
        child = tree_find(t, node, w.moves[i])
        if child < 0:
            child = tree_add(t, node, w.moves[i], cp)
            if child < 0:
                return False
        t.nodes[child].prior = <float>w.priors[i]
    t.nodes[node].flags |= NODE_EXPANDED
    return True


cdef int halving_start(const Tree* t, int root_node, int want, int* cand) noexcept nogil:
    """The root's `want` moves with the highest priors (ties: first found) into cand; returns how many."""
    cdef int c = t.nodes[root_node].first_child, k, j, m = 0
    while c >= 0:
        if t.nodes[c].player >= 0:
            k = m if m < want else want
            if k == want and t.nodes[c].prior <= t.nodes[cand[want - 1]].prior:
                c = t.nodes[c].next_sibling
                continue
            if k == want:
                k = want - 1
            j = k
            while j > 0 and t.nodes[cand[j - 1]].prior < t.nodes[c].prior:
                cand[j] = cand[j - 1]
                j -= 1
            cand[j] = c
            if m < want:
                m += 1
        c = t.nodes[c].next_sibling
    return m


cdef int halving_keep(const Tree* t, int player, int* cand, int m) noexcept nogil:
    """Sorts the candidates by mean reward for `player` (best first) and keeps the better half."""
    cdef int i, j, x
    cdef double qi, qx
    for i in range(1, m):
        x = cand[i]
        qx = node_q(&t.nodes[x], player) if t.nodes[x].visits > 0 else -1.0
        j = i
        while j > 0:
            qi = (node_q(&t.nodes[cand[j - 1]], player)
                  if t.nodes[cand[j - 1]].visits > 0 else -1.0)
            if qi >= qx:
                break
            cand[j] = cand[j - 1]
            j -= 1
        cand[j] = x
    return (m + 1) // 2


cdef int halving_pick(const Tree* t, const int* cand, int m) noexcept nogil:
    cdef int i, best = cand[0]
    for i in range(1, m):
        if t.nodes[cand[i]].visits < t.nodes[best].visits:
            best = cand[i]
    return best


cdef int puct_descend(const GameVTable* g, const Config* cfg, Tree* t, int root_node, Work* w, uint64_t* rng,
                      double* rew, double* scores, double* wins, double* rollout_decisions,
                      int forced=-1) noexcept nogil:
    """One iteration's descent with the learned evaluation (AlphaZero-style PUCT over a determinization):
    chance outcomes are keyed nodes as in the rollout search; at a decision node not yet expanded the
    network gives every legal move a prior and the position a value (less the network's measured
    optimism for the seat to move, `mover_bias`; optionally mixed with one random rollout), and the
    descent stops there. Below, children are chosen by
        Q + c_puct * prior * sqrt(availability) / (1 + visits)
    over the moves legal in this determinization (availability as in the subset-armed bandit); an
    unvisited child's Q is its parent's mean less `fpu_reduction`. Fills rew/scores/wins; returns the
    path length in w.path."""
    cdef int node = root_node, plen = 1, cp, nm, i, child, best, n = g.num_players(w.det), p
    cdef int length = -1
    cdef double bestv, v, q, parent_q, mix
    cdef double rrew[MAXP]
    cdef double rscores[MAXP]
    cdef double rwins[MAXP]
    cdef uint64_t m
    cdef Node* c
    w.path[0] = root_node
    while plen < MAX_PATH:
        cp = g.current_player(w.det)
        if cp == PLAYER_TERMINAL:
            outcome(g, w.det, cfg, rew, scores, wins)
            return plen
        if cp == PLAYER_CHANCE:
            m = g.sample_chance(w.det, rng)
            if cfg.open_loop:
                g.apply_move(w.det, m)
                continue
            child = chance_child(g, cfg, t, node, w.det, m, w)
            g.apply_move(w.det, m)
            if child < 0:
                break
            node = child
            w.path[plen] = node
            plen += 1
            continue
        if (t.nodes[node].flags & NODE_SOLVED) and node != root_node:
            # an exact value (endgame.pxi): every back-up through this node was the same, so its mean is it
            c = &t.nodes[node]
            for p in range(n):
                wins[p] = c.wins[p] / c.visits
                scores[p] = c.score[p] / c.visits
                rew[p] = c.reward[p] / c.visits
            return plen
        if not (t.nodes[node].flags & NODE_EXPANDED):
            if w.sv.states != NULL:
                memcpy(w.tmp, w.det, g.state_size)     # the leaf, kept for an exact solve after the rollout
            net_evaluate(cfg.net, g, w.det, cp, &w.ns, wins, scores)
            unbias_mover(cfg, n, cp, wins)
            reward_from(cfg, n, scores, wins, rew)
            expand_with_priors(g, cfg, t, node, w.det, cp, w)
            mix = cfg.rollout_mix
            if mix > 0 and cfg.rollout_head:
                # the head's estimate of what the rollout would average to: wins only, the value's scores
                net_rollout(cfg.net, &w.ns, n, cp, rwins)
                for p in range(n):
                    wins[p] = (1 - mix) * wins[p] + mix * rwins[p]
                reward_from(cfg, n, scores, wins, rew)
            elif mix > 0:
                length = rollout(g, w.det, cfg, w, rng)
                rollout_decisions[0] += length
                outcome(g, w.det, cfg, rrew, rscores, rwins)
                for p in range(n):
                    rew[p] = (1 - mix) * rew[p] + mix * rrew[p]
                    scores[p] = (1 - mix) * scores[p] + mix * rscores[p]
                    wins[p] = (1 - mix) * wins[p] + mix * rwins[p]
            if w.sv.states != NULL:
                if length < 0:                 # no rollout was played: one on a copy measures the distance
                    memcpy(w.sv.states, w.tmp, g.state_size)
                    length = rollout(g, w.sv.states, cfg, w, rng)
                if length <= cfg.solve_horizon and solve_exact(g, &w.sv, w.tmp, cfg.solve_nodes, rwins, rscores):
                    memcpy(wins, rwins, n * sizeof(double))
                    memcpy(scores, rscores, n * sizeof(double))
                    reward_from(cfg, n, scores, wins, rew)
                    t.nodes[node].flags |= NODE_SOLVED
            return plen
        opponent_view(g, cfg, w, cp, rng)
        nm = g.legal_moves(w.det, w.moves)
        c = &t.nodes[node]
        parent_q = (node_q(c, cp) if c.visits > 0 else 0.5) - cfg.fpu_reduction
        best = -1
        bestv = -INFINITY
        for i in range(nm):
            child = tree_find(t, node, w.moves[i])
            if child < 0:
                # a move this determinization allows that the expansion's did not: a uniform prior
                child = tree_add(t, node, w.moves[i], cp)
                if child < 0:
                    continue
                t.nodes[child].prior = <float>(1.0 / nm)
            c = &t.nodes[child]
            c.avail += 1
            q = node_q(c, cp) if c.visits > 0 else parent_q
            v = q + cfg.c_puct * c.prior * sqrt(<double>c.avail) / (1.0 + c.visits)
            if v > bestv:
                bestv = v
                best = child
            if child == forced and node == root_node:     # root halving's pick, legal in this determinization
                bestv = INFINITY
                best = child
        if best < 0:
            break
        count_opponent(g, cfg, w, cp, t.nodes[best].move)
        g.apply_move(w.det, t.nodes[best].move)
        node = best
        w.path[plen] = node
        plen += 1
    # the tree is full (or the path too long): value the position reached by the network
    cp = g.current_player(w.det)
    if cp >= 0:
        net_evaluate(cfg.net, g, w.det, cp, &w.ns, wins, scores)
        unbias_mover(cfg, n, cp, wins)
        reward_from(cfg, n, scores, wins, rew)
    else:
        rollout_decisions[0] += rollout(g, w.det, cfg, w, rng)
        outcome(g, w.det, cfg, rew, scores, wins)
    return plen

# ---------------------------------------------------------------------------------------------
# Flat Monte Carlo (PIMC baseline) and greedy
# ---------------------------------------------------------------------------------------------
cdef int64_t flat_run(const GameVTable* g, const void* root, const Config* cfg, int nroot,
                      const uint64_t* root_moves, Node* stats, const int* cancel,
                      double* rollout_decisions) noexcept nogil:
    """Round-robin determinized rollouts after each root move; per-move statistics in `stats`."""
    cdef Work w
    cdef uint64_t rng = cfg.seed
    cdef int64_t it = 0
    cdef int k, i, nm, p, n
    cdef bint legal
    cdef double rew[MAXP]
    cdef double scores[MAXP]
    cdef double wins[MAXP]
    if not work_init(&w, g):
        work_free(&w)
        return 0
    n = g.num_players(root)
    rollout_decisions[0] = 0
    while not should_stop(cfg, it, cancel, cfg.deadline):
        k = <int>(it % nroot)
        memcpy(w.det, root, g.state_size)
        determinize_root(g, cfg, w.det, &rng)
        nm = g.legal_moves(w.det, w.moves)
        legal = False
        for i in range(nm):
            if w.moves[i] == root_moves[k]:
                legal = True
                break
        stats[k].avail += 1
        if legal:
            g.apply_move(w.det, root_moves[k])
            rollout_decisions[0] += rollout(g, w.det, cfg, &w, &rng)
            outcome(g, w.det, cfg, rew, scores, wins)
            stats[k].visits += 1
            for p in range(n):
                stats[k].reward[p] += rew[p]
                stats[k].score[p] += scores[p]
                stats[k].score_sq[p] += scores[p] * scores[p]
                stats[k].wins[p] += wins[p]
        it += 1
    work_free(&w)
    return it


cdef const GameVTable* vtable_of(capsule) except NULL:
    cdef const GameVTable* g = <const GameVTable*>PyCapsule_GetPointer(capsule, b"search.GameVTable")
    if g != NULL and g.max_players > MAXP:
        raise ValueError(f"the game allows {g.max_players} players; search/ supports at most {MAXP}")
    return g


cdef class CancelToken:
    """Set from any thread to stop the searches that were given this token (they return best-so-far)."""
    cdef int flag

    def cancel(self):
        self.flag = 1

    @property
    def cancelled(self):
        return bool(self.flag)


cdef Config make_config(dict o) except *:
    cdef Config cfg
    cfg.iterations = o["iterations"]
    cfg.deadline = o["deadline"]
    cfg.exploration = o["exploration"]
    cfg.objective = {"win": OBJ_WIN, "margin": OBJ_MARGIN, "blend": OBJ_BLEND}[o["objective"]]
    cfg.blend = o["blend"]
    cfg.margin_scale = o["margin_scale"]
    cfg.policy = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}[o["rollout"]]
    cfg.cutoff = o["cutoff"]
    cfg.observer = o["observer"]
    cfg.observer_kind = o["observer_kind"]
    cfg.fpu = o.get("fpu", 0.0)
    cfg.stop_early = 1 if o.get("stop_early", False) else 0
    cfg.lcb_min_share = o.get("lcb_min_share", 0.0)
    cfg.expand_by_prior = 1 if o.get("expand", "random") == "prior" else 0
    cfg.open_loop = 1 if o.get("chance", "keyed") == "open" else 0
    cfg.chance_expect = 1 if o.get("chance", "keyed") == "expected" else 0
    cfg.solve_nodes = o.get("solve_nodes", 0)
    cfg.solve_horizon = o.get("solve_horizon", 12)
    cfg.seed = o["seed"]
    cfg.net = NULL
    cfg.c_puct = o.get("c_puct", 1.0)
    cfg.fpu_reduction = o.get("fpu_reduction", 0.1)
    cfg.rollout_mix = o.get("rollout_mix", 0.0)
    cfg.root_halving = o.get("root_halving", 0)
    cfg.mover_bias = o.get("mover_bias", 0.0)
    cfg.pause_at = o.get("pause_at", 0.0)
    cfg.rollout_head = 1 if o.get("rollout_head", False) else 0
    cfg.redeterminize = 1 if o.get("redeterminize", False) else 0
    cfg.opponent_prior = o.get("opponent_prior", 0.0)
    cfg.nhyp = 0
    cfg.hyp_ids = NULL
    cfg.hyp_cum = NULL
    net = o.get("network")
    if net is not None:
        cfg.net = &(<Network?>net).net
    if cfg.rollout_head and (cfg.net == NULL or cfg.net.wr == NULL):
        raise ValueError("rollout_head: needs a model with a rollout head")
    return cfg


cdef float* _copy_floats(arr, Py_ssize_t expect, str name) except NULL:
    cdef const float[::1] view = arr
    cdef float* out
    if view.shape[0] != expect:
        raise ValueError(f"model array {name} has {view.shape[0]} values, expected {expect}")
    out = <float*>malloc(max(expect, 1) * sizeof(float))
    if out == NULL:
        raise MemoryError()
    if expect:
        memcpy(out, &view[0], expect * sizeof(float))
    return out


cdef const GameVTable* checked_state(capsule, bytes state, int observer) except NULL:
    """The game's vtable after checking that `state` is one of its states and `observer` one of its seats
    (features index seats by the observer: a seat out of range would read outside the state)."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef int n
    if len(state) != g.state_size:
        raise ValueError("state has the wrong size for this game")
    n = g.num_players(<const char*>state)
    if not 0 <= observer < n:
        raise ValueError(f"observer must be a seat 0..{n - 1}, got {observer}")
    return g


cdef class Network:
    """A learned evaluation's weights in C memory, shared read-only by every search thread.

    Built by search.model.Model from flat float32 arrays (layout in net.pxi); sizes are checked against
    each other here and against the game's feature counts by `check_game`."""
    cdef Net net
    cdef public str version
    cdef public object calibration      # the model's calibration map (search/calibration.py) or None
    cdef public object mover_bias       # {player count: the value head's optimism for the seat to move} or None

    def __cinit__(self, int nin, int h1, int h2, int nmove, int nseat, double score_scale, dict arrays,
                  int ph1=0, int ph2=0, int nx=0):
        memset(&self.net, 0, sizeof(Net))
        self.version = ""
        self.calibration = None
        self.mover_bias = None
        if min(nin, h1, h2, nmove, nseat) <= 0 or nseat > MAXP:
            raise ValueError(f"bad network sizes nin={nin} h1={h1} h2={h2} nmove={nmove} nseat={nseat}")
        self.net.nin, self.net.h1, self.net.h2, self.net.nmove, self.net.nseat = nin, h1, h2, nmove, nseat
        self.net.nx = max(nx, nin)      # nx > nin: the game's features extend the model's (check_game)
        self.net.score_scale = score_scale
        self.net.w1 = _copy_floats(arrays["w1"], nin * h1, "w1")
        self.net.b1 = _copy_floats(arrays["b1"], h1, "b1")
        self.net.w2 = _copy_floats(arrays["w2"], h1 * h2, "w2")
        self.net.b2 = _copy_floats(arrays["b2"], h2, "b2")
        self.net.wv = _copy_floats(arrays["wv"], h2 * nseat, "wv")
        self.net.bv = _copy_floats(arrays["bv"], nseat, "bv")
        self.net.ws = _copy_floats(arrays["ws"], h2 * nseat, "ws")
        self.net.bs = _copy_floats(arrays["bs"], nseat, "bs")
        if (ph1 > 0) != (ph2 > 0) or min(ph1, ph2) < 0 or (ph1 > 0) != ("pw1" in arrays):
            raise ValueError(f"bad policy trunk: widths ph1={ph1} ph2={ph2}, arrays {'pw1' in arrays}")
        if ph1 > 0:
            self.net.ph1, self.net.ph2 = ph1, ph2
            self.net.pw1 = _copy_floats(arrays["pw1"], nin * ph1, "pw1")
            self.net.pb1 = _copy_floats(arrays["pb1"], ph1, "pb1")
            self.net.pw2 = _copy_floats(arrays["pw2"], ph1 * ph2, "pw2")
            self.net.pb2 = _copy_floats(arrays["pb2"], ph2, "pb2")
        self.net.wp = _copy_floats(arrays["wp"], (ph2 if ph2 > 0 else h2) * nmove, "wp")
        self.net.bp = _copy_floats(arrays["bp"], nmove, "bp")
        if "wr" in arrays:
            self.net.wr = _copy_floats(arrays["wr"], h2 * nseat, "wr")
            self.net.br = _copy_floats(arrays["br"], nseat, "br")

    def __dealloc__(self):
        free(self.net.w1); free(self.net.b1); free(self.net.w2); free(self.net.b2)
        free(self.net.wv); free(self.net.bv); free(self.net.ws); free(self.net.bs)
        free(self.net.wp); free(self.net.bp)
        free(self.net.wr); free(self.net.br)
        free(self.net.pw1); free(self.net.pb1); free(self.net.pw2); free(self.net.pb2)

    @property
    def has_rollout_head(self) -> bool:
        return self.net.wr != NULL

    def rollout_estimate(self, capsule, bytes state, int observer):
        """The rollout head's mean win shares of random playouts, absolute seats, at a decision of
        `observer`; ValueError when the model has none."""
        cdef const GameVTable* g = checked_state(capsule, state, observer)
        cdef NetScratch ns
        cdef double win[MAXP]
        cdef double score[MAXP]
        cdef double out[MAXP]
        cdef const char* sp = state
        cdef int n = g.num_players(sp)
        self.check_game(capsule)
        if self.net.wr == NULL:
            raise ValueError(f"model {self.version or '?'} has no rollout head")
        if not scratch_init(&ns, &self.net):
            scratch_free(&ns)
            raise MemoryError()
        with nogil:
            net_evaluate(&self.net, g, sp, observer, &ns, win, score)
            net_rollout(&self.net, &ns, n, observer, out)
        scratch_free(&ns)
        return [out[p] for p in range(n)]

    def check_game(self, capsule):
        """ValueError unless the game's feature counts are the ones this network was built for."""
        cdef const GameVTable* g = vtable_of(capsule)
        cdef bint prefix = (self.net.nin < self.net.nx and g.prefix_feature_version > 0
                            and self.net.nin == g.prefix_state_features)
        if (g.num_state_features != self.net.nx or (self.net.nin != self.net.nx and not prefix)
                or g.num_move_features != self.net.nmove):
            raise ValueError(f"the model expects {self.net.nin} state and {self.net.nmove} move features "
                             f"(built for {self.net.nx} state features); the game has "
                             f"{g.num_state_features} and {g.num_move_features}")
        if g.max_players > self.net.nseat:
            raise ValueError(f"the model has {self.net.nseat} seats; the game allows {g.max_players}")

    def evaluate(self, capsule, bytes state, int observer):
        """(win probabilities, expected final scores), absolute seats, at a decision of `observer`."""
        cdef const GameVTable* g = checked_state(capsule, state, observer)
        cdef NetScratch ns
        cdef double win[MAXP]
        cdef double score[MAXP]
        cdef const char* sp = state
        cdef int n = g.num_players(sp)
        self.check_game(capsule)
        if not scratch_init(&ns, &self.net):
            scratch_free(&ns)
            raise MemoryError()
        with nogil:
            net_evaluate(&self.net, g, sp, observer, &ns, win, score)
        scratch_free(&ns)
        return [win[p] for p in range(n)], [score[p] for p in range(n)]

    def priors(self, capsule, bytes state, int observer, list moves):
        """The policy's prior of each of `moves` (legal moves of `observer`, who decides in `state`)."""
        cdef const GameVTable* g = checked_state(capsule, state, observer)
        cdef NetScratch ns
        cdef double win[MAXP]
        cdef double score[MAXP]
        cdef const char* sp = state
        cdef int nm = len(moves), i
        cdef uint64_t* mv
        cdef double* out
        self.check_game(capsule)
        mv = <uint64_t*>malloc(max(nm, 1) * sizeof(uint64_t))
        out = <double*>malloc(max(nm, 1) * sizeof(double))
        memset(&ns, 0, sizeof(NetScratch))
        try:
            if mv == NULL or out == NULL or not scratch_init(&ns, &self.net):
                raise MemoryError()
            for i in range(nm):
                mv[i] = moves[i]
            with nogil:
                net_evaluate(&self.net, g, sp, observer, &ns, win, score)
                net_policy_q(&self.net, &ns)
                net_priors(&self.net, g, sp, &ns, mv, nm, out)
            return [out[i] for i in range(nm)]
        finally:
            scratch_free(&ns)
            free(mv)
            free(out)

    def time_evaluations(self, capsule, bytes state, int observer, int count):
        """Seconds for `count` value evaluations (features + network) of one state, GIL released."""
        cdef const GameVTable* g = checked_state(capsule, state, observer)
        cdef NetScratch ns
        cdef double win[MAXP]
        cdef double score[MAXP]
        cdef const char* sp = state
        cdef double t0, t1
        cdef int i
        self.check_game(capsule)
        if not scratch_init(&ns, &self.net):
            scratch_free(&ns)
            raise MemoryError()
        with nogil:
            t0 = now_s()
            for i in range(count):
                net_evaluate(&self.net, g, sp, observer, &ns, win, score)
            t1 = now_s()
        scratch_free(&ns)
        return t1 - t0


def state_features(capsule, bytes state, int observer):
    """The game's features of what `observer` sees in `state`, as float32 bytes (num_state_features)."""
    cdef const GameVTable* g = checked_state(capsule, state, observer)
    cdef int nf = g.num_state_features
    cdef bytearray out = bytearray(max(nf, 0) * sizeof(float))
    cdef float* fp
    if nf <= 0:
        raise ValueError("this game offers no features for a learned evaluation")
    fp = <float*><char*>out
    g.state_features(<const char*>state, observer, fp)
    return bytes(out)


def move_features(capsule, bytes state, list moves):
    """The game's features of each move, as float32 bytes (len(moves) x num_move_features)."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef int nm = g.num_move_features, i
    cdef bytearray out = bytearray(max(nm, 0) * len(moves) * sizeof(float))
    cdef float* fp
    if nm <= 0:
        raise ValueError("this game offers no features for a learned evaluation")
    if len(state) != g.state_size:
        raise ValueError("state has the wrong size for this game")
    fp = <float*><char*>out
    for i in range(len(moves)):
        g.move_features(<const char*>state, <uint64_t>moves[i], fp + i * nm)
    return bytes(out)


def feature_info(capsule):
    """(num_state_features, num_move_features, feature_version, max_players) of a game."""
    cdef const GameVTable* g = vtable_of(capsule)
    return g.num_state_features, g.num_move_features, g.feature_version, g.max_players


def feature_prefix(capsule):
    """(feature version, state features) of the older version whose layout is a prefix of the game's
    current one, or None (GameVTable.prefix_feature_version)."""
    cdef const GameVTable* g = vtable_of(capsule)
    if g.prefix_feature_version <= 0:
        return None
    return g.prefix_feature_version, g.prefix_state_features


cdef dict node_stats(const Node* c, int n):
    v = c.visits
    return {
        "move": c.move, "visits": v, "avail": c.avail, "prior": c.prior,
        "reward": [c.reward[p] for p in range(n)],
        "score": [c.score[p] for p in range(n)],
        "score_sq": [c.score_sq[p] for p in range(n)],
        "wins": [c.wins[p] for p in range(n)],
        "value": [(c.reward[p] + c.corr[p]) / v if v > 0 else 0.0 for p in range(n)],
    }


cdef class SearchTree:
    """An ISMCTS tree kept between searches, so a bot can continue below the move it played (tree
    reuse). Node 0 is the root of the first search; `child(node, move)` walks down it."""
    cdef Tree t
    cdef readonly int max_nodes

    def __cinit__(self, int max_nodes=4000000):
        self.max_nodes = max_nodes
        if not tree_init(&self.t, max_nodes):
            tree_free(&self.t)
            raise MemoryError("cannot allocate the search tree")
        tree_add(&self.t, -1, 0, -1)

    def __dealloc__(self):
        tree_free(&self.t)

    def child(self, int node, uint64_t move) -> int:
        """The node reached from `node` by `move` (a decision or a chance outcome), or -1."""
        if not 0 <= node < self.t.n:
            return -1
        return tree_find(&self.t, node, move)

    def visits(self, int node) -> int:
        return self.t.nodes[node].visits if 0 <= node < self.t.n else 0

    def children(self, int node, int players) -> list:
        """The statistics of `node`'s children (as a search's root moves, with `index`, the node's own
        `player`: -1 for a chance outcome, and `value`: the mean reward as the search uses it, corrected at
        chance nodes with chance="expected"); [] for a node that is not in the tree."""
        out = []
        if not 0 <= node < self.t.n or not 1 <= players <= MAXP:
            return out
        c = self.t.nodes[node].first_child
        while c >= 0:
            d = node_stats(&self.t.nodes[c], players)
            d["index"], d["player"] = c, self.t.nodes[c].player
            out.append(d)
            c = self.t.nodes[c].next_sibling
        return out

    @property
    def nodes(self) -> int:
        return self.t.n


cdef tuple tree_result(const Tree* t, int root_node, int n):
    """Root children statistics and the principal variation below `root_node`."""
    cdef int c, best, bestv
    children = []
    c = t.nodes[root_node].first_child
    while c >= 0:
        children.append(node_stats(&t.nodes[c], n))
        c = t.nodes[c].next_sibling
    pv = []
    c = root_node
    while True:
        best, bestv = -1, 0
        c = t.nodes[c].first_child
        while c >= 0:
            if t.nodes[c].visits > bestv:
                best, bestv = c, t.nodes[c].visits
            c = t.nodes[c].next_sibling
        if best < 0:
            break
        pv.append((t.nodes[best].move, t.nodes[best].player, t.nodes[best].visits))
        c = best
    return children, pv


cdef class SearchProgress:
    """Where a search run in slices stands (options' `pause_at`): passed to every call of one search (with
    its kept tree), each call continues exactly where the last paused."""
    cdef Progress p

    @property
    def iterations(self) -> int:
        """Iterations of all calls so far."""
        return self.p.it


cdef int load_hypotheses(const GameVTable* g, Config* cfg, object hypotheses) except -1:
    """cfg's root hypotheses from [(id, weight), ...] (malloc'd; free_hypotheses frees them)."""
    cdef int n, i
    cdef int* ids
    cdef double* cum
    cdef double total = 0
    if not hypotheses:
        return 0
    if g.determinize_hypothesis == NULL:
        raise ValueError("hypotheses: this game offers no belief (its vtable has no determinize_hypothesis)")
    n = len(hypotheses)
    ids = <int*>malloc(n * sizeof(int))
    cum = <double*>malloc(n * sizeof(double))
    if ids == NULL or cum == NULL:
        free(ids)
        free(cum)
        raise MemoryError()
    for i, (hid, weight) in enumerate(hypotheses):
        if not weight >= 0:
            free(ids)
            free(cum)
            raise ValueError(f"hypotheses: weight {weight!r} of hypothesis {hid!r} must be >= 0")
        ids[i] = hid
        total += weight
        cum[i] = total
    if total <= 0:
        free(ids)
        free(cum)
        raise ValueError("hypotheses: the weights add up to 0")
    cfg.nhyp, cfg.hyp_ids, cfg.hyp_cum = n, ids, cum
    return 0


cdef void free_hypotheses(Config* cfg) noexcept:
    free(<void*>cfg.hyp_ids)
    free(<void*>cfg.hyp_cum)
    cfg.hyp_ids = NULL
    cfg.hyp_cum = NULL
    cfg.nhyp = 0


def run_ismcts(capsule, bytes root, dict options, CancelToken cancel, int max_nodes=4000000,
               SearchTree tree=None, int root_node=0, SearchProgress progress=None):
    """ISMCTS, GIL released, in a new tree or (tree given) below `root_node` of a kept one. With `progress`
    (and its tree) the search may pause at options["pause_at"] and continue in the next call. Returns
    (iterations of this call, rollout decisions, root children stats, principal variation as move codes,
    nodes, whether it stopped early because the choice was made, other seats' decisions inside the tree
    that could fail, of which failed: GameVTable.move_fails). options["hypotheses"]: [(id, weight)] of the root
    observer's hidden part (a belief); options["redeterminize"]: other seats decide from their own view."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef Config cfg = make_config(options)
    cdef Tree local
    cdef Tree* t
    cdef int64_t its
    cdef double decisions = 0
    cdef const char* rp = root
    cdef int n, early = 0
    cdef Progress fresh
    cdef Progress* pr = &fresh
    cdef int64_t opp[2]
    opp[0] = 0
    opp[1] = 0
    if len(root) != g.state_size:
        raise ValueError("root state has the wrong size for this game")
    memset(&fresh, 0, sizeof(Progress))
    if progress is not None:
        if tree is None:
            raise ValueError("a search in slices needs its tree kept (tree=)")
        pr = &progress.p
    if tree is None:
        if not tree_init(&local, max_nodes):
            tree_free(&local)
            raise MemoryError("cannot allocate the search tree")
        tree_add(&local, -1, 0, -1)
        t = &local
        root_node = 0
    else:
        if not 0 <= root_node < tree.t.n:
            raise ValueError(f"root_node {root_node} is not a node of the tree")
        t = &tree.t
    try:
        load_hypotheses(g, &cfg, options.get("hypotheses"))
        with nogil:
            its = ismcts_run(g, rp, &cfg, t, root_node, &cancel.flag, &decisions, &early, pr, opp)
        n = g.num_players(rp)
        children, pv = tree_result(t, root_node, n)
        return its, decisions, children, pv, t.n, bool(early), opp[0], opp[1]
    finally:
        free_hypotheses(&cfg)
        if tree is None:
            tree_free(&local)


def run_flat(capsule, bytes root, list root_moves, dict options, CancelToken cancel):
    """Flat Monte Carlo over `root_moves`, GIL released. Returns (iterations, rollout decisions, stats)."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef Config cfg = make_config(options)
    cdef int nroot = len(root_moves), i, n
    cdef uint64_t* moves = <uint64_t*>malloc(max(nroot, 1) * sizeof(uint64_t))
    cdef Node* stats = <Node*>calloc(max(nroot, 1), sizeof(Node))
    cdef int64_t its
    cdef double decisions = 0
    cdef const char* rp = root
    if moves == NULL or stats == NULL:
        free(moves)
        free(stats)
        raise MemoryError()
    try:
        for i in range(nroot):
            moves[i] = root_moves[i]
            stats[i].move = root_moves[i]
        load_hypotheses(g, &cfg, options.get("hypotheses"))
        with nogil:
            its = flat_run(g, rp, &cfg, nroot, moves, stats, &cancel.flag, &decisions)
        n = g.num_players(rp)
        return its, decisions, [node_stats(&stats[i], n) for i in range(nroot)]
    finally:
        free_hypotheses(&cfg)
        free(moves)
        free(stats)


def greedy_values(capsule, bytes root, list moves):
    """For each move: the deciding player's static value after it (own estimate minus the best other)."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef char* buf = <char*>malloc(g.state_size)
    cdef double scores[MAXP]
    cdef int cp = g.current_player(<const char*>root), n = g.num_players(<const char*>root), q
    cdef double best
    out = []
    try:
        for m in moves:
            memcpy(buf, <const char*>root, g.state_size)
            g.apply_move(buf, m)
            g.evaluate(buf, scores)
            best = -INFINITY
            for q in range(n):
                if q != cp and scores[q] > best:
                    best = scores[q]
            out.append(scores[cp] - best)
        return out
    finally:
        free(buf)


def random_playouts(capsule, bytes root, int games, uint64_t seed):
    """Raw engine speed through the vtable: uniformly random games from `root`; (decisions, seconds)."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef Work w
    cdef Config cfg
    cdef uint64_t rng = seed
    cdef double total = 0, t0, t1
    cdef int i
    cdef const char* rp = root
    memset(&cfg, 0, sizeof(Config))
    if not work_init(&w, g):
        work_free(&w)
        raise MemoryError()
    with nogil:
        t0 = now_s()
        for i in range(games):
            memcpy(w.det, rp, g.state_size)
            g.determinize(w.det, 0, 0, &rng)
            total += rollout(g, w.det, &cfg, &w, &rng)
        t1 = now_s()
    work_free(&w)
    return total, t1 - t0


cdef void worlds_run(const GameVTable* g, const void* root, const Config* cfg, int nmoves, const uint64_t* moves,
                     int worlds, int rollouts, int observer, double* out) noexcept nogil:
    """out[w * nmoves + k]: mean final-score margin of `observer` (own score minus the best other) after
    root move k in sampled world w. A world is one determinization plus one stream of chance random
    numbers shared by every move's rollouts (common random numbers), so moves are compared on the same
    future draws as far as their different states allow."""
    cdef Work w
    cdef uint64_t rng = cfg.seed, world_rng, chance_rng
    cdef char* world
    cdef int wi, k, r, q, n
    cdef double scores[MAXP]
    cdef double rew[MAXP]
    cdef double wins[MAXP]
    cdef double best, total
    if not work_init(&w, g):
        work_free(&w)
        return
    world = <char*>malloc(g.state_size)
    n = g.num_players(root)
    for wi in range(worlds):
        memcpy(world, root, g.state_size)
        g.determinize(world, cfg.observer, cfg.observer_kind, &rng)
        world_rng = splitmix(&rng)
        for k in range(nmoves):
            total = 0
            for r in range(rollouts):
                chance_rng = world_rng + <uint64_t>r * <uint64_t>0x9E3779B97F4A7C15
                memcpy(w.det, world, g.state_size)
                g.apply_move(w.det, moves[k])
                rollout(g, w.det, cfg, &w, &chance_rng)
                outcome(g, w.det, cfg, rew, scores, wins)
                best = -INFINITY
                for q in range(n):
                    if q != observer and scores[q] > best:
                        best = scores[q]
                total += scores[observer] - best
            out[wi * nmoves + k] = total / rollouts
    free(world)
    work_free(&w)


def run_worlds(capsule, bytes root, list root_moves, dict options, int worlds, int rollouts):
    """Per sampled world and root move, the observer's mean final margin (see worlds_run); GIL released."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef Config cfg = make_config(options)
    cdef int nm = len(root_moves), i
    cdef uint64_t* moves = <uint64_t*>malloc(max(nm, 1) * sizeof(uint64_t))
    cdef double* out = <double*>calloc(max(nm * worlds, 1), sizeof(double))
    cdef const char* rp = root
    cdef int observer = cfg.observer
    if moves == NULL or out == NULL:
        free(moves)
        free(out)
        raise MemoryError()
    try:
        for i in range(nm):
            moves[i] = root_moves[i]
        with nogil:
            worlds_run(g, rp, &cfg, nm, moves, worlds, rollouts, observer, out)
        return [[out[w * nm + k] for k in range(nm)] for w in range(worlds)]
    finally:
        free(moves)
        free(out)
include "treeless.pxi"
