#ifndef BOK_CFRIBIDI_SHIM_H
#define BOK_CFRIBIDI_SHIM_H
// GNU FriBidi (Debian libfribidi-dev), the Unicode Bidirectional Algorithm GTK and Pango use:
// the reader orders right-to-left lines for display with it (Sources/Reader/Layout/Bidi.swift).
#include <fribidi/fribidi.h>
#endif
