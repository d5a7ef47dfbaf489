import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Bytes the process holds, as malloc and the kernel see them. Swift objects, stream buffers and
/// dictionaries all come from malloc, so the heap figure is what the hub and its subscribers cost.
enum HeapGauge {
    /// Bytes allocated and not freed, over every malloc arena plus mmapped blocks; nil off glibc.
    ///
    /// `mallinfo2` is not visible through the Glibc module (malloc.h is not part of it), so this asks
    /// glibc's `malloc_info`, found with dlsym, for its XML totals: in use = arena bytes obtained
    /// from the system − free chunks (fast and other bins, top chunk included) + mmapped blocks.
    static func heapBytesInUse() -> Int? {
        #if canImport(Glibc)
        guard let mallocInfo else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else { return nil }
        let status = mallocInfo(0, stream)
        fclose(stream)
        guard let buffer else { return nil }
        let xml = String(cString: buffer)
        free(buffer)
        guard status == 0 else { return nil }
        return inUse(fromMallocInfo: xml)
        #else
        return nil
        #endif
    }

    /// Resident set size from /proc; nil where there is no /proc.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    #if canImport(Glibc)
    private typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32

    private static let mallocInfo: MallocInfo? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return nil }
        return unsafeBitCast(symbol, to: MallocInfo.self)
    }()
    #endif

    /// The process-wide totals follow the last `</heap>`.
    static func inUse(fromMallocInfo xml: String) -> Int? {
        guard let tail = xml.range(of: "</heap>", options: .backwards).map({ xml[$0.upperBound...] }) else { return nil }
        func size(_ tag: String, _ type: String) -> Int? {
            guard let start = tail.range(of: "<\(tag) type=\"\(type)\"") else { return nil }
            let rest = tail[start.upperBound...]
            guard let sizeStart = rest.range(of: "size=\"") else { return nil }
            let digits = rest[sizeStart.upperBound...].prefix { $0.isNumber }
            return Int(digits)
        }
        guard let current = size("system", "current"), let fast = size("total", "fast"),
              let free = size("total", "rest"), let mapped = size("total", "mmap")
        else { return nil }
        return current - fast - free + mapped
    }
}
