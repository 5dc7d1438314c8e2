"""A SpellBook move in a player's words: the one source of a move's words for every surface (the terminal's
log, hints and review, `spellbook-ai review`, and the web page through the API's `Move.words`).

    move_words("TimeTravel Kc Abundance")   -> "Time Travel: discard Kc, raise Abundance one level"
    move_words("Offering 3")                -> "Offering (level 3): store 2 pool tokens of one color on the familiar"
    move_words("learn Transmutation 3 Bt : Bs Bs") -> "learn Transmutation at level 3 (rune Bt), paying Bs Bs"

Every move kind of docs/notation.md has its words, true to the rules (../shared/rules/SPELLBOOK.md §7, §10)
for the effect level the move names (a spell's action may use any level up to its own). Tokens stay as their
notation codes (`Kc`) and a rune alone as its letter after "rune" (`rune c`): each surface draws them its own
way (the page as chips and marks, the terminal as its token text). The words are context-free like the
notation (`Move.from_text(str(m)) == m`): they say what the move does wherever it is legal. No rule id.
"""
from __future__ import annotations

import functools
import re

from engine_c.spellbook.spell_text import spell_title

_TOKEN = re.compile(r"^[RPGKWBY][cts]$")
_RUNES = {3: "with rune c", 4: "of one rune, c or t", 5: "of one rune (any)"}      # Levitation by level


def _n(k: int, what: str) -> str:
    """'1 Altar token', '2 Altar tokens' (what: the singular, 'Altar token')."""
    return f"{k} {what}" + ("" if k == 1 else "s")


def _level(spell: str, level: str) -> str:
    return f"{spell_title(spell)} (level {level})"


def _spell_effect(kind: str, words: list[str]) -> str | None:
    """The words of a spell's action (the move's kind is the spell), or None when the text is not one."""
    name = kind.split("/")[0]
    rune = kind.split("/")[1] if "/" in kind else ""
    lvl = int(words[0]) if words and words[0].isdigit() else 0
    if name == "Sacrifice" and len(words) == 1:
        return f"Sacrifice: discard {words[0]}, then draw 4"
    if name == "Blaze" and not words:
        return "Blaze: draw 4, then every other player, from the left, takes 1 Altar token of their choice"
    if name == "TimeTravel" and len(words) == 2:
        return f"Time Travel: discard {words[0]}, raise {spell_title(words[1])} one level"
    if not 3 <= lvl <= 5:
        return None
    head, rest = _level(name, str(lvl)), words[1:]
    if name == "Eruption" and not rest:
        return f"{head}: draw until the pool holds {lvl + 1} tokens"
    if name == "Levitation" and not rest:
        return f"{head}: take 2 Altar tokens {_RUNES[lvl]}"
    if name == "Sharing" and not rest:
        first = "take 1 Altar token, then draw 1" if lvl == 3 else f"take {lvl - 2} Altar tokens"
        return f"{head}: {first}; then every other player draws 1"
    if name == "Divination" and not rest:
        then = {3: "take 2, then discard 1 pool token", 4: "take up to 2 tokens of one color", 5: "take 2"}[lvl]
        return f"{head}: draw 2 from the Pouch onto the Altar, then {then}"
    if name == "Purification" and not rest:
        times = {3: "once", 4: "twice", 5: "three times"}[lvl]
        return f"{head}: swap {times}, each time 1 pool token for 1 Altar token"
    if name == "Cure" and not rest:
        return f"{head}: draw {lvl - 2}, then discard {lvl - 2}"
    if name == "Offering" and not rest:
        return f"{head}: store {lvl - 1} pool tokens of one color on the familiar"
    if name == "Feast" and len(rest) == 1 and lvl in (3, 4):
        if lvl == 3:
            return f"{head}: take {rest[0]} from the Altar (its color is stored on the familiar)"
        return f"{head}: take {rest[0]} from the Altar and store it at once"
    if name == "Growth":
        if lvl == 3 and len(rest) == 2:
            return f"{head}: swap {rest[0]} from the pool with {rest[1]} stored on the familiar"
        if lvl in (4, 5) and not rest:
            return (f"{head}: take {lvl - 2} Altar tokens and store them at once, then Growth moves down to level "
                    f"{lvl - 1} (copied by Clone: Clone moves down one level instead)")
    if name == "Focus" and len(rest) == 1 and rest[0] in ("store", "take"):
        whose = f"rune {rune}" if rune else "Focus's rune"
        if rest[0] == "store":
            return f"{head}: store {_n(lvl - 2, 'pool token')} bearing {whose} on the familiar"
        if lvl in (4, 5):
            return f"{head}: take {_n(lvl - 3, 'Altar token')} bearing {whose}"
    if name == "Storm" and not rest:
        if lvl == 3:
            return f"{head}: no effect"
        return (f"{head}: discard any Altar tokens, each replaced by a draw from the Pouch onto the Altar, then "
                f"take 3 Altar tokens; Storm moves down to level {lvl - 1}")
    if name == "Clone":
        if lvl == 3 and not rest:
            return f"{head}: copy another player's Midday action, at their level"
        if lvl == 4 and not rest:
            return f"{head}: copy another player's Evening action (their Learn too), at their level"
        if lvl == 5 and len(rest) == 1:
            return f"{head}: discard {rest[0]}, then copy another player's Morning action, at their level"
    return None


def _learning(words: list[str]) -> str | None:
    """'learn Sacrifice 4 Rc : Rc Rt Gt Bt' and 'Transmutation[/t] Sacrifice 4 Rc : Rc Bt' in words."""
    head, _, pay = " ".join(words).partition(" : ")
    parts = head.split()
    if len(parts) != 4 or not parts[2].isdigit():
        return None
    how, spell, level, placed = parts
    paying = f", paying {pay}" if pay.strip() else ""
    if how == "learn":
        return f"learn {spell_title(spell)} at level {level} (rune {placed}){paying}"
    if how.split("/")[0] == "Transmutation":
        rune = how.split("/")[1] if "/" in how else ""
        wild = (f"with a copied Transmutation (its wilds: tokens of another color with rune {rune})" if rune
                else "with Transmutation (its wilds: tokens of another color with Transmutation's rune)")
        return f"learn {spell_title(spell)} at level {level} (rune {placed}) {wild}{paying}"
    return None


@functools.lru_cache(maxsize=1 << 14)
def move_words(move_text: str) -> str:
    """A SpellBook move (docs/notation.md) in a player's words, its tokens kept as their codes. A text that is
    no move of the notation comes back as it is."""
    words = move_text.split()
    if not words:
        return move_text
    kind, rest = words[0], words[1:]
    tokens = all(_TOKEN.match(w) for w in rest)
    if kind == "pass" and not rest:
        return "pass: skip this action or step"
    if kind == "draw" and not rest:
        return "draw 2 from the Pouch"
    if kind == "take" and len(rest) == 1 and tokens:
        return f"take {rest[0]} from the Altar"
    if kind == "store" and len(rest) == 1 and tokens:
        return f"store {rest[0]} on the familiar"
    if kind == "drawn" and len(rest) == 1 and tokens:
        return f"a draw from the Pouch: {rest[0]}"
    if kind == "swap" and len(rest) == 2 and tokens:
        return f"swap: take {rest[0]} from the Altar, give {rest[1]} from the pool to the Altar"
    if kind == "discard" and rest and tokens:
        return f"discard {' '.join(rest)} to the Discard box"
    if ":" in rest:
        said = _learning(words)
        if said:
            return said
    return _spell_effect(kind, rest) or move_text
