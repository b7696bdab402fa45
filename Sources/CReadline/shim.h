#ifndef BOK_CREADLINE_SHIM_H
#define BOK_CREADLINE_SHIM_H
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

/*
 * Readline keeps its state in mutable C globals, which Swift 6 refuses to touch directly
 * ("not concurrency-safe"). These accessors are the only way the Terminal module reaches
 * them, and it calls them only while holding its readline lock (or from inside readline's
 * own callbacks, which run on the thread that holds that lock).
 */

/* Installs the completion and signal-event hooks. */
static inline void bok_rl_install_hooks(rl_completion_func_t *completion, rl_hook_func_t *signal_event) {
    rl_attempted_completion_function = completion;
    rl_signal_event_hook = signal_event;
}

/* Stops readline from falling back to file-name completion after our completion function. */
static inline void bok_rl_set_attempted_completion_over(int over) {
    rl_attempted_completion_over = over;
}

/* No space after this completion: a field that the value follows (`kategori:`). */
static inline void bok_rl_suppress_append(void) {
    rl_completion_suppress_append = 1;
}

/* The line being edited (not NUL-terminated at the cursor; use the end offset given). */
static inline const char *bok_rl_line_buffer(void) {
    return rl_line_buffer;
}

/* Drops the typed text and redraws a fresh, empty prompt on the next line (after Ctrl-C). */
static inline void bok_rl_discard_line_and_redisplay(void) {
    rl_replace_line("", 0);
    rl_point = 0;
    rl_end = 0;
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
}

/* Readline leaves every signal to bok (SIGINT and SIGTSTP must work whichever thread the
   kernel hands them to) and reads keys through `getc`. */
static inline void bok_rl_take_signals(rl_getc_func_t *getc) {
    rl_getc_function = getc;
    rl_catch_signals = 0;
}

/* Before bok stops or ends at the prompt: the terminal as it was before readline. */
static inline void bok_rl_leave_terminal(void) {
    rl_cleanup_after_signal();
}

/* After `fg`: readline's terminal settings again, and the prompt with the typed text redrawn. */
static inline void bok_rl_resume_terminal(void) {
    rl_reset_after_signal();
    rl_on_new_line();
    rl_redisplay();
}

/* Empties the line being read (a cancelled question), so accepting it gives "". */
static inline void bok_rl_clear_line(void) {
    rl_replace_line("", 0);
    rl_point = 0;
    rl_end = 0;
}

/* The history entries in memory, oldest first: count and one entry's text (NULL if absent). */
static inline int bok_history_count(void) {
    return history_length;
}

static inline const char *bok_history_line(int offset) {
    HIST_ENTRY *entry = history_get(history_base + offset);
    return entry ? entry->line : NULL;
}

#endif
