#ifndef WSH_CEDIT_SHIM_H
#define WSH_CEDIT_SHIM_H

#include <stdio.h>
#include <histedit.h>

// Swift cannot call C variadic functions, so each el_set/history call that wsh
// needs gets a fixed-signature wrapper here.

typedef unsigned char (*wsh_el_function)(EditLine *, int);
typedef char *(*wsh_el_prompt)(EditLine *);

/// el_init on the standard streams (Swift 6 cannot touch the C globals stdin/stdout/stderr); the
/// prompt and the line are drawn on stderr when `on_stderr` (stdout is a pipe: `wsh | tee log`).
static inline EditLine *wsh_el_init(const char *program, int on_stderr) {
    return el_init(program, stdin, on_stderr ? stderr : stdout, stderr);
}
static inline int wsh_el_set_prompt(EditLine *el, wsh_el_prompt prompt) {
    return el_set(el, EL_PROMPT, prompt);
}
static inline int wsh_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}
static inline int wsh_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}
static inline int wsh_el_set_hist(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}
static inline int wsh_el_addfn(EditLine *el, const char *name, const char *help, wsh_el_function fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int wsh_el_bind(EditLine *el, const char *key, const char *fn) {
    return el_set(el, EL_BIND, key, fn, NULL);
}
/// Clears a tty mode flag in edit mode, e.g. "isig" so that ^C reaches a key binding.
static inline int wsh_el_setty_clear(EditLine *el, const char *flag) {
    char mode[32];
    snprintf(mode, sizeof mode, "-%s", flag);
    return el_set(el, EL_SETTY, "-d", mode, NULL);
}
static inline int wsh_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}
static inline void *wsh_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
/// Puts the terminal in libedit's editing (raw) mode now; el_gets would do it only after printing the prompt.
static inline int wsh_el_prep_term(EditLine *el, int on) {
    return el_set(el, EL_PREP_TERM, on);
}
static inline int wsh_el_refresh(EditLine *el) {
    return el_set(el, EL_REFRESH);
}

/// One history entry: `op` is H_FIRST (the newest) or H_NEXT (the one older than the last asked); NULL past the end.
static inline const char *wsh_history_get(History *h, int op) {
    HistEvent ev;
    if (history(h, &ev, op) == -1) return NULL;
    return ev.str;
}
static inline int wsh_history_setsize(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}
static inline int wsh_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}
static inline int wsh_history_setunique(History *h, int unique) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, unique);
}

#endif
