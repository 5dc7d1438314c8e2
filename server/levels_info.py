"""What the server tells clients about each game's strength levels: a level's search in words, and its
measured Elo from the game's ladder table (`spellbook-ai ladder`, clients/ladder.py). Game-agnostic:
SpellBook's GetServerInfo and Abracada…What?'s GetRules both use it."""
from __future__ import annotations

import json
import logging

log = logging.getLogger("spellbook.server")


def ladder_table(path: str) -> dict[int, tuple[float, float]]:
    """level -> (Elo, 95% half-width) from a ladder file; empty when there is none (logged)."""
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)["levels"]
        return {int(r["level"]): (float(r["elo"]), float(r.get("pm", 0.0))) for r in rows}
    except (OSError, ValueError, KeyError, TypeError) as e:
        log.info("no ladder table", extra={"fields": {"path": path, "error": str(e)}})
        return {}


def level_text(d: dict) -> str:
    """A level's search in words (GetServerInfo's and Abracada…What?'s GetRules' description)."""
    if d.get("evaluator") == "network" and d["iterations"] == 1:
        return "the policy network's first choice, without search"
    if d.get("evaluator") == "network":
        how = "the learned value and policy (PUCT)"
    else:
        how = d["rollout"] + (f" rollouts cut off after {d['cutoff']} decisions" if d["cutoff"]
                              else " rollouts to the end")
    choice = ("always the most visited move, answering as soon as it is settled" if d["temperature"] == 0
              else f"moves sampled at temperature {d['temperature']:g}")
    cap = f", at most {d['time_cap_ms']:g} ms" if d["time_cap_ms"] else ""
    return f"{d['iterations']} ISMCTS iterations{cap}; {how}; {choice}"
