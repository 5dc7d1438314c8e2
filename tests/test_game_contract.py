"""The game contract (engine_c/contract.py): a game lacking an optional part gets the documented default,
and the layers reach a game through the contract, never by probing it."""
import re
from pathlib import Path

import pytest

from engine_c.base import CompiledGameAdapter
from engine_c.contract import Declaration, Game, GameAdapter
from engine_c.registry import GAMES, all_games, get_game
from engine_c.spellbook._engine import game_vtable
from engine_c.spellbook.state import Move, State
from search import SearchOptionError, SearchOptions, ismcts
from search.coach import hint_doublings, hint_family
from search.levels import default_level, level_options

ROOT = Path(__file__).resolve().parent.parent


class BareSpellBook(CompiledGameAdapter):
    """SpellBook's compiled core with none of the optional parts: what a new game starts as."""

    name = "bare"
    State, Move = State, Move

    def __init__(self):
        self.vtable = game_vtable()


def test_a_game_without_optional_parts_gets_the_documented_defaults():
    bare = BareSpellBook()
    st = State.new(players=2, seed=5)
    moves = st.legal_moves()
    assert bare.level_table is None and bare.policy_levels == {} and bare.network_levels == frozenset()
    assert bare.bots == {} and bare.move_values is None and bare.new_belief is None
    assert bare.default_model_path is None and not bare.public_chance and bare.tree_reuse
    assert bare.senseless_moves(st, moves) == []
    family = hint_family(bare, st)
    assert len({family(m) for m in moves}) == len(moves)        # every move its own family
    assert hint_doublings(bare) == GameAdapter.hint_doublings
    # the generic level tables and the rollout search (no model), and the search plays it
    assert default_level(bare) == 5 and level_options(3, game=bare).evaluator in ("auto", "rollout")
    result = ismcts(bare, st, SearchOptions(iterations=60, seed=1))
    assert result.move in moves and result.model == ""
    # what it lacks is refused, naming the option
    with pytest.raises(SearchOptionError, match="belief: bare offers no belief"):
        ismcts(bare, st, SearchOptions(iterations=10, belief=True))
    with pytest.raises(SearchOptionError, match="evaluator: bare ships no model"):
        ismcts(bare, st, SearchOptions(iterations=10, evaluator="network"))
    with pytest.raises(SearchOptionError, match="chance"):
        ismcts(bare, st, SearchOptions(iterations=10, chance="expected"))


@pytest.mark.parametrize("name", GAMES)
def test_each_game_folder_declares_itself_and_is_resolved_once(name):
    g = get_game(name)
    assert isinstance(g, Game) and get_game(g) is g and isinstance(g.adapter, GameAdapter)
    decl = __import__(f"{g.package}.game", fromlist=["DECLARATION"]).DECLARATION
    assert isinstance(decl, Declaration) and decl.adapter is g.adapter and decl.title == g.title
    assert (g.min_players, g.max_players) == decl.players
    if g.layer("service") is not None:       # a served game has its page's folder and its API package
        assert (ROOT / "server" / "static" / "games" / name / "game.js").exists()
        assert (ROOT / "proto" / name / "v1").is_dir()


def test_games_are_listed_in_their_declared_order():
    assert [g.name for g in all_games()] == list(GAMES)
    orders = [g.order for g in all_games()]
    assert orders == sorted(orders)


def test_search_reaches_a_game_only_through_the_contract():
    """No `hasattr`/`getattr` probing of a game adapter in search/: every optional part has its default."""
    for path in sorted((ROOT / "search").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(hasattr|getattr)\(\s*(self\.)?(game|adapter)\b", text), path


def _imports(package: str) -> dict[str, set[str]]:
    """Each module of a package's folder and the modules of the same folder it imports (anywhere in it)."""
    import ast

    graph = {}
    for path in sorted((ROOT / package).glob("*.py")):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith(package + "."):
                    deps.add(node.module.split(".")[1])
                elif node.module == package:
                    deps |= {a.name for a in node.names}
            elif isinstance(node, ast.Import):
                deps |= {a.name.split(".")[1] for a in node.names if a.name.startswith(package + ".")}
        graph[path.stem] = {d for d in deps if d != path.stem and (ROOT / package / f"{d}.py").exists()}
    return graph


@pytest.mark.parametrize("package", ["search", "clients", "server", "engine_c"])
def test_no_circle_of_imports_across_files(package):
    """Issue 48: a layer's modules import one another one way only (function-level imports count too)."""
    graph = _imports(package)

    def reaches(start: str, goal: str, seen: set) -> bool:
        return any(nxt == goal or (nxt not in seen and not seen.add(nxt) and reaches(nxt, goal, seen))
                   for nxt in graph.get(start, ()))

    circles = sorted(m for m in graph if reaches(m, m, set()))
    assert circles == [], f"modules on an import circle in {package}/: {circles}"


def test_a_game_without_a_layer_is_offered_where_it_has_one(monkeypatch, capsys):
    """A game folder may land before its service, terminal or OpenSpiel adapter: `Game.layer` is None for a
    part it does not have, the server serves the others, OpenSpiel says so, and the terminal plays it through
    the generic terminal (clients/play_generic.py)."""
    import dataclasses

    from clients.cli import main as cli_main
    from clients.openspiel_common import adapter_module
    from engine_c import registry
    from server.main import ServerConfig, ServerThread

    aw = get_game("abracadawhat")
    bare = dataclasses.replace(aw, name="bare", title="Bare", terminal="clients.play_bare", service="server.bare_service",
                               openspiel="clients.openspiel_bare")
    assert bare.layer("terminal") is None and bare.layer("service") is None and bare.layer("openspiel") is None
    assert aw.layer("service") is not None
    with pytest.raises(ValueError, match="Bare has no OpenSpiel adapter yet"):
        adapter_module(bare)
    monkeypatch.setattr(registry, "GAMES", registry.GAMES + ("bare",))
    monkeypatch.setitem(registry._cache, "bare", bare)
    assert cli_main(["demo", "--game", "bare", "--seed", "2"]) == 0
    assert capsys.readouterr().out.startswith("Bare demo: 2 players, seed 2")
    monkeypatch.setattr("server.main.all_games", lambda: [get_game(n) for n in registry.GAMES])
    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
        served = {n for n in GAMES if get_game(n).layer("service") is not None}
        assert served and set(srv._server.services) == served     # every game with a service, and no other


def test_a_game_adapter_without_its_required_conversions_is_refused():
    """The required conversions are abstract: a game that lacks one fails when its adapter is made, not in
    the middle of a search."""
    class Incomplete(GameAdapter):
        name = "incomplete"

    with pytest.raises(TypeError, match="abstract"):
        Incomplete()
    assert BareSpellBook().legal_moves(State.new(players=2, seed=1))
