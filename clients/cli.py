"""`spellbook-ai`: the command line.

    spellbook-ai serve      the gRPC server (default 127.0.0.1:50051; --address HOST:PORT; see server/main.py)
    spellbook-ai demo       a seeded game between random bots that prints every move and the final scores
                            (--game abracadawhat: Abracada…What?, engine_c/abracadawhat)
    spellbook-ai play       play a game against bots in the terminal (clients/play.py; the games' terminals:
                            clients/play_spellbook.py, clients/play_abracadawhat.py)
    spellbook-ai tournament bots against bots, duplicate format, with ratings (clients/tournament.py; --game)
    spellbook-ai ladder     rate the strength levels against each other (clients/ladder.py; --game)
    spellbook-ai review     review a finished game of either game: each decision, luck and key moments
                            (clients/review.py)
    spellbook-ai selfplay   self-play games recorded as training data (clients/selfplay.py)
    spellbook-ai train      train the learned evaluation on self-play shards (search/train.py)
    spellbook-ai analysis   a JSON-lines analysis engine on stdin/stdout (clients/analysis.py, docs/analysis.md)
"""
from __future__ import annotations

import argparse
import random
import sys

from engine_c import State


def demo_game(players: int = 2, spells: str = "set1", seed: int = 0, out=None) -> State:
    """Plays a seeded game between uniformly random bots, printing each move, draw and the result."""
    out = out or sys.stdout
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
        bonuses = "".join(f"; {name} bonus {getattr(score, name.lower())}" for name in ("Feast", "Knowledge", "Communion")
                          if name in state.spells)
        print(f"seat {seat}: {score.total} points (spells: {spells or 'none'}; familiar {score.familiar}{bonuses})",
              file=out)
    winners = state.winners()
    print(f"winner{'s' if len(winners) > 1 else ''}: {' and '.join(f'seat {w}' for w in winners)}", file=out)
    return state


def demo_abracadawhat(players: int = 3, seed: int = 0, variants: str = "", out=None):
    """A seeded Abracada…What? game between uniformly random bots: every announcement with its outcome and
    die roll, every round's result, the final points and the winner (XG1)."""
    from engine_c.registry import get_game

    out = out or sys.stdout
    game = get_game("abracadawhat")
    state = game.State.new(players=players, seed=seed, variants=variants)
    rng = random.Random(seed)
    print(f"Abracada…What? demo: {players} players, variants {','.join(state.variants) or 'none'}, seed {seed}",
          file=out)
    rnd = 0
    while not state.is_terminal():
        if state.round != rnd:
            rnd = state.round
            hands = " | ".join("".join(map(str, state.hand(p))) for p in range(players))
            print(f"round {rnd}: seat {state.active_player} starts; hands {hands}", file=out)
        seat, move = state.current_player, rng.choice(state.legal_moves())
        finished = len(state.results())
        ok = move.kind == "cast" and move.value in state.hand(seat)     # the demo sees every hand
        rolls = [str(m) for m in state.play(move) if m.kind == "roll"]
        ended = len(state.results()) > finished
        life = state.results()[-1]["life"] if ended else state.life
        outcome = "" if move.kind == "end" else (" success" if ok else " fails") + \
            (f" ({rolls[0]})" if rolls else "")
        print(f"  seat {seat} {move}{outcome}; life {','.join(map(str, life))}", file=out)
        if ended:
            r = state.results()[-1]
            print(f"round {rnd} ends ({r['reason']}, seat {r['seat']}): scores {','.join(map(str, r['scores']))}; "
                  f"points {','.join(map(str, state.points))}", file=out)
    winners = state.winners()
    print(f"winner{'s' if len(winners) > 1 else ''}: {' and '.join(f'seat {w}' for w in winners)} "
          f"(points {','.join(map(str, state.points))})", file=out)
    return state


FORMATTER = argparse.ArgumentDefaultsHelpFormatter    # every --help shows the defaults
DEMO_HELP = "a seeded game between uniformly random bots (one per seat), printing every move, draw and the final scores"


def build_parser() -> argparse.ArgumentParser:
    """The `spellbook-ai` parser (`serve` has its own: server/main.py parse_args)."""
    parser = argparse.ArgumentParser(prog="spellbook-ai", description="SpellBook AI opponent", formatter_class=FORMATTER)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", help="run the gRPC server (`spellbook-ai serve --help` lists its flags)", add_help=False)
    p = sub.add_parser("demo", help=DEMO_HELP, description=DEMO_HELP)
    p.add_argument("--game", default="spellbook", help="spellbook or abracadawhat (engine_c/registry.py)")
    p.add_argument("--players", type=int, default=2, help="2 to 4 (SpellBook), 2 to 5 (Abracada…What?)")
    p.add_argument("--spells", default="set1", help="SpellBook: set1, set2, set3, classic or 7 spell names")
    p.add_argument("--variants", default="", help="Abracada…What?: xv1 and/or xv2, comma-separated")
    p.add_argument("--seed", type=int, default=0, help="the deal and the bots' choices")
    # Each of these lives in its own module; cli.py only routes to it.
    from clients import analysis, ladder, play, review, selfplay, tournament, train

    for name, module, text in (("play", play, "play a game against bots in the terminal"),
                               ("tournament", tournament, "run a tournament between bots"),
                               ("ladder", ladder, "rate the strength levels against each other"),
                               ("review", review, "review a finished game (a record or a tournament file)"),
                               ("selfplay", selfplay, "self-play games recorded as training data"),
                               ("train", train, "train the learned evaluation on self-play shards"),
                               ("analysis", analysis, "a JSON-lines analysis engine on stdin/stdout")):
        p = sub.add_parser(name, help=text, description=(module.__doc__ or "").split("\n\n")[0])
        module.add_arguments(p)
        p.set_defaults(run=module.main)
    for p in sub.choices.values():       # also for subcommands added above this line later
        p.formatter_class = FORMATTER
    return parser


def main(argv: list[str] | None = None) -> int:
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

        if get_game(args.game).name == "abracadawhat":
            demo_abracadawhat(args.players, args.seed, args.variants)
        else:
            demo_game(args.players, args.spells, args.seed)
    except ValueError as e:
        parser.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
