"""`spellbook-ai`: the command line.

    spellbook-ai serve      the gRPC server (default 127.0.0.1:50051; --address HOST:PORT; see server/main.py)
    spellbook-ai demo       a seeded game between random bots that prints every move and the final scores
                            (--game abracadawhat: Abracada…What?, engine_c/abracadawhat)
    spellbook-ai play       play a game against bots in the terminal (clients/play.py; the games' terminals:
                            clients/play_spellbook.py, clients/play_abracadawhat.py, ...; a game without
                            one: the generic terminal, clients/play_generic.py)
    spellbook-ai tournament bots against bots, duplicate format, with ratings (clients/tournament.py; --game)
    spellbook-ai ladder     rate the strength levels against each other (clients/ladder.py; --game)
    spellbook-ai review     review a finished game of either game: each decision, luck and key moments
                            (clients/review.py)
    spellbook-ai selfplay   self-play games recorded as training data (clients/selfplay.py)
    spellbook-ai reanalyse  search stored self-play positions again, deeper: value and policy targets
                            (clients/reanalyse.py, search/reanalyse.py)
    spellbook-ai train      train the learned evaluation on self-play shards (search/train.py)
    spellbook-ai analysis   a JSON-lines analysis engine on stdin/stdout (clients/analysis.py, docs/analysis.md)
"""
from __future__ import annotations

import argparse
import os
import sys

from clients.args import add_game_flags, players_help


FORMATTER = argparse.ArgumentDefaultsHelpFormatter    # every --help shows the defaults
DEMO_HELP = "a seeded game between uniformly random bots (one per seat), printing every move, draw and the final scores"


def build_parser() -> argparse.ArgumentParser:
    """The `spellbook-ai` parser (`serve` has its own: server/main.py parse_args)."""
    parser = argparse.ArgumentParser(prog="spellbook-ai", description="SpellBook AI opponent", formatter_class=FORMATTER)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", help="run the gRPC server (`spellbook-ai serve --help` lists its flags)", add_help=False)
    p = sub.add_parser("demo", help=DEMO_HELP, description=DEMO_HELP)
    add_game_flags(p)
    p.add_argument("--players", type=int, default=2, help=players_help())
    p.add_argument("--seed", type=int, default=0, help="the deal and the bots' choices")
    # Each of these lives in its own module; cli.py only routes to it.
    from clients import analysis, ladder, play, reanalyse, review, selfplay, tournament, train

    for name, module, text in (("play", play, "play a game against bots in the terminal"),
                               ("tournament", tournament, "run a tournament between bots"),
                               ("ladder", ladder, "rate the strength levels against each other"),
                               ("review", review, "review a finished game (a record or a tournament file)"),
                               ("selfplay", selfplay, "self-play games recorded as training data"),
                               ("reanalyse", reanalyse, "search stored self-play positions again, deeper"),
                               ("train", train, "train the learned evaluation on self-play shards"),
                               ("analysis", analysis, "a JSON-lines analysis engine on stdin/stdout")):
        p = sub.add_parser(name, help=text, description=(module.__doc__ or "").split("\n\n")[0])
        module.add_arguments(p)
        p.set_defaults(run=module.main)
    for p in sub.choices.values():       # also for subcommands added above this line later
        p.formatter_class = FORMATTER
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs a subcommand; output piped into a reader that stops early (`demo | head`) ends it quietly."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader is gone: nothing more can be said, and Python's flush at exit must not complain either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141     # as a shell reports a process ended by SIGPIPE (128 + 13)


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:  # the server has its own flags (server/main.py)
        from server.main import main as serve_main

        return serve_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None):
        return args.run(args)
    try:
        from engine_c.registry import get_game

        from clients.play import terminal_of

        terminal_of(get_game(args.game)).demo(args)    # the game's terminal (or the generic one) prints it
    except ValueError as e:
        parser.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
