#ifndef CGLIBCPOLL_SHIM_H
#define CGLIBCPOLL_SHIM_H

// glibc's ppoll(2), for the WebSocket I/O thread's and the UI thread's waits (Networking's WebSocketPoller,
// TerminalCurses' CursesEventLoop): poll(2) counts whole milliseconds, ppoll nanoseconds. Swift's Glibc
// module leaves ppoll out (it is a _GNU_SOURCE declaration, and <poll.h> was already built without it), so
// it is declared here under a name of its own, bound to the libc symbol; the signal mask is always NULL, so
// it is taken as a plain pointer.

#include <poll.h>
#include <time.h>

extern int cb_ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const void *sigmask) __asm__("ppoll");

#endif
