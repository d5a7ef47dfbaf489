#ifndef CGLIBCMALLOC_SHIM_H
#define CGLIBCMALLOC_SHIM_H

// Thin shim over glibc's <malloc.h> (part of libc6-dev), for the app's start-up memory settings
// (CommonBrokerApp's ProcessMemory). Only CommonBrokerApp imports it. Swift's Glibc module leaves
// <malloc.h> out, and M_ARENA_MAX is a macro: both come through here.

#include <malloc.h>

// One malloc arena for every thread (see ProcessMemory.useOneMallocArena). 1 on success, 0 on failure.
static inline int cb_malloc_use_one_arena(void) {
    return mallopt(M_ARENA_MAX, 1);
}

#endif
