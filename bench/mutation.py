"""Mutation score of the Spellbook TCG's rules tests (issue 49): how many rule changes injected into the
compiled engine (engine_c/spellbooktcg/_engine.pyx) do its tests catch? One JSON line.

    python bench/mutation.py --limit 40                 # the next 40 mutants not yet in the log
    python bench/mutation.py --limit 0                  # no new mutant: the report over the log so far
    python bench/mutation.py --recheck survived         # re-run the logged survivors (after adding tests)
    python bench/mutation.py --list                     # print the mutants (id, line, operator, diff), run none

Mutants, enumerated deterministically from the source (then put in a fixed-seed order, so any prefix run
with --limit is a uniform sample of all of them):
- `cmp`: a comparison flipped or shifted (< <-> <=, > <-> >=, == <-> !=);
- `const`: an integer literal +1 and -1;
- `arith`: binary + <-> - (and += <-> -=);
- `bool`: `and` <-> `or`;
- `delete`: one simple statement (an assignment, a call, break, continue, a bare return) replaced by `pass`;
- `return`: a boolean function's `return True` <-> `return False`, `return x` -> `return not (x)`.
Only rule code is mutated (the filter, `rule_lines`): the bodies of the functions in RULE_FUNCTIONS
(damage, healing, tokens, deaths, the final spell, the turn, combat, resolution, the legal moves, chance,
the end, determinization), never a declaration (`cdef ...`), a comment or docstring, nor a line of pure
bookkeeping (BOOKKEEPING: buffer bounds, sizeof/memset, the move-code packing, the `out != NULL` guards).
Encodings, the hand's sort order, clamping, heuristics (scores, evaluate), the vtable and the Python-facing
accessors are not rules and are not mutated.

Each mutant is written into a scratch copy (build/mutation/repo: engine_c/, search/, tests/, docs/ of this
tree, refreshed at the start of every run), only that extension is compiled (cython with setup.py's
directives, then gcc -O0: the same C semantics as the -O3 build, a third of the time; the unmutated build
must pass the tests first), and the TCG rules tests run against it (`pytest -x -q` on TEST_FILES, --timeout
seconds): a failing test kills it, a hang kills it by timeout (reported apart). Not counted: a mutant that
does not compile, and one whose generated C (comments aside) is the original's (`same_code`). Not made at
all: `x == A or x == B` -> `x == A and x == B` with A, B enum constants, which Cython 3.3 compiles to the
same `switch` as the original (its generated C checked: a miscompilation of an always-false test), so the
compiled program would not change. One process at a time, niced. Finished mutants are appended to
build/mutation/log.jsonl (keyed by a stable id: function, original line, occurrence, operator, new line), so
a rerun continues where the last stopped. Mutants judged equivalent (no rule can tell them apart) are listed
with the reason in bench/mutation_equivalent.json and left out of `score_non_equivalent`.

The report (last line, JSON): mutants enumerated, tried, killed (by timeout apart), survived (each with its
line and diff), did not compile, same code, the score killed / (killed + survived) with a 95% Wilson
interval, the same over non-equivalent mutants, and seconds (this run's, and per mutant).
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "engine_c/spellbooktcg/_engine.pyx"
WORK = ROOT / "build" / "mutation"
LOG = WORK / "log.jsonl"
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.json"
TEST_FILES = ["tests/test_tcg_rules.py", "tests/test_tcg_rules_more.py", "tests/test_tcg_notation.py",
              "tests/test_tcg_cards.py"]
COPIED = ["engine_c", "search", "tests", "docs", "pyproject.toml", "setup.py"]
SEED = 49

# The functions whose bodies are rules (SPELLBOOK_TCG.md): everything else in the module is encoding,
# storage, heuristics or the Python/C interfaces.
RULE_FUNCTIONS = frozenset({
    # TD, TK: damage, healing, tokens, deaths
    "kill", "wizard_loses", "wizard_heals", "damage_event", "heal", "deal_tokens",
    # TC-5, TC-6: the final spell
    "add_charm", "final_spell",
    # TS-4, TT, TG: setup and the turn
    "game_over", "continue_setup", "mana_step", "continue_draw", "start_turn",
    # TB: attack and block
    "can_fight", "attack_options", "attacker_count", "is_blocked", "unblocked_attackers", "block_options",
    "clear_combat", "enter_attack", "block_step", "attack_done",
    # TC: casting
    "budget", "can_afford", "cast_turn", "enter_cast", "charm_options", "finish_spell", "charm_step",
    # TR, TB-4, TT-8: resolution, combat, the end step
    "target_options", "to_grave", "resolve_spell", "combat", "end_step", "resolve_next",
    # the rules interface: who decides, legal moves, chance, applying a move, the result, TI-5
    "tcg_current_player", "tcg_legal_moves", "chance_seat", "tcg_chance_outcomes", "draw_card", "tcg_apply",
    "tcg_determinize",
})   # not tcg_winners: before the end it is the search's estimate (the larger spellbook); the result is game_over's
# A line holding one of these is bookkeeping, not a rule: buffer bounds, memory layout, move-code packing,
# the optional output buffer, and unused slots zeroed (so that equal states are equal bytes: a vacated
# spellbook/graveyard slot, a new spell's empty charm slots).
BOOKKEEPING = re.compile(r"\bMAX[A-Z_]*\b|\bHAND_MAX\b|\bVAL_MAX\b|\bsizeof\b|\bmemset\b|\bLOW32\b|<< 32|>> 32|"
                         r"out != NULL|out\[n\] =|"
                         r"^s\.\w+\[\w+\]\[s\.\w+_n\[\w+\]\] = 0$|^sp\.cards\[[12]\] = 0$")

CAST = re.compile(r"<\s*(?:const\s+)?\w+\s*\**\s*>")
# `x == A and x == B` (A, B constants): Cython compiles it as `x == A or x == B` (a switch), see above.
SWITCH_AND = re.compile(r"([\w.\[\]]+) == ([A-Z][A-Z0-9_]*) and \1 == ([A-Z][A-Z0-9_]*)")
CMP_SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITH_SWAP = {"+": "-", "-": "+", "+=": "-=", "-=": "+="}
NOT_OPERAND = {"return", "and", "or", "not", "in", "if", "elif", "while", "else", "is"}


@dataclass(frozen=True)
class Mutant:
    id: str
    line: int          # 1-based line of SOURCE
    function: str
    op: str
    was: str           # the original line (stripped)
    now: str           # the mutated line (stripped)
    text: str          # the mutated line as written (indentation kept)


def functions(lines: list[str]) -> dict[int, str]:
    """Line number (1-based) -> the name of the top-level cdef function whose body holds it."""
    owner, name = {}, None
    for i, line in enumerate(lines, 1):
        if line and not line[0].isspace():
            m = re.match(r"cdef\s+(?:inline\s+)?[\w\s\*]*?\b(\w+)\s*\(", line)
            name = m.group(1) if m and not line.startswith("cdef class") else None
            continue
        if name is not None:
            owner[i] = name
    return owner


def logical_lines(source: str):
    """The source's logical lines as (first line, last line, significant tokens); comments, docstrings and
    layout tokens dropped."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}
    current = []
    for tok in tokens:
        if tok.type == tokenize.NEWLINE or tok.type == tokenize.ENDMARKER:
            if current:
                yield current[0].start[0], tok.start[0], current
            current = []
        elif tok.type not in skip:
            current.append(tok)


