"""The browsers' way in (server/web.py): the Connect protocol over HTTP on `serve --web-address`, served by
the same handlers, interceptors, credentials, errors and metrics as gRPC. The page itself is driven in a
real browser by tests/test_web_browser.py."""
from __future__ import annotations

import json
import struct
import time
import urllib.error
import urllib.request

import pytest

from clients.client import SpellBookClient
from server import metrics
from server.main import ServerConfig, ServerThread, parse_args

SERVICE = "spellbook.v1.SpellBookService"
KEY = "web-test-key-0123456789"


@pytest.fixture(scope="module")
def server():
    with ServerThread(ServerConfig(address="127.0.0.1:0", web_address="127.0.0.1:0")) as srv:
        yield srv


def post(srv, method: str, body, content_type: str = "application/json", headers: dict | None = None,
         host: str | None = None):
    """(HTTP status, headers, body) of a POST to the web port; a dict body is sent as JSON."""
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    req = urllib.request.Request(f"http://127.0.0.1:{srv.web_port}/{SERVICE}/{method}", data=data, method="POST",
                                 headers={"Content-Type": content_type, **(headers or {})})
    if host:
        req.add_header("Host", host)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def envelope(message: dict) -> bytes:
    data = json.dumps(message).encode()
    return struct.pack(">BI", 0, len(data)) + data


def envelopes(body: bytes) -> list[tuple[int, dict]]:
    """The (flags, message) of a Connect streaming response body."""
    out, i = [], 0
    while i < len(body):
        flags, length = struct.unpack_from(">BI", body, i)
        out.append((flags, json.loads(body[i + 5:i + 5 + length])))
        i += 5 + length
    return out


def new_session(srv, seats=({"kind": "SEAT_KIND_CLIENT"}, {"kind": "SEAT_KIND_CLIENT"})) -> dict:
    status, _, body = post(srv, "CreateSession", {"seats": list(seats), "seed": "7"})
    assert status == 200, body
    return json.loads(body)


def token(created: dict, seat: int) -> dict:
    return {"spellbook-session-token": next(t["token"] for t in created["seatTokens"] if t["seat"] == seat)}


def test_a_browser_call_gets_what_the_grpc_call_gets(server):
    created = new_session(server)
    status, headers, body = post(server, "GetSession", {"sessionId": created["sessionId"], "seat": 0},
                                 headers=token(created, 0))
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    web_view = json.loads(body)
    with SpellBookClient(f"127.0.0.1:{server.port}", timeout=10) as client:
        client.add_session_token(created["sessionId"], created["seatTokens"][0]["token"], seat=0)
        grpc_view = client.get_session(created["sessionId"], seat=0)
    assert web_view["observation"]["text"] == grpc_view.observation.text
    assert [m["text"] for m in web_view["legalMoves"]] == [str(m) for m in grpc_view.legal_moves]
    assert web_view["toMove"] == 0 and web_view["seq"] == "0"      # zeros are sent, int64 as a string (proto3 JSON)


def test_refusals_keep_their_code_and_field(server):
    status, _, body = post(server, "GetHints", {"state": {"text": "sb1 nonsense"}})
    error = json.loads(body)
    assert status == 400 and error["code"] == "invalid_argument"
    assert error["details"][0]["type"] == "google.rpc.BadRequest"
    assert error["details"][0]["debug"]["fieldViolations"][0]["field"] == "state.text"
    status, _, body = post(server, "GetHints", b'{"state": ')          # not JSON: named, not a crash
    assert status == 400 and json.loads(body)["code"] == "invalid_argument"
    assert "GetHintsRequest" in json.loads(body)["message"]
    status, _, body = post(server, "GetBestMove", {"limits": {"iterations": "-5"}, "state": {"text": "x"}})
    assert status == 400
    created = new_session(server)
    status, _, body = post(server, "SubmitMove", {"sessionId": created["sessionId"], "seat": 1,
                                                  "move": {"text": "draw"}}, headers=token(created, 1))
    error = json.loads(body)
    assert status == 400 and error["code"] == "failed_precondition"      # not seat 1's turn
    assert status == 400 and error["details"][0]["type"] == "google.rpc.PreconditionFailure"
    status, _, _ = post(server, "NoSuchMethod", {})
    assert status == 501
    status, _, _ = post(server, "GetServerInfo", b"{}", content_type="text/plain")
    assert status == 415


