# Included by _mcts.pyx: a tree-less self-play generator for the learned evaluation's value data.
#
# Search-based self-play makes about one game a second per core; a value head in a luck-heavy game needs
# games by the hundred thousand (TD-Gammon, gnubg, wildbg: docs/learned.md). This plays whole games at one
# ply, in C without the GIL, through the game's vtable only (nothing here knows any game):
# - policy mode: each decision samples the network's policy prior sharpened or flattened by a
#   temperature (without a network: uniformly random moves);
# - value mode: each move is scored by the network's value (for the mover) of where it leads, averaged
#   over `chance_samples` sampled chance continuations in one determinization for the mover (common
#   random numbers across the moves), and the best is played.
# Either mode plays a uniformly random move with probability `epsilon` (exploration).
#
# A game keeps `keep` of its non-forced decisions, chosen uniformly (reservoir sampling), so that rows
# from one game are few and decorrelated (AlphaGo's value net kept one position a game). Each kept
# decision gets, relative to the deciding seat: the game's result (win shares and final scores), the
# network's own estimate there, TD(lambda) returns along the game for each requested lambda (bootstrapped
# on the network's estimates at the later decisions, ending in the result; lambda = 1 is the result), and
# optionally the mean win shares of `playouts` uniformly random playouts from the mover's determinizations
# of it (labels for a rollout head: what today's single leaf rollout estimates, without its noise).

from libc.math cimport NAN, pow

cdef enum:
    TL_POLICY = 0
    TL_VALUE = 1
    TL_MAX_LAMBDAS = 8

ctypedef struct TreelessConfig:
    int mode                 # TL_POLICY or TL_VALUE
    double temperature       # policy mode: prior ** (1 / temperature); <= 0: the prior's favourite
    double epsilon           # chance of a uniformly random move
    int keep                 # kept decisions per game
    int playouts             # random playouts per kept decision (0: none, p_win NaN)
    int chance_samples       # value mode: chance continuations per move
    int nlambda
    double lambdas[TL_MAX_LAMBDAS]
    int max_decisions        # a game still running after this many decisions is dropped
    const Net* net           # NULL: uniformly random moves, no estimates (NaN)

ctypedef struct TreelessOut:
    # rows of kept decisions, filled in order; arrays sized by the caller (games * keep rows)
    float* x                 # [row, nf] the decider's observation features
    signed char* seat
    signed char* players
    int* ply                 # index of the decision among the game's non-forced decisions
    int* game
    float* z_win             # [row, MAXP] relative to the decider (0 = the decider, k = k seats to its left)
    float* z_score
    float* v_win             # the network's estimate at the decision (NaN without a network)
    float* p_win             # random playouts' mean (NaN without playouts)
    float* td_win            # [row, nlambda, MAXP]
    int rows
    int64_t decisions        # every decision played, forced ones included
    int games_done
    int games_dropped


cdef inline void tl_relative(const double* absolute, int seat, int n, float* out) noexcept nogil:
    cdef int k
    for k in range(MAXP):
        out[k] = <float>absolute[(seat + k) % n] if k < n else 0.0


cdef inline void tl_nan(float* out, int count) noexcept nogil:
    cdef int k
    for k in range(count):
        out[k] = NAN


cdef void tl_win_shares(const GameVTable* g, const void* s, double* wins, double* scores) noexcept nogil:
    """Win shares and final scores at a terminal state (ties shared)."""
    cdef int n = g.num_players(s), p, k = 0
    cdef unsigned int mask = g.winners(s)
    g.scores(s, scores)
    for p in range(n):
        if (mask >> p) & 1:
            k += 1
    for p in range(n):
        wins[p] = (1.0 / k) if ((mask >> p) & 1) and k > 0 else 0.0


cdef int tl_resolve_chance(const GameVTable* g, void* s, uint64_t* rng) noexcept nogil:
    """Samples chance events until a decision or the end; returns the current player then."""
    cdef int cp = g.current_player(s)
    while cp == PLAYER_CHANCE:
        g.apply_move(s, g.sample_chance(s, rng))
        cp = g.current_player(s)
    return cp


