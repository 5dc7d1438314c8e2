"""games.v1 (server/games_service.py, clients/client.py GameClient): one game-neutral API serving every game
of engine_c/registry.py, parametrized over GAMES so that a new game is covered by adding its folder.

Secrecy is checked generically: what the server shows a seat (its observation, its view) must not change
when everything that seat cannot see is resampled (State.determinize), and the same for a spectator over
every seat's resampling; the per-game expectations below add what each game's rules say."""
from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

import grpc
import pytest

from clients.client import GameClient, InvalidArgument, Observation, ServiceError
from engine_c import records
from engine_c.contract import request_setup, seat_view
from engine_c.registry import GAMES, get_game
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 11
FAST = dict(iterations=40, seed=1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = ServerConfig(address="127.0.0.1:0", web_address="127.0.0.1:0",
                          db=str(tmp_path_factory.mktemp("games") / "sessions.db"),
                          service=ServiceConfig(workers=1, queue_size=16, bot_workers=1))
    with ServerThread(config) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(server):
    with GameClient(f"127.0.0.1:{server.port}", timeout=60) as c:
        yield c


def initial(name: str, seed: int = SEED):
    """The state a session or NewGame of `name` with `seed` and the default setup starts from (the truth)."""
    g = get_game(name)
    return records.new_game(name, g.min_players, request_setup(g.record)(g.setup_default), seed)


def worlds(state, seat: int, n: int = 4) -> list:
    """States `seat` cannot tell from `state`: everything it cannot see resampled."""
    return [state.determinize(seat, seed=k) for k in range(1, n + 1)]


def assert_hides_the_rest(name: str, state, seat: int | None, shown_view: dict, shown_observation: str = ""):
    """What the server showed `seat` (None: the spectator) is what the game's view gives, and the same in
    every world that seat cannot tell apart (for a spectator: whichever seat's hidden part is resampled)."""
    view = seat_view(get_game(name).text)
    assert shown_view == json.loads(json.dumps(view(state, seat)))
    others = [w for s in ([seat] if seat is not None else range(len(records.totals(state))))
              for w in worlds(state, s)]
    assert any(w.to_text() != state.to_text() for w in others), "the resampled worlds differ from the truth"
    for w in others:
        assert json.loads(json.dumps(view(w, seat))) == shown_view
        if seat is not None:
            assert w.observation(seat) == shown_observation


# ----------------------------------------------------------------------------------------------
# Rules and search
# ----------------------------------------------------------------------------------------------
def test_list_games_lists_every_registered_game(client):
    listed = client.list_games()
    assert [g.name for g in listed] == list(GAMES)
    for info in listed:
        g = get_game(info.name)
        assert (info.title, info.min_players, info.max_players, info.setup_field) == \
               (g.title, g.min_players, g.max_players, g.setup)
        assert bool(info.own_api) == (g.layer("service") is not None)
        assert info.has_reasons == (g.reasons is not None) and info.setup_help == g.setup_help
    assert dict((g.name, g.own_api) for g in listed)["spellbooktcg"] == ""


@pytest.mark.parametrize("name", GAMES)
def test_new_game_legal_moves_and_apply_move(client, name):
    g = get_game(name)
    state = client.new_game(seed=SEED, game=name)
    assert state.to_text() == initial(name).to_text()
    moves = client.legal_moves(state, game=name)
    assert [m.code for m in moves] == [m.code for m in state.legal_moves()]
    after, chance = client.apply_move(state, moves[0], resolve_chance=True, game=name)
    local = state.clone()
    local.apply(moves[0])
    local.resolve_chance()
    assert after.to_text() == local.to_text() and isinstance(chance, list)
    seat = state.current_player
    seen = client.legal_moves(Observation(state.observation(seat), seed=3), game=name)
    assert [m.code for m in seen] == [m.code for m in moves]
    assert isinstance(after, g.State)


@pytest.mark.parametrize("name", GAMES)
def test_best_move_and_hints_from_a_seats_observation(client, name):
    g = get_game(name)
    state = initial(name)
    seat = state.current_player
    obs = Observation(state.observation(seat), seed=2)
    best = client.best_move(obs, seat=seat, game=name, **FAST)
    assert best.move.code in {m.code for m in state.legal_moves()}
    assert best.stats.iterations >= 40 and best.stats.player == seat
    hints = client.hints(obs, seat=seat, top_k=3, fixed_budget=True, game=name, **FAST)
    assert hints.hints and hints.hints[0].rank == 1 and all(h.verdict for h in hints.hints)
    assert all(h.move.text and h.move.words for h in hints.hints)
    assert hints.confidence.stopped_by == "fixed"
    if g.reasons is not None:
        assert any(h.reasons for h in hints.hints)
    assert (hints.insight is not None) == (g.insight is not None)
    hidden = client.hints(obs, seat=seat, top_k=2, hide_best=True, fixed_budget=True, game=name, **FAST)
    assert not hidden.hints[0].move.text and not hidden.stats.moves and hidden.insight is None


# ----------------------------------------------------------------------------------------------
# Sessions
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_session_shows_each_caller_only_what_it_may_see(client, name):
    created = client.create_session(["client", "client"], seed=SEED, game=name)
    truth = initial(name)
    me = client.get_session(created, seat=0)
    assert (me.game, me.seat, me.seq, me.over, me.state_text) == (name, 0, 0, False, "")
    assert me.observation == truth.observation(0)
    assert_hides_the_rest(name, truth, 0, json.loads(me.view_json), me.observation)
    spectator = client.get_session(created, token=created.spectator_token)
    assert spectator.seat == -1 and not spectator.observation and not spectator.legal_moves
    assert_hides_the_rest(name, truth, None, json.loads(spectator.view_json))
    with pytest.raises(ServiceError) as e:
        client.get_session(created, seat=1, token=created.spectator_token)
    assert e.value.code == grpc.StatusCode.PERMISSION_DENIED
    # the records of the two seats: each hides what its seat may not see, as the game's record module says
    full = records.setup_events(len(records.totals(truth)), None, SEED, game=name,
                                setup=request_setup(get_game(name).record)(get_game(name).setup_default))
    for seat in (0, 1):
        rec = client.export_session(created, token=created.seat_tokens[seat])
        public = get_game(name).record.PUBLIC        # SpellBook: every draw is public, its record is whole
        assert rec.get("view") == (None if public else f"seat {seat}")
        assert "seed" not in rec and rec.get("game", "spellbook") == name
        expected = records.for_viewer({"game": name, "status": "active", "events": full}, seat)["events"]
        assert [e["move"] for e in rec["events"]] == [e["move"] for e in expected]
        for e, truth_e in zip(rec["events"], full):
            if not records.visible_to(get_game(name).record, truth_e, seat):
                assert e["move"] != truth_e["move"] and e["move"].endswith("?")
    # what only the game's rules say a seat may not see (a game without an entry: the record module's own
    # `visible`, checked above, is all there is)
    secrets_of = SECRETS.get(name, lambda events, full: None)
    secrets_of(client.export_session(created, token=created.seat_tokens[0])["events"], full)


def _tcg_secrets(events, full):
    """The TCG (TI-2, TI-4): seat 0 sees its own draws, never seat 1's."""
    assert all(e["move"].endswith("?") == (t.get("to") == 1) for e, t in zip(events, full))


def _aw_secrets(events, full):
    """Abracada…What? (XI2): seat 0 sees every hand but its own."""
    own = [e for e, t in zip(events, full) if t.get("zone") == "hand" and t.get("to") == 0]
    assert own and all(e["move"] == records.HIDDEN_STONE for e in own)
    assert all(e["move"] == t["move"] for e, t in zip(events, full) if t.get("to") == 1)


SECRETS = {"spellbook": lambda events, full: None, "abracadawhat": _aw_secrets, "spellbooktcg": _tcg_secrets}


@pytest.mark.parametrize("name", GAMES)
def test_a_session_with_a_bot_moves_watches_and_exports(client, name):
    created = client.create_session(["client", "bot:1"], seed=SEED + 1, game=name)
    view = client.get_session(created, seat=0)
    assert view.to_move == 0 and view.legal_moves
    played = 0
    while view.to_move == 0 and not view.over and played < 60:      # the client's turn, to its end
        done = client.submit_move(created, 0, view.legal_moves[0].text, expected_seq=view.seq)
        assert done.events and done.events[0].seat == 0
        played += 1
        view = client.get_session(created, seat=0)
    assert view.to_move != 0 or view.over
    with pytest.raises(ServiceError) as e:                            # a bot seat is not the client's
        client.submit_move(created, 1, "x", expected_seq=view.seq)
    assert e.value.code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.PERMISSION_DENIED)
    last = client.get_session(created, seat=0).seq
    events = []
    for ev in client.watch_session(created, from_seq=1, timeout=30):
        events.append(ev)
        if ev.kind == "end" or ev.seq >= last:
            break
    assert [ev.seq for ev in events] == list(range(1, len(events) + 1)) and events[-1].seq >= last
    assert sum(1 for ev in events if ev.kind == "move" and ev.seat == 0) == played
    assert all(not ev.move.text for ev in events if ev.hidden)
    if name == "spellbooktcg":          # the other seat's cards drawn are hidden from seat 0
        assert all(ev.hidden for ev in events if ev.kind in ("deal", "draw") and ev.to == 1)
    rec = client.export_session(created)      # the spectator's (the client's pick without a seat)
    whole = get_game(name).record.PUBLIC or rec["status"] == "finished"      # a short game may be over by now
    assert (rec["view"] == "spectator") if not whole else ("view" not in rec)