def rule_lines(source: str):
    """The logical lines that are rules: single physical lines in a RULE_FUNCTIONS body that are not a
    declaration, a docstring or bookkeeping. Yields (line number, function, tokens)."""
    lines = source.splitlines()
    owner = functions(lines)
    for first, last, toks in logical_lines(source):
        fn = owner.get(first)
        if fn not in RULE_FUNCTIONS or first != last:
            continue
        text = lines[first - 1].strip()
        if text.startswith("cdef ") or toks[0].type == tokenize.STRING or BOOKKEEPING.search(text):
            continue
        yield first, fn, toks


def bint_functions(source: str) -> set[str]:
    return set(re.findall(r"^cdef\s+(?:inline\s+)?bint\s+(\w+)\s*\(", source, re.M))


def _replace(line: str, col: int, old: str, new: str) -> str:
    assert line[col:col + len(old)] == old
    return line[:col] + new + line[col + len(old):]


def line_mutations(line: str, fn: str, toks, boolean: bool):
    """(operator, mutated line) for one rule line."""
    casts = [m.span() for m in CAST.finditer(line)]
    in_cast = lambda c: any(a <= c < b for a, b in casts)
    for k, tok in enumerate(toks):
        col = tok.start[1]
        prev = toks[k - 1] if k else None
        if tok.type == tokenize.OP and tok.string in CMP_SWAP and not in_cast(col):
            yield "cmp", _replace(line, col, tok.string, CMP_SWAP[tok.string])
        elif tok.type == tokenize.OP and tok.string in ARITH_SWAP and prev is not None and (
                prev.type == tokenize.NUMBER or prev.string in (")", "]")
                or (prev.type == tokenize.NAME and prev.string not in NOT_OPERAND)):
            yield "arith", _replace(line, col, tok.string, ARITH_SWAP[tok.string])
        elif tok.type == tokenize.NAME and tok.string in ("and", "or"):
            new = _replace(line, col, tok.string, "or" if tok.string == "and" else "and")
            if not any(a <= col < b for a, b in (m.span() for m in SWITCH_AND.finditer(new))):
                yield "bool", new
        elif tok.type == tokenize.NUMBER and re.fullmatch(r"\d+", tok.string):
            value = int(tok.string)
            for new in (value + 1, value - 1):
                yield "const", _replace(line, col, tok.string, str(new))
    first = toks[0].string
    indent = line[:len(line) - len(line.lstrip())]
    compound = first in ("if", "elif", "else", "for", "while", "return", "pass") or toks[-1].string == ":"
    if not compound or (first == "return" and len(toks) == 1):
        yield "delete", indent + "pass"
    if boolean and first == "return" and len(toks) > 1:
        rest = line[toks[1].start[1]:toks[-1].end[1]]
        flipped = {"True": "False", "False": "True"}.get(rest, f"not ({rest})")
        yield "return", indent + "return " + flipped


