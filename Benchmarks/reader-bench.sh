#!/usr/bin/env bash
# Measures the reader on a generated novel (about 3.5 MB of text, 60 chapters) against epy,
# both in a 120×40 pseudo-terminal. Figures go in docs/performance.md under "## Reader".
#
#   Benchmarks/reader-bench.sh            builds in release mode, installs epy if missing
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product reader-bench >&2
bench=.build/release/reader-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
book="$work/novel.epub"
"$bench" generate "$book"

runs=${RUNS:-7}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() {  # label, needle, keys, command...
  local label=$1 text=$2 keys=$3; shift 3
  local times=() rss=()
  for _ in $(seq "$runs"); do
    out=$(python3 Benchmarks/pty-first-page.py 120 40 "$text" --quit "$keys" -- "$@")
    times+=("$(sed -n 's/.*first_page_ms=\([0-9.]*\).*/\1/p' <<<"$out")")
    rss+=("$(sed -n 's/.*peak_rss_mb=\([0-9.]*\).*/\1/p' <<<"$out")")
  done
  echo "$label: first page median $(printf '%s\n' "${times[@]}" | median) ms (runs: ${times[*]}), peak RSS median $(printf '%s\n' "${rss[@]}" | median) MB"
  # Peak memory once settled: our reader has counted every chapter's pages by then.
  out=$(python3 Benchmarks/pty-first-page.py 120 40 "$text" --quit "$keys" --linger 4 -- "$@")
  echo "$label: peak RSS after 4 s open: $(sed -n 's/.*peak_rss_mb=\([0-9.]*\).*/\1/p' <<<"$out") MB"
}

# A phrase from the first chapter's heading, which both readers show on their first text page.
title=$(python3 -c 'import re, sys, zipfile; print(re.search(r"<h1 id=\"c1\">(.*?)</h1>", zipfile.ZipFile(sys.argv[1]).read("OEBPS/ch1.xhtml").decode()).group(1))' "$book")
# Our first page is the cover, with the book title in the status line of the same single write.
measure "bok reader (interactive, first frame)" "The Ferry at Dawn" q "$bench" read "$book"
measure "bok reader (--first-frame, exits)" "The Ferry at Dawn" q "$bench" read "$book" --first-frame
if ! command -v epy >/dev/null; then pip install --quiet epy-reader >&2; fi
# epy keeps its state in ~/.config/epy; a fresh HOME gives it a first start like ours.
mkdir -p "$work/home"
measure "epy $(pip show epy-reader 2>/dev/null | sed -n 's/^Version: //p')" "$title" q env HOME="$work/home" epy "$book"
"$bench" measure "$book" --columns 120 --rows 40
