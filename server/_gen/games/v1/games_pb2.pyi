from server._gen.games.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[_types_pb2.GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[_types_pb2.GameInfo, _Mapping]]] = ...) -> None: ...

class GetLevelsRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class GetLevelsResponse(_message.Message):
    __slots__ = ("game", "levels", "default_level", "default_bot_level", "elo_anchor", "model_version")
    GAME_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    ELO_ANCHOR_FIELD_NUMBER: _ClassVar[int]
    MODEL_VERSION_FIELD_NUMBER: _ClassVar[int]
    game: str
    levels: _containers.RepeatedCompositeFieldContainer[_types_pb2.StrengthLevel]
    default_level: int
    default_bot_level: int
    elo_anchor: str
    model_version: str
    def __init__(self, game: _Optional[str] = ..., levels: _Optional[_Iterable[_Union[_types_pb2.StrengthLevel, _Mapping]]] = ..., default_level: _Optional[int] = ..., default_bot_level: _Optional[int] = ..., elo_anchor: _Optional[str] = ..., model_version: _Optional[str] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("game", "players", "seed", "setup")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    game: str
    players: int
    seed: int
    setup: str
    def __init__(self, game: _Optional[str] = ..., players: _Optional[int] = ..., seed: _Optional[int] = ..., setup: _Optional[str] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("state", "seed")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.GameState
    seed: int
    def __init__(self, state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("game", "state")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    game: str
    state: _types_pb2.StateInput
    def __init__(self, game: _Optional[str] = ..., state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("game", "state", "move", "resolve_chance")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RESOLVE_CHANCE_FIELD_NUMBER: _ClassVar[int]
    game: str
    state: _types_pb2.StateInput
    move: _types_pb2.Move
    resolve_chance: bool
    def __init__(self, game: _Optional[str] = ..., state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., resolve_chance: _Optional[bool] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("state", "chance")
    STATE_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    state: _types_pb2.GameState
    chance: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    def __init__(self, state: _Optional[_Union[_types_pb2.GameState, _Mapping]] = ..., chance: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ...) -> None: ...

class GetBestMoveRequest(_message.Message):
    __slots__ = ("game", "state", "seat", "limits", "level", "options", "seed")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    game: str
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    def __init__(self, game: _Optional[str] = ..., state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class GetBestMoveResponse(_message.Message):
    __slots__ = ("move", "stats")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    move: _types_pb2.Move
    stats: _types_pb2.SearchStats
    def __init__(self, move: _Optional[_Union[_types_pb2.Move, _Mapping]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ...) -> None: ...

class GetHintsRequest(_message.Message):
    __slots__ = ("game", "state", "seat", "limits", "level", "options", "seed", "top_k", "hide_best", "fixed_budget")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    HIDE_BEST_FIELD_NUMBER: _ClassVar[int]
    FIXED_BUDGET_FIELD_NUMBER: _ClassVar[int]
    game: str
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    top_k: int
    hide_best: bool
    fixed_budget: bool
    def __init__(self, game: _Optional[str] = ..., state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., top_k: _Optional[int] = ..., hide_best: _Optional[bool] = ..., fixed_budget: _Optional[bool] = ...) -> None: ...

class GetHintsResponse(_message.Message):
    __slots__ = ("hints", "stats", "confidence", "insight_json")
    HINTS_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    INSIGHT_JSON_FIELD_NUMBER: _ClassVar[int]
    hints: _containers.RepeatedCompositeFieldContainer[_types_pb2.Hint]
    stats: _types_pb2.SearchStats
    confidence: _types_pb2.HintConfidence
    insight_json: str
    def __init__(self, hints: _Optional[_Iterable[_Union[_types_pb2.Hint, _Mapping]]] = ..., stats: _Optional[_Union[_types_pb2.SearchStats, _Mapping]] = ..., confidence: _Optional[_Union[_types_pb2.HintConfidence, _Mapping]] = ..., insight_json: _Optional[str] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("game", "state", "seat", "limits", "level", "options", "seed", "report_every_ms", "top_k")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    game: str
    state: _types_pb2.StateInput
    seat: int
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    report_every_ms: int
    top_k: int
    def __init__(self, game: _Optional[str] = ..., state: _Optional[_Union[_types_pb2.StateInput, _Mapping]] = ..., seat: _Optional[int] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., report_every_ms: _Optional[int] = ..., top_k: _Optional[int] = ...) -> None: ...

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

class CreateSessionRequest(_message.Message):
    __slots__ = ("game", "players", "seats", "seed", "setup")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    game: str
    players: int
    seats: _containers.RepeatedCompositeFieldContainer[_types_pb2.SessionSeat]
    seed: int
    setup: str
    def __init__(self, game: _Optional[str] = ..., players: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_types_pb2.SessionSeat, _Mapping]]] = ..., seed: _Optional[int] = ..., setup: _Optional[str] = ...) -> None: ...

class CreateSessionResponse(_message.Message):
    __slots__ = ("session_id", "game", "to_move", "fixed_seed", "seat_tokens", "spectator_token")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    game: str
    to_move: int
    fixed_seed: bool
    seat_tokens: _containers.RepeatedCompositeFieldContainer[_types_pb2.SeatToken]
    spectator_token: str
    def __init__(self, session_id: _Optional[str] = ..., game: _Optional[str] = ..., to_move: _Optional[int] = ..., fixed_seed: _Optional[bool] = ..., seat_tokens: _Optional[_Iterable[_Union[_types_pb2.SeatToken, _Mapping]]] = ..., spectator_token: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("session_id", "game", "seq", "seat", "players", "to_move", "over", "scores", "winners", "resigned", "seats", "fixed_seed", "observation", "state_text", "view_json", "legal_moves", "setup_json")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    STATE_TEXT_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    SETUP_JSON_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    game: str
    seq: int
    seat: int
    players: int
    to_move: int
    over: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    resigned: int
    seats: _containers.RepeatedCompositeFieldContainer[_types_pb2.SessionSeat]
    fixed_seed: bool
    observation: str
    state_text: str
    view_json: str
    legal_moves: _containers.RepeatedCompositeFieldContainer[_types_pb2.Move]
    setup_json: str
    def __init__(self, session_id: _Optional[str] = ..., game: _Optional[str] = ..., seq: _Optional[int] = ..., seat: _Optional[int] = ..., players: _Optional[int] = ..., to_move: _Optional[int] = ..., over: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., resigned: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[_types_pb2.SessionSeat, _Mapping]]] = ..., fixed_seed: _Optional[bool] = ..., observation: _Optional[str] = ..., state_text: _Optional[str] = ..., view_json: _Optional[str] = ..., legal_moves: _Optional[_Iterable[_Union[_types_pb2.Move, _Mapping]]] = ..., setup_json: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("record_json", "fixed_seed")
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    FIXED_SEED_FIELD_NUMBER: _ClassVar[int]
    record_json: str
    fixed_seed: bool
    def __init__(self, record_json: _Optional[str] = ..., fixed_seed: _Optional[bool] = ...) -> None: ...

class PlayMatchRequest(_message.Message):
    __slots__ = ("game", "bots", "seed", "setup")
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    game: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    setup: str
    def __init__(self, game: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., setup: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("game", "record_json", "limits", "level", "options", "seed", "key_moments", "seat")
    GAME_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    KEY_MOMENTS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game: str
    record_json: str
    limits: _types_pb2.SearchLimits
    level: int
    options: _types_pb2.SearchOptions
    seed: int
    key_moments: int
    seat: int
    def __init__(self, game: _Optional[str] = ..., record_json: _Optional[str] = ..., limits: _Optional[_Union[_types_pb2.SearchLimits, _Mapping]] = ..., level: _Optional[int] = ..., options: _Optional[_Union[_types_pb2.SearchOptions, _Mapping]] = ..., seed: _Optional[int] = ..., key_moments: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

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
    __slots__ = ("finished", "scores", "winners", "record_json", "moves", "elapsed_ms")
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    finished: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    record_json: str
    moves: int
    elapsed_ms: float
    def __init__(self, finished: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., record_json: _Optional[str] = ..., moves: _Optional[int] = ..., elapsed_ms: _Optional[float] = ...) -> None: ...

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
