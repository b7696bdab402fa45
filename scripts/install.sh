#!/usr/bin/env bash
# Installs bok under a prefix, where each tool looks:
#   scripts/install.sh PREFIX BINARY MANPAGE [LOCALEDIR]   (make install PREFIX=… runs it after building)
#   PREFIX/bin/bok
#   PREFIX/share/locale/LANG/LC_MESSAGES/bok.mo  (the translations compiled into LOCALEDIR)
#   PREFIX/share/man/man1/bok.1
#   PREFIX/share/bash-completion/completions/bok
#   PREFIX/share/zsh/site-functions/_bok
#   PREFIX/share/fish/vendor_completions.d/bok.fish
# The completion scripts come from the installed binary itself (bok completions SHELL).
set -euo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: scripts/install.sh PREFIX BINARY MANPAGE [LOCALEDIR]" >&2
  exit 2
fi
prefix=$1 binary=$2 manpage=$3 localedir=${4:-}
for f in "$binary" "$manpage"; do
  [ -f "$f" ] || { echo "install: $f is missing; run make install, which builds it." >&2; exit 1; }
done

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$prefix/bin/bok"
install -m 0644 "$manpage" "$prefix/share/man/man1/bok.1"
if [ -n "$localedir" ]; then
  for mo in "$localedir"/*/LC_MESSAGES/bok.mo; do
    [ -f "$mo" ] || continue
    lang=$(basename "$(dirname "$(dirname "$mo")")")
    install -D -m 0644 "$mo" "$prefix/share/locale/$lang/LC_MESSAGES/bok.mo"
  done
fi
# Written to a temporary file first: a failing binary leaves no half-written script behind.
for shell in bash zsh fish; do
  case $shell in
    bash) target="$prefix/share/bash-completion/completions/bok" ;;
    zsh) target="$prefix/share/zsh/site-functions/_bok" ;;
    fish) target="$prefix/share/fish/vendor_completions.d/bok.fish" ;;
  esac
  "$prefix/bin/bok" completions "$shell" > "$target.tmp"
  chmod 0644 "$target.tmp"
  mv "$target.tmp" "$target"
done
echo "Installed bok in $prefix/bin, its translations, its man page and bash, zsh and fish completions."
