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

    /// The address ranges of the code mapped from files in `smaps` (the text of /proc/self/smaps): the
    /// mappings that are readable and executable but not writable, of the executable and the shared
    /// libraries, and only those with no anonymous page, i.e. where every page is still the file's (a
    /// library relocated in its code would have written some; dropping those would undo the relocation).
    public static func codeRanges(inSmaps smaps: String) -> [Range<UInt>] {
        var ranges: [Range<UInt>] = []
        var candidate: Range<UInt>?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), !fields[0].hasSuffix(":") {
                // A mapping's first line: start-end perms offset dev inode [path]; the path may hold spaces.
                candidate = nil
                let bounds = fields[0].split(separator: "-")
                guard fields.count == 6, fields[1] == "r-xp", fields[5].drop(while: { $0 == " " }).hasPrefix("/"), bounds.count == 2,
                    let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), start < end
                else { continue }
                candidate = start..<end
            } else if let range = candidate, fields.count >= 2, fields[0] == "Anonymous:" {
                if fields[1] == "0" { ranges.append(range) }
                candidate = nil
            }
        }
        return ranges
    }

    /// Lets go of the pages of code (the executable's and the shared libraries') the process has touched
    /// so far. Once start-up is over, most of them never run again: loading (the dynamic loader reads the
    /// executable's 2 MB of relocations once), the config, the first connections; and the kernel maps
    /// code 64 KB at a time around each page used (fault-around), so the 20 MB of code in the static
    /// executable had 17.5 MB resident. Code that runs again comes back from the page cache on its
    /// next use (a minor fault, no disk read): at 4 × 500 rows the code resident fell from 32.9 MB to
    /// 29.0 MB (the executable's from 17.5 to 13.7 MB). Nothing is freed that the kernel could not
    /// reclaim itself under memory pressure; RSS, which counts it, stops doing so. Returns the bytes
    /// given up, 0 when /proc is not there.
    @discardableResult
    public static func releaseCodePages() -> Int {
        #if canImport(CGlibcMalloc)
        guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return 0 }
        var released = 0
        for range in codeRanges(inSmaps: smaps) {
            guard let start = UnsafeMutableRawPointer(bitPattern: range.lowerBound) else { continue }
            if madvise(start, Int(range.count), MADV_DONTNEED) == 0 { released += Int(range.count) }
        }
        return released
        #else
        return 0
        #endif
    }
}
