"""The command line's game flags, the same in every command: `--game` and each game's setup flag, both from
the registry (engine_c/registry.py), so a new game's folder brings its own without an edit here."""
from __future__ import annotations

import argparse

from engine_c.registry import GAMES, all_games


def add_game_flags(p: argparse.ArgumentParser, setup: bool = True, default: str | None = GAMES[0]) -> None:
    """`--game` (the first-listed game when none is named, or `default`) and, with `setup`, each game's setup
    flag (`--spells` for SpellBook, `--variants` for Abracada…What?: the game's declared setup field)."""
    names = ", ".join(GAMES)
    p.add_argument("--game", default=default, help=f"the game: {names}")
    if setup:
        by_field: dict[str, list] = {}
        for g in all_games():
            if g.setup:
                by_field.setdefault(g.setup, []).append(g)
        for field, games in by_field.items():     # games that share a setup field share its flag
            helps = "; ".join(f"{g.title}: {g.setup_help}" for g in games)
            p.add_argument(f"--{field}", default=games[0].setup_default, help=helps)
        for g in all_games():                     # a game's further setup flags (Declaration.flags)
            for name, default, text in g.flags:
                p.add_argument(f"--{name}", default=default, help=text)


def players_help() -> str:
    """The player counts every game seats, for a `--players`/`--seats` flag's help."""
    return ", ".join(f"{g.min_players} to {g.max_players} ({g.title})" for g in all_games())
