#!/usr/bin/env bash
# The mock lending library under load: Debian's wrk against `bok mock-server` on 127.0.0.1,
# 64 keep-alive connections, a bounded time per case (docs/performance.md has the targets).
#
#   Benchmarks/mock-load.sh [BOK] [SECONDS]     (default .build/release/bok, 10 s a case)
#
# Cases: product info (GET products/{id}, 200 ids in turn) and the library page on a 600-book
# mock, and search (the 16 queries of bok-bench in five sort orders, in turn) on a 200 000-book
# mock. wrk reports requests per second, latency percentiles and errors (non-2xx answers and
# socket errors). wrk runs on the same two cores as the server, so the figures are a floor.
set -euo pipefail
cd "$(dirname "$0")/.."
bok=${1:-.build/release/bok}
seconds=${2:-10}
scripts/apt-install.sh optional "the mock's load test will be skipped" -- wrk
command -v wrk >/dev/null || { echo "mock-load: wrk is not installed; skipped." >&2; exit 0; }
[ -x "$bok" ] || { echo "mock-load: $bok is missing; build it first (make bench)." >&2; exit 1; }

work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

checksum() { printf '%s' "bok-mock$1mock-secret" | sha512sum | cut -d' ' -f1; }

# Starts a mock of $1 books; sets base (the API's URL) and server (its pid).
start() {
  [ -n "$server" ] && { kill "$server"; wait "$server" 2>/dev/null || true; }
  # A file of its own: the previous server's would be read before the shell empties it.
  "$bok" mock-server --port 0 --catalog-size "$1" >"$work/url-$1" 2>"$work/log" &
  server=$!
  for _ in $(seq 600); do
    grep -q '^http' "$work/url-$1" && break
    sleep 0.1
  done
  base=$(head -1 "$work/url-$1")
  [ -n "$base" ] || { echo "mock-load: the mock did not start: $(cat "$work/log")" >&2; exit 1; }
}

# Writes a wrk script that asks for the paths in $1 (one a line) in turn.
rotate() {
  {
    echo "local paths = {"
    sed 's/.*/  "&",/' "$1"
    echo "}"
    echo 'local next = 0'
    echo 'request = function()'
    echo '  next = next % #paths + 1'
    echo '  return wrk.format("GET", paths[next])'
    echo 'end'
  } >"$1.lua"
}

run() { # name, script
  echo "== $1"
  wrk -t2 -c64 -d"${seconds}s" --latency -s "$2" "${base%%/library/*}" | grep -E "Requests/sec|Non-2xx|Socket errors|^ +(50|90|99)%|requests in"
}

start 600
path=/library${base#*/library}
: >"$work/products"
for i in $(seq 0 3 597); do
  id=$((1000000 + (i * 7919 + 104729) % 9000000))
  echo "${path}products/$id?serviceid=bok-mock&checksum=$(checksum "$id")" >>"$work/products"
done
rotate "$work/products"
echo "${path}library?serviceid=bok-mock&checksum=$(checksum "")" >"$work/library"
rotate "$work/library"
run "product info, 600 books" "$work/products.lua"
run "library page" "$work/library.lua"

start 200000
: >"$work/search"
queries=("thriller" "author:Å*" "sommar" "category:Deckare" "the" "öland" "title:natt*" "fantasy drake" "isbn:978*"
  "publisher:norrsken" "barn" "klassiker" "mörker*" "language:en" "kärlek" "biografi")
sorts=(relevance title author popularity date)
for n in "${!queries[@]}"; do
  for s in "${sorts[@]}"; do
    q=${queries[$n]}
    encoded=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$q")
    echo "${path}products?q=$encoded&sort=$s&limit=20&serviceid=bok-mock&checksum=$(checksum "$q")" >>"$work/search"
  done
done
rotate "$work/search"
run "search, 200 000 books" "$work/search.lua"