# ----------------------------------------------------------------------------------------------
# Matches and reviews
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_play_match_to_the_end_and_analyze_its_record(client, name):
    items = list(client.play_match(["random", "random"], seed=SEED, game=name, timeout=120))
    assert items[0].session_id and items[0].spectator_token
    end = items[-1].end
    assert end.finished and end.moves == sum(1 for i in items if i.HasField("move"))
    rec = json.loads(end.record_json)
    assert rec["status"] == "finished" and rec["session_id"] == items[0].session_id
    assert rec.get("game", "spellbook") == name and rec["seed"] == SEED
    review = client.analyze_game(rec, iterations=20, key_moments=3, timeout=120)
    assert review.decisions and review.total_decisions >= len(review.decisions)
    assert list(review.result.scores) == list(end.scores) and len(review.players) == 2
    assert all(d.label and d.played.text for d in review.decisions)


# ----------------------------------------------------------------------------------------------
# Refusals, credentials, the gateway
# ----------------------------------------------------------------------------------------------
def _refused(call) -> list[str]:
    with pytest.raises(InvalidArgument) as e:
        call()
    return e.value.fields


def test_a_request_names_a_known_game(client):
    state = initial("spellbook")
    for game in ("", "chess"):
        assert _refused(lambda: client.new_game(game=game or None) if game else
                        client._call(client.stub.NewGame, client._gspb.NewGameRequest(), 10)) == ["game"]
    with pytest.raises(InvalidArgument) as e:
        client.best_move(state, game="chess")
    assert e.value.fields == ["game"] and all(n in e.value.field_violations[0][1] for n in GAMES)
    with pytest.raises(ValueError):
        GameClient("127.0.0.1:1").new_game()       # no game named: refused before any call


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_is_refused_naming_the_field(client, name):
    state = initial(name)
    assert _refused(lambda: client.new_game(setup="nonsense", game=name)) == ["setup"]
    assert _refused(lambda: client.create_session(["client", "bot:1"], setup="nonsense", game=name)) == ["setup"]
    assert _refused(lambda: client.apply_move(state, "no such move", game=name)) == ["move.text"]
    assert _refused(lambda: client.legal_moves("garbage", game=name)) == ["state.text"]
    assert _refused(lambda: client.best_move(Observation("garbage"), game=name)) == ["state.observation"]
    assert _refused(lambda: client.best_move(state, iterations=-1, game=name)) == ["limits.iterations"]
    assert _refused(lambda: client.best_move(state, options={"exploration": -1.0}, game=name, **FAST)) == \
        ["options.exploration"]
    assert _refused(lambda: client.apply_move(Observation(state.observation(0)), "x", game=name)) == \
        ["state.observation"]
    assert _refused(lambda: client.analyze_game({"format": "spellbook-record"}, game=name)) == ["record_json.version"]


