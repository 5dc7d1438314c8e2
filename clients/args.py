"""The command line's game flags, the same in every command: `--game` and each game's setup flag, both from
the registry (engine_c/registry.py), so a new game's folder brings its own without an edit here."""
from __future__ import annotations

import argparse

from engine_c.registry import DEFAULT_GAME, GAMES, all_games, get_game


def _setup_flags() -> list[tuple[str, str, str]]:
    """Every game's setup flags as (name, default, help): each setup field once (games that share a field share
    its flag, with the first listed game's default), then each game's further flags (Declaration.flags)."""
    by_field: dict[str, list] = {}
    for g in all_games():
        if g.setup:
            by_field.setdefault(g.setup, []).append(g)
    out = [(field, games[0].setup_default, "; ".join(f"{g.title}: {g.setup_help}" for g in games))
           for field, games in by_field.items()]
    return out + [flag for g in all_games() for flag in g.flags]


def add_game_flags(p: argparse.ArgumentParser, setup: bool = True, default: str | None = DEFAULT_GAME) -> None:
    """`--game` (the first-listed game when none is named, or `default`) and, with `setup`, each game's setup
    flag (`--spells` for SpellBook, `--variants` for Abracada…What?, `--decks` for the Spellbook TCG: the game's
    declared setup field) and its further setup flags (the TCG's `--cards`)."""
    names = ", ".join(GAMES)
    p.add_argument("--game", default=default, help=f"the game: {names}")
    if setup:
        for name, value, text in _setup_flags():
            p.add_argument(f"--{name}", default=value, help=text)


def game_flag(name):
    """The game `--game` names (engine_c.registry.get_game); ValueError naming `--game` when none is."""
    try:
        return get_game(name)
    except ValueError as e:
        raise ValueError(f"--game: {e}") from None


def given_setup_flags(args: argparse.Namespace, game) -> tuple[str | None, dict[str, str]]:
    """The setup a command line of add_game_flags names for `game`: the text of the game's setup flag (None for
    a game without one) and the game's further flags by name. ValueError names a setup flag of another game
    that was given a value other than its default (it would be ignored)."""
    g = get_game(game)
    own = {g.setup} | {name for name, _, _ in g.flags}
    for name, default, _ in _setup_flags():
        value = getattr(args, name.replace("-", "_"), default)
        if name not in own and value != default:
            raise ValueError(f"--{name}: {g.title} takes no --{name} (--game names the game)")
    setup = getattr(args, g.setup.replace("-", "_"), g.setup_default) if g.setup else None
    return setup, {name: getattr(args, name.replace("-", "_"), default) for name, default, _ in g.flags}


def players_help() -> str:
    """The player counts every game seats, for a `--players`/`--seats` flag's help."""
    return ", ".join(f"{g.min_players} to {g.max_players} ({g.title})" for g in all_games())
