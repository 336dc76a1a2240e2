"""Print the per-game table of the mutation suites (tests/mutations/<game>.yaml).

    python bench/mutations.py                 # every suite present
    python bench/mutations.py bombs-away -v   # one game, with each missed case and flagged valid edit

Each suite's game is copied to a temporary folder; each case is applied there, checked in this
process with `cardforge check`, and put back (tests/mutation_suite.py).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from mutation_suite import SuiteError, load_suite, run_suite, suite_paths, table  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", help="only these games (default: every suite file)")
    p.add_argument("-v", "--verbose", action="store_true", help="list each miss and each flagged valid edit")
    args = p.parse_args()
    paths = [q for q in suite_paths() if not args.games or q.stem in args.games]
    results, failed = [], False
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            try:
                result = run_suite(load_suite(path), Path(tmp))
            except SuiteError as exc:
                print(f"{path.name}: {exc}", file=sys.stderr)
                failed = True
                continue
            results.append(result)
            failures = result.failures()
            failed |= bool(failures)
            if args.verbose:
                for line in failures:
                    print(line, file=sys.stderr)
    print(table(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