def mutant_id(fn: str, was: str, occurrence: int, op: str, now: str) -> str:
    return hashlib.sha1(f"{fn}\0{was}\0{occurrence}\0{op}\0{now}".encode()).hexdigest()[:12]


def enumerate_mutants(source: str) -> list[Mutant]:
    """Every mutant of `source`, in a fixed-seed order (a prefix is a uniform sample); duplicates (two
    operators writing the same line) once."""
    lines = source.splitlines()
    boolean = bint_functions(source)
    seen, out, occurrences = set(), [], {}
    for number, fn, toks in rule_lines(source):
        line = lines[number - 1]
        key = (fn, line.strip())
        occurrences[key] = occurrences.get(key, 0) + 1
        for op, new in line_mutations(line, fn, toks, fn in boolean):
            if new == line or (number, new) in seen:
                continue
            seen.add((number, new))
            out.append(Mutant(mutant_id(fn, line.strip(), occurrences[key], op, new.strip()), number, fn, op,
                              line.strip(), new.strip(), new))
    random.Random(SEED).shuffle(out)
    return out


def apply_mutant(source: str, m: Mutant) -> str:
    """`source` with the mutant's one line replaced (line endings kept)."""
    lines = source.splitlines(keepends=True)
    ending = lines[m.line - 1][len(lines[m.line - 1].rstrip("\r\n")):]
    lines[m.line - 1] = m.text + ending
    return "".join(lines)


