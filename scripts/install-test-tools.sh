#!/usr/bin/env bash
# Installs epubcheck, which validates the mock library's generated books; without apt-get
# those tests are skipped with a reason.
exec "$(dirname "$0")/apt-install.sh" optional "the tests that validate generated books will be skipped" -- epubcheck
