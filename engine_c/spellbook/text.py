"""SpellBook in words, for what every game's text module offers the shared clients (the review, the
terminal): where a decision happened and the game's settings in one line. The board, hints and reasons
are clients/play_spellbook.py's, engine_c/spellbook/reasons.py's and engine_c/spellbook/explain.py's.

Each game has such a module (Abracada…What?: engine_c/abracadawhat/text.py), found through
engine_c.registry.get_game(name).text.
"""
from __future__ import annotations

LUCK = "the draws"                  # what luck is made of in this game, for a review's text


def where(state) -> str:
    """Where a decision happened, for a review: 'round 2 morning'."""
    return f"round {state.day // state.players + 1} {state.phase}"


def round_of(state) -> int:
    """The round (1, 2, ...) a decision is in: every seat's Day once is a round."""
    return state.day // state.players + 1


def label(state) -> str:
    """Where a decision is, in a player's words (a review's entries): 'Round 2 · Day of seat 1 · Evening'."""
    return f"Round {round_of(state)} · Day of seat {state.active_player} · {state.phase.capitalize()}"


def record_line(rec: dict) -> str:
    """A record's game settings in one line: '2 players, spells Sacrifice, ..., Time Travel, ...' (each spell by
    its title, as the game's first line says it: never the notation's 'TimeTravel')."""
    from engine_c.spellbook.spell_text import spell_title

    return f"{rec['players']} players, spells {', '.join(spell_title(s) for s in rec['spells'])}"


def player_help() -> dict:
    """What the web page shows of the game's rules (GET /games.json): each spell's levels, points and text."""
    from engine_c.spellbook.spell_text import player_help as spells

    return {"spells": spells()}


def move_words(move_text: str) -> str:
    """A move in a player's words, its tokens kept as their codes: 'Time Travel: discard Kc, raise Abundance one
    level' (engine_c/spellbook/move_words.py: the one source of the terminal's and the page's words)."""
    from engine_c.spellbook.move_words import move_words as words

    return words(move_text)


def view(state, seat: int | None) -> dict:
    """What a seat (None: a spectator) sees of the table, as a JSON object (games.v1's `view_json`): every
    SpellBook zone is public but the Pouch's order (its draws are public events), so a seat and a
    spectator see the same; the observation text holds the whole table without the Pouch order."""
    return {"seat": seat, "round": round_of(state), "day": state.day, "active": state.active_player,
            "phase": state.phase, "decision": state.decision, "spells": list(state.spells),
            "observation": state.observation(0 if seat is None else seat)}
