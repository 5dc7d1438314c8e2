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

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "min_players", "max_players", "setup_field", "setup_help", "setup_default", "own_api", "has_reasons", "has_insight", "default_level", "rules")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_FIELD_NUMBER: _ClassVar[int]
    SETUP_HELP_FIELD_NUMBER: _ClassVar[int]
    SETUP_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    OWN_API_FIELD_NUMBER: _ClassVar[int]
    HAS_REASONS_FIELD_NUMBER: _ClassVar[int]
    HAS_INSIGHT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    min_players: int
    max_players: int
    setup_field: str
    setup_help: str
    setup_default: str
    own_api: str
    has_reasons: bool
    has_insight: bool
    default_level: int
    rules: str
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., setup_field: _Optional[str] = ..., setup_help: _Optional[str] = ..., setup_default: _Optional[str] = ..., own_api: _Optional[str] = ..., has_reasons: _Optional[bool] = ..., has_insight: _Optional[bool] = ..., default_level: _Optional[int] = ..., rules: _Optional[str] = ...) -> None: ...

class StrengthLevel(_message.Message):
    __slots__ = ("level", "iterations", "temperature", "time_cap_ms", "evaluator", "description", "elo", "elo_ci", "name", "meaning", "policy_temperature", "policy_top_k", "policy_floor", "inaccuracy_share", "mistake_share", "blunder_share", "absurd_rate")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    TIME_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ELO_FIELD_NUMBER: _ClassVar[int]
    ELO_CI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MEANING_FIELD_NUMBER: _ClassVar[int]
    POLICY_TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    POLICY_TOP_K_FIELD_NUMBER: _ClassVar[int]
    POLICY_FLOOR_FIELD_NUMBER: _ClassVar[int]
    INACCURACY_SHARE_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_SHARE_FIELD_NUMBER: _ClassVar[int]
    BLUNDER_SHARE_FIELD_NUMBER: _ClassVar[int]
    ABSURD_RATE_FIELD_NUMBER: _ClassVar[int]
    level: int
    iterations: int
    temperature: float
    time_cap_ms: float
    evaluator: str
    description: str
    elo: float
    elo_ci: float
    name: str
    meaning: str
    policy_temperature: float
    policy_top_k: int
    policy_floor: float
    inaccuracy_share: float
    mistake_share: float
    blunder_share: float
    absurd_rate: float
    def __init__(self, level: _Optional[int] = ..., iterations: _Optional[int] = ..., temperature: _Optional[float] = ..., time_cap_ms: _Optional[float] = ..., evaluator: _Optional[str] = ..., description: _Optional[str] = ..., elo: _Optional[float] = ..., elo_ci: _Optional[float] = ..., name: _Optional[str] = ..., meaning: _Optional[str] = ..., policy_temperature: _Optional[float] = ..., policy_top_k: _Optional[int] = ..., policy_floor: _Optional[float] = ..., inaccuracy_share: _Optional[float] = ..., mistake_share: _Optional[float] = ..., blunder_share: _Optional[float] = ..., absurd_rate: _Optional[float] = ...) -> None: ...

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