cdef double tl_value_after(const GameVTable* g, const TreelessConfig* tc, Work* w, const void* det, uint64_t move,
                           int mover, uint64_t chance_seed) noexcept nogil:
    """Value mode: the mover's mean win share after `move` in the determinized state `det`, over the
    configured chance continuations (the same random numbers for every move: common random numbers)."""
    cdef double total = 0.0
    cdef double win[MAXP]
    cdef double score[MAXP]
    cdef uint64_t rng
    cdef int c, cp
    for c in range(tc.chance_samples):
        rng = chance_seed + <uint64_t>c * <uint64_t>0x9E3779B97F4A7C15
        memcpy(w.tmp, det, g.state_size)
        g.apply_move(w.tmp, move)
        cp = tl_resolve_chance(g, w.tmp, &rng)
        if cp == PLAYER_TERMINAL:
            tl_win_shares(g, w.tmp, win, score)
        else:
            net_evaluate(tc.net, g, w.tmp, cp, &w.ns, win, score)
        total += win[mover]
    return total / tc.chance_samples


cdef uint64_t tl_choose(const GameVTable* g, const TreelessConfig* tc, Work* w, const void* s, int mover, int nm,
                        uint64_t* rng) noexcept nogil:
    """The move played at a non-forced decision (w.moves holds the nm legal moves; w.ns holds the
    trunk of the mover's evaluation of `s` when there is a network)."""
    cdef int i, best = 0
    cdef double total = 0.0, r, v, bestv = -INFINITY
    cdef uint64_t chance_seed
    if tc.net == NULL or rand_unit(rng) < tc.epsilon:
        return w.moves[rand_below(rng, nm)]
    if tc.mode == TL_VALUE:
        memcpy(w.det, s, g.state_size)
        g.determinize(w.det, mover, 0, rng)
        chance_seed = splitmix(rng)
        for i in range(nm):
            v = tl_value_after(g, tc, w, w.det, w.moves[i], mover, chance_seed)
            if v > bestv:
                bestv, best = v, i
        return w.moves[best]
    net_policy_q(tc.net, &w.ns)
    net_priors(tc.net, g, s, &w.ns, w.moves, nm, w.priors)
    if tc.temperature <= 0:
        for i in range(nm):
            if w.priors[i] > bestv:
                bestv, best = w.priors[i], i
        return w.moves[best]
    for i in range(nm):
        w.priors[i] = pow(w.priors[i], 1.0 / tc.temperature)
        total += w.priors[i]
    r = rand_unit(rng) * total
    for i in range(nm):
        r -= w.priors[i]
        if r < 0:
            return w.moves[i]
    return w.moves[nm - 1]


cdef void tl_playout_mean(const GameVTable* g, const TreelessConfig* tc, Work* w, const void* s, int seat,
                          uint64_t* rng, double* out) noexcept nogil:
    """Mean win shares of tc.playouts uniformly random playouts from `seat`'s determinizations of `s`."""
    cdef Config cfg
    cdef double rew[MAXP]
    cdef double scores[MAXP]
    cdef double wins[MAXP]
    cdef int r, p, n = g.num_players(s)
    memset(&cfg, 0, sizeof(Config))
    cfg.margin_scale = 1.0
    for p in range(n):
        out[p] = 0.0
    for r in range(tc.playouts):
        memcpy(w.det, s, g.state_size)
        g.determinize(w.det, seat, 0, rng)
        rollout(g, w.det, &cfg, w, rng)
        outcome(g, w.det, &cfg, rew, scores, wins)
        for p in range(n):
            out[p] += wins[p] / tc.playouts


