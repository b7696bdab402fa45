// A C file because ALSA's error handler is variadic, which Swift cannot define.
#include "calsa.h"

static void bok_alsa_ignore(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void bok_alsa_quiet(void) {
    snd_lib_error_set_handler(bok_alsa_ignore);
}
