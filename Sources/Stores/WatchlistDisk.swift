#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The POSIX calls behind the watchlist: they give the durability (fsync) and the inter-process lock
/// (flock) that FileManager does not, and the exact errno for error messages.
enum WatchlistDisk {
    /// The file's bytes, or nil when it does not exist.
    static func contents(of url: URL) throws(WatchlistStoreError) -> Data? {
        let path = url.path
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .fromErrno(.read, path)
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { read(fd, raw.baseAddress, raw.count) }
            }
            if count < 0 { throw .fromErrno(.read, path) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Creates `url` and any missing parents with mode 0700: the state directory is the user's alone.
    /// An existing directory keeps the mode it has.
    static func ensureDirectory(_ url: URL) throws(WatchlistStoreError) {
        let components = url.standardizedFileURL.pathComponents
        var path = ""
        for component in components {
            path = path.isEmpty ? component : (path == "/" ? "/" + component : path + "/" + component)
            if mkdir(path, 0o700) == 0 || errno == EEXIST {
                continue
            }
            let failure = WatchlistStoreError.fromErrno(.createDirectory, path)
            // Some systems answer EACCES or EROFS for a parent that already exists.
            if isDirectory(path) { continue }
            throw failure
        }
        guard isDirectory(url.path) else {
            throw WatchlistStoreError(operation: .createDirectory, path: url.path, reason: "exists and is not a directory")
        }
    }

    /// Runs `body` holding an exclusive `flock` on `lockURL`, which is created if missing.
    static func withExclusiveLock<T>(
        _ lockURL: URL, _ body: () throws(WatchlistStoreError) -> T
    ) throws(WatchlistStoreError) -> T {
        let path = lockURL.path
        let fd = retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        if fd < 0 { throw .fromErrno(.lock, path) }
        defer { close(fd) }
        // flock locks belong to the open file description, so two stores in one process exclude each
        // other just as two processes do (fcntl locks would not).
        if retryingOnInterrupt({ flock(fd, LOCK_EX) }) != 0 { throw .fromErrno(.lock, path) }
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }

    /// Replaces `url` with `data` so a reader sees the old or the new file, never a torn one, and the
    /// new content survives a crash: temp file in the same directory, fsync, rename, fsync directory.
    static func writeAtomically(_ data: Data, to url: URL) throws(WatchlistStoreError) {
        let directory = url.deletingLastPathComponent().path
        let tempPath = directory + "/." + url.lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = retryingOnInterrupt { open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        if fd < 0 { throw .fromErrno(.write, tempPath) }
        var renamed = false
        defer { if !renamed { unlink(tempPath) } }
        do throws(WatchlistStoreError) {
            try writeAll(data, to: fd, path: tempPath)
            if fsync(fd) != 0 { throw .fromErrno(.write, tempPath) }
        } catch {
            close(fd)
            throw error
        }
        if close(fd) != 0 { throw .fromErrno(.write, tempPath) }
        if rename(tempPath, url.path) != 0 { throw .fromErrno(.rename, url.path) }
        renamed = true
        syncDirectory(directory)
    }

    /// Renames `url` to `<name>.corrupt-<stamp>`, adding `-2`, `-3`… rather than replacing an earlier
    /// one. Callers hold the lock, so no other store races for the same name.
    static func moveAside(_ url: URL, stamp: String) throws(WatchlistStoreError) -> URL {
        let base = url.path + ".corrupt-" + stamp
        var target = base
        var counter = 1
        while exists(target) {
            counter += 1
            target = base + "-\(counter)"
        }
        if rename(url.path, target) != 0 { throw .fromErrno(.rename, url.path) }
        syncDirectory(url.deletingLastPathComponent().path)
        return URL(fileURLWithPath: target)
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(WatchlistStoreError) {
        let failed: Bool = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = retryingOnInterrupt { write(fd, raw.baseAddress! + offset, raw.count - offset) }
                if written <= 0 { return true }
                offset += written
            }
            return false
        }
        if failed { throw .fromErrno(.write, path) }
    }

    /// Makes the rename itself durable. Best effort: some file systems refuse fsync on a directory, and
    /// the data is already safe in the renamed file.
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

extension WatchlistStoreError {
    static func fromErrno(_ operation: Operation, _ path: String) -> WatchlistStoreError {
        let code = errno
        return WatchlistStoreError(operation: operation, path: path, reason: String(cString: strerror(code)), code: code)
    }
}
