// Loads eSpeak NG at first use; see cespeak.h for why it is not linked.
#include "cespeak.h"
#include <dlfcn.h>
#include <pthread.h>

static struct {
    int (*Initialize)(espeak_AUDIO_OUTPUT, int, const char *, int);
    void (*SetSynthCallback)(t_espeak_callback *);
    espeak_ERROR (*SetVoiceByName)(const char *);
    espeak_ERROR (*SetVoiceByProperties)(espeak_VOICE *);
    espeak_ERROR (*SetParameter)(espeak_PARAMETER, int, int);
    espeak_ERROR (*Synth)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int,
                          unsigned int *, void *);
    espeak_ERROR (*Synchronize)(void);
    const char *(*TextToPhonemes)(const void **, int, int);
    const espeak_VOICE **(*ListVoices)(espeak_VOICE *);
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FIND(name) if (!(*(void **)&api.name = dlsym(library, "espeak_" #name))) { dlclose(library); return; }
    FIND(Initialize) FIND(SetSynthCallback) FIND(SetVoiceByName) FIND(SetVoiceByProperties) FIND(SetParameter)
    FIND(Synth) FIND(Synchronize) FIND(TextToPhonemes) FIND(ListVoices)
#undef FIND
    loaded = 1;
}

int bok_espeak_load(void) {
    pthread_once(&once, load);
    return loaded;
}

int bok_espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options) {
    return api.Initialize(output, buflength, path, options);
}
void bok_espeak_SetSynthCallback(t_espeak_callback *callback) { api.SetSynthCallback(callback); }
espeak_ERROR bok_espeak_SetVoiceByName(const char *name) { return api.SetVoiceByName(name); }
espeak_ERROR bok_espeak_SetVoiceByLanguage(const char *language) {
    espeak_VOICE spec = {0};
    spec.languages = language;
    return api.SetVoiceByProperties(&spec);
}
espeak_ERROR bok_espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative) {
    return api.SetParameter(parameter, value, relative);
}
espeak_ERROR bok_espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                              unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data) {
    return api.Synth(text, size, position, position_type, end_position, flags, unique_identifier, user_data);
}
espeak_ERROR bok_espeak_Synchronize(void) { return api.Synchronize(); }
const char *bok_espeak_TextToPhonemes(const void **textptr, int textmode, int phonememode) {
    return api.TextToPhonemes(textptr, textmode, phonememode);
}
const espeak_VOICE **bok_espeak_ListVoices(espeak_VOICE *voice_spec) { return api.ListVoices(voice_spec); }
