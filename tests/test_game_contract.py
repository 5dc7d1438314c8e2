"""The game contract (engine_c/contract.py): a game lacking an optional part gets the documented default,
and the layers reach a game through the contract, never by probing it."""
import re
from pathlib import Path

import pytest

from engine_c.base import CompiledGameAdapter
from engine_c.contract import Declaration, Game, GameAdapter
from engine_c.registry import DEFAULT_GAME, GAMES, all_games, get_game
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


# A game's own modules may name it: its folder, its layers (terminal, service, OpenSpiel adapter) and the
# modules named for it (clients/play_NAME.py, bench/engine_NAME.py, ...); these are the others that are a
# game's own without its name in theirs.
OWN_MODULES = {"bench/abracada.py", "bench/abracada_fit.py", "bench/abracada_moves_information.py"}


def _names_a_game(tree, names: set[str]) -> list[int]:
    """The lines of a module's code (not its docstrings) that compare with a game's name, default to one (a
    parameter, `default=`/`game=`, `.get("game", NAME)`, `getattr(args, "game", NAME)`), resolve one
    (`get_game(NAME)`), name one in a module constant, offer names as `choices` or key a table by them."""
    import ast

    def named(node) -> bool:
        return isinstance(node, ast.Constant) and node.value in names

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(named(x) for x in [node.left, *node.comparators]):
            lines.append(node.lineno)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(named(d) for d in [*node.args.defaults, *node.args.kw_defaults] if d is not None):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            if any(k.arg in ("default", "game", "choices") and (named(k.value) or any(
                    named(e) for e in getattr(k.value, "elts", []))) for k in node.keywords):
                lines.append(node.lineno)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and any(named(a) for a in node.args[1:]):
                lines.append(node.lineno)
            callee = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if (callee == "getattr" and any(named(a) for a in node.args[2:])) or \
                    (callee == "get_game" and any(named(a) for a in node.args)):
                lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and any(named(k) for k in node.keys):
            lines.append(node.lineno)
    lines += [node.lineno for node in tree.body if isinstance(node, ast.Assign) and named(node.value)]
    return lines


def test_shared_code_names_no_game():
    """Issue 48: what is generic names no game. What differs by game is declared in the game's folder (the
    contract's optional parts), a record that names none is read in one place (engine_c.records.game_of), and a
    call or command that names none plays registry.DEFAULT_GAME: no `== "spellbook"` branch or `game="spellbook"`
    default outside a game's own modules."""
    import ast

    names = set(GAMES)
    own = set(OWN_MODULES)
    for g in all_games():
        own |= {f"{path.replace('.', '/')}.py" for path in (g.terminal, g.service, g.openspiel)}
    found = []
    for folder in ("clients", "server", "search", "bench", "engine_c"):
        for path in sorted((ROOT / folder).glob("*.py")):
            rel = f"{folder}/{path.name}"
            if rel in own or any(name in path.stem for name in names):
                continue
            found += [f"{rel}:{line}" for line in _names_a_game(ast.parse(path.read_text(encoding="utf-8")), names)]
    assert found == [], f"shared code naming a game: {found}"
    assert DEFAULT_GAME == GAMES[0]


# The server's modules that are one game's own besides those named for it (server/spellbook_*.py) and the
# games' registered servicers: spellbook.v1's views and Abracada…What?'s.
GAME_SERVER_MODULES = {"server/convert.py", "server/aw_convert.py"}


def _game_imports(tree, names: set[str], own_modules: set[str]) -> list[str]:
    """`line:module` for each import (at any depth) of a game's folder (engine_c.NAME), its generated messages
    (server._gen.NAME) or one of `own_modules` (dotted names: a game's own server modules)."""
    import ast

    def forbidden(module: str) -> bool:
        parts = module.split(".")
        return (parts[0] in ("engine_c", "server") and len(parts) > 1 and parts[1] in names) or \
            (parts[:2] == ["server", "_gen"] and len(parts) > 2 and parts[2] in names) or module in own_modules

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:      # `from server import convert` too
            modules = [node.module] if forbidden(node.module) else [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found += [f"{node.lineno}:{m}" for m in modules if forbidden(m)]
    return found


def test_shared_server_modules_import_no_game():
    """Issue 48: the server's shared modules (sessions, matches, reviews, the search RPCs, games.v1, the message
    parts every game shares in server/common_convert.py) reach a game through the registry only: none imports
    a game's folder, its generated messages or a game's own server module (its servicer, its RPC groups, its
    conversions)."""
    import ast

    names = set(GAMES)
    own = set(GAME_SERVER_MODULES) | {f"{g.service.replace('.', '/')}.py" for g in all_games()}
    own |= {f"server/{p.name}" for p in (ROOT / "server").glob("*.py") if any(n in p.stem for n in names)}
    own_modules = {path[:-3].replace("/", ".") for path in own}
    assert _game_imports(ast.parse("from server import convert\nimport engine_c.spellbook.state"), names,
                         own_modules) == ["1:server.convert", "2:engine_c.spellbook.state"]
    shared = [p for p in sorted((ROOT / "server").glob("*.py")) if f"server/{p.name}" not in own]
    assert {"common_convert.py", "games_service.py", "rpc_matches.py"} <= {p.name for p in shared}
    found = [f"server/{p.name}:{hit}" for p in shared
             for hit in _game_imports(ast.parse(p.read_text(encoding="utf-8")), names, own_modules)]
    assert found == [], f"shared server modules importing a game's: {found}"


def test_what_differs_by_game_is_declared():
    """The declared parts that replaced the name branches (issue 48), with their documented defaults."""
    from engine_c import records, registry

    bare = BareSpellBook()
    st = State.new(players=2, seed=5)          # a Morning: pass, takes and a draw are legal
    passing = next(m for m in st.legal_moves() if str(m) == "pass")
    assert bare.heuristic_bot == "greedy" and not bare.absurd(st, passing, 1.0)      # nothing senseless
    spellbook = get_game("spellbook")
    assert spellbook.adapter.absurd(st, passing, 0.3) and not spellbook.adapter.absurd(st, passing, 0.1)
    assert get_game("abracadawhat").adapter.heuristic_bot == "counting"
    assert spellbook.varied_setup == "classic" and get_game("abracadawhat").varied_setup == ""
    # one game is unnamed in older files: a record without "game" is its, and its records still leave it out
    assert [g.name for g in all_games() if g.unnamed_in_older_files] == [registry.UNNAMED_GAME] == ["spellbook"]
    assert records.game_of({}).name == "spellbook" and records.game_of({"game": "abracadawhat"}).name == "abracadawhat"
    assert records.game_field("spellbook") == {} and records.game_field("spellbooktcg") == {"game": "spellbooktcg"}
