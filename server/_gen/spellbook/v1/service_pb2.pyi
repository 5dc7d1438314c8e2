from server._gen.spellbook.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetServerInfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StrengthLevel(_message.Message):
    __slots__ = ("level", "iterations", "temperature", "rollout", "cutoff", "time_cap_ms", "description", "elo", "evaluator", "elo_ci", "name", "meaning", "policy_temperature", "policy_top_k", "policy_floor", "inaccuracy_share", "mistake_share", "blunder_share", "absurd_rate")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    ROLLOUT_FIELD_NUMBER: _ClassVar[int]
    CUTOFF_FIELD_NUMBER: _ClassVar[int]
    TIME_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ELO_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
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
    rollout: str
    cutoff: int
    time_cap_ms: float
    description: str
    elo: float
    evaluator: str
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
    def __init__(self, level: _Optional[int] = ..., iterations: _Optional[int] = ..., temperature: _Optional[float] = ..., rollout: _Optional[str] = ..., cutoff: _Optional[int] = ..., time_cap_ms: _Optional[float] = ..., description: _Optional[str] = ..., elo: _Optional[float] = ..., evaluator: _Optional[str] = ..., elo_ci: _Optional[float] = ..., name: _Optional[str] = ..., meaning: _Optional[str] = ..., policy_temperature: _Optional[float] = ..., policy_top_k: _Optional[int] = ..., policy_floor: _Optional[float] = ..., inaccuracy_share: _Optional[float] = ..., mistake_share: _Optional[float] = ..., blunder_share: _Optional[float] = ..., absurd_rate: _Optional[float] = ...) -> None: ...

class ServerLimits(_message.Message):
    __slots__ = ("max_iterations", "max_time_ms", "max_threads", "max_message_bytes", "workers", "queue_size", "deadline_margin_ms", "max_top_k", "min_report_every_ms", "bot_workers", "max_sessions", "max_review_ms")
    MAX_ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MAX_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_THREADS_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    QUEUE_SIZE_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MARGIN_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_TOP_K_FIELD_NUMBER: _ClassVar[int]
    MIN_REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    BOT_WORKERS_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    MAX_REVIEW_MS_FIELD_NUMBER: _ClassVar[int]
    max_iterations: int
    max_time_ms: float
    max_threads: int
    max_message_bytes: int
    workers: int
    queue_size: int
    deadline_margin_ms: float
    max_top_k: int
    min_report_every_ms: int
    bot_workers: int
    max_sessions: int
    max_review_ms: float
    def __init__(self, max_iterations: _Optional[int] = ..., max_time_ms: _Optional[float] = ..., max_threads: _Optional[int] = ..., max_message_bytes: _Optional[int] = ..., workers: _Optional[int] = ..., queue_size: _Optional[int] = ..., deadline_margin_ms: _Optional[float] = ..., max_top_k: _Optional[int] = ..., min_report_every_ms: _Optional[int] = ..., bot_workers: _Optional[int] = ..., max_sessions: _Optional[int] = ..., max_review_ms: _Optional[float] = ...) -> None: ...

class RulesInfo(_message.Message):
    __slots__ = ("version", "notation", "runes", "familiar_track", "tables_json", "spells", "pool_limit", "familiar_spaces", "copies", "min_players", "max_players")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    RUNES_FIELD_NUMBER: _ClassVar[int]
    FAMILIAR_TRACK_FIELD_NUMBER: _ClassVar[int]
    TABLES_JSON_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    POOL_LIMIT_FIELD_NUMBER: _ClassVar[int]
    FAMILIAR_SPACES_FIELD_NUMBER: _ClassVar[int]
    COPIES_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    version: str
    notation: str
    runes: _containers.RepeatedScalarFieldContainer[str]
    familiar_track: _containers.RepeatedScalarFieldContainer[int]
    tables_json: str
    spells: _containers.RepeatedScalarFieldContainer[str]
    pool_limit: int
    familiar_spaces: int
    copies: int
    min_players: int
    max_players: int
    def __init__(self, version: _Optional[str] = ..., notation: _Optional[str] = ..., runes: _Optional[_Iterable[str]] = ..., familiar_track: _Optional[_Iterable[int]] = ..., tables_json: _Optional[str] = ..., spells: _Optional[_Iterable[str]] = ..., pool_limit: _Optional[int] = ..., familiar_spaces: _Optional[int] = ..., copies: _Optional[int] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ...) -> None: ...

