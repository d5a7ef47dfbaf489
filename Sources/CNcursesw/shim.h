#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

// Wide-character curses API (cchar_t, setcchar, wadd_wch, get_wch) is only declared with this.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

// Macros Swift cannot import, as functions.
static inline int cb_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int cb_key_resize(void) { return KEY_RESIZE; }
static inline WINDOW *cb_stdscr(void) { return stdscr; }
static inline int cb_lines(void) { return LINES; }
static inline int cb_cols(void) { return COLS; }
static inline int cb_color_pairs(void) { return COLOR_PAIRS; }
static inline int cb_colors(void) { return COLORS; }
static inline int cb_key_mouse(void) { return KEY_MOUSE; }
// The mouse events the watchlist asks for: left button presses and clicks, and the wheel (buttons 4
// and 5, which terminals report as presses).
static inline mmask_t cb_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int cb_mouse_is_press(mmask_t state) { return (state & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0; }
static inline int cb_mouse_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int cb_mouse_is_wheel_down(mmask_t state) { return (state & BUTTON5_PRESSED) != 0; }
static inline int cb_key_code_yes(void) { return KEY_CODE_YES; }
static inline attr_t cb_attr_normal(void) { return WA_NORMAL; }
static inline attr_t cb_attr_bold(void) { return WA_BOLD; }
static inline attr_t cb_attr_dim(void) { return WA_DIM; }
static inline attr_t cb_attr_reverse(void) { return WA_REVERSE; }
static inline attr_t cb_attr_underline(void) { return WA_UNDERLINE; }

// glibc declares wcwidth only for _XOPEN_SOURCE, which would hide other declarations Swift needs.
extern int wcwidth(wchar_t character);
static inline int cb_wcwidth(unsigned int character) { return wcwidth((wchar_t)character); }

// Swift 6 rejects the C globals `stdout` / `stdin` as shared mutable state.
static inline SCREEN *cb_newterm(void) { return newterm(NULL, stdout, stdin); }

static inline const char *cb_terminfo_string(const char *capability) {
    char *value = tigetstr(capability);
    return (value == NULL || value == (char *)-1) ? NULL : value;
}

// term.h's terminfo loading, declared here: including term.h would bring its capability macros (`lines`,
// `columns`, …), which clash with ordinary names. Same signatures as term.h (TERMINAL is struct term).
struct term;
extern int setupterm(const char *term, int fildes, int *errret);
extern struct term *set_curterm(struct term *terminal);
extern int del_curterm(struct term *terminal);

// Reads `term`'s terminfo entry without starting curses and puts the current terminal back: 0 and the
// capabilities the watchlist needs (cup present, hardcopy, generic), or -1 if terminfo does not know it.
// Not thread-safe (curses' current terminal is global): callers serialize.
static inline int cb_terminfo_probe(const char *term, int *has_cup, int *hardcopy, int *generic) {
    struct term *previous = set_curterm(NULL);
    int status = 0;
    int found = setupterm(term, -1, &status) == OK && status == 1;
    if (found) {
        *has_cup = cb_terminfo_string("cup") != NULL;
        *hardcopy = tigetflag("hc") == 1;
        *generic = tigetflag("gn") == 1;
    }
    struct term *probe = set_curterm(previous);
    if (probe != NULL && probe != previous) del_curterm(probe);
    return found ? 0 : -1;
}

// ioctl is variadic, which Swift cannot call.
static inline int cb_window_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

// ---------------------------------------------------------------------------------------------------
// Signal handling. Handlers must be async-signal-safe, so they are C, and so is their state.
//
// The state must exist once per process. A `static` in a header exists once per object file that
// uses it, and Swift emits the C code it calls into each of its object files (in release builds,
// wherever the optimizer inlined the caller), so the state lives in a function-local static of a
// *weak* function: the linker keeps one definition of `cb_signals`, hence one state, for everyone.

#define CB_SIGNAL_SLOTS 65
struct cb_signals_state {
    int pipe_fd;
    volatile sig_atomic_t terminal_active;
    int termios_saved;
    int atexit_registered;
    struct termios saved_termios;
    size_t reset_length;
    char reset_sequence[512];
    int installed[CB_SIGNAL_SLOTS];
    struct sigaction previous[CB_SIGNAL_SLOTS];
};

__attribute__((weak, noinline)) struct cb_signals_state *cb_signals(void) {
    static struct cb_signals_state state = { .pipe_fd = -1 };
    return &state;
}

static inline void cb_signals_set_pipe(int fd) { cb_signals()->pipe_fd = fd; }

static inline int cb_signals_save_termios(int fd) {
    cb_signals()->termios_saved = (tcgetattr(fd, &cb_signals()->saved_termios) == 0);
    return cb_signals()->termios_saved ? 0 : -1;
}

static inline void cb_signals_set_reset_sequence(const char *bytes, size_t length) {
    if (length > sizeof cb_signals()->reset_sequence) length = sizeof cb_signals()->reset_sequence;
    memcpy(cb_signals()->reset_sequence, bytes, length);
    cb_signals()->reset_length = length;
}

static inline void cb_signals_set_terminal_active(int active) { cb_signals()->terminal_active = active; }

// Best effort from any context, including a crashing thread: no allocation, no locks, no curses.
static inline void cb_signals_emergency_restore(void) {
    if (!cb_signals()->terminal_active) return;
    cb_signals()->terminal_active = 0;
    if (cb_signals()->reset_length > 0) {
        ssize_t ignored = write(STDOUT_FILENO, cb_signals()->reset_sequence, cb_signals()->reset_length);
        (void)ignored;
    }
    if (cb_signals()->termios_saved) tcsetattr(STDIN_FILENO, TCSANOW, &cb_signals()->saved_termios);
}

static inline void cb_signals_relay(int signal_number) {
    int saved_errno = errno;
    unsigned char byte = (unsigned char)signal_number;
    if (cb_signals()->pipe_fd >= 0) {
        ssize_t ignored = write(cb_signals()->pipe_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

// Restores the terminal, puts back whatever handled the signal before us (SIG_DFL, or Swift's
// backtracer) and raises again with the signal unblocked, so that handler runs right here, nested. If it
// returns (the signal came from kill(), not a fault, and the backtracer does not end the process), the
// process still dies the default way: the terminal is no longer ours, so carrying on would draw garbage.
static inline void cb_signals_crash(int signal_number) {
    cb_signals_emergency_restore();
    if (signal_number > 0 && signal_number < CB_SIGNAL_SLOTS && cb_signals()->installed[signal_number]) {
        sigaction(signal_number, &cb_signals()->previous[signal_number], NULL);
        cb_signals()->installed[signal_number] = 0;
    } else {
        signal(signal_number, SIG_DFL);
    }
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, signal_number);
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    raise(signal_number);
    signal(signal_number, SIG_DFL);
    raise(signal_number);
    _exit(128 + signal_number);
}

static inline void cb_signals_atexit(void) { cb_signals_emergency_restore(); }

static inline int cb_signals_install(int signal_number, int crash) {
    if (signal_number <= 0 || signal_number >= CB_SIGNAL_SLOTS) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = crash ? cb_signals_crash : cb_signals_relay;
    action.sa_flags = crash ? 0 : SA_RESTART;
    struct sigaction previous;
    if (sigaction(signal_number, &action, &previous) != 0) return -1;
    if (!cb_signals()->installed[signal_number]) cb_signals()->previous[signal_number] = previous;
    cb_signals()->installed[signal_number] = 1;
    return 0;
}

static inline void cb_signals_uninstall(int signal_number) {
    if (signal_number <= 0 || signal_number >= CB_SIGNAL_SLOTS || !cb_signals()->installed[signal_number]) return;
    sigaction(signal_number, &cb_signals()->previous[signal_number], NULL);
    cb_signals()->installed[signal_number] = 0;
}

static inline int cb_signals_register_atexit(void) {
    if (cb_signals()->atexit_registered) return 0;
    cb_signals()->atexit_registered = 1;
    return atexit(cb_signals_atexit);
}

// Ctrl-Z: stop for real with the default action, then put our handler back once continued.
static inline void cb_signals_stop_process(void) {
    struct sigaction default_action, ours;
    memset(&default_action, 0, sizeof default_action);
    sigemptyset(&default_action.sa_mask);
    default_action.sa_handler = SIG_DFL;
    sigaction(SIGTSTP, &default_action, &ours);
    sigset_t unblock, previous_mask;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &unblock, &previous_mask);
    raise(SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &previous_mask, NULL);
    sigaction(SIGTSTP, &ours, NULL);
}

#endif
