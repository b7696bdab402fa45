#!/usr/bin/env bash
# Installs the Debian packages bok needs to build and test, if any are missing.
exec "$(dirname "$0")/apt-install.sh" required "bok needs them to build" -- \
  libcurl4-openssl-dev libsqlite3-dev libreadline-dev zlib1g-dev libpng-dev libjpeg62-turbo-dev tmux \
  libespeak-ng-dev espeak-ng-data libasound2-dev libxml2 libhyphen-dev hyphen-sv hyphen-en-us libwebp-dev libgif-dev \
  libfribidi-dev gettext libspeechd-dev libchafa-dev librsvg2-dev libavif-dev libjxl-dev
