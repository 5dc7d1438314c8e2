# The game-agnostic interface that search/ drives (OpenSpiel-style, but as plain C).
#
# A game is a table of C function pointers over an opaque, fixed-size, trivially copyable state
# (cloning is memcpy of `state_size` bytes). Every function is `noexcept nogil`, so the search hot loop
# runs without the GIL and without Python objects. Moves and chance outcomes are uint64 codes whose
# meaning only the game knows. A second game plugs in by filling one GameVTable; search/ never changes.
from libc.stdint cimport uint64_t

cdef enum:
    PLAYER_CHANCE = -1      # current_player(): a chance event (a draw) must be resolved next
    PLAYER_TERMINAL = -2    # current_player(): the game is over

ctypedef struct GameVTable:
    size_t state_size       # bytes of one state; clone = memcpy
    int max_moves           # upper bound on legal_moves()/chance_outcomes() output length
    int max_players
    int (*num_players)(const void* s) noexcept nogil
    # The player who decides next (0..n-1), PLAYER_CHANCE or PLAYER_TERMINAL.
    int (*current_player)(const void* s) noexcept nogil
    # Writes the legal moves of the deciding player into out; returns how many (0 at chance/terminal).
    int (*legal_moves)(const void* s, uint64_t* out) noexcept nogil
    # Applies a legal move or a chance outcome, then advances to the next decision/chance/terminal.
    void (*apply_move)(void* s, uint64_t move) noexcept nogil
    # At a chance node: samples one outcome with the game's probabilities using *rng (any 64-bit state).
    uint64_t (*sample_chance)(const void* s, uint64_t* rng) noexcept nogil
    # At a chance node: writes outcomes and their probabilities; returns how many.
    int (*chance_outcomes)(const void* s, uint64_t* out, double* probs) noexcept nogil
    # Resamples in place everything `observer` cannot see (observer_kind is game-defined; 0 = default).
    void (*determinize)(void* s, int observer, int observer_kind, uint64_t* rng) noexcept nogil
    # Final (or current, for truncated rollouts) score of every player into out[0..n-1].
    void (*scores)(const void* s, double* out) noexcept nogil
    # Winners at a terminal state as a bitmask over players (ties share).
    unsigned int (*winners)(const void* s) noexcept nogil
    # A cheap static evaluation of every player's expected final score (for cut-off rollouts).
    void (*evaluate)(const void* s, double* out) noexcept nogil
    # A cheap prior weight (> 0) of a legal move, for heuristic rollouts (e.g. prefer learning to passing).
    double (*move_weight)(const void* s, uint64_t move) noexcept nogil
    # Features for a learned evaluation (search/model.py); 0 features: the game offers none.
    # state_features: what `observer` sees (never hidden information: a learned value or policy must not
    # peek), seats relative to the observer (block 0 is the observer). move_features: one legal move of
    # the deciding player, for the policy head. feature_version changes whenever either layout changes;
    # a model trained on another version refuses to load.
    int num_state_features
    int num_move_features
    int feature_version
    # An older feature version whose state layout is the first `prefix_state_features` floats of this
    # one (the move layout unchanged), or 0: models of that version still load and read the prefix.
    int prefix_feature_version
    int prefix_state_features
    void (*state_features)(const void* s, int observer, float* out) noexcept nogil
    void (*move_features)(const void* s, uint64_t move, float* out) noexcept nogil
    # Optional companions (NULL when a game offers none; SpellBook offers none).
    # A belief over the observer's own hidden part (engine_c/abracadawhat/belief.py): determinize as
    # `determinize` does, but with that hidden part set to `hypothesis` (a game-defined id, as the
    # game's belief lists them); returns 0, state unchanged, when the hypothesis is impossible here.
    int (*determinize_hypothesis)(void* s, int observer, int hypothesis, uint64_t* rng) noexcept nogil
    # The decision `move`, legal in the full state s: 1 when it fails there (a cast of a stone the caster
    # lacks), 0 when it could fail but does not, -1 when it cannot fail (`end`). Search statistics only
    # (how often simulated opponents fail inside the tree).
    int (*move_fails)(const void* s, uint64_t move) noexcept nogil
    # The move prior at tree decisions of other seats (SearchOptions.opponent_prior), where a dearer prior
    # than move_weight's pays: the decider's policy as a player reasoning from its own view would weigh
    # the moves (> 0). NULL: move_weight.
    double (*decision_prior)(const void* s, uint64_t move) noexcept nogil
