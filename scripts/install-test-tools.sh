#!/usr/bin/env bash
# Installs the tools some tests drive: epubcheck validates the mock library's generated books;
# sqlite3 kills itself mid-transaction in the shelf's crash test; sox checks the WAV files of
# `read --aloud`; calibre (its content server) is the real OPDS server the catalogue client is
# tested against; zsh, fish and man-db load bok's completion scripts and render its man page;
# python3-icalendar reads `loans --ics` as a calendar program would; librsvg2-bin (rsvg-convert)
# renders `study report`'s SVG charts to PNG; asciinema's reader takes back `study replay
# --asciicast`; dictd serves the FreeDict dictionaries `define` looks words up in; speech-dispatcher
# (with a test voice that writes down what it is told) hears the reader read aloud; libsixel-bin's
# sixel2png decodes the Sixel pictures the reader writes; libavif-bin's avifenc and libjxl-tools'
# cjxl make the AVIF and JPEG XL pictures the reader decodes; xterm (with Sixel), xvfb and x11-apps'
# xwd take the screenshots of docs/pictures.md.
# Without apt-get those tests are skipped with a reason.
exec "$(dirname "$0")/apt-install.sh" optional "the tests that validate generated books or crash a writer will be skipped" -- epubcheck sqlite3 sox calibre zsh fish man-db python3-icalendar asciinema dictd dict-freedict-swe-eng dict-freedict-eng-swe librsvg2-bin speech-dispatcher libsixel-bin libsixel-dev libavif-bin libjxl-tools xterm xvfb x11-apps
