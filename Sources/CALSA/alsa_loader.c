// Loads ALSA when reading aloud starts; see calsa.h for why it is not linked. A C file also
// because ALSA's error handler is variadic, which Swift cannot define.
#include "calsa.h"
#include <dlfcn.h>
#include <pthread.h>

static struct {
    int (*error_set_handler)(snd_lib_error_handler_t);
    int (*open)(snd_pcm_t **, const char *, snd_pcm_stream_t, int);
    int (*set_params)(snd_pcm_t *, snd_pcm_format_t, snd_pcm_access_t, unsigned int, unsigned int, int, unsigned int);
    snd_pcm_sframes_t (*writei)(snd_pcm_t *, const void *, snd_pcm_uframes_t);
    int (*recover)(snd_pcm_t *, int, int);
    int (*drain)(snd_pcm_t *);
    int (*close)(snd_pcm_t *);
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void bok_alsa_ignore(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static void load(void) {
    void *library = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FIND(field, name) if (!(*(void **)&api.field = dlsym(library, name))) { dlclose(library); return; }
    FIND(error_set_handler, "snd_lib_error_set_handler") FIND(open, "snd_pcm_open")
    FIND(set_params, "snd_pcm_set_params") FIND(writei, "snd_pcm_writei") FIND(recover, "snd_pcm_recover")
    FIND(drain, "snd_pcm_drain") FIND(close, "snd_pcm_close")
#undef FIND
    api.error_set_handler(bok_alsa_ignore);
    loaded = 1;
}

int bok_alsa_load(void) {
    pthread_once(&once, load);
    return loaded;
}

int bok_snd_pcm_open(snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode) {
    return api.open(pcm, name, stream, mode);
}
int bok_snd_pcm_set_params(snd_pcm_t *pcm, snd_pcm_format_t format, snd_pcm_access_t access, unsigned int channels,
                           unsigned int rate, int soft_resample, unsigned int latency) {
    return api.set_params(pcm, format, access, channels, rate, soft_resample, latency);
}
snd_pcm_sframes_t bok_snd_pcm_writei(snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size) {
    return api.writei(pcm, buffer, size);
}
int bok_snd_pcm_recover(snd_pcm_t *pcm, int err, int silent) { return api.recover(pcm, err, silent); }
int bok_snd_pcm_drain(snd_pcm_t *pcm) { return api.drain(pcm); }
int bok_snd_pcm_close(snd_pcm_t *pcm) { return api.close(pcm); }