def test_a_tcg_setup_names_no_file_on_the_server(client):
    assert _refused(lambda: client.new_game(setup="/etc/hostname", game="spellbooktcg")) == ["setup"]
    state = client.new_game(setup="fire_shock,frost_ward", seed=1, game="spellbooktcg")
    assert state.to_text() == records.new_game("spellbooktcg", 2, "fire_shock,frost_ward", 1).to_text()


def test_with_api_keys_a_call_without_a_key_is_refused():
    with ServerThread(ServerConfig(address="127.0.0.1:0", api_keys=frozenset({"k-games"}))) as srv:
        with GameClient(f"127.0.0.1:{srv.port}", timeout=10) as anonymous:
            with pytest.raises(ServiceError) as e:
                anonymous.list_games()
            assert e.value.code == grpc.StatusCode.UNAUTHENTICATED
        with GameClient(f"127.0.0.1:{srv.port}", api_key="k-games", timeout=10) as keyed:
            assert [g.name for g in keyed.list_games()] == list(GAMES)


def test_the_connect_gateway_serves_games_v1_with_json(server):
    def post(method: str, body: dict):
        req = urllib.request.Request(f"http://127.0.0.1:{server.web_port}/games.v1.GameService/{method}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    status, body = post("NewGame", {"game": "spellbooktcg", "seed": "3"})
    assert status == 200 and body["state"]["text"] == initial("spellbooktcg", 3).to_text()
    # the table as the seat to move sees it, for a board of a replayed position (the page's review)
    assert json.loads(body["state"]["viewJson"])["hand"] == initial("spellbooktcg", 3).hand(0)
    status, body = post("ListLegalMoves", {"game": "chess", "state": {"text": "x"}})
    assert status == 400 and body["code"] == "invalid_argument"
    assert body["details"][0]["debug"]["fieldViolations"][0]["field"] == "game"


@pytest.mark.parametrize("name", GAMES)
def test_each_games_levels_with_their_measured_strength(client, name):
    """GetLevels: levels 1-10 of the game's own table, each in words, with the Elo of the game's ladder where
    the checkout ships one (and then strictly rising for the TCG, whose table D189 spaced by it)."""
    from search.levels import describe_levels

    g = get_game(name)
    answer = client.levels(game=name)
    assert answer.game == name and [lv.level for lv in answer.levels] == list(range(1, 11))
    assert [lv.iterations for lv in answer.levels] == [d["iterations"] for d in describe_levels(game=g.adapter)]
    assert all(lv.description and lv.name and lv.meaning for lv in answer.levels)
    assert 1 <= answer.default_level <= 10 and 1 <= answer.default_bot_level <= 10
    if os.path.exists(os.path.join(ROOT, g.ladder)):
        assert answer.elo_anchor.endswith("= 1000") and all(lv.HasField("elo") for lv in answer.levels)
    if name == "spellbooktcg":
        elo = [lv.elo for lv in answer.levels]
        assert elo == sorted(elo) and answer.elo_anchor == "greedy = 1000"
    assert _refused(lambda: client.levels(game="chess")) == ["game"]