class StateInput(_message.Message):
    __slots__ = ("text", "observation", "determinize_seed")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    DETERMINIZE_SEED_FIELD_NUMBER: _ClassVar[int]
    text: str
    observation: str
    determinize_seed: int
    def __init__(self, text: _Optional[str] = ..., observation: _Optional[str] = ..., determinize_seed: _Optional[int] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("text", "to_move", "over", "scores", "winners", "view_json")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    text: str
    to_move: int
    over: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    view_json: str
    def __init__(self, text: _Optional[str] = ..., to_move: _Optional[int] = ..., over: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., view_json: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("exploration", "objective", "blend", "margin_scale", "rollout", "cutoff", "temperature", "max_nodes", "evaluator", "c_puct", "root_halving", "lcb_stdevs")
    EXPLORATION_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    BLEND_FIELD_NUMBER: _ClassVar[int]
    MARGIN_SCALE_FIELD_NUMBER: _ClassVar[int]
    ROLLOUT_FIELD_NUMBER: _ClassVar[int]
    CUTOFF_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
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
    max_nodes: int
    evaluator: str
    c_puct: float
    root_halving: int
    lcb_stdevs: float
    def __init__(self, exploration: _Optional[float] = ..., objective: _Optional[str] = ..., blend: _Optional[float] = ..., margin_scale: _Optional[float] = ..., rollout: _Optional[str] = ..., cutoff: _Optional[int] = ..., temperature: _Optional[float] = ..., max_nodes: _Optional[int] = ..., evaluator: _Optional[str] = ..., c_puct: _Optional[float] = ..., root_halving: _Optional[int] = ..., lcb_stdevs: _Optional[float] = ...) -> None: ...

class EffectiveOptions(_message.Message):
    __slots__ = ("level", "iterations", "time_ms", "threads", "exploration", "objective", "blend", "margin_scale", "rollout", "cutoff", "temperature", "max_nodes", "stop_early", "evaluator", "model", "c_puct", "root_halving", "lcb_stdevs")
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
    max_nodes: int
    stop_early: bool
    evaluator: str
    model: str
    c_puct: float
    root_halving: int
    lcb_stdevs: float
    def __init__(self, level: _Optional[int] = ..., iterations: _Optional[int] = ..., time_ms: _Optional[float] = ..., threads: _Optional[int] = ..., exploration: _Optional[float] = ..., objective: _Optional[str] = ..., blend: _Optional[float] = ..., margin_scale: _Optional[float] = ..., rollout: _Optional[str] = ..., cutoff: _Optional[int] = ..., temperature: _Optional[float] = ..., max_nodes: _Optional[int] = ..., stop_early: _Optional[bool] = ..., evaluator: _Optional[str] = ..., model: _Optional[str] = ..., c_puct: _Optional[float] = ..., root_halving: _Optional[int] = ..., lcb_stdevs: _Optional[float] = ...) -> None: ...

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
    __slots__ = ("rank", "move", "win_probability", "expected_score", "loss", "loss_points", "loss_margin", "mistake_class", "about_equal", "verdict", "note", "reasons", "veiled_reasons", "visits", "score_spread", "variants")
    RANK_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SCORE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    LOSS_POINTS_FIELD_NUMBER: _ClassVar[int]
    LOSS_MARGIN_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_CLASS_FIELD_NUMBER: _ClassVar[int]
    ABOUT_EQUAL_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    VEILED_REASONS_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    SCORE_SPREAD_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    rank: int
    move: Move
    win_probability: float
    expected_score: float
    loss: float
    loss_points: float
    loss_margin: float
    mistake_class: MistakeClass
    about_equal: bool
    verdict: str
    note: str
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    veiled_reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    visits: int
    score_spread: float
    variants: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, rank: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., win_probability: _Optional[float] = ..., expected_score: _Optional[float] = ..., loss: _Optional[float] = ..., loss_points: _Optional[float] = ..., loss_margin: _Optional[float] = ..., mistake_class: _Optional[_Union[MistakeClass, str]] = ..., about_equal: _Optional[bool] = ..., verdict: _Optional[str] = ..., note: _Optional[str] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., veiled_reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., visits: _Optional[int] = ..., score_spread: _Optional[float] = ..., variants: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

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

class SessionSeat(_message.Message):
    __slots__ = ("kind", "level")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    kind: SeatKind
    level: int
    def __init__(self, kind: _Optional[_Union[SeatKind, str]] = ..., level: _Optional[int] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class SessionEvent(_message.Message):
    __slots__ = ("seq", "kind", "seat", "move", "hidden", "zone", "to", "to_move", "scores", "winners", "lines")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: str
    seat: int
    move: Move
    hidden: bool
    zone: str
    to: int
    to_move: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    lines: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[str] = ..., seat: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., hidden: _Optional[bool] = ..., zone: _Optional[str] = ..., to: _Optional[int] = ..., to_move: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., lines: _Optional[_Iterable[str]] = ...) -> None: ...

class GameResult(_message.Message):
    __slots__ = ("scores", "winners", "resigned")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    resigned: int
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., resigned: _Optional[int] = ...) -> None: ...
