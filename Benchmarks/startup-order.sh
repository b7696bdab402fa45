#!/usr/bin/env bash
# Writes Benchmarks/startup.order: the functions `bok read` runs from its start to its first page,
# its background page count and its way out, on a book of each shape reader-bench makes. The
# release link (Package.swift) hands the list to lld, which puts those functions together at the
# front of the code.
#
#   Benchmarks/startup-order.sh        (needs valgrind: apt-get install valgrind)
#
# Why: the kernel maps up to 64 KB of an executable around every page a program touches, when the
# file is in the page cache, as it is right after a build. The 1.3 MB of functions a start runs lay
# spread over 26 MB of code, so `bok read` had 14.5 MB of code resident at its first page, and
# more memory than epy (docs/performance.md, "Code laid out for the start-up").
#
# Run it again when start-up code changes much: a function missing from the list still works, it
# only lies among the cold code. Valgrind's callgrind lists every function that ran, however
# briefly, which sampling would miss.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "startup-order.sh needs valgrind (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --static-swift-stdlib --product bok >&2
swift build -c release --static-swift-stdlib --product reader-bench >&2
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read the DWARF 5 the toolchain writes; the symbol table is all it needs.
objcopy --strip-debug "$bin/bok" "$work/bok"
for shape in novel nested-toc many-small huge-chapter images cover-page; do
  "$bin/reader-bench" generate "$work/$shape.epub" --shape "$shape" >&2
  rm -rf "$work/home" && mkdir -p "$work/home"
  # A fresh account, as a first `bok read` has; --linger lets the background page count run.
  HOME="$work/home" python3 Benchmarks/pty-first-page.py 120 40 "The Ferry at Dawn" --quit q --linger 3 -- \
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$shape.callgrind" \
    "$work/bok" read "$work/$shape.epub" >&2
done
# Every function callgrind saw run in bok itself, in the order first listed. Its output names an
# object (ob=) and then the functions in it (fn=), each name written out only the first time.
python3 - "$work/bok" "$work"/*.callgrind >Benchmarks/startup.order <<'EOF'
import re, sys
target, listed, order = sys.argv[1], set(), []
for path in sys.argv[2:]:
    objects, functions, current = {}, {}, None
    for line in open(path, errors="replace"):
        match = re.match(r"(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not match:
            continue
        callee, kind, number, name = match.groups()
        names = objects if kind == "ob" else functions
        if name:
            names[number] = name
        if callee:
            continue
        if kind == "ob":
            current = objects.get(number)
        elif current == target:
            # Callgrind marks a function's recursive runs with 'N; unnamed code has an address.
            function = re.sub(r"'\d+$", "", functions.get(number, ""))
            if function and not function.startswith("0x") and function not in listed:
                listed.add(function)
                order.append(function)
print("\n".join(order))
EOF
echo "Benchmarks/startup.order: $(wc -l <Benchmarks/startup.order) functions" >&2
