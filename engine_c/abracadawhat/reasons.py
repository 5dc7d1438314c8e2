"""Why an Abracada…What? move, for hints: measured from the seat's insight (insight.py), never asserted.

`reasons(state, move, versus=None)` reads `hand_insight(state, seat)` for the seat to move (its exact
posterior over its own hand: only what it observes) and says, for a cast, the chance it holds the spell,
the life a failure is expected to cost and the chance a failure knocks it out; for `end`, that it risks
nothing and keeps the points it has; with `versus` (the best other family's move: every announcement is its
own family), the difference in the chance of success and in the expected life at risk. Texts speak to the
seat ("you") and cite no rule ids.

`veiled(found)`: the same without naming the move or anything that would identify it among the insight's
announcements (no spell, no exact chance: bands only), for a hint that hides the move (level 2).
`audit(state, move, found, versus)` re-derives every claim from the engine and lists the false ones;
`names_move(state, move, found)` lists the texts that would give the move away.
"""
from __future__ import annotations

import re
from engine_c.base import Reason

from engine_c.abracadawhat.insight import hand_insight
from engine_c.abracadawhat.state import SPELLS, Move, State

GAINS, GIVES_UP = "gains", "gives_up"


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _band(p: float) -> str:
    """A chance in words, coarse enough not to single out one announcement."""
    if p >= 0.9:
        return "very likely"
    if p >= 0.6:
        return "more likely than not"
    if p >= 0.4:
        return "about an even chance"
    return "less likely than not"


def _risk(state: State, move: Move):
    """(chance of success, expected life lost, knockout chance) of `move` for the seat to move."""
    ins = hand_insight(state, state.current_player)
    if move.kind != "cast":
        return 1.0, 0.0, 0.0
    for a in ins.announcements:
        if a.move == move:
            return a.success_probability, a.expected_life_loss, a.self_knockout_probability
    return ins.holding[move.value], 0.0, 0.0


def reasons(state: State, move: Move | str, versus: Move | str | None = None) -> list[Reason]:
    """What `move` (legal for the seat to move) risks and gains, measured from the seat's insight."""
    if isinstance(move, str):
        move = state.parse_move(move)
    if isinstance(versus, str):
        versus = state.parse_move(versus)
    p, loss, ko = _risk(state, move)
    life = state.life[state.current_player]
    out: list[Reason] = []
    if move.kind == "cast":
        name = SPELLS[move.value - 1]
        out.append(Reason("success_chance", p, (name,),
                          f"the chance you hold at least one {name}, from what you can see: {_pct(p)}", GAINS))
        if loss > 0:
            out.append(Reason("failure_cost", loss, (),
                              f"what a failure costs, counting its chance: {loss:.2f} life on average (you have "
                              f"{life})",
                              GIVES_UP))
        if ko > 0:
            out.append(Reason("knockout_risk", ko, (), f"chance that a failure takes your last life: {_pct(ko)}",
                              GIVES_UP))
    else:
        out.append(Reason("stop_safe", 0.0, (), f"stopping risks none of your {life} life", GAINS))
    if versus is not None and versus != move:
        vp, vloss, _vko = _risk(state, versus)
        if move.kind == "cast" and versus.kind == "cast" and vp != p:
            d = p - vp
            out.append(Reason("versus_chance", d, (),
                              f"its chance of success is {_pct(abs(d))} {'higher' if d > 0 else 'lower'} than the "
                              f"best other announcement's", GAINS if d > 0 else GIVES_UP))
        d = vloss - loss
        if abs(d) >= 0.005:
            out.append(Reason("versus_risk", d, (),
                              f"it puts {abs(d):.2f} {'less' if d > 0 else 'more'} life at risk (expected) than the "
                              f"best other choice", GAINS if d > 0 else GIVES_UP))
    return out


