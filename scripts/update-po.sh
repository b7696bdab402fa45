#!/usr/bin/env bash
# Extracts bok's messages into po/bok.pot and merges them into each po/LANG.po (msgmerge), so a
# translator sees what is new. Run it after marking messages with tr("…"); then translate the
# empty msgstr lines in po/sv.po. The tests fail while any message has no translation.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/extract-messages.py po/bok.pot Sources Mocks
for po in po/*.po; do
  msgmerge --quiet --update --backup=none --no-fuzzy-matching "$po" po/bok.pot
done
