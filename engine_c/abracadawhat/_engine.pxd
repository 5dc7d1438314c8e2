# C-level Abracada…What? state (see ../shared/rules/ABRACADAWHAT.md), cimportable, no Python objects.
from libc.stdint cimport uint8_t, uint16_t, uint64_t

cdef enum:
    MAXP = 5            # XS1: 2-5 players
    NSPELL = 8          # spells 1..8; per-spell arrays are indexed 1..8 (index 0 unused)
    NS1 = 9
    HAND_SIZE = 5       # XS2, XT4
    START_LIFE = 6      # XS1, XS3
    SECRETS = 4         # XS2
    WIN_POINTS = 8      # XG1
    STONES = 36         # XS1: 1 + 2 + ... + 8
    # Bounds that the rules themselves guarantee (see _engine.pyx): a round logs at most 90 announcements and
    # 90 turn ends; a game has at most 7n + 1 = 36 rounds (every round scores at least 1 point, XR2-XR4, XV2).
    LOG_MAX = 192
    HIST_MAX = 36
    HIST_FIELDS = 13    # reason, seat, actor, scores[MAXP], life[MAXP]
    MAX_MOVES = 16

ctypedef struct ABState:
    uint8_t nplayers
    uint8_t variants               # bit 0: XV1 (easy), bit 1: XV2 (last magician standing)
    uint8_t phase                  # deal, decide, roll, secret, refill, over
    uint8_t active                 # the seat whose turn it is (during the deal: the round's first seat)
    uint8_t last_cast              # the spell of this turn's last success (0: none yet, XT2/XC7)
    uint8_t roll_kind              # phase roll: what the die is for
    uint8_t pending                # deal: stones dealt so far; refill: stones still to draw
    uint8_t over
    uint8_t hand[MAXP][NS1]
    uint8_t hand_n[MAXP]
    uint8_t cast[MAXP][NS1]        # stones each seat cast this round (face up, XI1)
    uint8_t taken[MAXP][NS1]       # secret stones each seat took with Night Singer this round (XI3)
    uint8_t taken_n[MAXP]
    uint8_t life[MAXP]
    uint8_t points[MAXP]
    uint8_t pile[NS1]              # during the deal: every stone not dealt yet (XC5: a multiset)
    uint8_t secret[NS1]            # the secret stones still set aside
    uint8_t removed[NS1]           # 2-3 players: the stones removed face up (XS2)
    uint8_t pile_n
    uint8_t secret_n
    uint8_t removed_n
    uint8_t hist_n                 # rounds finished
    uint16_t log_n
    uint8_t log[LOG_MAX][2]        # the public log of the current round (XC12), see LOG_* in _engine.pyx
    uint8_t hist[HIST_MAX][HIST_FIELDS]   # finished rounds' results (XC12)
    uint64_t rng                   # the hidden future: seeds resolve_chance() of the Python State
