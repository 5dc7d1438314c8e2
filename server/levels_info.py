"""What the server tells clients about each game's strength levels: a level's search in words, and its
measured Elo from the game's ladder table (`spellbook-ai ladder`, clients/ladder.py). Game-agnostic:
SpellBook's GetServerInfo and Abracada…What?'s GetRules both use it."""
from __future__ import annotations

import json
import logging
import os

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


def ladder_anchor(path: str) -> str:
    """What a ladder file's Elo is relative to ("greedy = 1000"; "random = 0" for a table from before
    D141); "" without a table."""
    if not path:
        return ""
    try:
        with open(path, encoding="utf-8") as f:
            anchor = json.load(f).get("anchor", "")
    except (OSError, ValueError, AttributeError):
        return ""
    return anchor if " = " in anchor else (f"{anchor} = 0" if anchor else "")


def profile_path(ladder: str) -> str:
    """The mistake-profile file beside a ladder table (data/ladder.json -> data/level-profile.json)."""
    if not ladder:
        return ""
    head, tail = os.path.split(ladder)
    return os.path.join(head, tail.replace("ladder", "level-profile", 1))


def level_profiles(path: str) -> dict[int, dict]:
    """level -> its mistake profile (inaccuracy_share, mistake_share, blunder_share, absurd_rate) from a
    profile file (`python -m bench.level_profile`, docs/search.md "Mistake profile"); empty without one."""
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)["levels"]
        return {int(r["level"]): {k: float(r[k]) for k in PROFILE_FIELDS if k in r} for r in rows}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


PROFILE_FIELDS = ("inaccuracy_share", "mistake_share", "blunder_share", "absurd_rate")


def level_meaning(d: dict, elo: tuple[float, float] | None, anchor: str, table: dict | None = None) -> str:
    """A level for a player: its name, what it plays like, and where the ladder puts it against the
    heuristic bot ("greedy = 1000" -> "about 120 Elo below greedy, the one-ply heuristic"). `table`: the
    whole ladder (level -> (Elo, margin)), so that no level is called the strongest unless rated highest."""
    from search.levels import level_words

    name, meaning = level_words(d["level"], {lv: e for lv, (e, _) in (table or {}).items()})
    text = f"{name.capitalize()}: {meaning}"
    name, _, base = anchor.partition(" = ")
    if elo is not None and base and name != "random":
        diff = elo[0] - float(base)
        where = ("level with" if abs(diff) < 15 else
                 f"{abs(diff):.0f} Elo {'above' if diff > 0 else 'below'}")
        text += f" ({where} the heuristic bot, {name})"
    return text


def level_text(d: dict) -> str:
    """A level's search in words (GetServerInfo's and Abracada…What?'s GetRules' description)."""
    if d.get("policy_temperature", 0) > 0:
        if d.get("policy_top_k") == 1:
            return "the policy network's first choice, without search"
        among = f"its best {d['policy_top_k']} moves" if d.get("policy_top_k") else "its moves"
        floor = (f" rated at least {d['policy_floor']:g} of its first choice" if d.get("policy_floor") else "")
        return (f"the policy network's moves without search, sampled at temperature "
                f"{d['policy_temperature']:g} among {among}{floor}")
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


def fill_level(level, d: dict, elo: dict, anchor: str, profiles: dict) -> None:
    """Sets a StrengthLevel message's player-facing fields (either game's): name, meaning, the policy
    fields, the Elo from the ladder and the mistake profile, where known."""
    from search.levels import level_words

    level.name = level_words(d["level"], {lv: e for lv, (e, _) in elo.items()})[0]
    level.meaning = level_meaning(d, elo.get(d["level"]), anchor, elo)
    level.policy_temperature, level.policy_top_k = d["policy_temperature"], d["policy_top_k"]
    level.policy_floor = d["policy_floor"]
    if d["level"] in elo:
        level.elo, level.elo_ci = elo[d["level"]]
    for key, value in profiles.get(d["level"], {}).items():
        setattr(level, key, value)


def add_levels(levels, adapter, ladder_path: str, describe=None, **extra) -> str:
    """Fills `levels` (a repeated StrengthLevel field of any game's package) with the game's levels 1-10
    (search/levels.py through `adapter`): each one's search, `describe(d)` in words (default level_text),
    the fields `extra` names ({field: d -> value}, what only that package has), and fill_level's Elo from
    the ladder at `ladder_path` and mistake profile. Returns what the Elo is relative to (ladder_anchor)."""
    from search.levels import describe_levels

    elo, anchor, profiles = ladder_table(ladder_path), ladder_anchor(ladder_path), level_profiles(profile_path(ladder_path))
    for d in describe_levels(game=adapter):
        level = levels.add(level=d["level"], iterations=d["iterations"], temperature=d["temperature"],
                           time_cap_ms=d["time_cap_ms"], evaluator=d["evaluator"],
                           description=(describe or level_text)(d), **{k: f(d) for k, f in extra.items()})
        fill_level(level, d, elo, anchor, profiles)
    return anchor