cdef int tl_play_game(const GameVTable* g, const TreelessConfig* tc, Work* w, const void* root, uint64_t seed,
                      int game_index, char* s, char* kept, int* kept_ply, int* kept_seat, double* values,
                      TreelessOut* out, int nf) noexcept nogil:
    """Plays one game from `root` in the buffer `s` and appends its kept decisions to `out`; returns the
    rows added, or -1 when the game did not end within tc.max_decisions decisions (nothing is added).
    `values` holds the network's estimate at each non-forced decision (for the TD returns)."""
    cdef uint64_t rng = seed
    cdef int n = g.num_players(root), cp, nm, d = 0, played = 0, nkept = 0, j, k, l, row, i, t
    cdef double win[MAXP]
    cdef double score[MAXP]
    cdef double wins[MAXP]
    cdef double scores[MAXP]
    cdef double g_lambda[MAXP]
    cdef double pw[MAXP]
    cdef double lam
    cdef uint64_t move
    memcpy(s, root, g.state_size)
    while True:
        cp = g.current_player(s)
        if cp == PLAYER_TERMINAL:
            break
        if cp == PLAYER_CHANCE:
            g.apply_move(s, g.sample_chance(s, &rng))
            continue
        if played >= tc.max_decisions:
            return -1
        played += 1
        out.decisions += 1
        nm = g.legal_moves(s, w.moves)
        if nm == 1:
            g.apply_move(s, w.moves[0])
            continue
        if tc.net != NULL:
            net_evaluate(tc.net, g, s, cp, &w.ns, win, score)
            for k in range(n):
                values[d * MAXP + k] = win[k]
        # reservoir sampling of the kept decisions: each of the d + 1 so far is kept with equal chance
        if d < tc.keep:
            j = d
        else:
            j = rand_below(&rng, d + 1)
        if j < tc.keep:
            memcpy(kept + <size_t>j * g.state_size, s, g.state_size)
            kept_ply[j] = d
            kept_seat[j] = cp
            if d < tc.keep:
                nkept += 1
        move = tl_choose(g, tc, w, s, cp, nm, &rng)
        g.apply_move(s, move)
        d += 1
    tl_win_shares(g, s, wins, scores)
    # kept decisions in play order (k is tiny: insertion sort)
    for i in range(1, nkept):
        j = i
        while j > 0 and kept_ply[j - 1] > kept_ply[j]:
            kept_ply[j - 1], kept_ply[j] = kept_ply[j], kept_ply[j - 1]
            kept_seat[j - 1], kept_seat[j] = kept_seat[j], kept_seat[j - 1]
            memcpy(w.det, kept + <size_t>(j - 1) * g.state_size, g.state_size)
            memcpy(kept + <size_t>(j - 1) * g.state_size, kept + <size_t>j * g.state_size, g.state_size)
            memcpy(kept + <size_t>j * g.state_size, w.det, g.state_size)
            j -= 1
    for i in range(nkept):
        row = out.rows + i
        g.state_features(kept + <size_t>i * g.state_size, kept_seat[i], out.x + <size_t>row * nf)
        out.seat[row] = kept_seat[i]
        out.players[row] = n
        out.ply[row] = kept_ply[i]
        out.game[row] = game_index
        tl_relative(wins, kept_seat[i], n, out.z_win + row * MAXP)
        tl_relative(scores, kept_seat[i], n, out.z_score + row * MAXP)
        if tc.net != NULL:
            tl_relative(values + kept_ply[i] * MAXP, kept_seat[i], n, out.v_win + row * MAXP)
        else:
            tl_nan(out.v_win + row * MAXP, MAXP)
        if tc.playouts > 0:
            tl_playout_mean(g, tc, w, kept + <size_t>i * g.state_size, kept_seat[i], &rng, pw)
            tl_relative(pw, kept_seat[i], n, out.p_win + row * MAXP)
        else:
            tl_nan(out.p_win + row * MAXP, MAXP)
    # TD(lambda) returns, backwards along the game: G_{d-1} = result, G_{t-1} = (1 - lam) v_t + lam G_t
    for l in range(tc.nlambda):
        lam = tc.lambdas[l]
        for k in range(n):
            g_lambda[k] = wins[k]
        i = nkept - 1
        t = d - 1
        while t >= 0 and i >= 0:
            while i >= 0 and kept_ply[i] == t:
                row = out.rows + i
                if tc.net != NULL:
                    tl_relative(g_lambda, kept_seat[i], n, out.td_win + (row * tc.nlambda + l) * MAXP)
                else:
                    tl_nan(out.td_win + (row * tc.nlambda + l) * MAXP, MAXP)
                i -= 1
            if tc.net != NULL:
                for k in range(n):
                    g_lambda[k] = (1.0 - lam) * values[t * MAXP + k] + lam * g_lambda[k]
            t -= 1
    out.rows += nkept
    return nkept


