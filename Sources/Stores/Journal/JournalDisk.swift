#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Locking

/// The POSIX calls behind a ledger: the durability (`fsync`) and the lock between processes (`flock`)
/// that FileManager does not give, and the exact errno for error messages.
enum JournalDisk {
    /// Opens (creating it with mode 0600, and its directory with 0700, when missing) the ledger for
    /// reading and appending. O_APPEND makes every write land at the end of the file, wherever another
    /// process left it.
    static func openLedger(_ url: URL) throws(JournalError) -> Int32 {
        let path = url.path
        try ensureDirectory(url.deletingLastPathComponent())
        let descriptor = retryingOnInterrupt { open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
        if descriptor < 0 { throw failure(.open, path) }
        // A new file's directory entry must be durable too, or a crash could lose the whole ledger.
        syncDirectory(url.deletingLastPathComponent().path)
        return descriptor
    }

    /// Takes the exclusive `flock` on the ledger, waiting up to `timeout`. flock locks belong to the
    /// open file description, so two `Journal`s in one process exclude each other as two processes do
    /// (fcntl locks would not). Polled with short pauses, since a blocking flock cannot time out.
    static func lock(_ descriptor: Int32, path: String, timeout: Duration) throws(JournalError) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause: Duration = .microseconds(50)
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure(.lock, path) }
            guard clock.now < deadline else { throw .lockTimeout(path: path, waited: timeout) }
            var request = pause.timespecValue
            _ = nanosleep(&request, nil)
            pause = min(pause * 2, .milliseconds(2))
        }
    }

    static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }

    static func size(_ descriptor: Int32, path: String) throws(JournalError) -> Int {
        var info = stat()
        if fstat(descriptor, &info) != 0 { throw failure(.read, path) }
        return Int(info.st_size)
    }

    /// The bytes from `offset` up to `offset + count`, read in `threads` pieces at once: a replay reads
    /// tens of megabytes, and copying them (and the new memory's first touch) is then shared by the cores.
    static func read(_ descriptor: Int32, path: String, offset: Int, count: Int, threads: Int = 1) throws(JournalError) -> JournalBytes {
        let bytes = JournalBytes(count: count)
        guard threads > 1 else {
            try read(descriptor, path: path, offset: offset, into: bytes, 0..<count)
            return bytes
        }
        let failures = Locked([JournalError?](repeating: nil, count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { piece in
            let range = (count / threads * piece)..<(piece == threads - 1 ? count : count / threads * (piece + 1))
            do throws(JournalError) {
                try read(descriptor, path: path, offset: offset, into: bytes, range)
            } catch {
                failures.withLock { $0[piece] = error }
            }
        }
        if let failure = failures.withLock({ $0 }).lazy.compactMap({ $0 }).first { throw failure }
        return bytes
    }

    /// Reads the file's bytes at `offset + range` into `bytes[range]`.
    private static func read(_ descriptor: Int32, path: String, offset: Int, into bytes: JournalBytes, _ range: Range<Int>) throws(JournalError) {
        var done = range.lowerBound
        while done < range.upperBound {
            let got = retryingOnInterrupt { pread(descriptor, bytes.base + done, range.upperBound - done, off_t(offset + done)) }
            if got < 0 { throw failure(.read, path) }
            if got == 0 { throw .shrunk(path: path, size: offset + done, alreadyRead: offset + bytes.count) }
            done += got
        }
    }

    /// Writes all of `bytes`, looping over partial writes and interruptions.
    static func writeAll(_ descriptor: Int32, path: String, _ bytes: [UInt8]) throws(JournalError) {
        let failed: Bool = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let written = retryingOnInterrupt { write(descriptor, raw.baseAddress! + done, raw.count - done) }
                if written <= 0 { return true }
                done += written
            }
            return false
        }
        if failed { throw failure(.write, path) }
    }

    static func sync(_ descriptor: Int32, path: String) throws(JournalError) {
        if retryingOnInterrupt({ fsync(descriptor) }) != 0 { throw failure(.sync, path) }
    }

    static func truncate(_ descriptor: Int32, path: String, to length: Int) throws(JournalError) {
        if retryingOnInterrupt({ ftruncate(descriptor, off_t(length)) }) != 0 { throw failure(.truncate, path) }
        try sync(descriptor, path: path)
    }

    /// Saves `bytes` in a new file `<ledger>.torn-<line>` (then `-2`, `-3`… rather than replacing an
    /// earlier one), flushed, before the ledger is truncated: nothing a crash left is thrown away.
    static func saveTornTail(_ bytes: UnsafeRawBufferPointer, beside url: URL, line: Int) throws(JournalError) -> String {
        let base = url.path + ".torn-\(line)"
        var target = base
        var counter = 1
        while true {
            let descriptor = retryingOnInterrupt { open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            if descriptor < 0 {
                guard errno == EEXIST else { throw failure(.saveTornTail, target) }
                counter += 1
                target = base + "-\(counter)"
                continue
            }
            defer { close(descriptor) }
            do throws(JournalError) {
                try writeAll(descriptor, path: target, Array(bytes))
                try sync(descriptor, path: target)
            } catch {
                unlink(target)
                throw .io(operation: .saveTornTail, path: target, reason: error.systemReason, code: error.systemCode)
            }
            syncDirectory(url.deletingLastPathComponent().path)
            return target
        }
    }

    /// Creates `url` and any missing parents with mode 0700: the ledger is the user's alone. An existing
    /// directory keeps the mode it has.
    private static func ensureDirectory(_ url: URL) throws(JournalError) {
        var path = ""
        for component in url.standardizedFileURL.pathComponents {
            path = path.isEmpty ? component : (path == "/" ? "/" + component : path + "/" + component)
            if mkdir(path, 0o700) == 0 || errno == EEXIST { continue }
            let error = failure(.createDirectory, path)
            // Some systems answer EACCES or EROFS for a parent that already exists.
            if isDirectory(path) { continue }
            throw error
        }
        guard isDirectory(url.path) else {
            throw .io(operation: .createDirectory, path: url.path, reason: "it exists and is not a directory", code: ENOTDIR)
        }
    }

    /// Makes a new directory entry durable. Best effort: some file systems refuse fsync on a directory.
    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func failure(_ operation: JournalError.Operation, _ path: String) -> JournalError {
        let code = errno
        return .io(operation: operation, path: path, reason: String(cString: strerror(code)), code: code)
    }

    private static func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

private extension JournalError {
    var systemReason: String {
        if case .io(_, _, let reason, _) = self { return reason }
        return description
    }

    var systemCode: Int32 {
        if case .io(_, _, _, let code) = self { return code }
        return 0
    }
}
