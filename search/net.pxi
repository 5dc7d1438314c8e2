# Included by _mcts.pyx: the learned evaluation, evaluated in C without the GIL.
#
# A small multilayer perceptron over the game's observation features (GameVTable.state_features):
#   h1 = relu(x W1 + b1), h2 = relu(h1 W2 + b2)
#   value:  win logits  h2 Wv + bv   (one per seat, relative to the observer; softmax over the seats present)
#           final score (h2 Ws + bs) * score_scale, per relative seat
#   policy: q = h2 Wp + bp (one weight per move feature); a legal move's logit is its move features · q,
#           and the prior is the softmax of the logits over the legal moves.
#   rollout (optional: models trained with playout labels): h2 Wr + br, one logit per relative seat,
#           softmax over the seats present: the mean win shares of uniformly random playouts from here,
#           what one leaf rollout samples, without its noise.
#   policy trunk (optional: models trained with TrainConfig.policy_hidden): the policy head reads its own
#           two layers p1 = relu(x PW1 + pb1), p2 = relu(p1 PW2 + pb2), q = p2 Wp + bp, so the value's
#           trunk serves the value alone (AlphaGo's separate networks; a shared trunk cost the value
#           0.01 of Brier on the test positions: docs/learned.md).
# Every matrix is stored [inputs][outputs], row-major float32 (search/model.py writes them so). The
# first layer skips zero inputs: observation features are sparse, so that costs about a third.
# Nothing here knows any game: sizes come from the model file and features from the vtable.

ctypedef struct Net:
    int nin                 # inputs the first layer reads: the first nin of the game's state features
    int nx                  # the game's state features (>= nin: a model of an older, prefix version)
    int h1
    int h2
    int nmove
    int nseat
    double score_scale
    float* w1
    float* b1
    float* w2
    float* b2
    float* wv
    float* bv
    float* ws
    float* bs
    float* wp
    float* bp
    float* wr               # NULL: the model has no rollout head
    float* br
    int ph1                 # the policy trunk's widths (0: the policy reads the value's trunk)
    int ph2
    float* pw1              # NULL: no policy trunk
    float* pb1
    float* pw2
    float* pb2

ctypedef struct NetScratch:
    float* x        # nx
    float* a1       # h1
    float* a2       # h2
    float* q        # nmove
    float* mf       # nmove (one move's features)
    float* p1       # ph1 (NULL without a policy trunk)
    float* p2       # ph2


cdef bint scratch_init(NetScratch* w, const Net* net) noexcept nogil:
    w.x = <float*>malloc(max(net.nx, net.nin, 1) * sizeof(float))     # the game writes nx
    w.a1 = <float*>malloc(max(net.h1, 1) * sizeof(float))
    w.a2 = <float*>malloc(max(net.h2, 1) * sizeof(float))
    w.q = <float*>malloc(max(net.nmove, 1) * sizeof(float))
    w.mf = <float*>malloc(max(net.nmove, 1) * sizeof(float))
    w.p1 = NULL
    w.p2 = NULL
    if net.pw1 != NULL:
        w.p1 = <float*>malloc(max(net.ph1, 1) * sizeof(float))
        w.p2 = <float*>malloc(max(net.ph2, 1) * sizeof(float))
        if w.p1 == NULL or w.p2 == NULL:
            return False
    return w.x != NULL and w.a1 != NULL and w.a2 != NULL and w.q != NULL and w.mf != NULL


cdef void scratch_free(NetScratch* w) noexcept nogil:
    free(w.x)
    free(w.a1)
    free(w.a2)
    free(w.q)
    free(w.mf)
    free(w.p1)
    free(w.p2)
    w.p1 = NULL
    w.p2 = NULL
    w.x = NULL
    w.a1 = NULL
    w.a2 = NULL
    w.q = NULL
    w.mf = NULL


cdef inline void dense_relu(const float* x, int nin, const float* w, const float* b, int nout, float* out,
                            bint skip_zeros) noexcept nogil:
    cdef int i, j
    cdef float xi
    cdef const float* row
    for j in range(nout):
        out[j] = b[j]
    for i in range(nin):
        xi = x[i]
        if skip_zeros and xi == 0.0:
            continue
        row = w + <size_t>i * nout
        for j in range(nout):
            out[j] += xi * row[j]
    for j in range(nout):
        if out[j] < 0.0:
            out[j] = 0.0