# ---------------------------------------------------------------------------------------------------------
# Building and testing one mutant
# ---------------------------------------------------------------------------------------------------------
def prepare_scratch(repo: Path) -> None:
    """A fresh copy of what the tests need (COPIED: the docs for the tests that read their examples), compiled
    modules included."""
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.c", ".pytest_cache", "*.png", "*.jsonl")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, repo / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, repo / name)


def c_code_digest(c_text: str) -> str:
    """The generated C without comments (which quote the .pyx source) or line directives: two sources with
    the same digest compile to the same program."""
    code = re.sub(r"/\*.*?\*/", "", c_text, flags=re.S)
    code = re.sub(r"^\s*#line .*$", "", code, flags=re.M)
    return hashlib.sha1(code.encode()).hexdigest()


def build(repo: Path, source: str, timeout: float, same_as: str | None = None) -> tuple[str, str]:
    """Writes `source` as the engine and compiles only that extension in place: ('built' | 'failed' |
    'same_code', the C digest or the error's tail). 'same_code': its C equals the digest `same_as` (Cython
    compiled the mutant to the original program), so there is nothing to test."""
    pyx = repo / SOURCE
    pyx.write_text(source)
    c_file = pyx.with_suffix(".c")
    so = pyx.with_name("_engine" + sysconfig.get_config_var("EXT_SUFFIX"))
    for path in (c_file, so):
        path.unlink(missing_ok=True)
    directives = ["-X", "boundscheck=False", "-X", "wraparound=False", "-X", "cdivision=True",
                  "-X", "initializedcheck=False"]
    cython = [sys.executable, "-m", "cython", "-3", *directives, "-I", ".", SOURCE,
              "-o", str(c_file.relative_to(repo))]
    gcc = [sysconfig.get_config_var("CC").split()[0], "-shared", "-fPIC", "-fwrapv", "-DNDEBUG", "-O0", "-w",
           "-I", sysconfig.get_paths()["include"], str(c_file.relative_to(repo)), "-o", str(so.relative_to(repo))]
    for step, cmd in enumerate((cython, gcc)):
        run = subprocess.run(["nice", "-n", "10", *cmd], cwd=repo, capture_output=True, text=True, timeout=timeout)
        if run.returncode != 0:
            return "failed", (run.stdout + run.stderr)[-600:]
        if step == 0:
            digest = c_code_digest(c_file.read_text())
            if digest == same_as:
                return "same_code", digest
    return "built", digest