class MistakeThreshold(_message.Message):
    __slots__ = ("mistake_class", "max_loss")
    MISTAKE_CLASS_FIELD_NUMBER: _ClassVar[int]
    MAX_LOSS_FIELD_NUMBER: _ClassVar[int]
    mistake_class: _types_pb2.MistakeClass
    max_loss: float
    def __init__(self, mistake_class: _Optional[_Union[_types_pb2.MistakeClass, str]] = ..., max_loss: _Optional[float] = ...) -> None: ...

class GetServerInfoResponse(_message.Message):
    __slots__ = ("version", "git_revision", "rules", "levels", "limits", "default_level", "mistake_thresholds", "model", "default_bot_level", "elo_anchor")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GIT_REVISION_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    ELO_ANCHOR_FIELD_NUMBER: _ClassVar[int]
    version: str
    git_revision: str
    rules: RulesInfo
    levels: _containers.RepeatedCompositeFieldContainer[StrengthLevel]
    limits: ServerLimits
    default_level: int
    mistake_thresholds: _containers.RepeatedCompositeFieldContainer[MistakeThreshold]
    model: ModelInfo
    default_bot_level: int
    elo_anchor: str
    def __init__(self, version: _Optional[str] = ..., git_revision: _Optional[str] = ..., rules: _Optional[_Union[RulesInfo, _Mapping]] = ..., levels: _Optional[_Iterable[_Union[StrengthLevel, _Mapping]]] = ..., limits: _Optional[_Union[ServerLimits, _Mapping]] = ..., default_level: _Optional[int] = ..., mistake_thresholds: _Optional[_Iterable[_Union[MistakeThreshold, _Mapping]]] = ..., model: _Optional[_Union[ModelInfo, _Mapping]] = ..., default_bot_level: _Optional[int] = ..., elo_anchor: _Optional[str] = ...) -> None: ...

