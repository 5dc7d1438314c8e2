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

class Move(_message.Message):
    __slots__ = ("text", "code", "kind", "value")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    text: str
    code: int
    kind: str
    value: int
    def __init__(self, text: _Optional[str] = ..., code: _Optional[int] = ..., kind: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class ChanceOutcome(_message.Message):
    __slots__ = ("move", "probability")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    move: Move
    probability: float
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., probability: _Optional[float] = ...) -> None: ...

class SeatStones(_message.Message):
    __slots__ = ("seat", "visible", "stones", "size")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VISIBLE_FIELD_NUMBER: _ClassVar[int]
    STONES_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    visible: bool
    stones: _containers.RepeatedScalarFieldContainer[int]
    size: int
    def __init__(self, seat: _Optional[int] = ..., visible: _Optional[bool] = ..., stones: _Optional[_Iterable[int]] = ..., size: _Optional[int] = ...) -> None: ...

class LogEntry(_message.Message):
    __slots__ = ("seat", "kind", "spell", "ok", "roll", "refilled")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SPELL_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    REFILLED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: str
    spell: int
    ok: bool
    roll: int
    refilled: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[str] = ..., spell: _Optional[int] = ..., ok: _Optional[bool] = ..., roll: _Optional[int] = ..., refilled: _Optional[int] = ...) -> None: ...

class RoundResult(_message.Message):
    __slots__ = ("reason", "seat", "actor", "scores", "life")
    REASON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    LIFE_FIELD_NUMBER: _ClassVar[int]
    reason: str
    seat: int
    actor: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    life: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, reason: _Optional[str] = ..., seat: _Optional[int] = ..., actor: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., life: _Optional[_Iterable[int]] = ...) -> None: ...