def test_a_seat_token_moves_only_its_own_seat_of_its_own_session(server):
    mine, other = new_session(server), new_session(server)
    for session, seat, code in ((mine, 1, "permission_denied"), (other, 0, "permission_denied")):
        status, _, body = post(server, "SubmitMove", {"sessionId": session["sessionId"], "seat": seat,
                                                      "move": {"text": "draw"}}, headers=token(mine, 0))
        assert (status, json.loads(body)["code"]) == (403, code)
    status, _, body = post(server, "SubmitMove", {"sessionId": mine["sessionId"], "seat": 0, "move": {"text": "draw"}})
    assert (status, json.loads(body)["code"]) == (401, "unauthenticated")
    spectator = {"spellbook-session-token": mine["spectatorToken"]}
    status, _, body = post(server, "SubmitMove", {"sessionId": mine["sessionId"], "seat": 0, "move": {"text": "draw"}},
                           headers=spectator)
    assert status == 403
    status, _, _ = post(server, "SubmitMove", {"sessionId": mine["sessionId"], "seat": 0, "move": {"text": "draw"},
                                               "expectedSeq": "0"}, headers=token(mine, 0))
    assert status == 200


def test_watch_session_streams_the_events_then_the_end_message(server):
    created = new_session(server, ({"kind": "SEAT_KIND_CLIENT"}, {"kind": "SEAT_KIND_BOT", "level": 1}))
    sid, seat0 = created["sessionId"], token(created, 0)
    post(server, "SubmitMove", {"sessionId": sid, "seat": 0, "move": {"text": "draw"}, "expectedSeq": "0"}, headers=seat0)
    status, headers, body = post(server, "WatchSession", envelope({"sessionId": sid, "fromSeq": "1"}),
                                 "application/connect+json", {**seat0, "Connect-Timeout-Ms": "1500"})
    assert status == 200 and headers["Content-Type"] == "application/connect+json"
    frames = envelopes(body)
    events = [m["event"] for flags, m in frames if flags == 0]
    assert events[0]["kind"] == "move" and events[0]["move"]["text"] == "draw" and events[0]["seq"] == "1"
    assert [e["kind"] for e in events[1:3]] == ["draw", "draw"]           # Draw 2: the Pouch's answer, live
    flags, end = frames[-1]
    assert flags == 2 and end["error"]["code"] == "deadline_exceeded"     # the game went on past the deadline
    status, _, body = post(server, "WatchSession", envelope({"sessionId": sid, "fromSeq": "1"}),
                           "application/connect+json")                      # no token: the end message says so
    assert envelopes(body)[-1][1]["error"]["code"] == "unauthenticated"


def test_analyze_streams_progress_then_one_final_message(server):
    state = json.loads(post(server, "NewGame", {"players": 2, "seed": "3"})[2])["state"]
    status, _, body = post(server, "Analyze", envelope({"state": {"text": state["text"]}, "limits": {"timeMs": 300},
                                                        "reportEveryMs": 50}), "application/connect+json")
    frames = envelopes(body)
    messages = [m for flags, m in frames if flags == 0]
    assert status == 200 and frames[-1] == (2, {})
    assert len(messages) >= 2 and [m["final"] for m in messages].count(True) == 1 and messages[-1]["final"]


def test_every_answer_sets_a_content_security_policy_and_other_origins_are_refused(server):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/", timeout=10) as r:
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert b'<script type="module" src="/static/app.js">' in r.read()
    status, headers, _ = post(server, "GetServerInfo", {})
    assert status == 200 and "connect-src 'self'" in headers["Content-Security-Policy"]
    status, headers, body = post(server, "GetServerInfo", {}, headers={"Origin": "http://evil.example"})
    assert status == 403 and "another origin" in json.loads(body)["message"]
    status, _, body = post(server, "GetServerInfo", {}, host="evil.example:80")          # DNS rebinding
    assert status == 403
    status, _, _ = post(server, "GetServerInfo", {}, headers={"Origin": f"http://127.0.0.1:{server.web_port}"})
    assert status == 200
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/static/..%2fweb.py", timeout=10)


def test_browser_calls_are_counted_logged_and_shared_fairly_like_grpc_ones(server, server_log):
    stream = server_log
    before = metrics.RPC_TOTAL.labels("GetSession", "PERMISSION_DENIED")._value.get()
    created = new_session(server)
    secret = token(created, 0)["spellbook-session-token"]
    post(server, "GetSession", {"sessionId": created["sessionId"], "seat": 1}, headers=token(created, 0))
    post(server, "GetSession", {"sessionId": created["sessionId"], "seat": 0},
         headers={**token(created, 0), "X-Request-Id": "web-req-1"})
    time.sleep(0.2)                 # a successful call's line is written on the loop's next turn
    assert metrics.RPC_TOTAL.labels("GetSession", "PERMISSION_DENIED")._value.get() == before + 1
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    calls = [line for line in lines if line.get("method") == "GetSession"]
    assert [c["code"] for c in calls] == ["PERMISSION_DENIED", "OK"]
    assert all(c["peer"].startswith("ipv4:127.0.0.1:") for c in calls)   # the browser's address: its fair share
    assert calls[1]["request_id"] == "web-req-1"
    text = stream.getvalue()
    assert secret not in text and created["spectatorToken"] not in text and created["sessionId"] not in text


