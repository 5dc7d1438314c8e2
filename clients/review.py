"""`spellbook-ai review FILE [--game N]`: what went right and wrong in a finished game, of any game.

    spellbook-ai review game.json                      a terminal save, a server record, ...
    spellbook-ai review results.jsonl --game 3         the third game of a tournament
    spellbook-ai review game.json --server 127.0.0.1:50051     the same review, by the server (AnalyzeGame)

For each decision: the class of the move played (best, good, inaccuracy, mistake, blunder) and what it lost
against the search's best move; for each player, the final score split into the expected score at the
start, luck (the draws, the dice) and the decisions (own and the others'); and the key moments. Any record
format engine_c/records.py reads is accepted (docs/records.md); the record names its game (engine_c.records
.game_of), whose adapter the searches use and whose text module (engine_c/registry.py) says where
each decision was. Every review here, the terminal's end-of-game review and the server's AnalyzeGame go
through search/coach.py (`review_options`, `review_record`), so the same record, budget and seed give the
same classes wherever they are asked (D130). A resigned game is reviewed up to its resignation.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from engine_c import records
from engine_c.contract import move_words
from clients.args import game_flag

DEFAULT_ITERATIONS = None      # the review search's budget a decision: the default level's (search/coach.py)


def pick_game(path: str, game: int | str | None) -> dict:
    """The record of game `game` (from 1) in a file; `game` may also be a game's name (spellbook,
    abracadawhat), checked against the record's own. ValueError says what is wrong."""
    if isinstance(game, str) and not game.isdigit():
        name = game_flag(game).name
        rec = pick_game(path, None)
        if game_of(rec).name != name:
            raise ValueError(f"--game {game}: {path} holds a {game_of(rec).title} game (a record names its game)")
        return rec
    game = int(game) if isinstance(game, str) else game
    try:
        found = records.load_file(path)
    except records.RecordError as e:
        raise ValueError(f"{path}: {e}") from None
    if game is None:
        if len(found) > 1:
            raise ValueError(f"{path} holds {len(found)} games: choose one with --game 1 to --game {len(found)}")
        game = 1
    if not 1 <= game <= len(found):
        raise ValueError(f"--game {game}: {path} holds {len(found)} game{'s' if len(found) > 1 else ''}")
    return found[game - 1]


def seat_names(rec: dict, you: int | None = None) -> list[str]:
    """Each seat's name in a review: "seat 2 (greedy)", stable whatever seat is reviewed; `you`: the seat the
    review is for (--seat, the terminal's player) is "You", and only that one (issue 51)."""
    seats = rec.get("seats") or [{}] * rec["players"]
    return ["You" if i == you else f"seat {i} ({records.seat_name(s) if s else '?'})" for i, s in enumerate(seats)]


def relative_label(label: str, you: int | None) -> str:
    """A decision's label with the reviewed seat's Day or turn as "your Day", "your 2nd turn"."""
    if you is None:
        return label
    import re

    return re.sub(rf"\b(?:(\d+(?:st|nd|rd|th)) )?(Day|turn) of seat {you}\b",
                  lambda m: f"your {m.group(1) + ' ' if m.group(1) else ''}{m.group(2)}", label)


def game_of(rec: dict):
    """The registry's game of a record (engine_c.records.game_of: a record that names none is read as it always
    was)."""
    return records.game_of(rec)


def _where(rec: dict, steps: Sequence[tuple], you: int | None = None):
    """Where decision i was: AnalyzeGame's label (records.decision_labels: one a decision), "your ..." for `you`."""
    labels = records.decision_labels(game_of(rec).text, steps)

    def where(i: int) -> str:
        return relative_label(labels[i], you)
    return where


def final_scores(state) -> list[float]:
    """Each seat's final score: a game's scores are numbers or have a `total` (SpellBook's Score)."""
    return [float(getattr(s, "total", s)) for s in state.scores()]


def review_local(rec: dict, iterations: int | None = DEFAULT_ITERATIONS, seed: int = 0, key_moments: int = 5,
                 estimator_iterations: int | None = None, seat: int | None = None):
    """(GameReview, steps) of a finished or resigned record of any game, searched here through the game's
    adapter with search/coach.py's review options (the same as AnalyzeGame's for the same budget and
    seed; the estimator: search/review.py's default size unless given). `seat`: that seat's decisions only."""
    from engine_c.records import replayed
    from search.coach import review_record

    review, rp = review_record(replayed(rec), iterations, seed, key_moments, estimator_iterations, seat=seat)
    return review, rp.steps


