#!/usr/bin/env bash
# Installs the Debian packages bok needs to build and test, if any are missing.
# Safe to run again: it does nothing when everything is there.
set -euo pipefail

packages=(libcurl4-openssl-dev libsqlite3-dev libreadline-dev zlib1g-dev libpng-dev libjpeg62-turbo-dev tmux)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "bok needs these packages and cannot install them here (no apt-get): ${missing[*]}" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing ${missing[*]} ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