def treeless_games(capsule, list roots, dict options, Network network=None):
    """Plays one game from each root state (raw state bytes) by the tree-less generator (see the top of
    treeless.pxi), GIL released. options: mode ("policy" | "value"), temperature, epsilon, keep, playouts,
    chance_samples, lambdas (list, at most 8), max_decisions, seed. Game i's random numbers come from
    (seed, i) alone, so the same roots, options and network give the same rows.

    Returns a dict of numpy arrays over the kept rows (x float32 [R, F]; seat, players int8; ply, game
    int32; z_win, z_score, v_win, p_win float32 [R, MAXP]; td_win float32 [R, L, MAXP]) and the counts
    games, dropped, decisions."""
    import numpy as np

    cdef const GameVTable* g = vtable_of(capsule)
    cdef TreelessConfig tc
    cdef TreelessOut out
    cdef Work w
    cdef int ngames = len(roots), i, nf = g.num_state_features, added
    cdef uint64_t seed
    cdef char* kept = NULL
    cdef int* kept_ply = NULL
    cdef int* kept_seat = NULL
    cdef double* values = NULL
    cdef char* rootbuf = NULL
    cdef char* state = NULL
    cdef uint64_t game_seed
    memset(&tc, 0, sizeof(TreelessConfig))
    memset(&out, 0, sizeof(TreelessOut))
    mode = options.get("mode", "policy")
    if mode not in ("policy", "value"):
        raise ValueError(f"mode: 'policy' or 'value', got {mode!r}")
    tc.mode = TL_VALUE if mode == "value" else TL_POLICY
    tc.temperature = float(options.get("temperature", 1.0))
    tc.epsilon = float(options.get("epsilon", 0.0))
    tc.keep = int(options.get("keep", 4))
    tc.playouts = int(options.get("playouts", 0))
    tc.chance_samples = int(options.get("chance_samples", 1))
    tc.max_decisions = int(options.get("max_decisions", 5000))
    lambdas = [float(v) for v in options.get("lambdas", [])]
    seed = <uint64_t>int(options.get("seed", 0))
    if not 0.0 <= tc.epsilon <= 1.0:
        raise ValueError(f"epsilon: must be within [0, 1], got {tc.epsilon}")
    if tc.keep < 1 or tc.keep > 64:
        raise ValueError(f"keep: must be 1..64, got {tc.keep}")
    if tc.playouts < 0 or tc.chance_samples < 1 or tc.max_decisions < 1:
        raise ValueError("playouts >= 0, chance_samples >= 1 and max_decisions >= 1 are required")
    if len(lambdas) > TL_MAX_LAMBDAS or any(not 0.0 <= v <= 1.0 for v in lambdas):
        raise ValueError(f"lambdas: at most {TL_MAX_LAMBDAS} values within [0, 1], got {lambdas}")
    if tc.mode == TL_VALUE and network is None:
        raise ValueError("mode: 'value' needs a network")
    tc.nlambda = len(lambdas)
    for i in range(tc.nlambda):
        tc.lambdas[i] = lambdas[i]
    if network is not None:
        network.check_game(capsule)
        tc.net = &network.net
    for r in roots:
        if len(r) != g.state_size:
            raise ValueError(f"roots: a state of {len(r)} bytes, the game's states have {g.state_size}")
    rows = ngames * tc.keep
    arrays = {"x": np.zeros((rows, nf), np.float32), "seat": np.zeros(rows, np.int8),
              "players": np.zeros(rows, np.int8), "ply": np.zeros(rows, np.int32), "game": np.zeros(rows, np.int32),
              "z_win": np.zeros((rows, MAXP), np.float32), "z_score": np.zeros((rows, MAXP), np.float32),
              "v_win": np.zeros((rows, MAXP), np.float32), "p_win": np.zeros((rows, MAXP), np.float32),
              "td_win": np.zeros((rows, max(tc.nlambda, 1), MAXP), np.float32)}
    cdef float[:, ::1] x_v = arrays["x"]
    cdef signed char[::1] seat_v = arrays["seat"]
    cdef signed char[::1] players_v = arrays["players"]
    cdef int[::1] ply_v = arrays["ply"]
    cdef int[::1] game_v = arrays["game"]
    cdef float[:, ::1] zw_v = arrays["z_win"]
    cdef float[:, ::1] zs_v = arrays["z_score"]
    cdef float[:, ::1] vw_v = arrays["v_win"]
    cdef float[:, ::1] pw_v = arrays["p_win"]
    cdef float[:, :, ::1] td_v = arrays["td_win"]
    if rows > 0:
        out.x = &x_v[0, 0] if nf > 0 else NULL
        out.seat, out.players, out.ply, out.game = &seat_v[0], &players_v[0], &ply_v[0], &game_v[0]
        out.z_win, out.z_score, out.v_win, out.p_win = &zw_v[0, 0], &zs_v[0, 0], &vw_v[0, 0], &pw_v[0, 0]
        out.td_win = &td_v[0, 0, 0]
    rootbuf = <char*>malloc(max(ngames, 1) * g.state_size)
    state = <char*>malloc(g.state_size)
    kept = <char*>malloc(tc.keep * g.state_size)
    kept_ply = <int*>malloc(tc.keep * sizeof(int))
    kept_seat = <int*>malloc(tc.keep * sizeof(int))
    values = <double*>malloc(<size_t>(tc.max_decisions + 1) * MAXP * sizeof(double))
    memset(&w, 0, sizeof(Work))
    try:
        if (rootbuf == NULL or state == NULL or kept == NULL or kept_ply == NULL or kept_seat == NULL or values == NULL
                or not work_init(&w, g) or (tc.net != NULL and not scratch_init(&w.ns, tc.net))):
            raise MemoryError()
        for i in range(ngames):
            memcpy(rootbuf + <size_t>i * g.state_size, <const char*>roots[i], g.state_size)
        with nogil:
            for i in range(ngames):
                game_seed = seed ^ (<uint64_t>(i + 1) * <uint64_t>0xD1B54A32D192ED03)
                splitmix(&game_seed)
                added = tl_play_game(g, &tc, &w, rootbuf + <size_t>i * g.state_size, game_seed, i, state, kept,
                                     kept_ply, kept_seat, values, &out, nf)
                if added < 0:
                    out.games_dropped += 1
                else:
                    out.games_done += 1
    finally:
        work_free(&w)
        free(rootbuf)
        free(state)
        free(kept)
        free(kept_ply)
        free(kept_seat)
        free(values)
    result = {k: v[:out.rows] for k, v in arrays.items()}
    if tc.nlambda == 0:
        result["td_win"] = result["td_win"][:, :0]
    result.update({"games": out.games_done, "dropped": out.games_dropped, "decisions": int(out.decisions)})
    return result


