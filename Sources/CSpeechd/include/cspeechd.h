#ifndef BOK_CSPEECHD_H
#define BOK_CSPEECHD_H
// speech-dispatcher's client library (Debian libspeechd-dev) for reading aloud through the voice
// a screen-reader user chose. Loaded with dlopen at first use, as eSpeak NG is (cespeak.h): most
// runs of bok never read aloud, and none should pay at start for a library they do not use.
// Only the calls bok makes are here, with the wait for a message's end done in C, where
// libspeechd's callbacks arrive (on its own thread).

/// A connection to the speech-dispatcher server, or NULL.
typedef struct bok_spd bok_spd;

/// Connects to the running server (SPEECHD_ADDRESS, else the user's default socket) without
/// starting one; NULL when the library is missing or no server answers.
bok_spd *bok_spd_open(const char *client_name);
void bok_spd_close(bok_spd *connection);
/// Language (`sv`, `en-GB`) and rate (-100 … 100, 0 the user's own) of the next messages.
int bok_spd_set_language(bok_spd *connection, const char *language);
int bok_spd_set_rate(bok_spd *connection, int rate);
/// Says `text` (UTF-8) and waits until it has been spoken (0), cancelled (1), or until
/// `timeout_ms` passed or the call failed (-1).
int bok_spd_say_and_wait(bok_spd *connection, const char *text, int timeout_ms);
/// Stops what is being said; a waiting bok_spd_say_and_wait returns 1. Safe from any thread.
void bok_spd_cancel(bok_spd *connection);
#endif
