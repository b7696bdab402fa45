#!/usr/bin/env bash
# Measures the reader against epy on books of the shapes real books have, both in a 120×40
# pseudo-terminal, side by side in one run: `bok read BOOK`, the command a patron types (an
# account that has read before: the warm-up run makes its shelf), the reader alone (reader-bench
# read, no shelf or client around it) and epy. Figures go in docs/performance.md under "## Reader".
#
#   Benchmarks/reader-bench.sh                  every shape (builds in release mode, installs epy if missing)
#   SHAPES="nested-toc images" RUNS=5 Benchmarks/reader-bench.sh
#
# Shapes (reader-bench generate --shape): novel (60 chapters, 3.5 MB of text, cover-image only),
# nested-toc (nav and NCX with #fragment links into every chapter's sections), many-small (500
# spine items of 2 KB), huge-chapter (one 2 MB chapter), images (a picture in most chapters),
# cover-page (the cover as the first spine item).
set -euo pipefail
cd "$(dirname "$0")/.."
# The same release build as make run and make bench (Swift runtime and Foundation linked statically).
swift build -c release --static-swift-stdlib --product reader-bench >&2
swift build -c release --static-swift-stdlib --product bok >&2
bench=$(swift build -c release --static-swift-stdlib --show-bin-path)/reader-bench
bok=$(swift build -c release --static-swift-stdlib --show-bin-path)/bok
# A binary the linker has just written is wholly in the page cache, and the kernel then maps up to
# 64 KB of cached code around every page the program touches: the first page measured up to 3 MB
# larger than the same binary run later (docs/performance.md, "Start-up pages of the binary").
# Drop it from the cache; the warm-up run in measure() reads back what a start needs, as epy's
# files are after their first run.
for binary in "$bench" "$bok"; do
  python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$binary"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=${RUNS:-7}
shapes=${SHAPES:-"novel nested-toc many-small huge-chapter images cover-page"}
if ! command -v epy >/dev/null; then pip install --quiet epy-reader >&2; fi
epy_version=$(pip show epy-reader 2>/dev/null | sed -n 's/^Version: //p')
# epy keeps its state in ~/.config/epy; a fresh HOME gives it a first start like ours.
mkdir -p "$work/home" "$work/bok"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }

# Prints "first-page-median peak-rss-median peak-rss-after-4s" for one reader on one book.
measure() {  # needle, command...
  local needle=$1; shift
  local times=() rss=() out
  python3 Benchmarks/pty-first-page.py 120 40 "$needle" --quit q -- "$@" >/dev/null || true  # warm-up, not counted
  for _ in $(seq "$runs"); do
    out=$(python3 Benchmarks/pty-first-page.py 120 40 "$needle" --quit q -- "$@" || true)
    times+=("$(field first_page_ms <<<"$out")")
    rss+=("$(field peak_rss_mb <<<"$out")")
  done
  # Peak memory once settled: bok has counted every chapter's pages by then.
  out=$(python3 Benchmarks/pty-first-page.py 120 40 "$needle" --quit q --linger 4 -- "$@" || true)
  echo "$(printf '%s\n' "${times[@]}" | median) $(printf '%s\n' "${rss[@]}" | median) $(field peak_rss_mb <<<"$out")"
}

echo "| Shape | bok read first page | reader alone | epy $epy_version first page | epy ÷ bok read | bok read peak (first page / after 4 s) | reader alone peak | epy peak (first page / after 4 s) | page turn (keys 10 ms apart) | the machine's jitter (99th percentile / max) | whole-book search (regex, warm) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for shape in $shapes; do
  book="$work/$shape.epub"
  "$bench" generate "$book" --shape "$shape" >&2
  # bok's first frame carries the book's title in its status line; epy's first page shows the
  # first chapter's heading, or [IMAGE] where the book opens on a cover page.
  if [ "$shape" = cover-page ]; then
    epy_needle="[IMAGE]"
  else
    epy_needle=$(python3 -c 'import re, sys, zipfile; print(re.search(r"<h1 id=\"c1\">(.*?)</h1>", zipfile.ZipFile(sys.argv[1]).read("OEBPS/ch1.xhtml").decode()).group(1))' "$book")
  fi
  # bok's own folders (XDG), so the shelf it makes is this run's: an account like a patron's.
  read -r bok_ms bok_rss bok_settled <<<"$(measure "The Ferry at Dawn" env XDG_CONFIG_HOME="$work/bok/config" \
    XDG_DATA_HOME="$work/bok/data" XDG_STATE_HOME="$work/bok/state" XDG_CACHE_HOME="$work/bok/cache" \
    "$bok" read "$book")"
  read -r alone_ms alone_rss alone_settled <<<"$(measure "The Ferry at Dawn" "$bench" read "$book")"
  read -r epy_ms epy_rss epy_settled <<<"$(measure "$epy_needle" env HOME="$work/home" epy "$book")"
  inprocess=$("$bench" measure "$book" --columns 120 --rows 40)
  turn=$(sed -n 's/^page turn.*median \([0-9.]*\) ms, 99th percentile \([0-9.]*\) ms, max \([0-9.]*\) ms.*/\1 ms (99th percentile \2, max \3 ms)/p' <<<"$inprocess")
  jitter=$(sed -n 's/^the same arithmetic.*99th percentile \([0-9.]*\) ms, max \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$inprocess")
  search=$(sed -n 's/^whole-book search: cold.*warm median \([0-9.]*\) ms.*/\1 ms/p' <<<"$inprocess")
  ratio=$(awk -v a="$epy_ms" -v b="$bok_ms" 'BEGIN { if (b > 0 && a > 0) printf "%.0f×", a / b; else print "—" }')
  echo "| $shape | $bok_ms ms | $alone_ms ms | $epy_ms ms | $ratio | $bok_rss / $bok_settled MB | $alone_rss / $alone_settled MB | $epy_rss / $epy_settled MB | $turn | $jitter | $search |"
done
