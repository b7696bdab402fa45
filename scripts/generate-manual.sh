#!/usr/bin/env bash
# Writes bok's man page, .build/man/bok.1, with swift-argument-parser's generate-manual plugin from
# the same definition as --help and the shell completions. The debug build is enough: the page
# depends on the command line's definition, not on optimisation.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/man
# The page is English, whatever the locale of whoever builds it. The plugin drops every character
# outside ASCII (sök would read sk): bok spells them as placeholders, BOKU00F6U, for it, and they
# become groff's \[u00F6] here (ManualText in Sources/Client/Invocation/BokCommand.swift).
BOK_MANUAL_PLACEHOLDERS=1 LC_ALL=C.UTF-8 LANGUAGE= swift package plugin generate-manual --configuration debug \
  >.build/man/generate.log 2>&1 || { cat .build/man/generate.log >&2; exit 1; }
sed -E 's/BOKU([0-9A-F]{4,6})U/\\[u\1]/g' .build/plugins/GenerateManual/outputs/Client/bok.1 >.build/man/bok.1.tmp
mv .build/man/bok.1.tmp .build/man/bok.1
