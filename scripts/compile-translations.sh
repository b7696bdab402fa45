#!/usr/bin/env bash
# Compiles each po/LANG.po with msgfmt into .build/share/locale/LANG/LC_MESSAGES/bok.mo, where
# bok finds it (make install copies the tree to PREFIX/share/locale).
set -euo pipefail
cd "$(dirname "$0")/.."
for po in po/*.po; do
  lang=$(basename "$po" .po)
  mkdir -p ".build/share/locale/$lang/LC_MESSAGES"
  msgfmt --check --output-file=".build/share/locale/$lang/LC_MESSAGES/bok.mo.tmp" "$po"
  mv ".build/share/locale/$lang/LC_MESSAGES/bok.mo.tmp" ".build/share/locale/$lang/LC_MESSAGES/bok.mo"
done