def test_api_keys_guard_the_browsers_way_in_too():
    with ServerThread(ServerConfig(address="127.0.0.1:0", web_address="127.0.0.1:0", api_keys=frozenset({KEY}))) as srv:
        status, _, body = post(srv, "GetServerInfo", {})
        assert (status, json.loads(body)["code"]) == (401, "unauthenticated")
        assert post(srv, "GetServerInfo", {}, headers={"Authorization": f"Bearer {KEY}"})[0] == 200


def test_the_web_flag_is_checked(monkeypatch):
    monkeypatch.delenv("SPELLBOOK_API_KEYS", raising=False)
    assert parse_args(["--web-address", "127.0.0.1:8080", "--db", ":memory:"]).web_address == "127.0.0.1:8080"
    assert parse_args(["--db", ":memory:"]).web_address == ""                  # off unless asked (make serve asks)
    for bad in (["--web-address", "8080"], ["--web-address", "0.0.0.0:8080"]):   # not HOST:PORT; public, no TLS
        with pytest.raises(SystemExit):
            parse_args(bad + ["--db", ":memory:"])
    assert parse_args(["--web-address", "0.0.0.0:8080", "--insecure", "--db", ":memory:"]).web_address


def test_a_draining_server_ends_the_browsers_streams_and_refuses_new_calls():
    """SIGTERM's drain reaches the browsers too: a WatchSession ends with UNAVAILABLE (resume elsewhere)."""
    import threading

    srv = ServerThread(ServerConfig(address="127.0.0.1:0", web_address="127.0.0.1:0"))
    srv.start()
    created = new_session(srv)
    out: dict = {}
    watcher = threading.Thread(target=lambda: out.update(body=post(
        srv, "WatchSession", envelope({"sessionId": created["sessionId"], "fromSeq": "1"}), "application/connect+json",
        token(created, 0))[2]))
    watcher.start()
    time.sleep(0.5)
    srv.stop(grace=1.0)
    watcher.join(10)
    assert envelopes(out["body"])[-1][1]["error"]["code"] == "unavailable"


def test_the_gateway_routes_the_second_games_service_too(server):
    """POST /abracadawhat.v1.AbracadaWhatService/METHOD reaches the same handlers as gRPC (the page's
    Abracada…What? folder calls it); a seat's view over it hides the seat's own hand (XI2)."""
    def aw(method, body, headers=None):
        req = urllib.request.Request(f"http://127.0.0.1:{server.web_port}/abracadawhat.v1.AbracadaWhatService/{method}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    status, rules = aw("GetRules", {})
    assert status == 200 and rules["game"] == "abracadawhat" and len(rules["spells"]) == 8
    status, created = aw("CreateSession", {"seed": "3", "seats": [{"kind": "SEAT_KIND_CLIENT"},
                                                                   {"kind": "SEAT_KIND_BOT", "level": 1}]})
    assert status == 200
    status, view = aw("GetSession", {"sessionId": created["sessionId"]},
                      {"spellbook-session-token": created["seatTokens"][0]["token"]})
    assert status == 200 and [h["visible"] for h in view["state"]["view"]["hands"]] == [False, True]
    status, error = aw("NewGame", {"players": 9})
    assert status == 400 and error["details"][0]["debug"]["fieldViolations"][0]["field"] == "players"


def test_the_page_offers_one_folder_per_game_with_the_games_own_words(server):
    """GET /games.json lists static/games/NAME/ folders (SpellBook first), each with its module and what its
    engine says of its rules for a player: no rule id (XR3...) in it. Each folder's files are served."""
    import re

    with urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/games.json", timeout=10) as r:
        games = json.loads(r.read())
    assert [g["name"] for g in games] == ["spellbook", "abracadawhat", "spellbooktcg"]
    tcg = games[2]["help"]                       # the TCG's cards as its page draws them, and its starter decks
    assert {c["rarity"] for c in tcg["cards"]} == {"common", "rare", "epic"} and all(c["effect"] for c in tcg["cards"])
    assert [d["id"] for d in tcg["decks"]] == ["frost_ward", "fire_shock"] and not re.search(r"\b(T[A-Z]|X[A-Z]+)-?\d+\b", json.dumps(tcg))
    assert games[1]["title"] == "Abracada…What?" and (games[1]["minPlayers"], games[1]["maxPlayers"]) == (2, 5)
    assert len(games[1]["help"]["spells"]) == 8 and not re.search(r"\bX[A-Z]+\d+\b", json.dumps(games[1]["help"]))
    assert "●" in json.dumps(games[0]["help"], ensure_ascii=False)          # runes as the board draws them
    for g in games:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}{g['module']}", timeout=10) as r:
            assert r.headers["Content-Type"].startswith("text/javascript")


def test_no_module_of_the_service_imports_the_clients():
    """server/ sits below clients/: what the service needs of a game's text lives with the game (engine_c/)."""
    import ast
    from pathlib import Path

    for path in Path(__file__).resolve().parent.parent.joinpath("server").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n == "clients" or n.startswith("clients.") for n in names), f"{path} imports {names}"