def review_budget(rec: dict, iterations: int | None) -> int:
    """The review search's iterations a decision for a budget (None: the default level's)."""
    from search.coach import review_options

    return review_options(game_of(rec).adapter, iterations).iterations


def _replayed(rec: dict):
    from engine_c.records import replayed

    rp = replayed(rec)
    return rp.final, rp.steps


def review_remote(rec: dict, address: str, iterations: int | None = DEFAULT_ITERATIONS, seed: int = 0,
                  key_moments: int = 5, timeout: float = 600.0, seat: int | None = None):
    """The same review by a server (games.v1's AnalyzeGame, which serves every game it plays), as search.review
    dataclasses."""
    from clients.client import GameClient
    from search.review import DecisionReview, GameReview, PlayerSplit

    _, steps = _replayed(rec)
    game = game_of(rec)
    Move = game.Move
    with GameClient(address, game=game.name, timeout=timeout) as client:
        resp = client.analyze_game(rec, iterations=iterations or 0, seed=seed, key_moments=key_moments, seat=seat)

    def dr(d) -> DecisionReview:
        cls = records_class(d.mistake_class)
        return DecisionReview(d.decision, d.seat, Move.from_text(d.played.text), Move.from_text(d.best.text), d.loss,
                              d.loss_points, cls, d.win_before, d.win_after, iterations=d.iterations,
                              loss_margin=d.loss_margin, win_probabilities=list(d.win_probabilities),
                              accuracy=d.accuracy, win_next=d.win_next if d.HasField("win_next") else None)

    review = GameReview([dr(d) for d in resp.decisions],
                        [PlayerSplit(p.seat, p.expected_start, p.final_score, p.luck, p.decisions, p.others,
                                     p.accuracy if p.HasField("accuracy") else None)
                         for p in resp.players],
                        [dr(d) for d in resp.key_moments])
    review.resigned = resp.result.HasField("resigned")
    return review, steps


def records_class(value: int) -> str:
    """A MistakeClass enum value as its name ("blunder"; every API numbers the classes alike)."""
    from server._gen.games.v1 import types_pb2 as pb

    return pb.MistakeClass.Name(value).removeprefix("MISTAKE_CLASS_").lower()


def game_result(rec: dict, steps=None) -> tuple[list[int], list[int], int | None]:
    """The game's scores, winners and who resigned: the one source of a review's "Result" (the record
    replayed: a resigned game's scores as they stood, its winners the others with the most, D130)."""
    rp = records.replayed(rec)
    scores = records.totals(rp.final)
    quitter = rp.resigned
    winners = records.resign_winners(scores, quitter) if quitter is not None else list(rp.final.winners())
    return scores, winners, quitter


def review_text(rec: dict, review, steps, budget: str, you: int | None = None) -> str:
    """The review for a person. `you`: the seat it is for (named "You"; the others keep their seat names)."""
    from search.review import format_review

    names = seat_names(rec, you)
    text = game_of(rec).text
    head = [f"Review: {text.record_line(rec)}; " + ", ".join(names) + "."]
    scores, winners, quitter = game_result(rec)
    when = "Scores when the game was resigned" if quitter is not None else "Final scores"
    head.append(f"{when}: " + ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores))
                + "; winner" + ("s " if len(winners) > 1 else " ") + " and ".join(names[w] for w in winners) + ".")
    if quitter is not None:
        head.append(f"{names[quitter]} resigned: the review ends there, and each player's result in the split "
                    f"below is the score they could expect at that moment, not the score above.")
    return "\n".join(head) + "\n\n" + format_review(review, names, _where(rec, steps, you), budget, text.LUCK,
                                                   move_words(text))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record (JSON), or a tournament's JSONL file")
    p.add_argument("--game", default=None, metavar="N",
                   help="which game of a file with several (1 = the first; default: the only one); a game's "
                        "name is checked against the record, which names its game")
    p.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS,
                   help="search iterations per decision (default: the server's default level's, as AnalyzeGame)")
    p.add_argument("--seat", type=int, default=None,
                   help="review this seat's decisions only (default: every seat's)")
    p.add_argument("--seed", type=int, default=0, help="seed of the searches (same seed, same review)")
    p.add_argument("--estimator-iterations", type=int, default=256,
                   help="the fixed search that judges every decision and draw, whatever --iterations (docs/search.md)")
    p.add_argument("--key-moments", type=int, default=5, help="how many key moments to list")
    p.add_argument("--server", default=None, metavar="HOST:PORT",
                   help="let a server review it (games.v1's AnalyzeGame) instead of searching here")
    p.add_argument("--plot", default=None, metavar="PNG",
                   help="write the win-probability graph to this PNG file (needs the `plots` extra)")
    p.add_argument("--json", default=None, metavar="FILE",
                   help="write the record with the review in it (its `review` field: docs/records.md)")