def run_tests(repo: Path, timeout: float) -> tuple[str, float, str]:
    """The TCG rules tests against the built engine: ('passed' | 'failed' | 'timeout', seconds, the tail of
    the output). A hang is killed with its whole process group (ours: started in its own session)."""
    files = [f for f in TEST_FILES if (repo / f).exists()]
    cmd = ["nice", "-n", "10", sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *files]
    env = dict(os.environ, PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1")
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        return "timeout", time.monotonic() - t0, ""
    finally:
        if proc.poll() is None:            # stopped ourselves (SIGTERM, ^C): leave no test run behind
            os.killpg(proc.pid, 9)
    outcome = "passed" if proc.returncode == 0 else "failed"
    return outcome, time.monotonic() - t0, out[-400:]


def first_failure(tail: str) -> str:
    m = re.search(r"FAILED (\S+)", tail)
    return m.group(1) if m else ("crashed" if "passed" not in tail and "failed" not in tail else "")


# ---------------------------------------------------------------------------------------------------------
# The log and the report
# ---------------------------------------------------------------------------------------------------------
def read_log() -> dict[str, dict]:
    """The latest record per mutant id."""
    out = {}
    if LOG.exists():
        for line in LOG.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                out[row["id"]] = row
    return out


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def report(mutants: list[Mutant], log: dict[str, dict], seconds: float, ran: int) -> dict:
    equivalent = json.loads(EQUIVALENT.read_text()) if EQUIVALENT.exists() else {}
    rows = [log[m.id] for m in mutants if m.id in log]
    status = [r["status"] for r in rows]
    killed = status.count("killed") + status.count("timeout")
    survived = [r for r in rows if r["status"] == "survived"]
    real = [r for r in survived if r["id"] not in equivalent]
    counted = killed + len(survived)
    by_op = {}
    for r in rows:
        d = by_op.setdefault(r["op"], {"killed": 0, "survived": 0})
        if r["status"] in ("killed", "timeout", "survived"):
            d["survived" if r["status"] == "survived" else "killed"] += 1
    return {
        "bench": "mutation", "source": SOURCE, "tests": TEST_FILES, "mutants_enumerated": len(mutants),
        "tried": len(rows), "killed": killed, "killed_by_timeout": status.count("timeout"),
        "survived": len(survived), "did_not_compile": status.count("did_not_compile"),
        "same_code": status.count("same_code"),
        "equivalent": len(survived) - len(real),
        "score": round(killed / counted, 4) if counted else None, "ci95": wilson(killed, counted),
        "score_non_equivalent": round(killed / (killed + len(real)), 4) if killed + len(real) else None,
        "ci95_non_equivalent": wilson(killed, killed + len(real)),
        "by_operator": by_op,
        "survivors": [{"id": r["id"], "line": r["line"], "function": r["function"], "op": r["op"],
                       "was": r["was"], "now": r["now"], "equivalent": equivalent.get(r["id"])} for r in survived],
        "seconds": round(seconds, 1), "ran": ran,
        "seconds_per_mutant": round(sum(r["seconds"] for r in rows) / len(rows), 2) if rows else None,
    }


def _stop(signum, frame):
    raise SystemExit(f"stopped by signal {signum}")


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=40, help="new mutants to run this time (0: report only)")
    ap.add_argument("--timeout", type=float, default=45, help="seconds for one mutant's tests (a hang: killed)")
    ap.add_argument("--recheck", choices=["survived"], help="re-run the logged mutants with this status")
    ap.add_argument("--only", nargs="*", default=[], help="run these mutant ids (again)")
    ap.add_argument("--list", action="store_true", help="print the mutants and run none")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)
    source = (ROOT / SOURCE).read_text()
    mutants = enumerate_mutants(source)
    if args.list:
        for m in mutants:
            print(f"{m.id} {m.line:5d} {m.function:22s} {m.op:7s} {m.was}  -->  {m.now}")
        return {}
    log = read_log()
    if args.only:
        todo = [m for m in mutants if m.id in args.only]
    elif args.recheck:
        todo = [m for m in mutants if log.get(m.id, {}).get("status") == args.recheck]
    else:
        todo = [m for m in mutants if m.id not in log][:args.limit]
    t0 = time.monotonic()
    if todo:
        repo = WORK / "repo"
        prepare_scratch(repo)
        built, original = build(repo, source, 600)
        outcome, _, tail = run_tests(repo, args.timeout) if built == "built" else ("unbuilt", 0, original)
        if outcome != "passed":
            sys.exit(f"the unmutated engine must build and pass the tests first: {outcome}\n{tail}")
        LOG.parent.mkdir(parents=True, exist_ok=True)
        for n, m in enumerate(todo, 1):
            started = time.monotonic()
            built, detail = build(repo, apply_mutant(source, m), 600, same_as=original)
            tail = detail
            if built == "built":
                outcome, _, tail = run_tests(repo, args.timeout)
                status = {"passed": "survived", "failed": "killed", "timeout": "timeout"}[outcome]
            else:
                status = "did_not_compile" if built == "failed" else "same_code"
            row = {**{k: v for k, v in asdict(m).items() if k != "text"}, "status": status,
                   "caught_by": first_failure(tail) if status == "killed" else "",
                   "seconds": round(time.monotonic() - started, 2), "at": time.strftime("%Y-%m-%dT%H:%M:%S")}
            with LOG.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(f"[{n}/{len(todo)}] {status:15s} {m.id} L{m.line} {m.op}: {m.was} --> {m.now}", file=sys.stderr,
                  flush=True)
        (repo / SOURCE).write_text(source)
    result = report(mutants, read_log(), time.monotonic() - t0, len(todo))
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
