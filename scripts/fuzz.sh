#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers that read untrusted bytes, with libFuzzer from the Swift
# toolchain (swiftc -sanitize=fuzzer,address). See docs/security.md.
#
#   scripts/fuzz.sh                 every target for FUZZ_SECONDS (default 60) each
#   FUZZ_TARGETS="zip book" FUZZ_SECONDS=300 scripts/fuzz.sh
#
# A crash, a hang over 2 s or more than 512 MB is a defect: the input is copied to
# Tests/FuzzRegressions/TARGET/ (replayed by `make test` from then on) and the script exits 1.
# The growing corpus is kept in .build/fuzz-work/corpus between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
work=.build/fuzz-work
mkdir -p "$work"

# The seeds: what bok-fuzz writes itself, plus the parts of the novel reader-bench generates.
# (swift build takes one --product at a time.)
swift build --product bok-fuzz >&2
swift build --product reader-bench >&2
targets=${FUZZ_TARGETS:-"$(.build/debug/bok-fuzz targets | tr '\n' ' ')scenario"}
rm -rf "$work/seeds"
.build/debug/bok-fuzz seed "$work/seeds"
[ -f "$work/novel.epub" ] || .build/debug/reader-bench generate "$work/novel.epub" >/dev/null
python3 - "$work/novel.epub" "$work/seeds" <<'PY'
import os, sys, zipfile
book, seeds = sys.argv[1], sys.argv[2]
def put(target, name, data):
    os.makedirs(os.path.join(seeds, target), exist_ok=True)
    open(os.path.join(seeds, target, name), "wb").write(data)
with zipfile.ZipFile(book) as z:
    names = z.namelist()
    small = {}
    for name in names:
        data = z.read(name)
        base = os.path.basename(name)
        if name.endswith(".opf"): put("package", base, data)
        elif name.endswith(".ncx"): put("navigation", base, data)
        elif name.endswith(".xhtml") and "nav" in base: put("navigation", base, data); put("markup", base, data)
        elif name.endswith(".xhtml") and len([n for n in os.listdir(os.path.join(seeds, "markup"))]) < 4:
            put("markup", base, data[:20000])
        elif name.endswith((".png", ".jpg", ".jpeg")): put("images", base, data)
        if not name.endswith(".xhtml") or len(small) < 4:
            small[name] = data if not name.endswith(".xhtml") else data[:8000]
    # A small book of the same shape, deflated, for the zip and whole-book targets.
    small_path = os.path.join(seeds, "small.epub")
    with zipfile.ZipFile(small_path, "w") as out:
        out.writestr(zipfile.ZipInfo("mimetype"), small.pop("mimetype", b"application/epub+zip"))
        for name, data in small.items():
            out.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    for target in ("zip", "book"):
        put(target, "small.epub", open(small_path, "rb").read())
    os.remove(small_path)
PY

# The scenario-file parser lives in bok itself: a FUZZING build of bok is its fuzzer.
mkdir -p "$work/seeds/scenario"
cp scenarios/*.scenario "$work/seeds/scenario/"

fuzz_build() {  # product
  echo "Building $1 for fuzzing (address sanitizer, libFuzzer) ..." >&2
  swift build -c release --product "$1" --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 \
    | { grep -v "Cannot export local symbol" || true; } >&2
}
[ -n "$(echo " $targets " | sed 's/ scenario / /g' | tr -d ' ')" ] && fuzz_build bok-fuzz
case " $targets " in *" scenario "*) fuzz_build bok ;; esac

failed=()
for target in $targets; do
  corpus="$work/corpus/$target"; crashes="$work/crashes/$target"
  mkdir -p "$corpus" "$crashes" "$work/seeds/$target"
  echo "== $target: ${seconds} s" >&2
  fuzzer=.build/fuzz/release/bok-fuzz
  [ "$target" = scenario ] && fuzzer=.build/fuzz/release/bok
  if ! BOK_FUZZ_TARGET=$target LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0" "$fuzzer" -max_total_time="$seconds" -timeout=2 -rss_limit_mb=512 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "$work/seeds/$target" 2>"$work/$target.log"; then
    failed+=("$target")
  fi
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)|^(==[0-9]+==ERROR|SUMMARY)" "$work/$target.log" >&2 || true
  for artifact in "$crashes"/*; do
    [ -f "$artifact" ] || continue
    mkdir -p "Tests/FuzzRegressions/$target"
    cp "$artifact" "Tests/FuzzRegressions/$target/$(basename "$artifact")"
    echo "kept $(basename "$artifact") in Tests/FuzzRegressions/$target/ (see $work/$target.log)" >&2
    rm "$artifact"
  done
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found defects in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzzing: no crash, hang or blow-up in ${seconds} s per target ($targets)" >&2
