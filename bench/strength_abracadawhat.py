"""Abracada…What?'s strength bench as `python bench/strength.py --game abracadawhat [--quick]` runs it: issue 24's
table, bench/abracada.py (bench/strength.py finds a game's own strength bench as bench/strength_NAME.py)."""
from __future__ import annotations

import importlib.util
import os
import sys


def main(argv: list[str]) -> int:
    """bench/abracada.py's main on `argv`, loaded under the name its worker processes find its functions by."""
    found = importlib.util.spec_from_file_location(
        "bench_abracada", os.path.join(os.path.dirname(os.path.abspath(__file__)), "abracada.py"))
    module = importlib.util.module_from_spec(found)
    sys.modules[found.name] = module
    found.loader.exec_module(module)
    return module.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