cdef double tl_play_out(const GameVTable* g, const TreelessConfig* tc, Work* w, char* s, int seat,
                        uint64_t* rng) noexcept nogil:
    """Plays the state `s` (a full, determinized state) to the end by the tree-less player at every seat
    (chance by `rng`); returns `seat`'s win share (ties shared), or NaN past tc.max_decisions."""
    cdef int cp, nm, played = 0
    cdef double win[MAXP]
    cdef double score[MAXP]
    while True:
        cp = g.current_player(s)
        if cp == PLAYER_TERMINAL:
            tl_win_shares(g, s, win, score)
            return win[seat]
        if cp == PLAYER_CHANCE:
            g.apply_move(s, g.sample_chance(s, rng))
            continue
        played += 1
        if played > tc.max_decisions:
            return NAN
        nm = g.legal_moves(s, w.moves)
        if nm == 1:
            g.apply_move(s, w.moves[0])
            continue
        if tc.net != NULL and tc.mode == TL_POLICY:
            net_evaluate(tc.net, g, s, cp, &w.ns, win, score)
        g.apply_move(s, tl_choose(g, tc, w, s, cp, nm, rng))


def rollout_moves(capsule, bytes root, int observer, list moves, dict options, Network network=None):
    """Rollouts of each move at `root` for the deciding seat `observer` (gnubg's rollout analysis): rollout
    r determinizes the root from the observer's view, plays the move, then plays to the end with the
    tree-less player (policy or value mode, as treeless_games) at every seat. Rollout r uses the same
    random numbers after every move (common random numbers), so differences between moves carry less of
    the luck than their values do. options: rollouts, seed, mode, temperature, chance_samples,
    observer_kind, max_decisions. Returns a float64 array [len(moves), rollouts] of the observer's win
    shares (NaN for a rollout cut at max_decisions)."""
    import numpy as np

    cdef const GameVTable* g = vtable_of(capsule)
    cdef TreelessConfig tc
    cdef Work w
    cdef int nmoves = len(moves), rollouts = int(options.get("rollouts", 100)), r, i, kind
    cdef uint64_t seed = <uint64_t>int(options.get("seed", 0)), rng, rng_r
    cdef uint64_t* codes = NULL
    cdef char* det = NULL
    cdef char* s = NULL
    cdef const char* rootp = root
    if len(root) != g.state_size:
        raise ValueError(f"root: a state of {len(root)} bytes, the game's states have {g.state_size}")
    if g.current_player(rootp) != observer:
        raise ValueError(f"observer: seat {observer} is not the one deciding at the root")
    if rollouts < 1:
        raise ValueError(f"rollouts: must be at least 1, got {rollouts}")
    memset(&tc, 0, sizeof(TreelessConfig))
    mode = options.get("mode", "policy")
    if mode not in ("policy", "value"):
        raise ValueError(f"mode: 'policy' or 'value', got {mode!r}")
    tc.mode = TL_VALUE if mode == "value" else TL_POLICY
    tc.temperature = float(options.get("temperature", 0.0))
    tc.chance_samples = int(options.get("chance_samples", 1))
    tc.max_decisions = int(options.get("max_decisions", 5000))
    kind = int(options.get("observer_kind", 0))
    if network is None:
        raise ValueError("rollout_moves needs a network (its policy or value plays the rollouts)")
    network.check_game(capsule)
    tc.net = &network.net
    out = np.full((nmoves, rollouts), np.nan, np.float64)
    cdef double[:, ::1] out_v = out
    codes = <uint64_t*>malloc(max(nmoves, 1) * sizeof(uint64_t))
    det = <char*>malloc(g.state_size)
    s = <char*>malloc(g.state_size)
    memset(&w, 0, sizeof(Work))
    try:
        if codes == NULL or det == NULL or s == NULL or not work_init(&w, g) or not scratch_init(&w.ns, tc.net):
            raise MemoryError()
        for i in range(nmoves):
            codes[i] = <uint64_t>int(moves[i])
        with nogil:
            for r in range(rollouts):
                rng_r = seed ^ (<uint64_t>(r + 1) * <uint64_t>0xD1B54A32D192ED03)
                splitmix(&rng_r)
                memcpy(det, rootp, g.state_size)
                g.determinize(det, observer, kind, &rng_r)
                for i in range(nmoves):
                    rng = rng_r
                    memcpy(s, det, g.state_size)
                    g.apply_move(s, codes[i])
                    out_v[i, r] = tl_play_out(g, &tc, &w, s, observer, &rng)
    finally:
        work_free(&w)
        free(codes)
        free(det)
        free(s)
    return out
