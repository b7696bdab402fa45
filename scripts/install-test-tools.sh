#!/usr/bin/env bash
# Installs the Debian packages the tests use as outside checkers of what bok generates:
# epubcheck (the W3C EPUB validator; runs on the Java that is already there) validates the
# mock library's generated books. Safe to run again: it does nothing when they are installed.
# Without apt-get it says so and exits 0, and the tests that need them are skipped with a reason.
set -euo pipefail

packages=(epubcheck)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "Cannot install ${missing[*]} here (no apt-get); the tests that validate generated books will be skipped." >&2
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing ${missing[*]} ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
