#!/usr/bin/env bash
# Installs the Debian EPUB manuals the Reader tests open, lay out and search; without apt-get
# those tests are skipped with a reason.
exec "$(dirname "$0")/apt-install.sh" optional "the Reader tests on real EPUBs will be skipped" -- \
  live-manual-epub ubuntu-packaging-guide-epub ubuntu-packaging-guide-epub-ru ubuntu-packaging-guide-epub-uk
