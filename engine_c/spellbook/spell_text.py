"""What each spell does at levels 3, 4 and 5, in a player's words (for `help SPELL` in the terminal and the
web page's spell cards, `player_help()`).

Distilled from the rules reference (SPELLBOOK.md §7, with the clarifications of §10); points per level come
from the engine's own table, so the two cannot disagree.
"""
from __future__ import annotations

import re

from engine_c.spellbook import _engine as _E

PHASE_NAMES = {0: "no action of its own", 1: "a Morning action", 2: "a Midday action", 3: "an Evening action"}

# spell -> (what it is, [level 3, level 4, level 5])
SPELL_TEXT: dict[str, tuple[str, list[str]]] = {
    "Sacrifice": ("Red", ["discard 1 pool token with rune c, then draw 4",
                          "discard 1 pool token with rune c or t, then draw 4",
                          "discard 1 pool token of any rune, then draw 4"]),
    "Eruption": ("Red", ["draw until your pool holds 4 tokens", "draw until your pool holds 5 tokens",
                         "draw until your pool holds 6 tokens"]),
    "Blaze": ("Red", ["draw 4; then every other player, from your left, takes 1 Altar token of their choice"] * 3),
    "Levitation": ("Purple", ["take 2 Altar tokens with rune c", "take 2 Altar tokens of one rune, c or t",
                              "take 2 Altar tokens of one rune (any rune)"]),
    "Sharing": ("Purple", ["take 1, then draw 1; then every other player draws 1",
                           "take 2; then every other player draws 1", "take 3; then every other player draws 1"]),
    "Divination": ("Purple", ["draw 2 onto the Altar, take 2, then discard 1 pool token",
                              "draw 2 onto the Altar, then take up to 2 tokens of one color",
                              "draw 2 onto the Altar, then take 2"]),
    "Purification": ("Green", ["swap 1 pool token with 1 Altar token", "swap twice", "swap three times"]),
    "Cure": ("Green", ["draw 1, then discard 1", "draw 2, then discard 2", "draw 3, then discard 3"]),
    "Growth": ("Green", ["swap 1 pool token with 1 token stored on your familiar",
                         "take 2 Altar tokens and store them; the spell drops to level 3",
                         "take 3 Altar tokens and store them; the spell drops to level 4"]),
    "Offering": ("Black", ["store 2 pool tokens of one color", "store 3 pool tokens of one color",
                           "store 4 pool tokens of one color"]),
    "Focus": ("Black", ["store 1 pool token bearing this spell's rune",
                        "store 2 pool tokens bearing its rune, or take 1 Altar token bearing it",
                        "store 3 pool tokens bearing its rune, or take 2 Altar tokens bearing it"]),
    "Feast": ("Black", ["take 1 Altar token whose color is stored on your familiar",
                        "take 1 Altar token and store it at once",
                        "at the end, +1 point per color stored on your familiar (levels 3 and 4 still usable)"]),
    "TimeTravel": ("White", ["discard 1 pool token with rune c, then raise another learned spell one level",
                             "discard 1 pool token with rune c or t, then raise another learned spell one level",
                             "discard 1 pool token of any rune, then raise another learned spell one level"]),
    "Storm": ("White", ["no effect",
                        "swap any Altar tokens for Pouch draws, then take 3; the spell drops to level 3",
                        "swap any Altar tokens for Pouch draws, then take 3; the spell drops to level 4"]),
    "Clone": ("White", ["copy a Midday action of a spell another player learned, at their level",
                        "copy an Evening action of another player's spell (their Learn too)",
                        "discard 1 pool token bearing Clone's rune, then copy another player's Morning action"]),
    "Transmutation": ("Blue", ["no effect",
                               "learn a spell where 1 pool token of another color bearing this rune counts as 1 "
                               "Materia (instead of three-of-a-rune wilds)",
                               "the same with up to 2 such tokens"]),
    "Swiftness": ("Blue", ["when learned, take 1 extra Morning action at once", "the same (once, when learned)",
                           "every Day you may take 2 Morning actions"]),
    "Mirage": ("Blue", ["during your Day, each Altar token you take bearing this rune draws you 1",
                        "the same, drawing 2", "the same, drawing 2"]),
    "Abundance": ("Yellow", ["when learned, draw 2", "when learned, draw 3", "when learned, draw 4"]),
    "Knowledge": ("Yellow", ["at the end, +1 point per other learned spell",
                             "at the end, +2 per other spell at level 4 or more, +1 per other spell below 4",
                             "at the end, +2 points per other learned spell"]),
    "Communion": ("Yellow", ["when learned, take 3 Altar tokens and store them at once",
                             "at the end, +1 point per stored token bearing this spell's rune",
                             "whenever you learn a spell (this one too), store 2 of the tokens it spent"]),
}

_TABLE = {row[0]: row for row in _E._SPELL_TABLE}   # name -> (name, phase, points L3, L4, L5)


def spell_title(name: str) -> str:
    """'TimeTravel' -> 'Time Travel'."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)


def find_spell(text: str) -> str | None:
    """The spell named by `text` (case and spaces ignored, a unique prefix is enough), or None."""
    key = text.replace(" ", "").lower()
    names = list(SPELL_TEXT)
    exact = [n for n in names if n.lower() == key]
    if exact:
        return exact[0]
    starts = [n for n in names if n.lower().startswith(key)] if key else []
    return starts[0] if len(starts) == 1 else None


def points(name: str, level: int) -> int:
    return _TABLE[name][2 + level - 3]


def describe(name: str) -> str:
    """The spell's text at each level, with its points and the phase of its action."""
    color, levels = SPELL_TEXT[name]
    phase = _TABLE[name][1]
    head = f"{spell_title(name)} ({color}; {PHASE_NAMES.get(phase, 'an action')}"
    head += ", usable from the Day after you learn it)" if phase else ")"
    lines = [head, f"  Learn it at level 3, 4 or 5 by spending that many {color} Materia (three tokens "
                   f"sharing a rune count as one); the level is the number of Materia spent."]
    for lvl, text in zip((3, 4, 5), levels):
        pts = points(name, lvl)
        lines.append(f"  level {lvl} ({pts} point{'' if pts == 1 else 's'}): {text}")
    return "\n".join(lines)


RUNE_MARKS = {"c": "●", "t": "▲", "s": "■"}


def with_rune_marks(text: str) -> str:
    """'rune c or t' -> 'rune ● or ▲': the marks the board draws on its tokens."""
    return re.sub(r"\b(runes?,? )([cts])\b(?:( or )([cts])\b)?",
                  lambda m: m.group(1) + RUNE_MARKS[m.group(2)] + (m.group(3) + RUNE_MARKS[m.group(4)] if m.group(3) else ""),
                  text)


def player_help() -> dict:
    """Every spell for the web page: its title, color, the phase of its action and, per level 3-5, its points
    and what it does (runes as the board draws them)."""
    return {name: {"title": spell_title(name), "color": color, "action": PHASE_NAMES.get(_TABLE[name][1], ""),
                   "levels": [{"level": lvl, "points": points(name, lvl), "text": with_rune_marks(text)}
                              for lvl, text in zip((3, 4, 5), levels)]}
            for name, (color, levels) in SPELL_TEXT.items()}
