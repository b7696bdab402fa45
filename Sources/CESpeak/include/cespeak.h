#ifndef BOK_CESPEAK_H
#define BOK_CESPEAK_H
// eSpeak NG (Debian libespeak-ng-dev) for reading aloud; voices from espeak-ng-data.
//
// The library is loaded with dlopen at first use rather than linked: libespeak-ng.so.1 brings
// about thirty libraries with it (PulseAudio, X11, libsndfile, FLAC, Vorbis, systemd, …), which
// every start of bok paid for in time and about 3 MB of memory although most sessions never
// read aloud. The types come from eSpeak's own header; the functions are its own, called
// through pointers looked up once.
#include <espeak-ng/speak_lib.h>
#include <stddef.h>

/// Loads eSpeak NG; 1 when it is there (and its functions below may be called), else 0.
int bok_espeak_load(void);

int bok_espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options);
void bok_espeak_SetSynthCallback(t_espeak_callback *callback);
espeak_ERROR bok_espeak_SetVoiceByName(const char *name);
/// The best voice for a language (`zh` is spoken by the voice called `cmn`).
espeak_ERROR bok_espeak_SetVoiceByLanguage(const char *language);
espeak_ERROR bok_espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative);
espeak_ERROR bok_espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                              unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data);
espeak_ERROR bok_espeak_Synchronize(void);
const char *bok_espeak_TextToPhonemes(const void **textptr, int textmode, int phonememode);
const espeak_VOICE **bok_espeak_ListVoices(espeak_VOICE *voice_spec);
#endif
