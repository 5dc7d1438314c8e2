from server._gen.abracadawhat.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetRulesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SpellInfo(_message.Message):
    __slots__ = ("spell", "name", "stones", "effect")
    SPELL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STONES_FIELD_NUMBER: _ClassVar[int]
    EFFECT_FIELD_NUMBER: _ClassVar[int]
    spell: int
    name: str
    stones: int
    effect: str
    def __init__(self, spell: _Optional[int] = ..., name: _Optional[str] = ..., stones: _Optional[int] = ..., effect: _Optional[str] = ...) -> None: ...

class GetRulesResponse(_message.Message):
    __slots__ = ("game", "title", "min_players", "max_players", "spells", "variants", "min_level", "max_level", "default_level", "state_format", "record_format", "levels", "default_bot_level", "elo_anchor")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SPELLS_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    MIN_LEVEL_FIELD_NUMBER: _ClassVar[int]
    MAX_LEVEL_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    STATE_FORMAT_FIELD_NUMBER: _ClassVar[int]
    RECORD_FORMAT_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    ELO_ANCHOR_FIELD_NUMBER: _ClassVar[int]
    game: str
    title: str
    min_players: int
    max_players: int
    spells: _containers.RepeatedCompositeFieldContainer[SpellInfo]
    variants: _containers.RepeatedScalarFieldContainer[str]
    min_level: int
    max_level: int
    default_level: int
    state_format: str
    record_format: str
    levels: _containers.RepeatedCompositeFieldContainer[StrengthLevel]
    default_bot_level: int
    elo_anchor: str
    def __init__(self, game: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., spells: _Optional[_Iterable[_Union[SpellInfo, _Mapping]]] = ..., variants: _Optional[_Iterable[str]] = ..., min_level: _Optional[int] = ..., max_level: _Optional[int] = ..., default_level: _Optional[int] = ..., state_format: _Optional[str] = ..., record_format: _Optional[str] = ..., levels: _Optional[_Iterable[_Union[StrengthLevel, _Mapping]]] = ..., default_bot_level: _Optional[int] = ..., elo_anchor: _Optional[str] = ...) -> None: ...