class ModelInfo(_message.Message):
    __slots__ = ("version", "generation", "feature_version", "training_json", "used_by_default", "calibration_json")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    FEATURE_VERSION_FIELD_NUMBER: _ClassVar[int]
    TRAINING_JSON_FIELD_NUMBER: _ClassVar[int]
    USED_BY_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    CALIBRATION_JSON_FIELD_NUMBER: _ClassVar[int]
    version: str
    generation: int
    feature_version: int
    training_json: str
    used_by_default: bool
    calibration_json: str
    def __init__(self, version: _Optional[str] = ..., generation: _Optional[int] = ..., feature_version: _Optional[int] = ..., training_json: _Optional[str] = ..., used_by_default: _Optional[bool] = ..., calibration_json: _Optional[str] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("players", "spells", "seed")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    players: int
    spells: str
    seed: int
    def __init__(self, players: _Optional[int] = ..., spells: _Optional[str] = ..., seed: _Optional[int] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.GameState
    def __init__(self, state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "chance_outcomes", "current_player", "decision")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CHANCE_OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    chance_outcomes: _containers.RepeatedCompositeFieldContainer[_types_pb2.ChanceOutcome]
    current_player: int
    decision: str
    def __init__(self, moves: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., chance_outcomes: _Optional[_Iterable[_Union[_types_pb2.ChanceOutcome, _Mapping]]] = ..., current_player: _Optional[int] = ..., decision: _Optional[str] = ...) -> None: ...

class ApplyMoveRequest(_message.Message):
    __slots__ = ("state", "move", "resolve_chance")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RESOLVE_CHANCE_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    move: _types_pb2.Move
    resolve_chance: bool
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., resolve_chance: _Optional[bool] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("state", "draws")
    STATE_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.GameState
    draws: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    def __init__(self, state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., draws: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ...) -> None: ...

class ResolveChanceRequest(_message.Message):
    __slots__ = ("state", "seed")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    seed: int
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class ResolveChanceResponse(_message.Message):
    __slots__ = ("state", "draws")
    STATE_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.GameState
    draws: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    def __init__(self, state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., draws: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ...) -> None: ...

class GetBestMoveRequest(_message.Message):
    __slots__ = ("state", "seat", "limits", "level", "options", "seed")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class GetBestMoveResponse(_message.Message):
    __slots__ = ("move", "stats")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    move: _types_pb2.Move
    stats: _types_pb2.SearchStats
    def __init__(self, move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ...) -> None: ...

class GetHintsRequest(_message.Message):
    __slots__ = ("state", "seat", "limits", "level", "options", "seed", "top_k", "hide_best", "insight", "fixed_budget")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    HIDE_BEST_FIELD_NUMBER: _ClassVar[int]
    INSIGHT_FIELD_NUMBER: _ClassVar[int]
    FIXED_BUDGET_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    top_k: int
    hide_best: bool
    insight: _types_pb2.InsightOptions
    fixed_budget: bool
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., top_k: _Optional[int] = ..., hide_best: _Optional[bool] = ..., insight: _Optional[_Union[_types_pb2.InsightOptions, _Mapping]] = ..., fixed_budget: _Optional[bool] = ...) -> None: ...

class GetHintsResponse(_message.Message):
    __slots__ = ("hints", "stats", "insight", "confidence")
    HINTS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    INSIGHT_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    hints: _containers.RepeatedCompositeFieldContainer[_types_pb2.Hint]
    stats: _types_pb2.SearchStats
    insight: _types_pb2.Insight
    confidence: _types_pb2.HintConfidence
    def __init__(self, hints: _Optional[_Iterable[_Union[_types_pb2.Hint, _Mapping]]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ..., insight: _Optional[_Union[_types_pb2.Insight, _Mapping]] = ..., confidence: _Optional[_Union[_types_pb2.HintConfidence, _Mapping]] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("state", "seat", "limits", "level", "options", "seed", "report_every_ms", "top_k", "insight")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    INSIGHT_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    report_every_ms: int
    top_k: int
    insight: _types_pb2.InsightOptions
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., report_every_ms: _Optional[int] = ..., top_k: _Optional[int] = ..., insight: _Optional[_Union[_types_pb2.InsightOptions, _Mapping]] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("final", "best_move", "stats", "hints", "insight")
    FINAL_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    INSIGHT_FIELD_NUMBER: _ClassVar[int]
    final: bool
    best_move: _types_pb2.Move
    stats: _types_pb2.SearchStats
    hints: _containers.RepeatedCompositeFieldContainer[_types_pb2.Hint]
    insight: _types_pb2.Insight
    def __init__(self, final: _Optional[bool] = ..., best_move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ..., hints: _Optional[_Iterable[_Union[_types_pb2.Hint, _Mapping]]] = ..., insight: _Optional[_Union[_types_pb2.Insight, _Mapping]] = ...) -> None: ...

class CreateSessionRequest(_message.Message):
    __slots__ = ("players", "spells", "seed", "seats")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    players: int
    spells: str
    seed: int
    seats: _containers.RepeatedCompositeFieldContainer[_types_pb2.SessionSeat]
    def __init__(self, players: _Optional[int] = ..., spells: _Optional[str] = ..., seed: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_types_pb2.SessionSeat, _Mapping]]] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class CreateSessionResponse(_message.Message):
    __slots__ = ("session_id", "spells", "to_move", "fixed_seed", "seat_tokens", "spectator_token")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    spells: _containers.RepeatedScalarFieldContainer[str]
    to_move: int
    fixed_seed: bool
    seat_tokens: _containers.RepeatedCompositeFieldContainer[SeatToken]
    spectator_token: str
    def __init__(self, session_id: _Optional[str] = ..., spells: _Optional[_Iterable[str]] = ..., to_move: _Optional[int] = ..., fixed_seed: _Optional[bool] = ..., seat_tokens: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., spectator_token: _Optional[str] = ...) -> None: ...

class SubmitMoveRequest(_message.Message):
    __slots__ = ("session_id", "seat", "move", "expected_seq")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SEQ_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    seat: int
    move: _types_pb2.Move
    expected_seq: int
    def __init__(self, session_id: _Optional[str] = ..., seat: _Optional[int] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., expected_seq: _Optional[int] = ...) -> None: ...

class SubmitMoveResponse(_message.Message):
    __slots__ = ("events", "seq", "to_move", "replayed")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_types_pb2.SessionEvent]
    seq: int
    to_move: int
    replayed: bool
    def __init__(self, events: _Optional[_Iterable[_Union[_types_pb2.SessionEvent, _Mapping]]] = ..., seq: _Optional[int] = ..., to_move: _Optional[int] = ..., replayed: _Optional[bool] = ...) -> None: ...

