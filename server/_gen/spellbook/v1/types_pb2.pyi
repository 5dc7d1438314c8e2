from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MistakeClass(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MISTAKE_CLASS_UNSPECIFIED: _ClassVar[MistakeClass]
    MISTAKE_CLASS_BEST: _ClassVar[MistakeClass]
    MISTAKE_CLASS_GOOD: _ClassVar[MistakeClass]
    MISTAKE_CLASS_INACCURACY: _ClassVar[MistakeClass]
    MISTAKE_CLASS_MISTAKE: _ClassVar[MistakeClass]
    MISTAKE_CLASS_BLUNDER: _ClassVar[MistakeClass]

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_CLIENT: _ClassVar[SeatKind]
    SEAT_KIND_BOT: _ClassVar[SeatKind]
MISTAKE_CLASS_UNSPECIFIED: MistakeClass
MISTAKE_CLASS_BEST: MistakeClass
MISTAKE_CLASS_GOOD: MistakeClass
MISTAKE_CLASS_INACCURACY: MistakeClass
MISTAKE_CLASS_MISTAKE: MistakeClass
MISTAKE_CLASS_BLUNDER: MistakeClass
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_CLIENT: SeatKind
SEAT_KIND_BOT: SeatKind

class TokenCount(_message.Message):
    __slots__ = ("token", "count")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    token: str
    count: int
    def __init__(self, token: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class LearnedSpell(_message.Message):
    __slots__ = ("spell", "color", "level", "rune", "learned_day")
    SPELL_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    RUNE_FIELD_NUMBER: _ClassVar[int]
    LEARNED_DAY_FIELD_NUMBER: _ClassVar[int]
    spell: str
    color: str
    level: int
    rune: str
    learned_day: int
    def __init__(self, spell: _Optional[str] = ..., color: _Optional[str] = ..., level: _Optional[int] = ..., rune: _Optional[str] = ..., learned_day: _Optional[int] = ...) -> None: ...

class Score(_message.Message):
    __slots__ = ("total", "spells", "familiar", "feast", "knowledge", "communion")
    class SpellsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    FAMILIAR_FIELD_NUMBER: _ClassVar[int]
    FEAST_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_FIELD_NUMBER: _ClassVar[int]
    COMMUNION_FIELD_NUMBER: _ClassVar[int]
    total: int
    spells: _containers.ScalarMap[str, int]
    familiar: int
    feast: int
    knowledge: int
    communion: int
    def __init__(self, total: _Optional[int] = ..., spells: _Optional[_Mapping[str, int]] = ..., familiar: _Optional[int] = ..., feast: _Optional[int] = ..., knowledge: _Optional[int] = ..., communion: _Optional[int] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("seat", "pool", "familiar", "spells", "score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    FAMILIAR_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    pool: _containers.RepeatedCompositeFieldContainer[TokenCount]
    familiar: _containers.RepeatedCompositeFieldContainer[TokenCount]
    spells: _containers.RepeatedCompositeFieldContainer[LearnedSpell]
    score: Score
    def __init__(self, seat: _Optional[int] = ..., pool: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., familiar: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., spells: _Optional[_Iterable[_Union[LearnedSpell, _Mapping]]] = ..., score: _Optional[_Union[Score, _Mapping]] = ...) -> None: ...

class StateView(_message.Message):
    __slots__ = ("players", "spells", "day", "active_player", "phase", "end_triggered", "over", "altar", "pouch", "discard", "unseen", "pouch_size", "seats", "stack", "taken", "given", "justdisc", "rng", "observer", "current_player", "decision")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    DAY_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_PLAYER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    ALTAR_FIELD_NUMBER: _ClassVar[int]
    POUCH_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    UNSEEN_FIELD_NUMBER: _ClassVar[int]
    POUCH_SIZE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    JUSTDISC_FIELD_NUMBER: _ClassVar[int]
    RNG_FIELD_NUMBER: _ClassVar[int]
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    players: int
    spells: _containers.RepeatedScalarFieldContainer[str]
    day: int
    active_player: int
    phase: str
    end_triggered: bool
    over: bool
    altar: _containers.RepeatedCompositeFieldContainer[TokenCount]
    pouch: _containers.RepeatedCompositeFieldContainer[TokenCount]
    discard: _containers.RepeatedCompositeFieldContainer[TokenCount]
    unseen: _containers.RepeatedCompositeFieldContainer[TokenCount]
    pouch_size: int
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    stack: _containers.RepeatedScalarFieldContainer[str]
    taken: _containers.RepeatedCompositeFieldContainer[TokenCount]
    given: _containers.RepeatedCompositeFieldContainer[TokenCount]
    justdisc: _containers.RepeatedCompositeFieldContainer[TokenCount]
    rng: str
    observer: int
    current_player: int
    decision: str
    def __init__(self, players: _Optional[int] = ..., spells: _Optional[_Iterable[str]] = ..., day: _Optional[int] = ..., active_player: _Optional[int] = ..., phase: _Optional[str] = ..., end_triggered: _Optional[bool] = ..., over: _Optional[bool] = ..., altar: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., pouch: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., discard: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., unseen: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., pouch_size: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., stack: _Optional[_Iterable[str]] = ..., taken: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., given: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., justdisc: _Optional[_Iterable[_Union[TokenCount, _Mapping]]] = ..., rng: _Optional[str] = ..., observer: _Optional[int] = ..., current_player: _Optional[int] = ..., decision: _Optional[str] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("text", "view")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    text: str
    view: StateView
    def __init__(self, text: _Optional[str] = ..., view: _Optional[_Union[StateView, _Mapping]] = ...) -> None: ...

class StateInput(_message.Message):
    __slots__ = ("text", "observation", "view", "determinize_seed")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    DETERMINIZE_SEED_FIELD_NUMBER: _ClassVar[int]
    text: str
    observation: str
    view: StateView
    determinize_seed: int
    def __init__(self, text: _Optional[str] = ..., observation: _Optional[str] = ..., view: _Optional[_Union[StateView, _Mapping]] = ..., determinize_seed: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("text", "code", "kind", "words")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    text: str
    code: int
    kind: str
    words: str
    def __init__(self, text: _Optional[str] = ..., code: _Optional[int] = ..., kind: _Optional[str] = ..., words: _Optional[str] = ...) -> None: ...

class ChanceOutcome(_message.Message):
    __slots__ = ("move", "probability")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    move: Move
    probability: float
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., probability: _Optional[float] = ...) -> None: ...

class SearchLimits(_message.Message):
    __slots__ = ("iterations", "time_ms", "threads")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    time_ms: float
    threads: int
    def __init__(self, iterations: _Optional[int] = ..., time_ms: _Optional[float] = ..., threads: _Optional[int] = ...) -> None: ...

class SearchOptions(_message.Message):
    __slots__ = ("exploration", "objective", "blend", "margin_scale", "rollout", "cutoff", "temperature", "knows_discard", "max_nodes", "evaluator", "c_puct", "root_halving", "lcb_stdevs")
    EXPLORATION_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    BLEND_FIELD_NUMBER: _ClassVar[int]
    MARGIN_SCALE_FIELD_NUMBER: _ClassVar[int]
    ROLLOUT_FIELD_NUMBER: _ClassVar[int]
    CUTOFF_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    KNOWS_DISCARD_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    C_PUCT_FIELD_NUMBER: _ClassVar[int]
    ROOT_HALVING_FIELD_NUMBER: _ClassVar[int]
    LCB_STDEVS_FIELD_NUMBER: _ClassVar[int]
    exploration: float
    objective: str
    blend: float
    margin_scale: float
    rollout: str
    cutoff: int
    temperature: float
    knows_discard: bool
    max_nodes: int
    evaluator: str
    c_puct: float
    root_halving: int
    lcb_stdevs: float
    def __init__(self, exploration: _Optional[float] = ..., objective: _Optional[str] = ..., blend: _Optional[float] = ..., margin_scale: _Optional[float] = ..., rollout: _Optional[str] = ..., cutoff: _Optional[int] = ..., temperature: _Optional[float] = ..., knows_discard: _Optional[bool] = ..., max_nodes: _Optional[int] = ..., evaluator: _Optional[str] = ..., c_puct: _Optional[float] = ..., root_halving: _Optional[int] = ..., lcb_stdevs: _Optional[float] = ...) -> None: ...

class MoveStats(_message.Message):
    __slots__ = ("move", "visits", "availability", "mean_reward", "win_probability", "expected_score", "score_std", "prior")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    AVAILABILITY_FIELD_NUMBER: _ClassVar[int]
    MEAN_REWARD_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SCORE_FIELD_NUMBER: _ClassVar[int]
    SCORE_STD_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    move: Move
    visits: int
    availability: int
    mean_reward: float
    win_probability: _containers.RepeatedScalarFieldContainer[float]
    expected_score: _containers.RepeatedScalarFieldContainer[float]
    score_std: _containers.RepeatedScalarFieldContainer[float]
    prior: float
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., visits: _Optional[int] = ..., availability: _Optional[int] = ..., mean_reward: _Optional[float] = ..., win_probability: _Optional[_Iterable[float]] = ..., expected_score: _Optional[_Iterable[float]] = ..., score_std: _Optional[_Iterable[float]] = ..., prior: _Optional[float] = ...) -> None: ...

class SearchStats(_message.Message):
    __slots__ = ("iterations", "elapsed_ms", "seed", "player", "threads", "nodes", "mean_decisions", "cut_short", "moves", "principal_variation", "options", "stopped_early")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    MEAN_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    CUT_SHORT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_VARIATION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_EARLY_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    elapsed_ms: float
    seed: int
    player: int
    threads: int
    nodes: int
    mean_decisions: float
    cut_short: bool
    moves: _containers.RepeatedCompositeFieldContainer[MoveStats]
    principal_variation: _containers.RepeatedCompositeFieldContainer[Move]
    options: EffectiveOptions
    stopped_early: bool
    def __init__(self, iterations: _Optional[int] = ..., elapsed_ms: _Optional[float] = ..., seed: _Optional[int] = ..., player: _Optional[int] = ..., threads: _Optional[int] = ..., nodes: _Optional[int] = ..., mean_decisions: _Optional[float] = ..., cut_short: _Optional[bool] = ..., moves: _Optional[_Iterable[_Union[MoveStats, _Mapping]]] = ..., principal_variation: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., options: _Optional[_Union[EffectiveOptions, _Mapping]] = ..., stopped_early: _Optional[bool] = ...) -> None: ...

class EffectiveOptions(_message.Message):
    __slots__ = ("level", "iterations", "time_ms", "threads", "exploration", "objective", "blend", "margin_scale", "rollout", "cutoff", "temperature", "knows_discard", "max_nodes", "stop_early", "evaluator", "model", "c_puct", "root_halving", "lcb_stdevs")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    EXPLORATION_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    BLEND_FIELD_NUMBER: _ClassVar[int]
    MARGIN_SCALE_FIELD_NUMBER: _ClassVar[int]
    ROLLOUT_FIELD_NUMBER: _ClassVar[int]
    CUTOFF_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    KNOWS_DISCARD_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    STOP_EARLY_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    C_PUCT_FIELD_NUMBER: _ClassVar[int]
    ROOT_HALVING_FIELD_NUMBER: _ClassVar[int]
    LCB_STDEVS_FIELD_NUMBER: _ClassVar[int]
    level: int
    iterations: int
    time_ms: float
    threads: int
    exploration: float
    objective: str
    blend: float
    margin_scale: float
    rollout: str
    cutoff: int
    temperature: float
    knows_discard: bool
    max_nodes: int
    stop_early: bool
    evaluator: str
    model: str
    c_puct: float
    root_halving: int
    lcb_stdevs: float
    def __init__(self, level: _Optional[int] = ..., iterations: _Optional[int] = ..., time_ms: _Optional[float] = ..., threads: _Optional[int] = ..., exploration: _Optional[float] = ..., objective: _Optional[str] = ..., blend: _Optional[float] = ..., margin_scale: _Optional[float] = ..., rollout: _Optional[str] = ..., cutoff: _Optional[int] = ..., temperature: _Optional[float] = ..., knows_discard: _Optional[bool] = ..., max_nodes: _Optional[int] = ..., stop_early: _Optional[bool] = ..., evaluator: _Optional[str] = ..., model: _Optional[str] = ..., c_puct: _Optional[float] = ..., root_halving: _Optional[int] = ..., lcb_stdevs: _Optional[float] = ...) -> None: ...

class Reason(_message.Message):
    __slots__ = ("kind", "value", "items", "text", "aspect")
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ASPECT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    value: float
    items: _containers.RepeatedScalarFieldContainer[str]
    text: str
    aspect: str
    def __init__(self, kind: _Optional[str] = ..., value: _Optional[float] = ..., items: _Optional[_Iterable[str]] = ..., text: _Optional[str] = ..., aspect: _Optional[str] = ...) -> None: ...

class Hint(_message.Message):
    __slots__ = ("move", "rank", "win_probability", "expected_score", "loss", "loss_points", "mistake_class", "reasons", "visits", "about_equal", "loss_margin", "score_spread", "variants", "note", "veiled_reasons", "verdict")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SCORE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    LOSS_POINTS_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_CLASS_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    ABOUT_EQUAL_FIELD_NUMBER: _ClassVar[int]
    LOSS_MARGIN_FIELD_NUMBER: _ClassVar[int]
    SCORE_SPREAD_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    VEILED_REASONS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    move: Move
    rank: int
    win_probability: float
    expected_score: float
    loss: float
    loss_points: float
    mistake_class: MistakeClass
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    visits: int
    about_equal: bool
    loss_margin: float
    score_spread: float
    variants: _containers.RepeatedCompositeFieldContainer[Move]
    note: str
    veiled_reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    verdict: str
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., rank: _Optional[int] = ..., win_probability: _Optional[float] = ..., expected_score: _Optional[float] = ..., loss: _Optional[float] = ..., loss_points: _Optional[float] = ..., mistake_class: _Optional[_Union[MistakeClass, str]] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., visits: _Optional[int] = ..., about_equal: _Optional[bool] = ..., loss_margin: _Optional[float] = ..., score_spread: _Optional[float] = ..., variants: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., note: _Optional[str] = ..., veiled_reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., verdict: _Optional[str] = ...) -> None: ...

class HintConfidence(_message.Message):
    __slots__ = ("separated", "gap", "margin", "budgets", "stopped_by", "text")
    SEPARATED_FIELD_NUMBER: _ClassVar[int]
    GAP_FIELD_NUMBER: _ClassVar[int]
    MARGIN_FIELD_NUMBER: _ClassVar[int]
    BUDGETS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    separated: bool
    gap: float
    margin: float
    budgets: _containers.RepeatedScalarFieldContainer[float]
    stopped_by: str
    text: str
    def __init__(self, separated: _Optional[bool] = ..., gap: _Optional[float] = ..., margin: _Optional[float] = ..., budgets: _Optional[_Iterable[float]] = ..., stopped_by: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class InsightOptions(_message.Message):
    __slots__ = ("beliefs", "within_draws", "what_if", "what_if_move", "what_if_iterations", "value_spread", "spread_moves", "worlds", "rollouts")
    BELIEFS_FIELD_NUMBER: _ClassVar[int]
    WITHIN_DRAWS_FIELD_NUMBER: _ClassVar[int]
    WHAT_IF_FIELD_NUMBER: _ClassVar[int]
    WHAT_IF_MOVE_FIELD_NUMBER: _ClassVar[int]
    WHAT_IF_ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    VALUE_SPREAD_FIELD_NUMBER: _ClassVar[int]
    SPREAD_MOVES_FIELD_NUMBER: _ClassVar[int]
    WORLDS_FIELD_NUMBER: _ClassVar[int]
    ROLLOUTS_FIELD_NUMBER: _ClassVar[int]
    beliefs: bool
    within_draws: int
    what_if: bool
    what_if_move: Move
    what_if_iterations: int
    value_spread: bool
    spread_moves: int
    worlds: int
    rollouts: int
    def __init__(self, beliefs: _Optional[bool] = ..., within_draws: _Optional[int] = ..., what_if: _Optional[bool] = ..., what_if_move: _Optional[_Union[Move, _Mapping]] = ..., what_if_iterations: _Optional[int] = ..., value_spread: _Optional[bool] = ..., spread_moves: _Optional[int] = ..., worlds: _Optional[int] = ..., rollouts: _Optional[int] = ...) -> None: ...

class TokenBelief(_message.Message):
    __slots__ = ("token", "expected_in_pouch", "p_next", "p_within")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_IN_POUCH_FIELD_NUMBER: _ClassVar[int]
    P_NEXT_FIELD_NUMBER: _ClassVar[int]
    P_WITHIN_FIELD_NUMBER: _ClassVar[int]
    token: str
    expected_in_pouch: float
    p_next: float
    p_within: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, token: _Optional[str] = ..., expected_in_pouch: _Optional[float] = ..., p_next: _Optional[float] = ..., p_within: _Optional[_Iterable[float]] = ...) -> None: ...

class DrawOutcome(_message.Message):
    __slots__ = ("token", "probability", "decider", "best_reply", "win_probability", "expected_score")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    DECIDER_FIELD_NUMBER: _ClassVar[int]
    BEST_REPLY_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SCORE_FIELD_NUMBER: _ClassVar[int]
    token: str
    probability: float
    decider: int
    best_reply: Move
    win_probability: _containers.RepeatedScalarFieldContainer[float]
    expected_score: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, token: _Optional[str] = ..., probability: _Optional[float] = ..., decider: _Optional[int] = ..., best_reply: _Optional[_Union[Move, _Mapping]] = ..., win_probability: _Optional[_Iterable[float]] = ..., expected_score: _Optional[_Iterable[float]] = ...) -> None: ...

class MoveSpread(_message.Message):
    __slots__ = ("move", "margin_q05", "margin_q50", "margin_q95", "best_share")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    MARGIN_Q05_FIELD_NUMBER: _ClassVar[int]
    MARGIN_Q50_FIELD_NUMBER: _ClassVar[int]
    MARGIN_Q95_FIELD_NUMBER: _ClassVar[int]
    BEST_SHARE_FIELD_NUMBER: _ClassVar[int]
    move: Move
    margin_q05: float
    margin_q50: float
    margin_q95: float
    best_share: float
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., margin_q05: _Optional[float] = ..., margin_q50: _Optional[float] = ..., margin_q95: _Optional[float] = ..., best_share: _Optional[float] = ...) -> None: ...

class Insight(_message.Message):
    __slots__ = ("observer", "knows_discard", "beliefs", "what_if_move", "what_if", "value_spread")
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    KNOWS_DISCARD_FIELD_NUMBER: _ClassVar[int]
    BELIEFS_FIELD_NUMBER: _ClassVar[int]
    WHAT_IF_MOVE_FIELD_NUMBER: _ClassVar[int]
    WHAT_IF_FIELD_NUMBER: _ClassVar[int]
    VALUE_SPREAD_FIELD_NUMBER: _ClassVar[int]
    observer: int
    knows_discard: bool
    beliefs: _containers.RepeatedCompositeFieldContainer[TokenBelief]
    what_if_move: Move
    what_if: _containers.RepeatedCompositeFieldContainer[DrawOutcome]
    value_spread: _containers.RepeatedCompositeFieldContainer[MoveSpread]
    def __init__(self, observer: _Optional[int] = ..., knows_discard: _Optional[bool] = ..., beliefs: _Optional[_Iterable[_Union[TokenBelief, _Mapping]]] = ..., what_if_move: _Optional[_Union[Move, _Mapping]] = ..., what_if: _Optional[_Iterable[_Union[DrawOutcome, _Mapping]]] = ..., value_spread: _Optional[_Iterable[_Union[MoveSpread, _Mapping]]] = ...) -> None: ...

class RecordSeat(_message.Message):
    __slots__ = ("kind", "level", "spec")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    kind: str
    level: int
    spec: str
    def __init__(self, kind: _Optional[str] = ..., level: _Optional[int] = ..., spec: _Optional[str] = ...) -> None: ...

class RecordEvent(_message.Message):
    __slots__ = ("seq", "kind", "seat", "move")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: str
    seat: int
    move: str
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[str] = ..., seat: _Optional[int] = ..., move: _Optional[str] = ...) -> None: ...

