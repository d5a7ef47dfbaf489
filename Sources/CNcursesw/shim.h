#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

// Wide-character curses API (cchar_t, setcchar, wadd_wch, get_wch) is only declared with this.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
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

#endif