class GetSessionRequest(_message.Message):
    __slots__ = ("session_id", "seat")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    seat: int
    def __init__(self, session_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class GetSessionResponse(_message.Message):
    __slots__ = ("session_id", "seq", "seat", "observation", "to_move", "phase", "decision", "legal_moves", "scores", "over", "winners", "seats", "players", "spells", "fixed_seed")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    seq: int
    seat: int
    observation: _types_pb2.GameState
    to_move: int
    phase: str
    decision: str
    legal_moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    scores: _containers.RepeatedScalarFieldContainer[int]
    over: bool
    winners: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[_types_pb2.SessionSeat]
    players: int
    spells: _containers.RepeatedScalarFieldContainer[str]
    fixed_seed: bool
    def __init__(self, session_id: _Optional[str] = ..., seq: _Optional[int] = ..., seat: _Optional[int] = ..., observation: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., to_move: _Optional[int] = ..., phase: _Optional[str] = ..., decision: _Optional[str] = ..., legal_moves: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., scores: _Optional[_Iterable[int]] = ..., over: _Optional[bool] = ..., winners: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[_types_pb2.SessionSeat, _Mapping]]] = ..., players: _Optional[int] = ..., spells: _Optional[_Iterable[str]] = ..., fixed_seed: _Optional[bool] = ...) -> None: ...

class WatchSessionRequest(_message.Message):
    __slots__ = ("session_id", "from_seq")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    from_seq: int
    def __init__(self, session_id: _Optional[str] = ..., from_seq: _Optional[int] = ...) -> None: ...

class WatchSessionResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _types_pb2.SessionEvent
    def __init__(self, event: _Optional[_Union[_types_pb2.SessionEvent, _Mapping]] = ...) -> None: ...

class ExportSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class ExportSessionResponse(_message.Message):
    __slots__ = ("record_json", "record", "fixed_seed")
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    record_json: str
    record: _types_pb2.GameRecord
    fixed_seed: bool
    def __init__(self, record_json: _Optional[str] = ..., record: _Optional[_Union[_types_pb2.GameRecord, _Mapping]] = ..., fixed_seed: _Optional[bool] = ...) -> None: ...

class PlayMatchRequest(_message.Message):
    __slots__ = ("bots", "spells", "seed")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedScalarFieldContainer[str]
    spells: str
    seed: int
    def __init__(self, bots: _Optional[_Iterable[str]] = ..., spells: _Optional[str] = ..., seed: _Optional[int] = ...) -> None: ...

