#!/usr/bin/env bash
# Checks the Swift sources as .swift-format says (make format fixes most of it), and that no line
# is longer than its limit of 120 characters (swift-format leaves long string literals and
# comments alone: break them by hand, a string with a \ line continuation).
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=(Sources Mocks Tests Benchmarks Fuzz Package.swift)
swift format lint --strict --recursive --parallel "${dirs[@]}"
python3 - "${dirs[@]}" <<'PY'
import pathlib, sys
limit = 120
long = []
for root in sys.argv[1:]:
    path = pathlib.Path(root)
    for file in ([path] if path.is_file() else sorted(path.rglob("*.swift"))):
        for number, line in enumerate(file.read_text(encoding="utf-8").split("\n"), 1):
            if len(line) > limit:
                long.append(f"{file}:{number}: {len(line)} characters, over the limit of {limit}")
print("\n".join(long), file=sys.stderr) if long else None
sys.exit(1 if long else 0)
PY
