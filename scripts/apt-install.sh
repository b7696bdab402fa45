#!/usr/bin/env bash
# Installs the Debian packages given after `--` when any is missing; safe to run again.
#   apt-install.sh required|optional "what they are for" -- PACKAGE...
# `required` fails without apt-get; `optional` says so and exits 0 (the tests that need them skip).
set -euo pipefail

need=$1; purpose=$2; shift 3
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "Cannot install ${missing[*]} here (no apt-get): $purpose." >&2
  [ "$need" = optional ] && exit 0
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing ${missing[*]} ($purpose) ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
