"""`spellbook-ai`: the command line.

    spellbook-ai serve      the gRPC server (default 127.0.0.1:50051; --address HOST:PORT; see server/main.py)
    spellbook-ai demo       a bot-vs-bot game that prints every move and the final scores
    spellbook-ai play       play a game against 1-3 bots in the terminal (clients/play.py)
    spellbook-ai tournament bots against bots, duplicate format, with ratings (clients/tournament.py)
    spellbook-ai ladder     rate the strength levels against each other (clients/ladder.py)
    spellbook-ai review     review a finished game: each decision, luck and key moments (clients/review.py)
"""
from __future__ import annotations

import argparse
import random
import sys

from engine_c import State


def demo_game(players: int = 2, spells: str = "set1", seed: int = 0, out=sys.stdout) -> State:
    """Plays a seeded game between uniformly random bots, printing each move, draw and the result."""
    state = State.new(players=players, spells=spells, seed=seed)
    rng = random.Random(seed)
    print(f"SpellBook demo: {players} players, spells {', '.join(state.spells)}, seed {seed}", file=out)
    while not state.is_terminal():
        seat, phase, day = state.current_player, state.phase, state.day
        move = rng.choice(state.legal_moves())
        draws = state.play(move)
        drawn = f"  (draws: {' '.join(str(d)[6:] for d in draws)})" if draws else ""
        print(f"day {day + 1:3d} seat {seat} {phase:8s} {move}{drawn}", file=out)
    for seat, score in enumerate(state.scores()):
        spells = ", ".join(f"{k} {v}" for k, v in score.spells.items() if v)
        print(f"seat {seat}: {score.total} points (spells: {spells or 'none'}; familiar {score.familiar}; "
              f"bonuses feast {score.feast}, knowledge {score.knowledge}, communion {score.communion})", file=out)
    print(f"winner(s): {state.winners()}", file=out)
    return state


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:  # the server has its own flags (server/main.py)
        from server.main import main as serve_main

        return serve_main(argv[1:])
    parser = argparse.ArgumentParser(prog="spellbook-ai", description="SpellBook AI opponent")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("serve", "demo"):
        p = sub.add_parser(name, help="play a demo bot-vs-bot game" if name == "demo" else "run the gRPC server")
        p.add_argument("--players", type=int, default=2)
        p.add_argument("--spells", default="set1")
        p.add_argument("--seed", type=int, default=0)
    # Each of these lives in its own module; cli.py only routes to it.
    from clients import ladder, play, review, tournament

    for name, module, text in (("play", play, "play a game against bots in the terminal"),
                               ("tournament", tournament, "run a tournament between bots"),
                               ("ladder", ladder, "rate the strength levels against each other"),
                               ("review", review, "review a finished game (a record or a tournament file)")):
        p = sub.add_parser(name, help=text, description=(module.__doc__ or "").split("\n\n")[0])
        module.add_arguments(p)
        p.set_defaults(run=module.main)
    args = parser.parse_args(argv)
    if getattr(args, "run", None):
        return args.run(args)
    try:
        demo_game(args.players, args.spells, args.seed)
    except ValueError as e:
        parser.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
