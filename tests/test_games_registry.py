"""The game registry (engine_c/registry.py) and `spellbook-ai demo --game abracadawhat`."""
import io
from contextlib import redirect_stdout

import pytest

from clients.cli import main as cli_main
from engine_c.registry import GAMES, get_game
from search.search import SearchOptions, ismcts


@pytest.mark.parametrize("name", GAMES)
def test_each_game_is_found_by_name_and_searchable(name):
    g = get_game(name)
    assert g.name == name and g.adapter.name == name and g.min_players == 2
    st = g.State.new(players=g.max_players, seed=3)
    st.resolve_chance()
    assert g.State.from_text(st.to_text()) == st
    assert all(g.Move.from_text(str(m)) == m for m in st.legal_moves())
    result = ismcts(g.adapter, st, SearchOptions(iterations=50, seed=1))
    assert result.move in st.legal_moves()


def test_unknown_game_is_refused_with_the_known_names():
    assert get_game("Abracada…What?").name == "abracadawhat"
    with pytest.raises(ValueError, match="spellbook, abracadawhat"):
        get_game("chess")


def test_demo_abracadawhat_is_seeded_and_ends_with_a_winner():
    outs = []
    for _ in range(2):
        out = io.StringIO()
        with redirect_stdout(out):
            assert cli_main(["demo", "--game", "abracadawhat", "--players", "4", "--seed", "3",
                             "--variants", "xv1"]) == 0
        outs.append(out.getvalue())
    assert outs[0] == outs[1] and "winner" in outs[0] and "round 1 ends" in outs[0]
    assert outs[0].startswith("Abracada…What? demo: 4 players, variants xv1, seed 3")


@pytest.mark.parametrize("argv,message", [
    (["demo", "--game", "abracadawhat", "--players", "6"], "players must be an integer from 2 to 5"),
    (["demo", "--game", "abracadawhat", "--variants", "xv9"], "unknown variant"),
    (["demo", "--game", "chess"], "unknown game"),
])
def test_demo_bad_input_exits_2_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        cli_main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err


RECORD_PARTS = ("EVENT_KINDS", "PUBLIC", "new", "fresh", "setup_list", "setup_events", "read_setup", "check_view",
                "chance_event", "check_chance_kind", "visible")


@pytest.mark.parametrize("name", GAMES)
def test_each_game_declares_its_parts_in_its_registry_entry(name):
    """Issue 23 item 3: from the name, the search (adapter), bots, levels, model file, notation, record,
    terminal and service conversions of the game are found."""
    import importlib

    from search.levels import level_options

    g = get_game(name)
    # the setup's field: a record field and a command line's flag (spells, variants, decks)
    assert g.package == f"engine_c.{name}" and g.setup.isidentifier() and g.setup not in ("game", "players", "seed")
    assert g.notation.__name__.startswith(g.package) and g.text.__name__.startswith(g.package)
    assert all(hasattr(g.record, part) for part in RECORD_PARTS), g.record.__name__
    assert hasattr(g.adapter, "default_model_path") and level_options(5, game=g.adapter) is not None
    # the other layers' parts are optional (a game is offered where it has them); these two have them all
    terminal, service = g.layer("terminal"), g.layer("service")
    if name in ("spellbook", "abracadawhat"):
        assert terminal is not None and service is not None and g.layer("openspiel") is not None
    if terminal is not None:
        assert g.terminal.startswith("clients.") and callable(terminal.run) and callable(terminal.demo)
    if service is not None:
        assert g.service.startswith("server.") and service.Servicer.game is g
        assert service.SERVICE_DESCRIPTOR.full_name.startswith(f"{name}.v1.")
        assert hasattr(service.Servicer, "conv") and hasattr(service.Servicer, "pb")


def test_engine_c_holds_the_games_one_folder_each_and_knows_no_layer_above():
    """D83: engine_c's top level is what knows no game (the contract, the records, the registry); engine_c never
    imports clients/, server/ or search/ (a what-if is the search's service over the contract)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "engine_c"
    top = {p.name for p in root.iterdir() if p.suffix in (".py", ".pyx", ".pxd", ".pxi")}
    assert top == {"__init__.py", "base.py", "contract.py", "game.pxd", "rng.pxd", "registry.py", "records.py"}
    assert {p.name for p in root.iterdir() if p.is_dir() and (p / "__init__.py").exists()} >= set(GAMES)
    for path in root.rglob("*.py*"):
        if path.suffix in (".py", ".pyx", ".pxd", ".pxi", ".pyi"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"^\s*(from|import)\s+(clients|server|search)\b", text, re.M), path
