import Foundation

#if canImport(CGlibcMalloc)
import CGlibcMalloc
import Glibc
#endif

/// The process's own memory settings (issue 18: RSS ≤ 50 MB at 4 × 500 rows with 30-minute histories
/// full). Each is a glibc or kernel call that the rest of the app never sees; the figures are the wire
/// bench's 4 × 500 rows at 10,000 events/s with full histories (README, "Memory").
public enum ProcessMemory {
    /// One malloc arena for every thread. glibc gives each thread that allocates while another holds the
    /// arena an arena of its own, up to 8 per core; each keeps the memory its thread freed for itself,
    /// so the app's dozen threads (the cooperative pool, curses, the sockets' reader, libcurl's) held
    /// 12 arenas whose free space no other thread could reuse: 31.5 MB of anonymous memory where one
    /// arena needs 27.8. The threads allocate little at a time (a frame, a batch of quotes), so waiting
    /// on one arena's lock costs nothing measurable (CPU within the bench's noise). Call it first, before
    /// any thread has allocated.
    public static func useOneMallocArena() {
        #if canImport(CGlibcMalloc)
        _ = cb_malloc_use_one_arena()
        #endif
    }
}
