# C-level Spellbook TCG state (../shared/rules/SPELLBOOK_TCG.md), cimportable, no Python objects.
from libc.stdint cimport uint8_t, uint16_t, int16_t, uint32_t, uint64_t

cdef enum:
    MAXC = 150          # card kinds in one game: both decks' cards (2 x 75 distinct at most, TW-1)
    MAXDECK = 75        # TW-1: a deck is 75 cards; no zone holds more of one player's cards
    MAXSUM = 75         # a seat's summons (each holds at least one of its owner's 75 cards)
    HAND_MAX = 15       # the largest hand_size a wizard may set (cards.py MAX_HAND, D170)
    MAXQ = 30           # spells in one step: each takes a card from a hand of at most HAND_MAX
    MAXEFF = 4          # effects of one power (cards.py MAX_EFFECTS, D170)
    MAXFIN = 8          # effects of a final spell: the power's plus at most two appended by charms
    MAX_MOVES = 160     # legal moves or chance outcomes: at most 2 + 2 * MAXSUM targets, MAXC draws
    UNKNOWN = 255       # a spellbook or graveyard slot whose card nobody knows (TI-3, TX-31)

ctypedef struct CardDef:
    uint32_t gid            # the card's code in moves (cards.py card_gid)
    uint8_t kind            # 1 power, 2 charm
    uint8_t cost
    uint8_t rarity
    uint8_t target          # 0 none, 1 character, 2 summon, 3 spell
    uint8_t neff
    uint8_t mod             # a charm's modifier (cards.py MODIFIER_CODE), 0 for a power
    uint8_t mod_tok
    uint8_t mod_n
    uint8_t ek[MAXEFF]      # effect kind: 1 damage, 2 health, 3 tokens, 4 summon
    uint8_t et[MAXEFF]      # token type: 1 fire, 2 ice, 3 shield, 4 shock
    uint8_t ea[MAXEFF]      # N (a summon: its damage)
    uint8_t eb[MAXEFF]      # a summon's health
    uint8_t ef[MAXEFF]      # fixed numbers: bit 0 ea, bit 1 eb

ctypedef struct Summon:
    int16_t damage
    int16_t health
    int16_t tokn
    uint16_t uid            # stable id of the character (wizards: 0, 1)
    uint16_t blk            # the uid of the attacker it blocks, NOBODY when not blocking
    uint8_t tok             # 0 none or its one token type (TK-2)
    uint8_t atk             # 1 while declared attacking (TB-1)
    uint8_t ncards
    uint8_t cards[3]        # its power, then its charms in attachment order

ctypedef struct Spell:
    uint8_t caster
    uint8_t ncards
    uint8_t cards[3]        # power, charms in attachment order (TC-1)

ctypedef struct TState:
    # the game's fixed part: card table, deck lists, wizards, turn limit
    uint8_t nkinds
    uint8_t started          # 1 once State.new/_setup ran (a bare State() has no game)
    uint16_t turn_limit      # TG-3, TX-14
    uint8_t digest[6]        # the card file's digest (cards.py CardSet.digest): state texts cite it
    uint32_t wiz_gid[2]      # each seat's wizard (its id's code, cards.py card_gid)
    CardDef cards[MAXC]
    uint8_t deck[2][MAXC]
    int16_t wiz_damage[2]
    uint8_t hand_size[2]
    uint8_t mana_per_turn[2]
    uint8_t setup_mana[2]
    # the play
    uint16_t turn            # TX-37: 1 = the first player's first turn; 0 during setup
    uint8_t phase
    uint8_t active
    uint8_t over
    uint8_t winners          # a bit mask, at the end
    uint8_t sub              # setup: the seat being dealt; mana step: cards put this turn
    uint8_t caster           # spellcasting: the seat to cast or pass; target: the seat choosing
    uint8_t spent[2]         # TC-2: the cost of the spells each seat cast this step
    uint8_t resolving        # resolution: the queue index of the spell awaiting its target
    uint16_t pending_blocker # block step: the uid of the blocker whose attacker is being chosen
    uint16_t next_uid
    uint8_t book_n[2]
    uint8_t grave_n[2]
    uint8_t pool_n[2]
    uint8_t hand_n[2]
    uint8_t mana_n[2]
    uint8_t board_n[2]
    uint8_t queue_n
    uint8_t book[2][MAXDECK]     # bottom first: book[p][book_n[p] - 1] is the top (UNKNOWN or a known card)
    uint8_t grave[2][MAXDECK]    # bottom first; the top is the latest card (TS-2)
    uint8_t pool[2][MAXC]        # the cards of every UNKNOWN slot of p's spellbook and graveyard, by kind
    uint8_t hand[2][HAND_MAX]    # sorted card kinds (a multiset, TI-4)
    uint8_t mana[2][MAXC]        # by kind (a multiset; only its size matters for play, TC-2)
    Summon wiz[2]                # the wizards as characters (damage, tokens, combat); health: the spellbook
    Summon board[2][MAXSUM]      # by arrival
    Spell queue[MAXQ]
    uint64_t rng                 # the hidden future: seeds resolve_chance() of the Python State
