#ifndef BOK_CALSA_H
#define BOK_CALSA_H
// ALSA's PCM playback (Debian libasound2-dev): the sound output for reading aloud, through ALSA's
// default device, which on a desktop is PulseAudio's or PipeWire's ALSA plugin.
#include <alsa/asoundlib.h>

/// Stops ALSA printing its own diagnostics to stderr (it would write over the reader's screen
/// when there is no sound device); bok says what is wrong in one line instead.
void bok_alsa_quiet(void);
#endif