class MatchMove(_message.Message):
    __slots__ = ("seq", "seat", "bot", "move", "draws", "stats", "forced", "think_ms")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    THINK_MS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    seat: int
    bot: str
    move: _types_pb2.Move
    draws: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    stats: _types_pb2.SearchStats
    forced: bool
    think_ms: float
    def __init__(self, seq: _Optional[int] = ..., seat: _Optional[int] = ..., bot: _Optional[str] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., draws: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ..., forced: _Optional[bool] = ..., think_ms: _Optional[float] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("finished", "scores", "winners", "record", "record_json", "moves", "elapsed_ms")
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    finished: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    record: _types_pb2.GameRecord
    record_json: str
    moves: int
    elapsed_ms: float
    def __init__(self, finished: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., record: _Optional[_Union[_types_pb2.GameRecord, _Mapping]] = ..., record_json: _Optional[str] = ..., moves: _Optional[int] = ..., elapsed_ms: _Optional[float] = ...) -> None: ...

class PlayMatchResponse(_message.Message):
    __slots__ = ("move", "end", "session_id", "spectator_token")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    move: MatchMove
    end: MatchEnd
    session_id: str
    spectator_token: str
    def __init__(self, move: _Optional[_Union[MatchMove, _Mapping]] = ..., end: _Optional[_Union[MatchEnd, _Mapping]] = ..., session_id: _Optional[str] = ..., spectator_token: _Optional[str] = ...) -> None: ...

class AnalyzeGameRequest(_message.Message):
    __slots__ = ("record", "record_json", "limits", "level", "options", "seed", "key_moments", "seat")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    KEY_MOMENTS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    record: _types_pb2.GameRecord
    record_json: str
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    key_moments: int
    seat: int
    def __init__(self, record: _Optional[_Union[_types_pb2.GameRecord, _Mapping]] = ..., record_json: _Optional[str] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., key_moments: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class DecisionReview(_message.Message):
    __slots__ = ("decision", "event_index", "seat", "played", "best", "loss", "loss_points", "mistake_class", "win_before", "win_after", "iterations", "loss_margin", "win_probabilities", "accuracy", "round", "label", "win_next")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVENT_INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    LOSS_POINTS_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_CLASS_FIELD_NUMBER: _ClassVar[int]
    WIN_BEFORE_FIELD_NUMBER: _ClassVar[int]
    WIN_AFTER_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    LOSS_MARGIN_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITIES_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    WIN_NEXT_FIELD_NUMBER: _ClassVar[int]
    decision: int
    event_index: int
    seat: int
    played: _types_pb2.Move
    best: _types_pb2.Move
    loss: float
    loss_points: float
    mistake_class: _types_pb2.MistakeClass
    win_before: float
    win_after: float
    iterations: int
    loss_margin: float
    win_probabilities: _containers.RepeatedScalarFieldContainer[float]
    accuracy: float
    round: int
    label: str
    win_next: float
    def __init__(self, decision: _Optional[int] = ..., event_index: _Optional[int] = ..., seat: _Optional[int] = ..., played: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., best: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., loss: _Optional[float] = ..., loss_points: _Optional[float] = ..., mistake_class: _Optional[_Union[_types_pb2.MistakeClass, str]] = ..., win_before: _Optional[float] = ..., win_after: _Optional[float] = ..., iterations: _Optional[int] = ..., loss_margin: _Optional[float] = ..., win_probabilities: _Optional[_Iterable[float]] = ..., accuracy: _Optional[float] = ..., round: _Optional[int] = ..., label: _Optional[str] = ..., win_next: _Optional[float] = ...) -> None: ...

class PlayerReview(_message.Message):
    __slots__ = ("seat", "expected_start", "final_score", "luck", "decisions", "others", "accuracy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_START_FIELD_NUMBER: _ClassVar[int]
    FINAL_SCORE_FIELD_NUMBER: _ClassVar[int]
    LUCK_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    OTHERS_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    expected_start: float
    final_score: float
    luck: float
    decisions: float
    others: float
    accuracy: float
    def __init__(self, seat: _Optional[int] = ..., expected_start: _Optional[float] = ..., final_score: _Optional[float] = ..., luck: _Optional[float] = ..., decisions: _Optional[float] = ..., others: _Optional[float] = ..., accuracy: _Optional[float] = ...) -> None: ...

class AnalyzeGameResponse(_message.Message):
    __slots__ = ("decisions", "players", "key_moments", "result", "total_decisions", "forced_decisions", "options", "cut_short", "elapsed_ms", "score_split_text", "seat")
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    KEY_MOMENTS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    FORCED_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    CUT_SHORT_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    SCORE_SPLIT_TEXT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    decisions: _containers.RepeatedCompositeFieldContainer[DecisionReview]
    players: _containers.RepeatedCompositeFieldContainer[PlayerReview]
    key_moments: _containers.RepeatedCompositeFieldContainer[DecisionReview]
    result: _types_pb2.GameResult
    total_decisions: int
    forced_decisions: int
    options: _types_pb2.EffectiveOptions
    cut_short: bool
    elapsed_ms: float
    score_split_text: str
    seat: int
    def __init__(self, decisions: _Optional[_Iterable[_Union[DecisionReview, _Mapping]]] = ..., players: _Optional[_Iterable[_Union[PlayerReview, _Mapping]]] = ..., key_moments: _Optional[_Iterable[_Union[DecisionReview, _Mapping]]] = ..., result: _Optional[_Union[_types_pb2.GameResult, _Mapping]] = ..., total_decisions: _Optional[int] = ..., forced_decisions: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.EffectiveOptions, _Mapping]] = ..., cut_short: _Optional[bool] = ..., elapsed_ms: _Optional[float] = ..., score_split_text: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...