class GameResult(_message.Message):
    __slots__ = ("scores", "winners", "resigned")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    resigned: int
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., resigned: _Optional[int] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("format", "session_id", "players", "spells", "seed", "seats", "status", "events", "result", "version")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    format: str
    session_id: str
    players: int
    spells: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    seats: _containers.RepeatedCompositeFieldContainer[RecordSeat]
    status: str
    events: _containers.RepeatedCompositeFieldContainer[RecordEvent]
    result: GameResult
    version: int
    def __init__(self, format: _Optional[str] = ..., session_id: _Optional[str] = ..., players: _Optional[int] = ..., spells: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[RecordSeat, _Mapping]]] = ..., status: _Optional[str] = ..., events: _Optional[_Iterable[_Union[RecordEvent, _Mapping]]] = ..., result: _Optional[_Union[GameResult, _Mapping]] = ..., version: _Optional[int] = ...) -> None: ...

class SessionSeat(_message.Message):
    __slots__ = ("kind", "level")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    kind: SeatKind
    level: int
    def __init__(self, kind: _Optional[_Union[SeatKind, str]] = ..., level: _Optional[int] = ...) -> None: ...

class SessionEvent(_message.Message):
    __slots__ = ("seq", "kind", "seat", "move", "to_move", "scores", "winners", "zone", "to")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: str
    seat: int
    move: Move
    to_move: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    zone: str
    to: int
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[str] = ..., seat: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., to_move: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., zone: _Optional[str] = ..., to: _Optional[int] = ...) -> None: ...
