"""Abracada…What? messages (proto/abracadawhat/v1) from and to engine objects: the counterpart of
server/convert.py for the second game, with the same function names where the one implementation of
sessions, matches and reviews (server/rpc_sessions.py, server/rpc_matches.py) calls them through a
servicer's `conv`. What every game's messages share (search options and statistics, records) is
server/common_convert.py's.

Views follow XI1-XI3: `game_view(state, viewer)` shows a seat every hand but its own and only its own
taken secret stones; a spectator (viewer -1) no hand and no secret stone; the referee (-2: a full state
someone sent) everything. A finished game is shown whole.
"""
from __future__ import annotations

from engine_c import records
from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.abracadawhat.insight import HandInsight
from engine_c.abracadawhat.state import SPELLS, Move, State, outcome_visible_to
from engine_c.abracadawhat.notation import log_entries
from engine_c.abracadawhat import text as T
from server import common_convert as common
from server._gen.abracadawhat.v1 import types_pb2 as apb
from server.common_convert import Caps, FieldError

SPECTATOR, REFEREE = -1, -2
record_from_json = common.record_from_json        # records.loads reads every game's records


def move_pb(move: Move) -> apb.Move:
    return apb.Move(text=str(move), code=move.code, kind=move.kind, value=move.value)


def parse_move(state: State, move: apb.Move, field: str = "move") -> Move:
    """The legal move `move.text` names in `state` (FieldError naming `field.text` otherwise)."""
    return common.parse_move(state, move, field, example="cast 3")


def search_options(req, caps: Caps):
    """SearchOptions of an abracadawhat.v1 search or review request and the strength level used (0: none)."""
    return common.search_options(req, caps, ABRACADAWHAT)


def search_stats(result, opts, level: int, cut_short: bool, hide_moves: bool = False,
                 out: apb.SearchStats | None = None) -> apb.SearchStats:
    return common.search_stats(result, opts, level, cut_short, apb.SearchStats() if out is None else out, hide_moves)


def effective_options(opts, level: int, result=None) -> apb.EffectiveOptions:
    return common.effective_options(opts, level, result, apb.EffectiveOptions(), ABRACADAWHAT)


def mistake_class(name: str) -> int:
    """abracadawhat.v1's MistakeClass of a search/hints.py class name."""
    return common.mistake_class(name, apb)


# ----------------------------------------------------------------------------------------------
# Views
# ----------------------------------------------------------------------------------------------
def _stones(counts) -> list[int]:
    return [k + 1 for k, c in enumerate(counts) for _ in range(c)]


def game_view(state: State, viewer: int, finished: bool = False) -> apb.GameView:
    """What `viewer` (a seat, SPECTATOR or REFEREE) sees of `state` (XI1-XI3; everything once it is over,
    or once the game is `finished` otherwise: resigned, D130)."""
    raw = state._to_raw()
    n, over = raw["players"], state.is_terminal()
    whole = viewer == REFEREE or over or finished
    view = apb.GameView(viewer=viewer, players=n, variants=list(state.variants), phase=state.phase,
                        to_move=state.current_player, active=raw["active"], last_cast=raw["last"],
                        round=state.round, life=raw["life"], points=raw["points"], removed=_stones(raw["removed"]),
                        secret_left=sum(raw["secret"]), pile_size=sum(raw["pile"]),
                        winners=state.winners() if over else [])
    for p in range(n):
        hand_seen = whole or outcome_visible_to("hand", p, None if viewer == SPECTATOR else viewer)
        taken_seen = whole or (viewer == p)
        view.hands.add(seat=p, visible=hand_seen, stones=_stones(raw["hands"][p]) if hand_seen else [],
                       size=sum(raw["hands"][p]))
        view.cast.add(seat=p, visible=True, stones=_stones(raw["cast"][p]), size=sum(raw["cast"][p]))
        view.taken.add(seat=p, visible=taken_seen, stones=_stones(raw["taken"][p]) if taken_seen else [],
                       size=sum(raw["taken"][p]))
    for e in log_entries(raw):
        view.log.add(seat=e["seat"], kind=e["kind"], spell=e.get("spell", 0), ok=e.get("ok", False),
                     roll=e.get("roll", 0), refilled=e.get("refilled", 0))
    for r in state.results():
        view.results.add(reason=r["reason"], seat=r["seat"], actor=r["actor"], scores=r["scores"], life=r["life"])
    return view


def game_state(state: State, viewer: int = REFEREE, finished: bool = False) -> apb.GameState:
    """The state as `viewer` sees it: the full text for the referee, the observation text for a seat, no
    text for a spectator (nor for anyone but the referee when over: the view shows everything then)."""
    text = state.to_text() if viewer == REFEREE else state.observation(viewer) if viewer >= 0 else ""
    return apb.GameState(text=text, view=game_view(state, viewer, finished))


def parse_state(si: apb.StateInput, seed: int, field: str = "state") -> State:
    """A full state from a StateInput: the text as is, or one sampled from an observation (XC6, `seed`)."""
    form = si.WhichOneof("form")
    if form is None:
        raise FieldError(field, "give the state as `text` (a full state, 'aw1 ...') or `observation`")
    text = getattr(si, form)
    try:
        return State.from_text(text) if form == "text" else State.from_observation(text, seed=seed)
    except ValueError as e:        # NotationError, or an observation no hand is consistent with
        raise FieldError(f"{field}.{form}", str(e)) from None