def main(args: argparse.Namespace, out=None) -> int:
    out = out or sys.stdout
    try:
        if args.iterations is not None and args.iterations < 1:
            raise ValueError("--iterations must be at least 1")
        if args.estimator_iterations < 1:
            raise ValueError("--estimator-iterations must be at least 1")
        for flag, path in (("--plot", args.plot), ("--json", args.json)):
            folder = os.path.dirname(os.path.abspath(path)) if path else ""
            if path and not os.path.isdir(folder):    # before a review that may take minutes
                raise ValueError(f"{flag} {path}: the folder {folder} does not exist")
        rec = pick_game(args.file, args.game)
        if args.server:
            from clients.client import ServiceError

            try:
                review, steps = review_remote(rec, args.server, args.iterations, args.seed, args.key_moments,
                                              seat=args.seat)
            except ServiceError as e:
                raise ValueError(f"the server refused the review: {e}") from None
        else:
            review, steps = review_local(rec, args.iterations, args.seed, args.key_moments, args.estimator_iterations,
                                         seat=args.seat)
    except OSError as e:
        print(f"spellbook-ai review: {e}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"spellbook-ai review: {e}", file=sys.stderr)
        return 2
    where = f"by {args.server}, " if args.server else ""
    budget = review_budget(rec, args.iterations)
    print(review_text(rec, review, steps, f"{where}{budget} search iterations a decision", you=args.seat), file=out)
    try:
        if args.json:
            with open(args.json, "w") as f:
                f.write(records.dumps(dict(rec, review=review_data(review, budget, rec, steps)), indent=1) + "\n")
            print(f"The record with its review: {args.json}", file=out)
        if args.plot:
            from clients.plots import win_probability_graph

            win_probability_graph(review.graph(), seat_names(rec), args.plot,
                                  [(d.index, d.seat, d.mistake) for d in review.decisions])
            print(f"The win-probability graph: {args.plot}", file=out)
    except (OSError, ImportError) as e:
        print(f"spellbook-ai review: {e}", file=sys.stderr)
        return 2
    return 0


def review_data(review, iterations: int, rec: dict | None = None, steps=None) -> dict:
    """The review as the record's `review` field (docs/records.md): per decision its class, loss, accuracy
    and every seat's win probability before it (the graph), per seat accuracy and the luck split; with the
    record and its steps, each decision's round and label too (as AnalyzeGame's)."""
    text = game_of(rec).text if rec is not None and steps is not None else None

    labels = records.decision_labels(text, steps) if text is not None else []

    def where(d) -> dict:
        return {} if text is None else {"round": text.round_of(steps[d.index][0]), "label": labels[d.index]}

    return {"iterations": iterations, "estimator_iterations": review.estimator_iterations,
            "decisions": [{"decision": d.index, **where(d), "seat": d.seat, "played": str(d.played), "best": str(d.best),
                           "class": d.mistake, "loss": round(d.loss_win, 5), "loss_margin": round(d.loss_margin, 5),
                           "loss_points": round(d.loss_points, 3), "accuracy": round(d.accuracy, 2),
                           "win_probabilities": [round(w, 5) for w in d.win_probabilities],
                           **({} if d.win_next is None else {"win_next": round(d.win_next, 5)})}
                          for d in review.decisions],
            "players": [{"seat": p.seat, "accuracy": None if p.accuracy is None else round(p.accuracy, 2),
                         "expected_start": round(p.expected_start, 3), "luck": round(p.luck, 3),
                         "decisions": round(p.decisions, 3), "others": round(p.others, 3), "final": p.final}
                        for p in review.players]}
