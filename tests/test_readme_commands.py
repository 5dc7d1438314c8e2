"""The README's shell commands stay true: every `spellbook-ai ...` line parses with the flags it shows,
every subcommand's --help shows its defaults, and the quick ones run as written (issue 14)."""
import io
import re
import shlex
import shutil
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from clients.cli import build_parser
from clients.cli import main as cli_main
from server.main import parse_args as serve_args

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def readme_commands() -> list[list[str]]:
    """Every indented shell line of the README that runs `spellbook-ai`, as argv (comments dropped)."""
    out = []
    for line in README.splitlines():
        if not line.startswith("    "):
            continue
        text = line.split("  #", 1)[0].strip()
        words = shlex.split(text) if text else []
        for prefix in (["spellbook-ai"], [".venv/bin/spellbook-ai"]):
            if words[: len(prefix)] == prefix:
                out.append(words[len(prefix):])
    return out


COMMANDS = readme_commands()


def test_the_readme_shows_every_subcommand_and_how_to_get_the_command():
    shown = {argv[0] for argv in COMMANDS}
    assert {"demo", "play", "tournament", "ladder", "serve"} <= shown
    assert "source .venv/bin/activate" in README
    assert README.index("## Quick start") < README.index("## Performance")
    assert README.index("## Playing, tournaments and the ladder") < README.index("## Performance")


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_each_readme_command_parses_as_written(argv):
    if argv[0] == "serve":
        serve_args(argv[1:])
    else:
        build_parser().parse_args(argv)


@pytest.mark.parametrize("sub", sorted(build_parser()._subparsers._group_actions[0].choices))
def test_help_shows_the_defaults(sub, capsys):
    with pytest.raises(SystemExit) as e:
        cli_main([sub, "--help"])
    assert e.value.code == 0
    assert "(default:" in capsys.readouterr().out


def test_demo_runs_as_written():
    for argv in (a for a in COMMANDS if a[0] == "demo"):
        out = io.StringIO()
        with redirect_stdout(out):
            assert cli_main(argv) == 0
        assert "winner" in out.getvalue()


def test_the_ladder_as_written_refits_the_shipped_table(tmp_path, monkeypatch):
    """`spellbook-ai ladder` in the repository root: the same settings as data/ladder.json, so it re-fits
    the table from data/ladder.jsonl (here a copy of both, so the test leaves the repository alone)."""
    (tmp_path / "data").mkdir()
    for name in ("ladder.json", "ladder.jsonl"):
        shutil.copy(ROOT / "data" / name, tmp_path / "data" / name)
    monkeypatch.chdir(tmp_path)
    argv = next(a for a in COMMANDS if a == ["ladder"])
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli_main(argv + ["--no-progress"]) == 0
    assert "re-fitting" in out.getvalue() and "level  8" in out.getvalue()
    import json
    assert json.loads((tmp_path / "data" / "ladder.json").read_text())["levels"] == \
        json.loads((ROOT / "data" / "ladder.json").read_text())["levels"]


def test_the_installed_command_and_quit():
    exe = Path(sys.executable).with_name("spellbook-ai")
    if not exe.exists():
        pytest.skip("spellbook-ai is not installed beside this Python")
    res = subprocess.run([str(exe), "play", "--bots", "random", "--seed", "1"], input="quit\n", text=True,
                         capture_output=True, timeout=60)
    assert res.returncode == 0 and "Bye." in res.stdout
    assert re.search(r"Your moves:", res.stdout)
