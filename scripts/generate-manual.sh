#!/usr/bin/env bash
# Writes bok's man page, .build/man/bok.1, with swift-argument-parser's generate-manual plugin from
# the same definition as --help and the shell completions. The debug build is enough: the page
# depends on the command line's definition, not on optimisation.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/man
# The page is English, whatever the locale of whoever builds it.
LC_ALL=C.UTF-8 LANGUAGE= swift package plugin generate-manual --configuration debug >.build/man/generate.log 2>&1 || { cat .build/man/generate.log >&2; exit 1; }
cp .build/plugins/GenerateManual/outputs/Client/bok.1 .build/man/bok.1
