#ifndef BOK_CALSA_H
#define BOK_CALSA_H
// ALSA's PCM playback (Debian libasound2-dev): the sound output for reading aloud, through ALSA's
// default device, which on a desktop is PulseAudio's or PipeWire's ALSA plugin.
//
// libasound.so.2 is loaded with dlopen when reading aloud starts, not linked, for the same reason
// as eSpeak NG (cespeak.h): most runs of bok never play a sound and should not load it.
#include <alsa/asoundlib.h>

/// Loads ALSA and stops it printing its own diagnostics to stderr (it would write over the
/// reader's screen when there is no sound device); bok says what is wrong in one line instead.
/// Returns 1 when ALSA is there (the functions below may be called), else 0.
int bok_alsa_load(void);

int bok_snd_pcm_open(snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode);
int bok_snd_pcm_set_params(snd_pcm_t *pcm, snd_pcm_format_t format, snd_pcm_access_t access, unsigned int channels,
                           unsigned int rate, int soft_resample, unsigned int latency);
snd_pcm_sframes_t bok_snd_pcm_writei(snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size);
int bok_snd_pcm_recover(snd_pcm_t *pcm, int err, int silent);
int bok_snd_pcm_drain(snd_pcm_t *pcm);
int bok_snd_pcm_close(snd_pcm_t *pcm);
#endif
