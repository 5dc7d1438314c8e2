"""bench/mutation.py without compiling anything: its mutants of the TCG engine are the same on every run, each
changes exactly one rule line, and the report counts what the log says."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "mutation.py"
_spec = importlib.util.spec_from_file_location("bench_mutation", BENCH)
M = importlib.util.module_from_spec(_spec)
sys.modules["bench_mutation"] = M          # dataclasses look their module up while the class is made
_spec.loader.exec_module(M)
SOURCE = (ROOT / M.SOURCE).read_text()


def test_enumeration_is_deterministic_with_unique_ids_and_every_operator():
    a, b = M.enumerate_mutants(SOURCE), M.enumerate_mutants(SOURCE)
    assert a == b and len(a) > 300
    assert len({m.id for m in a}) == len(a)
    assert {m.op for m in a} == {"cmp", "const", "arith", "bool", "delete", "return"}


def test_a_known_mutant_changes_exactly_that_one_line():
    mutants = M.enumerate_mutants(SOURCE)
    shield = next(m for m in mutants
                  if m.function == "damage_event" and m.was == "taken -= c.tokn" and m.op == "arith")
    assert shield.now == "taken += c.tokn"
    mutated = M.apply_mutant(SOURCE, shield)
    before, after = SOURCE.splitlines(), mutated.splitlines()
    assert len(before) == len(after)
    changed = [i for i, (x, y) in enumerate(zip(before, after)) if x != y]
    assert changed == [shield.line - 1] and after[shield.line - 1].strip() == "taken += c.tokn"
    assert before[shield.line - 1].startswith(" " * 8) and after[shield.line - 1].startswith(" " * 8)   # indent kept


def test_only_rule_lines_are_mutated():
    lines = SOURCE.splitlines()
    owner = M.functions(lines)
    for m in M.enumerate_mutants(SOURCE):
        assert owner[m.line] in M.RULE_FUNCTIONS and m.function == owner[m.line]
        assert lines[m.line - 1].strip() == m.was
        assert not m.was.startswith(("cdef ", '"""', "#")) and not M.BOOKKEEPING.search(m.was)
    assert "hand_add" not in M.RULE_FUNCTIONS and "tcg_evaluate" not in M.RULE_FUNCTIONS


def test_casts_are_not_comparisons_and_unary_minus_is_not_arithmetic():
    toks = lambda line: next(t for _, _, t in M.logical_lines(line + "\n"))
    line = "        return (<uint64_t>K_TARGET) < n - 1"
    found = list(M.line_mutations(line, "f", toks(line), False))
    assert ("cmp", "        return (<uint64_t>K_TARGET) <= n - 1") in found
    assert not any("<=uint64_t" in new or "<uint64_t>=" in new for _, new in found)
    assert ("arith", "        return (<uint64_t>K_TARGET) < n + 1") in found
    line = "        j = -1"
    assert ("arith", "        j = +1") not in list(M.line_mutations(line, "f", toks(line), False))


def test_report_counts_the_log_with_a_wilson_interval(tmp_path, monkeypatch):
    mutants = M.enumerate_mutants(SOURCE)[:4]
    statuses = ["killed", "timeout", "survived", "did_not_compile"]
    log = {m.id: {"id": m.id, "line": m.line, "function": m.function, "op": m.op, "was": m.was, "now": m.now,
                  "status": s, "seconds": 1.0} for m, s in zip(mutants, statuses)}
    equivalent = tmp_path / "eq.json"
    equivalent.write_text(json.dumps({mutants[2].id: "why"}))
    monkeypatch.setattr(M, "EQUIVALENT", equivalent)
    r = M.report(mutants, log, 0.0, 0)
    assert (r["tried"], r["killed"], r["killed_by_timeout"], r["survived"], r["did_not_compile"]) == (4, 2, 1, 1, 1)
    assert r["score"] == round(2 / 3, 4) and r["score_non_equivalent"] == 1.0 and r["equivalent"] == 1
    assert r["survivors"][0]["equivalent"] == "why"
    lo, hi = r["ci95"]
    assert 0 < lo < 2 / 3 < hi < 1


def test_list_runs_nothing_and_prints_every_mutant():
    run = subprocess.run([sys.executable, str(BENCH), "--list"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(run.stdout.splitlines()) == len(M.enumerate_mutants(SOURCE))


def test_no_and_mutant_that_cython_compiles_as_the_original_or():
    toks = lambda line: next(t for _, _, t in M.logical_lines(line + "\n"))
    line = "    if t == T_CHAR or t == T_SUMMON:"
    assert not [new for op, new in M.line_mutations(line, "f", toks(line), False) if op == "bool"]
    line = "    if t == T_CHAR or n == 0:"
    assert ("bool", "    if t == T_CHAR and n == 0:") in list(M.line_mutations(line, "f", toks(line), False))