class GameView(_message.Message):
    __slots__ = ("viewer", "players", "variants", "phase", "to_move", "active", "last_cast", "round", "life", "points", "hands", "cast", "removed", "taken", "secret_left", "pile_size", "log", "results", "winners")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    LAST_CAST_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    LIFE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    CAST_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    SECRET_LEFT_FIELD_NUMBER: _ClassVar[int]
    PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    players: int
    variants: _containers.RepeatedScalarFieldContainer[str]
    phase: str
    to_move: int
    active: int
    last_cast: int
    round: int
    life: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[SeatStones]
    cast: _containers.RepeatedCompositeFieldContainer[SeatStones]
    removed: _containers.RepeatedScalarFieldContainer[int]
    taken: _containers.RepeatedCompositeFieldContainer[SeatStones]
    secret_left: int
    pile_size: int
    log: _containers.RepeatedCompositeFieldContainer[LogEntry]
    results: _containers.RepeatedCompositeFieldContainer[RoundResult]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, viewer: _Optional[int] = ..., players: _Optional[int] = ..., variants: _Optional[_Iterable[str]] = ..., phase: _Optional[str] = ..., to_move: _Optional[int] = ..., active: _Optional[int] = ..., last_cast: _Optional[int] = ..., round: _Optional[int] = ..., life: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[SeatStones, _Mapping]]] = ..., cast: _Optional[_Iterable[_Union[SeatStones, _Mapping]]] = ..., removed: _Optional[_Iterable[int]] = ..., taken: _Optional[_Iterable[_Union[SeatStones, _Mapping]]] = ..., secret_left: _Optional[int] = ..., pile_size: _Optional[int] = ..., log: _Optional[_Iterable[_Union[LogEntry, _Mapping]]] = ..., results: _Optional[_Iterable[_Union[RoundResult, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("text", "view")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    text: str
    view: GameView
    def __init__(self, text: _Optional[str] = ..., view: _Optional[_Union[GameView, _Mapping]] = ...) -> None: ...

class StateInput(_message.Message):
    __slots__ = ("text", "observation")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    text: str
    observation: str
    def __init__(self, text: _Optional[str] = ..., observation: _Optional[str] = ...) -> None: ...

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

class SpellChance(_message.Message):
    __slots__ = ("spell", "name", "probability")
    SPELL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    spell: int
    name: str
    probability: float
    def __init__(self, spell: _Optional[int] = ..., name: _Optional[str] = ..., probability: _Optional[float] = ...) -> None: ...

class Announcement(_message.Message):
    __slots__ = ("move", "name", "success_probability", "expected_life_loss", "self_knockout_probability", "effect", "if_success", "if_failure")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_LIFE_LOSS_FIELD_NUMBER: _ClassVar[int]
    SELF_KNOCKOUT_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EFFECT_FIELD_NUMBER: _ClassVar[int]
    IF_SUCCESS_FIELD_NUMBER: _ClassVar[int]
    IF_FAILURE_FIELD_NUMBER: _ClassVar[int]
    move: Move
    name: str
    success_probability: float
    expected_life_loss: float
    self_knockout_probability: float
    effect: str
    if_success: str
    if_failure: str
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., name: _Optional[str] = ..., success_probability: _Optional[float] = ..., expected_life_loss: _Optional[float] = ..., self_knockout_probability: _Optional[float] = ..., effect: _Optional[str] = ..., if_success: _Optional[str] = ..., if_failure: _Optional[str] = ...) -> None: ...

class HandInsight(_message.Message):
    __slots__ = ("seat", "holding", "announcements", "hands_considered", "end_legal")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HOLDING_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    HANDS_CONSIDERED_FIELD_NUMBER: _ClassVar[int]
    END_LEGAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    holding: _containers.RepeatedCompositeFieldContainer[SpellChance]
    announcements: _containers.RepeatedCompositeFieldContainer[Announcement]
    hands_considered: int
    end_legal: bool
    def __init__(self, seat: _Optional[int] = ..., holding: _Optional[_Iterable[_Union[SpellChance, _Mapping]]] = ..., announcements: _Optional[_Iterable[_Union[Announcement, _Mapping]]] = ..., hands_considered: _Optional[int] = ..., end_legal: _Optional[bool] = ...) -> None: ...

class Hint(_message.Message):
    __slots__ = ("rank", "move", "win_probability", "expected_score", "loss", "mistake_class", "visits", "about_equal", "success_probability", "variants", "note", "reasons", "veiled_reasons", "verdict", "loss_margin")
    RANK_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    WIN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SCORE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_CLASS_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    ABOUT_EQUAL_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    VEILED_REASONS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    LOSS_MARGIN_FIELD_NUMBER: _ClassVar[int]
    rank: int
    move: Move
    win_probability: float
    expected_score: float
    loss: float
    mistake_class: MistakeClass
    visits: int
    about_equal: bool
    success_probability: float
    variants: _containers.RepeatedCompositeFieldContainer[Move]
    note: str
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    veiled_reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    verdict: str
    loss_margin: float
    def __init__(self, rank: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., win_probability: _Optional[float] = ..., expected_score: _Optional[float] = ..., loss: _Optional[float] = ..., mistake_class: _Optional[_Union[MistakeClass, str]] = ..., visits: _Optional[int] = ..., about_equal: _Optional[bool] = ..., success_probability: _Optional[float] = ..., variants: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., note: _Optional[str] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., veiled_reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., verdict: _Optional[str] = ..., loss_margin: _Optional[float] = ...) -> None: ...

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

class SessionSeat(_message.Message):
    __slots__ = ("kind", "level")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    kind: SeatKind
    level: int
    def __init__(self, kind: _Optional[_Union[SeatKind, str]] = ..., level: _Optional[int] = ...) -> None: ...

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
    __slots__ = ("seq", "kind", "seat", "move", "zone", "to")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: str
    seat: int
    move: str
    zone: str
    to: int
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[str] = ..., seat: _Optional[int] = ..., move: _Optional[str] = ..., zone: _Optional[str] = ..., to: _Optional[int] = ...) -> None: ...

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
    __slots__ = ("format", "version", "game", "session_id", "players", "variants", "seed", "seats", "status", "events", "result", "view")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    format: str
    version: int
    game: str
    session_id: str
    players: int
    variants: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    seats: _containers.RepeatedCompositeFieldContainer[RecordSeat]
    status: str
    events: _containers.RepeatedCompositeFieldContainer[RecordEvent]
    result: GameResult
    view: str
    def __init__(self, format: _Optional[str] = ..., version: _Optional[int] = ..., game: _Optional[str] = ..., session_id: _Optional[str] = ..., players: _Optional[int] = ..., variants: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[RecordSeat, _Mapping]]] = ..., status: _Optional[str] = ..., events: _Optional[_Iterable[_Union[RecordEvent, _Mapping]]] = ..., result: _Optional[_Union[GameResult, _Mapping]] = ..., view: _Optional[str] = ...) -> None: ...
