// Loads libspeechd at first use; see cspeechd.h for why it is not linked.
#include "cspeechd.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <speech-dispatcher/libspeechd.h>

static struct {
    SPDConnection *(*open2)(const char *, const char *, const char *, SPDConnectionMode, const SPDConnectionAddress *,
                            int, char **);
    void (*close)(SPDConnection *);
    int (*say)(SPDConnection *, SPDPriority, const char *);
    int (*cancel)(SPDConnection *);
    int (*set_language)(SPDConnection *, const char *);
    int (*set_voice_rate)(SPDConnection *, signed int);
    int (*set_notification_on)(SPDConnection *, SPDNotification);
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libspeechd.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FIND(field, name) if (!(*(void **)&api.field = dlsym(library, name))) { dlclose(library); return; }
    FIND(open2, "spd_open2") FIND(close, "spd_close") FIND(say, "spd_say") FIND(cancel, "spd_cancel")
    FIND(set_language, "spd_set_language") FIND(set_voice_rate, "spd_set_voice_rate")
    FIND(set_notification_on, "spd_set_notification_on")
#undef FIND
    loaded = 1;
}

struct bok_spd {
    SPDConnection *connection;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    /// The last message that ended, and how (0 spoken, 1 cancelled): kept by id, since its end
    /// may come before spd_say has returned the id to wait for.
    long last;
    int how;
};

// libspeechd's callbacks name the message, not the connection: every open connection hears
// each end, and a waiter looks for its own message's id (ids are the server's, never reused).
#define MAX_OPEN 8
static bok_spd *open_connections[MAX_OPEN];
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

static void ended(size_t message, size_t client, SPDNotificationType state) {
    (void)client;
    pthread_mutex_lock(&open_lock);
    for (int i = 0; i < MAX_OPEN; i++) {
        bok_spd *self = open_connections[i];
        if (!self) continue;
        pthread_mutex_lock(&self->lock);
        self->last = (long)message;
        self->how = state == SPD_EVENT_END ? 0 : 1;
        pthread_cond_broadcast(&self->changed);
        pthread_mutex_unlock(&self->lock);
    }
    pthread_mutex_unlock(&open_lock);
}

bok_spd *bok_spd_open(const char *client_name) {
    pthread_once(&once, load);
    if (!loaded) return NULL;
    char *error = NULL;
    // Autospawn off: bok uses a server that is running, and never starts one of its own.
    SPDConnection *connection = api.open2(client_name, "reader", NULL, SPD_MODE_THREADED, NULL, 0, &error);
    free(error);
    if (!connection) return NULL;
    bok_spd *self = calloc(1, sizeof *self);
    if (!self) {
        api.close(connection);
        return NULL;
    }
    self->connection = connection;
    self->last = -1;
    pthread_mutex_init(&self->lock, NULL);
    pthread_cond_init(&self->changed, NULL);
    int kept = 0;
    pthread_mutex_lock(&open_lock);
    for (int i = 0; i < MAX_OPEN && !kept; i++) {
        if (!open_connections[i]) {
            open_connections[i] = self;
            kept = 1;
        }
    }
    pthread_mutex_unlock(&open_lock);
    if (!kept) {
        api.close(connection);
        free(self);
        return NULL;
    }
    connection->callback_end = ended;
    connection->callback_cancel = ended;
    api.set_notification_on(connection, SPD_END);
    api.set_notification_on(connection, SPD_CANCEL);
    return self;
}

void bok_spd_close(bok_spd *self) {
    if (!self) return;
    api.close(self->connection);
    pthread_mutex_lock(&open_lock);
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_connections[i] == self) open_connections[i] = NULL;
    pthread_mutex_unlock(&open_lock);
    pthread_cond_destroy(&self->changed);
    pthread_mutex_destroy(&self->lock);
    free(self);
}

int bok_spd_set_language(bok_spd *self, const char *language) { return api.set_language(self->connection, language); }
int bok_spd_set_rate(bok_spd *self, int rate) { return api.set_voice_rate(self->connection, rate); }

int bok_spd_say_and_wait(bok_spd *self, const char *text, int timeout_ms) {
    int message = api.say(self->connection, SPD_TEXT, text);
    if (message < 0) return -1;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&self->lock);
    int waited = 0;
    while (self->last != message && waited != ETIMEDOUT)
        waited = pthread_cond_timedwait(&self->changed, &self->lock, &until);
    int how = self->last == message ? self->how : -1;
    pthread_mutex_unlock(&self->lock);
    return how;
}

void bok_spd_cancel(bok_spd *self) {
    if (self) api.cancel(self->connection);
}