cdef void net_trunk(const Net* net, NetScratch* w) noexcept nogil:
    """w.x (already filled with the features) -> w.a2."""
    dense_relu(w.x, net.nin, net.w1, net.b1, net.h1, w.a1, True)
    dense_relu(w.a1, net.h1, net.w2, net.b2, net.h2, w.a2, False)


cdef void net_value(const Net* net, NetScratch* w, int n, double* win, double* score) noexcept nogil:
    """After net_trunk: win probabilities and final scores of the n seats, relative to the observer."""
    cdef int k, j
    cdef double z, mx = -INFINITY, total = 0.0
    cdef double logit[MAXP]
    for k in range(n):
        z = net.bv[k]
        for j in range(net.h2):
            z += w.a2[j] * net.wv[j * net.nseat + k]
        logit[k] = z
        if z > mx:
            mx = z
        z = net.bs[k]
        for j in range(net.h2):
            z += w.a2[j] * net.ws[j * net.nseat + k]
        score[k] = z * net.score_scale
    for k in range(n):
        logit[k] = exp(logit[k] - mx)
        total += logit[k]
    for k in range(n):
        win[k] = logit[k] / total


cdef void net_rollout(const Net* net, const NetScratch* w, int n, int observer, double* out) noexcept nogil:
    """After net_trunk (net.wr not NULL): the rollout head's mean playout win shares, absolute seats."""
    cdef int k, j
    cdef double z, mx = -INFINITY, total = 0.0
    cdef double logit[MAXP]
    for k in range(n):
        z = net.br[k]
        for j in range(net.h2):
            z += w.a2[j] * net.wr[j * net.nseat + k]
        logit[k] = z
        if z > mx:
            mx = z
    for k in range(n):
        logit[k] = exp(logit[k] - mx)
        total += logit[k]
    for k in range(n):
        out[(observer + k) % n] = logit[k] / total


cdef void net_policy_q(const Net* net, NetScratch* w) noexcept nogil:
    """After net_trunk (w.x still holds the features): the per-move-feature weights q of this state,
    from the policy's own trunk when the model has one, else from the value's."""
    cdef int j, m, h = net.h2
    cdef const float* a = w.a2
    if net.pw1 != NULL:
        dense_relu(w.x, net.nin, net.pw1, net.pb1, net.ph1, w.p1, True)
        dense_relu(w.p1, net.ph1, net.pw2, net.pb2, net.ph2, w.p2, False)
        a = w.p2
        h = net.ph2
    for m in range(net.nmove):
        w.q[m] = net.bp[m]
    for j in range(h):
        for m in range(net.nmove):
            w.q[m] += a[j] * net.wp[j * net.nmove + m]


cdef void net_priors(const Net* net, const GameVTable* g, const void* s, NetScratch* w,
                     const uint64_t* moves, int nm, double* out) noexcept nogil:
    """After net_policy_q: the prior of each legal move (softmax of its features · q)."""
    cdef int i, m
    cdef double z, mx = -INFINITY, total = 0.0
    for i in range(nm):
        g.move_features(s, moves[i], w.mf)
        z = 0.0
        for m in range(net.nmove):
            z += w.mf[m] * w.q[m]
        out[i] = z
        if z > mx:
            mx = z
    for i in range(nm):
        out[i] = exp(out[i] - mx)
        total += out[i]
    for i in range(nm):
        out[i] /= total


cdef void net_evaluate(const Net* net, const GameVTable* g, const void* s, int observer, NetScratch* w,
                       double* win, double* score) noexcept nogil:
    """Win probabilities and expected final scores of every seat (absolute seats) at a decision of
    `observer`, from the observer's features. Leaves the trunk's activations in w for net_policy_q."""
    cdef int n = g.num_players(s), k
    cdef double rw[MAXP]
    cdef double rs[MAXP]
    g.state_features(s, observer, w.x)
    net_trunk(net, w)
    net_value(net, w, n, rw, rs)
    for k in range(n):
        win[(observer + k) % n] = rw[k]
        score[(observer + k) % n] = rs[k]
