"""The web page's speed in a real browser (Debian's Chromium, headless, through Playwright): one JSON line.

    python bench/web.py [--game spellbook --game abracadawhat] [--players 2] [--loads 10] [--moves 40] [--level 9] [--seed 1]

One line per game (default: every game with a page folder, server/static/games/NAME/), each with its "game".

The server runs in this process (server.main.ServerThread with `web_address`), the page in Chromium.

- page_load_ms: from navigation to the page ready for a game of this game (the page, its modules,
  /games.json, the game chosen and its levels listed), over `--loads` fresh tabs (p50, p90, max; the first
  load separately: nothing in the browser's cache).
- move round trip: in a game against one bot at `--level`, each click on a legal move until our next
  decision is shown, with the bot's moves (and the draws) of its Day in between, shown in the log as
  they happen. The bot's search time in that interval is read from the server's own counter
  (spellbook_search_seconds_total: every bot search adds its elapsed time), so
  `move_overhead_ms` = round trip - bot search time: what the browser, the Connect gateway, the session
  calls and the page's drawing add. Clicks answered by our own next step (no bot move between) are
  reported apart (`own_step_ms`). `in_page_*`: the same intervals timed by the page itself (User Timing
  marks from the click's handler to our next decision drawn), without Playwright's click and polling.
- the same without a browser, as a yardstick (`grpc_move_overhead_ms`, `grpc_own_step_ms`): the Python gRPC
  client of games.v1 submits a move, follows WatchSession until it decides again and reads its view, as the
  page does; the difference to `move_overhead_ms` is what the browser, the gateway and the drawing add.

Time-based: measured on whatever else the machine runs; the line carries the load average.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine_c.registry import all_games, get_game  # noqa: E402
from server import metrics  # noqa: E402
from server.main import ServerConfig, ServerThread  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "body[data-ready={game}]"
OUR_TURN = "#move-list button[data-move]:not([disabled])"
STATIC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "server", "static", "games")
PAGE_GAMES = [g.name for g in all_games() if os.path.isfile(os.path.join(STATIC, g.name, "game.js"))]


def quantiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {"n": len(values), "p50": round(statistics.median(ordered), 1),
            "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1), "max": round(ordered[-1], 1)}


def ready(page, url: str, game: str) -> None:
    """Opens the page and chooses `game` (the form filled with its levels)."""
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    if page.evaluate("document.body.dataset.ready") != game:
        page.select_option("#game-choice", game)
    page.wait_for_selector(READY.format(game=game), state="attached")


def page_loads(context, url: str, loads: int, game: str) -> tuple[float, list[float]]:
    times = []
    for _ in range(loads):
        page = context.new_page()
        started = time.perf_counter()
        ready(page, url, game)
        times.append((time.perf_counter() - started) * 1000)
        page.close()
    return times[0], times[1:]


def search_seconds() -> float:
    return metrics.SEARCH_SECONDS._value.get()


IN_PAGE_JS = """() => {
  const move = performance.getEntriesByName("spellbook:move").pop(), turn = performance.getEntriesByName("spellbook:turn").pop();
  performance.clearMarks();
  return move && turn && turn.startTime > move.startTime ? turn.startTime - move.startTime : null;
}"""
page_overheads: list = []      # the same round trips timed by the page itself (User Timing marks)
page_own: list = []


def round_trips(context, url: str, game: str, players: int, level: int, moves: int,
                rng: random.Random) -> tuple[list, list, list, bool]:
    """(overheads with a bot answer, their raw round trips, own-step round trips, game over)."""
    page = context.new_page()
    ready(page, url, game)
    page.select_option("#players", str(players))
    page.select_option("#level", str(level))
    page.click("#start")
    overheads, raw, own = [], [], []
    while len(raw) + len(own) < moves:
        page.wait_for_selector(f"{OUR_TURN}, #review-button:not([hidden])")
        if page.is_visible("#review-button"):
            return overheads, raw, own, True
        buttons = page.locator(OUR_TURN)
        count = buttons.count()
        if count == 0:
            continue
        bots_before = page.locator("#log li.bot").count()
        page.evaluate("() => performance.clearMarks()")
        searched = search_seconds()
        started = time.perf_counter()
        try:
            buttons.nth(rng.randrange(count)).click(timeout=2000)
        except Exception:           # the board changed under the click: look again
            continue
        page.wait_for_selector(f"{OUR_TURN}, #review-button:not([hidden])")
        elapsed = (time.perf_counter() - started) * 1000
        in_page = page.evaluate(IN_PAGE_JS)
        bot_ms = (search_seconds() - searched) * 1000
        if page.locator("#log li.bot").count() > bots_before:
            raw.append(elapsed)
            overheads.append(elapsed - bot_ms)
            if in_page is not None:
                page_overheads.append(in_page - bot_ms)
        else:
            own.append(elapsed)
            if in_page is not None:
                page_own.append(in_page)
    page.close()
    return overheads, raw, own, False


def grpc_control(port: int, game: str, players: int, level: int, moves: int,
                 rng: random.Random) -> tuple[list, list]:
    """The same round trip without the browser: the Python gRPC client (games.v1) submits a move, follows
    WatchSession until it is to move again, then reads its view (GetSession), as the page does.
    (overheads with a bot answer, own-step round trips)."""
    import queue
    import threading

    from clients.client import GameClient

    overheads, own = [], []
    with GameClient(f"127.0.0.1:{port}", game=game, timeout=60) as client:
        while len(overheads) + len(own) < moves:
            sid = client.create_session(["client"] + [f"bot:{level}"] * (players - 1))
            events: queue.Queue = queue.Queue()
            threading.Thread(target=follow, args=(client, sid, events), daemon=True).start()
            view = client.get_session(sid, 0)
            while not view.over and len(overheads) + len(own) < moves:
                searched, started, bots = search_seconds(), time.perf_counter(), 0
                client.submit_move(sid, 0, rng.choice(view.legal_moves).text, expected_seq=view.seq)
                view, bots = wait_for_turn(client, sid, events, view.seq)
                while len(view.legal_moves) == 1 and not view.over:      # forced: the page plays these itself
                    client.submit_move(sid, 0, view.legal_moves[0].text, expected_seq=view.seq)
                    view, more = wait_for_turn(client, sid, events, view.seq)
                    bots += more
                elapsed = (time.perf_counter() - started) * 1000
                if bots:
                    overheads.append(elapsed - (search_seconds() - searched) * 1000)
                else:
                    own.append(elapsed)
    return overheads, own


def follow(client, sid: str, events) -> None:
    """WatchSession into a queue, until the game ends or the client closes."""
    try:
        for event in client.watch_session(sid, 1, timeout=600):
            events.put(event)
    except Exception:           # the client closed at the end of the measurement
        pass


def wait_for_turn(client, sid: str, events, after_seq: int):
    """Follows the events after `after_seq` until seat 0 decides again (an event naming it, confirmed by
    its view, as the page refreshes) or the game ends: (its view, the bot's moves seen)."""
    bots = 0
    while True:
        event = events.get(timeout=60)
        if event.seq <= after_seq and event.kind != "end":
            continue
        bots += event.kind == "move" and event.seat != 0
        if event.kind == "end" or event.to_move == 0:
            view = client.get_session(sid, 0)
            if view.over or view.to_move == 0:
                return view, bots


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--loads", type=int, default=10, help="page loads measured")
    p.add_argument("--moves", type=int, default=40, help="clicks measured (a new game when one ends)")
    p.add_argument("--level", type=int, default=9,
                   help="the bot's level (9: 100 network iterations, the budget level 3 had before D104)")
    p.add_argument("--seed", type=int, default=1, help="which legal moves the clicks choose")
    p.add_argument("--game", action="append", choices=PAGE_GAMES,
                   help="the game measured (repeat for several; default: every game with a page folder)")
    p.add_argument("--players", type=int, default=2,
                   help="players at the table: you and the bots (within each game's counts)")
    a = p.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rng = random.Random(a.seed)
    with ServerThread(ServerConfig(address="127.0.0.1:0", web_address="127.0.0.1:0")) as srv, \
            sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        context = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                        headless=True, viewport={"width": 1200, "height": 900})
        url = f"http://127.0.0.1:{srv.web_port}/"
        for game in a.game or PAGE_GAMES:
            g = get_game(game)
            players = min(max(a.players, g.min_players), g.max_players)
            page_overheads.clear()
            page_own.clear()
            first, loads = page_loads(context, url, a.loads, game)
            overheads, raw, own, games = [], [], [], 0
            while len(raw) + len(own) < a.moves:
                o, r, s, _over = round_trips(context, url, game, players, a.level, a.moves - len(raw) - len(own), rng)
                overheads += o
                raw += r
                own += s
                games += 1
            line = {"bench": "web", "game": game, "players": players, "level": a.level,
                    "page_load_first_ms": round(first, 1), "page_load_ms": quantiles(loads),
                    "move_overhead_ms": quantiles(overheads), "move_roundtrip_ms": quantiles(raw),
                    "own_step_ms": quantiles(own), "games": games,
                    "in_page_move_overhead_ms": quantiles(page_overheads), "in_page_own_step_ms": quantiles(page_own)}
            control, control_own = grpc_control(srv.port, game, players, a.level, a.moves, rng)
            line.update(grpc_move_overhead_ms=quantiles(control), grpc_own_step_ms=quantiles(control_own))
            line.update(load_average=[round(x, 2) for x in os.getloadavg()], cpus=os.cpu_count())
            print(json.dumps(line), flush=True)
        context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