def reader_names(players: int, viewer: int | None) -> list[str]:
    """The seats' names in the words a message gives a caller: "you" for its own seat, "seat N" for the
    others (the page puts its own names for them in)."""
    return ["you" if p == viewer else f"seat {p}" for p in range(players)]


def insight_pb(ins: HandInsight, state: State | None = None) -> apb.HandInsight:
    """The insight; with `state` where the insight's seat decides now, each announcement's words too (what a
    success does here and what a failure costs: text.announcements, the terminal's `chances`) and whether
    it may end its turn."""
    words = {}
    out = apb.HandInsight(seat=ins.seat, hands_considered=ins.hands_considered,
                          holding=[apb.SpellChance(spell=k, name=SPELLS[k - 1], probability=p)
                                   for k, p in ins.holding.items()])
    if state is not None and state.current_player == ins.seat >= 0:
        for a in T.announcements(state, ins.seat, reader_names(state.players, ins.seat), ins.holding):
            words[str(a.move)] = a
        out.end_legal = "end" in words
    for a in ins.announcements:
        w = words.get(str(a.move))
        out.announcements.append(apb.Announcement(
            move=move_pb(a.move), name=a.name, success_probability=a.success_probability,
            expected_life_loss=a.expected_life_loss, self_knockout_probability=a.self_knockout_probability,
            effect=a.effect, if_success=w.gain if w else "", if_failure=w.risk if w else ""))
    return out


def _reasons_pb(reasons) -> list:
    return [apb.Reason(kind=r.kind, value=r.value, items=r.items, text=r.text, aspect=r.aspect) for r in reasons]


def hint_pb(h, ins: HandInsight, hide_move: bool = False, reasons=(), veiled_reasons=()) -> apb.Hint:
    """A ranked move. `hide_move` (hide_best's hidden best move): neither the move nor its chance of
    success, which the insight's announcements would match to one or two casts. `reasons`: its measured
    reasons (engine_c/abracadawhat/reasons.py; veiled by the caller for a hidden move)."""
    out = apb.Hint(rank=h.rank, win_probability=h.win_probability, expected_score=h.expected_score, loss=h.loss,
                   mistake_class=mistake_class(h.mistake_class), visits=h.visits, about_equal=h.about_equal,
                   reasons=_reasons_pb(reasons), veiled_reasons=_reasons_pb(veiled_reasons),
                   verdict=h.verdict, loss_margin=h.loss_margin)
    if not hide_move:
        out.move.CopyFrom(move_pb(h.move))
        out.success_probability = ins.holding[h.move.value] if h.move.kind == "cast" else 1.0
        out.variants.extend(move_pb(m) for m in h.variants)
        out.note = h.note
    return out


def event_pb(ev, viewer: int | None, everything: bool = False) -> apb.SessionEvent:
    """A session event as `viewer` (a seat, None for a spectator) may see it: a stone it may not see is
    `hidden`, without its move. `everything`: the game is over and nothing is hidden any more (XC6's
    hidden zones are turned up at the end, as the finished game's record shows them)."""
    out = apb.SessionEvent(seq=ev.seq, kind=ev.kind, seat=ev.seat, to_move=ev.to_move, scores=ev.scores,
                           winners=ev.winners, zone=ev.zone, to=ev.to)
    if ev.kind == "move" and getattr(ev, "context", ()):      # what the table saw, as the terminal says it
        before, after, rolls = ev.context
        b, a = State.from_text(before), State.from_text(after)
        out.lines.extend(T.describe_changes(b, Move.from_text(ev.move), a, reader_names(b.players, viewer), rolls))
    if ev.move:
        if ev.is_chance and not everything and not outcome_visible_to(ev.zone, ev.to, viewer):
            out.hidden = True
        else:
            out.move.CopyFrom(move_pb(Move.from_text(ev.move)))
    return out


# ----------------------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------------------
def record_pb(rec: dict) -> apb.GameRecord:
    """A record dict (engine_c.records, game "abracadawhat") as a GameRecord message."""
    out = apb.GameRecord(format=rec.get("format", records.FORMAT), version=rec.get("version", records.VERSION),
                         game=rec.get("game", ABRACADAWHAT.name), session_id=rec.get("session_id") or "",
                         players=rec["players"], variants=rec.get("variants", []), status=rec.get("status", ""),
                         view=rec.get("view", ""))
    common.fill_record(out, rec)
    for ev, e in zip(out.events, rec.get("events", [])):     # where each chance outcome went
        ev.zone = e.get("zone", "")
        if e.get("to") is not None:
            ev.to = e["to"]
    return out


def record_from_pb(r: apb.GameRecord, field: str = "record") -> dict:
    """A GameRecord message as a checked record dict (FieldError names the bad field)."""
    events = []
    for e in r.events:
        ev = {"kind": e.kind, "seat": e.seat, "move": e.move}
        if e.zone:
            ev["zone"] = e.zone
        if e.HasField("to"):
            ev["to"] = e.to
        events.append(ev)
    rec = {"format": r.format, "version": r.version, "game": r.game or ABRACADAWHAT.name, "players": r.players,
           "variants": list(r.variants), "status": r.status or ("finished" if r.HasField("result") else "active"),
           "seats": [{k: v for k, v in (("kind", s.kind), ("spec", s.spec), ("level", s.level)) if v} for s in r.seats],
           "events": events}
    if r.view:
        rec["view"] = r.view
    return common.loaded_record(r, rec, field)
