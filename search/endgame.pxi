# Included by _mcts.pyx: exact endgames (issue 44, item 4), a tablebase in spirit.
#
# When few decisions remain, the rest of the game is small enough to solve outright: expectimax over
# every legal move and every chance outcome with the game's own probabilities (`chance_outcomes`), each
# seat maximizing its own win share (max-n; ties by its expected final score). gnubg's bearoff databases
# do this for backgammon's last phase; here it is solved on the fly, inside the learned search:
# - a leaf of the network search whose random rollout ended within `solve_horizon` decisions is solved
#   with at most `solve_nodes` nodes; when the solve completes, its exact win shares and expected scores
#   replace the network's estimate and the rollout, and the node is marked solved: later visits back up
#   the same exact value without descending (below the root);
# - only where the game's hidden information is nothing but the order of future chance (SpellBook with
#   Discard-box memory: the Pouch's contents are known, only its order is not), so a solve from one
#   determinization is the solve from the player's view. The search refuses it elsewhere (search.py).
# Nothing here knows any game: it drives the vtable only.

cdef enum:
    SOLVE_MAX_DEPTH = 64     # decisions and chance events in one solve's line
    NODE_SOLVED = 2          # Node.flags: the node's value is exact (every back-up through it the same)

ctypedef struct Solver:
    int64_t budget           # nodes this solve may still visit
    char* states             # SOLVE_MAX_DEPTH states, one per depth
    uint64_t* moves          # SOLVE_MAX_DEPTH * max_moves
    double* probs            # SOLVE_MAX_DEPTH * max_moves
    int64_t attempts         # statistics of a search: solves tried, completed
    int64_t completed


cdef bint solver_init(Solver* sv, const GameVTable* g) noexcept nogil:
    sv.states = <char*>malloc(SOLVE_MAX_DEPTH * g.state_size)
    sv.moves = <uint64_t*>malloc(SOLVE_MAX_DEPTH * g.max_moves * sizeof(uint64_t))
    sv.probs = <double*>malloc(SOLVE_MAX_DEPTH * g.max_moves * sizeof(double))
    sv.attempts = 0
    sv.completed = 0
    return sv.states != NULL and sv.moves != NULL and sv.probs != NULL


cdef void solver_free(Solver* sv) noexcept nogil:
    free(sv.states)
    free(sv.moves)
    free(sv.probs)
    sv.states, sv.moves, sv.probs = NULL, NULL, NULL


cdef inline double solve_key(const double* wins, const double* scores, int n, int cp) noexcept nogil:
    """What seat cp maximizes: its win share, then (a tie-break far below any change of win share) its
    expected final score over the best other seat's."""
    cdef int p
    cdef double other = -INFINITY
    for p in range(n):
        if p != cp and scores[p] > other:
            other = scores[p]
    return wins[cp] + 1e-6 * (scores[cp] - other)


cdef bint solve_rec(const GameVTable* g, Solver* sv, int depth, int n, double* wins, double* scores) noexcept nogil:
    """The exact value of the state at sv.states[depth] into wins/scores; 0 (nothing written) when the
    budget or SOLVE_MAX_DEPTH runs out first."""
    cdef char* s = sv.states + <size_t>depth * g.state_size
    cdef char* child = s + g.state_size
    cdef uint64_t* mv = sv.moves + <size_t>depth * g.max_moves
    cdef double* pr = sv.probs + <size_t>depth * g.max_moves
    cdef double cw[MAXP]
    cdef double cs[MAXP]
    cdef double key, best = -INFINITY
    cdef int cp, k, i, p
    sv.budget -= 1
    if sv.budget < 0:
        return 0
    cp = g.current_player(s)
    if cp == PLAYER_TERMINAL:
        tl_win_shares(g, s, wins, scores)
        return 1
    if depth + 1 >= SOLVE_MAX_DEPTH:
        return 0
    if cp == PLAYER_CHANCE:
        k = g.chance_outcomes(s, mv, pr)
        if k <= 0:
            return 0
        for p in range(n):
            wins[p] = 0.0
            scores[p] = 0.0
        for i in range(k):
            memcpy(child, s, g.state_size)
            g.apply_move(child, mv[i])
            if not solve_rec(g, sv, depth + 1, n, cw, cs):
                return 0
            for p in range(n):
                wins[p] += pr[i] * cw[p]
                scores[p] += pr[i] * cs[p]
        return 1
    k = g.legal_moves(s, mv)
    if k <= 0:
        return 0
    for i in range(k):
        memcpy(child, s, g.state_size)
        g.apply_move(child, mv[i])
        if not solve_rec(g, sv, depth + 1, n, cw, cs):
            return 0
        key = solve_key(cw, cs, n, cp)
        if key > best:
            best = key
            memcpy(wins, cw, n * sizeof(double))
            memcpy(scores, cs, n * sizeof(double))
    return 1


cdef bint solve_exact(const GameVTable* g, Solver* sv, const void* s, int64_t budget, double* wins,
                      double* scores) noexcept nogil:
    """Solves `s` (a full state) exactly within `budget` nodes; 0 when it could not."""
    memcpy(sv.states, s, g.state_size)
    sv.budget = budget
    sv.attempts += 1
    if solve_rec(g, sv, 0, g.num_players(s), wins, scores):
        sv.completed += 1
        return 1
    return 0


def solve(capsule, bytes state, int64_t budget=1000000):
    """The exact value of a position (a full state's bytes) by expectimax over its moves and chance
    outcomes: (win shares, expected scores) per seat, or None when it needs more than `budget` nodes.
    Exact from a player's view only in a game whose hidden information is the order of future chance."""
    cdef const GameVTable* g = vtable_of(capsule)
    cdef Solver sv
    cdef double wins[MAXP]
    cdef double scores[MAXP]
    cdef const char* sp = state
    cdef bint ok
    cdef int n
    if len(state) != g.state_size:
        raise ValueError(f"state: {len(state)} bytes, the game's states have {g.state_size}")
    if budget < 1:
        raise ValueError(f"budget: must be at least 1, got {budget}")
    n = g.num_players(sp)
    if not solver_init(&sv, g):
        solver_free(&sv)
        raise MemoryError()
    try:
        with nogil:
            ok = solve_exact(g, &sv, sp, budget, wins, scores)
    finally:
        solver_free(&sv)
    if not ok:
        return None
    return [wins[p] for p in range(n)], [scores[p] for p in range(n)]