class StrengthLevel(_message.Message):
    __slots__ = ("level", "iterations", "temperature", "time_cap_ms", "evaluator", "belief", "description", "elo", "elo_ci", "name", "meaning", "policy_temperature", "policy_top_k", "policy_floor", "inaccuracy_share", "mistake_share", "blunder_share", "absurd_rate")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    TIME_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    BELIEF_FIELD_NUMBER: _ClassVar[int]
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
    belief: bool
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
    def __init__(self, level: _Optional[int] = ..., iterations: _Optional[int] = ..., temperature: _Optional[float] = ..., time_cap_ms: _Optional[float] = ..., evaluator: _Optional[str] = ..., belief: _Optional[bool] = ..., description: _Optional[str] = ..., elo: _Optional[float] = ..., elo_ci: _Optional[float] = ..., name: _Optional[str] = ..., meaning: _Optional[str] = ..., policy_temperature: _Optional[float] = ..., policy_top_k: _Optional[int] = ..., policy_floor: _Optional[float] = ..., inaccuracy_share: _Optional[float] = ..., mistake_share: _Optional[float] = ..., blunder_share: _Optional[float] = ..., absurd_rate: _Optional[float] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("players", "seed", "variants")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    players: int
    seed: int
    variants: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, players: _Optional[int] = ..., seed: _Optional[int] = ..., variants: _Optional[_Iterable[str]] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("state", "seed")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.GameState
    seed: int
    def __init__(self, state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.StateInput
    def __init__(self, state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "chance_outcomes", "to_move")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CHANCE_OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    chance_outcomes: _containers.RepeatedCompositeFieldContainer[_types_pb2.ChanceOutcome]
    to_move: int
    def __init__(self, moves: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., chance_outcomes: _Optional[_Iterable[_Union[_types_pb2.ChanceOutcome, _Mapping]]] = ..., to_move: _Optional[int] = ...) -> None: ...

class ApplyMoveRequest(_message.Message):
    __slots__ = ("state", "move", "resolve_chance")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RESOLVE_CHANCE_FIELD_NUMBER: _ClassVar[int]
    state: str
    move: _types_pb2.Move
    resolve_chance: bool
    def __init__(self, state: _Optional[str] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., resolve_chance: _Optional[bool] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("state", "chance")
    STATE_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.GameState
    chance: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    def __init__(self, state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., chance: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ...) -> None: ...

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
    __slots__ = ("hints", "stats", "insight")
    HINTS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    INSIGHT_FIELD_NUMBER: _ClassVar[int]
    hints: _containers.RepeatedCompositeFieldContainer[_types_pb2.Hint]
    stats: _types_pb2.SearchStats
    insight: _types_pb2.HandInsight
    def __init__(self, hints: _Optional[_Iterable[_Union[_types_pb2.Hint, _Mapping]]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ..., insight: _Optional[_Union[_types_pb2.HandInsight, _Mapping]] = ...) -> None: ...

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
    insight: _types_pb2.HandInsight
    def __init__(self, final: _Optional[bool] = ..., best_move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ..., hints: _Optional[_Iterable[_Union[_types_pb2.Hint, _Mapping]]] = ..., insight: _Optional[_Union[_types_pb2.HandInsight, _Mapping]] = ...) -> None: ...

class CreateSessionRequest(_message.Message):
    __slots__ = ("players", "seats", "seed", "variants")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    players: int
    seats: _containers.RepeatedCompositeFieldContainer[_types_pb2.SessionSeat]
    seed: int
    variants: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, players: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_types_pb2.SessionSeat, _Mapping]]] = ..., seed: _Optional[int] = ..., variants: _Optional[_Iterable[str]] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class CreateSessionResponse(_message.Message):
    __slots__ = ("session_id", "to_move", "fixed_seed", "seat_tokens", "spectator_token")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    to_move: int
    fixed_seed: bool
    seat_tokens: _containers.RepeatedCompositeFieldContainer[SeatToken]
    spectator_token: str
    def __init__(self, session_id: _Optional[str] = ..., to_move: _Optional[int] = ..., fixed_seed: _Optional[bool] = ..., seat_tokens: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., spectator_token: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("session_id", "seq", "seat", "state", "legal_moves", "insight", "over", "seats", "fixed_seed")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    INSIGHT_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    seq: int
    seat: int
    state: _types_pb2.GameState
    legal_moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    insight: _types_pb2.HandInsight
    over: bool
    seats: _containers.RepeatedCompositeFieldContainer[_types_pb2.SessionSeat]
    fixed_seed: bool
    def __init__(self, session_id: _Optional[str] = ..., seq: _Optional[int] = ..., seat: _Optional[int] = ..., state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., legal_moves: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., insight: _Optional[_Union[_types_pb2.HandInsight, _Mapping]] = ..., over: _Optional[bool] = ..., seats: _Optional[_Iterable[_Union[_types_pb2.SessionSeat, _Mapping]]] = ..., fixed_seed: _Optional[bool] = ...) -> None: ...

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
    __slots__ = ("bots", "seed", "variants")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    variants: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bots: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., variants: _Optional[_Iterable[str]] = ...) -> None: ...

class MatchMove(_message.Message):
    __slots__ = ("seq", "seat", "bot", "move", "draws", "forced", "think_ms", "stats")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    THINK_MS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    seat: int
    bot: str
    move: _types_pb2.Move
    draws: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    forced: bool
    think_ms: float
    stats: _types_pb2.SearchStats
    def __init__(self, seq: _Optional[int] = ..., seat: _Optional[int] = ..., bot: _Optional[str] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., draws: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., forced: _Optional[bool] = ..., think_ms: _Optional[float] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("session_id", "spectator_token", "move", "end")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    spectator_token: str
    move: MatchMove
    end: MatchEnd
    def __init__(self, session_id: _Optional[str] = ..., spectator_token: _Optional[str] = ..., move: _Optional[_Union[MatchMove, _Mapping]] = ..., end: _Optional[_Union[MatchEnd, _Mapping]] = ...) -> None: ...

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