def veiled(found: list[Reason], move: Move | None = None) -> list[Reason]:
    """`found` without naming the move: no spell, chances in bands, no exact expected losses (`move`: for
    the same interface as SpellBook's; nothing here depends on it)."""
    out = []
    for r in found:
        if r.kind == "success_chance":
            out.append(Reason(r.kind, r.value, (), f"success is {_band(r.value)} from what you can see", r.aspect))
        elif r.kind in ("failure_cost", "knockout_risk", "versus_risk"):
            continue            # exact figures would match one announcement of the insight
        elif r.kind == "versus_chance":
            out.append(Reason(r.kind, r.value, (), f"it is {'likelier' if r.value > 0 else 'less likely'} to "
                                                   f"succeed than the best other announcement", r.aspect))
        elif r.kind == "stop_safe":
            life = _NUM.findall(r.text)[-1]
            out.append(Reason(r.kind, r.value, (), f"it weighs what is at risk: you have {life} life left", r.aspect))
    return out


_NUM = re.compile(r"\d+(?:\.\d+)?")


def audit(state: State, move: Move | str, found: list[Reason], versus: Move | str | None = None) -> list[str]:
    """The claims of `found` (reasons or veiled reasons) that the engine's insight contradicts."""
    if isinstance(move, str):
        move = state.parse_move(move)
    if isinstance(versus, str):
        versus = state.parse_move(versus)
    seat = state.current_player
    ins = hand_insight(state, seat)
    life = state.life[seat]
    p = 1.0 if move.kind != "cast" else ins.holding[move.value]
    risk = next((a for a in ins.announcements if a.move == move), None)
    bad = []

    def claim(ok: bool, r: Reason, why: str) -> None:
        if not ok:
            bad.append(f"{r.kind} {r.text!r}: {why}")

    for r in found:
        nums = [float(x) for x in _NUM.findall(r.text)]
        if r.kind == "success_chance":
            claim(move.kind == "cast" and abs(r.value - p) < 1e-9, r, f"the chance is {p}")
            claim(set(nums) <= {float(round(100 * p))}, r, "a number that is not the chance")
            if r.items:
                claim(r.items == (SPELLS[move.value - 1],), r, "another spell")
            if not nums:
                claim(_band(p) in r.text, r, "the wrong band")
        elif r.kind == "failure_cost":
            claim(risk is not None and abs(r.value - risk.expected_life_loss) < 1e-9, r, "not the expected loss")
            claim(set(nums) <= {round(r.value, 2), float(life)}, r, "a number that is not measured")
        elif r.kind == "knockout_risk":
            claim(risk is not None and abs(r.value - risk.self_knockout_probability) < 1e-9, r, "not the knockout chance")
        elif r.kind == "stop_safe":
            claim(move.kind != "cast" and set(nums) <= {float(life)}, r, "a cast risks life, or not your life")
        elif r.kind in ("versus_chance", "versus_risk"):
            if versus is None:
                bad.append(f"{r.kind}: no alternative was given")
                continue
            vp = 1.0 if versus.kind != "cast" else ins.holding[versus.value]
            vrisk = next((a for a in ins.announcements if a.move == versus), None)
            if r.kind == "versus_chance":
                claim(abs(r.value - (p - vp)) < 1e-9 and ("higher" in r.text or "likelier" in r.text) == (r.value > 0),
                      r, "not the difference of the chances")
            else:
                d = (vrisk.expected_life_loss if vrisk else 0.0) - (risk.expected_life_loss if risk else 0.0)
                claim(abs(r.value - d) < 1e-9 and ("less" in r.text) == (d > 0), r, "not the difference of the risks")
        else:
            bad.append(f"{r.kind}: a claim the audit does not know")
    return bad


def names_move(state: State, move: Move | str, found: list[Reason]) -> list[str]:
    """Texts of `found` that name the move: its spell, its number, or its exact chance of success."""
    if isinstance(move, str):
        move = state.parse_move(move)
    if move.kind != "cast":
        words = ["end"]
        exact = []
    else:
        words = [SPELLS[move.value - 1], f"cast {move.value}"]
        exact = [_pct(hand_insight(state, state.current_player).holding[move.value])]
    out = []
    for r in found:
        for w in words + exact:
            if re.search(rf"(?<![\w.]){re.escape(w)}(?![\w])", r.text) or w in r.items:
                out.append(f"{r.kind} {r.text!r} names {w!r}")
    return out
