#!/usr/bin/env bash
# Installs the Debian packages whose EPUB manuals the Reader tests open, lay out and search
# (live-manual-epub, ubuntu-packaging-guide-epub and its Russian and Ukrainian editions).
# Safe to run again: it does nothing when they are installed. Without apt-get it says so and
# exits 0, and those tests are skipped with a reason.
set -euo pipefail

packages=(live-manual-epub ubuntu-packaging-guide-epub ubuntu-packaging-guide-epub-ru ubuntu-packaging-guide-epub-uk)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "Cannot install ${missing[*]} here (no apt-get); the Reader tests on real EPUBs will be skipped." >&2
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing ${missing[*]} ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
