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
# Every error type a patron may see adopts PatronFacingError (ErrorReport shows its words); one that
# never reaches a patron says so, and why, in a comment on the line before it: `// Not patron-facing: …`.
python3 - Sources Mocks <<'PY'
import pathlib, re, sys
declaration = re.compile(r'^\s*(?:public |package |internal |private |fileprivate )?(?:final )?(?:struct|enum|class|actor) (\w+)[^{]*?:\s*([^{]*)\{')
missing = []
for root in sys.argv[1:]:
    for file in sorted(pathlib.Path(root).rglob("*.swift")):
        text = file.read_text(encoding="utf-8")
        lines = text.split("\n")
        for number, line in enumerate(lines, 1):
            match = declaration.match(line)
            if not match or not re.search(r'\bError\b', match.group(2)):
                continue
            name = match.group(1)
            if "PatronFacingError" in match.group(2) or re.search(r'extension (\w+\.)*' + name + r'\s*:\s*PatronFacingError', text):
                continue
            above = [l.strip() for l in lines[max(0, number - 8):number - 1]]
            if any(l.startswith("// Not patron-facing:") for l in above):
                continue
            missing.append(f"{file}:{number}: {name} is an Error but not a PatronFacingError; adopt it, or say `// Not patron-facing: why` above it")
print("\n".join(missing), file=sys.stderr) if missing else None
sys.exit(1 if missing else 0)
PY
