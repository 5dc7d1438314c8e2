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
    __slots__ = ("level", "iterations", "temperature", "rollout", "cutoff", "time_cap_ms", "description")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    ROLLOUT_FIELD_NUMBER: _ClassVar[int]
    CUTOFF_FIELD_NUMBER: _ClassVar[int]
    TIME_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    level: int
    iterations: int
    temperature: float
    rollout: str
    cutoff: int
    time_cap_ms: float
    description: str
    def __init__(self, level: _Optional[int] = ..., iterations: _Optional[int] = ..., temperature: _Optional[float] = ..., rollout: _Optional[str] = ..., cutoff: _Optional[int] = ..., time_cap_ms: _Optional[float] = ..., description: _Optional[str] = ...) -> None: ...

class ServerLimits(_message.Message):
    __slots__ = ("max_iterations", "max_time_ms", "max_threads", "max_message_bytes", "workers", "queue_size", "deadline_margin_ms", "max_top_k", "min_report_every_ms")
    MAX_ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MAX_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_THREADS_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    QUEUE_SIZE_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MARGIN_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_TOP_K_FIELD_NUMBER: _ClassVar[int]
    MIN_REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    max_iterations: int
    max_time_ms: float
    max_threads: int
    max_message_bytes: int
    workers: int
    queue_size: int
    deadline_margin_ms: float
    max_top_k: int
    min_report_every_ms: int
    def __init__(self, max_iterations: _Optional[int] = ..., max_time_ms: _Optional[float] = ..., max_threads: _Optional[int] = ..., max_message_bytes: _Optional[int] = ..., workers: _Optional[int] = ..., queue_size: _Optional[int] = ..., deadline_margin_ms: _Optional[float] = ..., max_top_k: _Optional[int] = ..., min_report_every_ms: _Optional[int] = ...) -> None: ...

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
    __slots__ = ("version", "git_revision", "rules", "levels", "limits", "default_level", "mistake_thresholds")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GIT_REVISION_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    version: str
    git_revision: str
    rules: RulesInfo
    levels: _containers.RepeatedCompositeFieldContainer[StrengthLevel]
    limits: ServerLimits
    default_level: int
    mistake_thresholds: _containers.RepeatedCompositeFieldContainer[MistakeThreshold]
    def __init__(self, version: _Optional[str] = ..., git_revision: _Optional[str] = ..., rules: _Optional[_Union[RulesInfo, _Mapping]] = ..., levels: _Optional[_Iterable[_Union[StrengthLevel, _Mapping]]] = ..., limits: _Optional[_Union[ServerLimits, _Mapping]] = ..., default_level: _Optional[int] = ..., mistake_thresholds: _Optional[_Iterable[_Union[MistakeThreshold, _Mapping]]] = ...) -> None: ...

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
    __slots__ = ("state", "seat", "limits", "level", "options", "seed", "top_k", "hide_best")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    HIDE_BEST_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    top_k: int
    hide_best: bool
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., top_k: _Optional[int] = ..., hide_best: _Optional[bool] = ...) -> None: ...

class GetHintsResponse(_message.Message):
    __slots__ = ("hints", "stats")
    HINTS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    hints: _containers.RepeatedCompositeFieldContainer[_types_pb2.Hint]
    stats: _types_pb2.SearchStats
    def __init__(self, hints: _Optional[_Iterable[_Union[_types_pb2.Hint, _Mapping]]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("state", "seat", "limits", "level", "options", "seed", "report_every_ms", "top_k")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    report_every_ms: int
    top_k: int
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., report_every_ms: _Optional[int] = ..., top_k: _Optional[int] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("final", "best_move", "stats", "hints")
    FINAL_FIELD_NUMBER: _ClassVar[int]
    BEST_MOVE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    final: bool
    best_move: _types_pb2.Move
    stats: _types_pb2.SearchStats
    hints: _containers.RepeatedCompositeFieldContainer[_types_pb2.Hint]
    def __init__(self, final: _Optional[bool] = ..., best_move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ..., hints: _Optional[_Iterable[_Union[_types_pb2.Hint, _Mapping]]] = ...) -> None: ...
