import Foundation

/// Where the figures came from; a benchmark table means little without it.
struct MachineDescription: Sendable {
    var cpu: String
    var cores: Int
    var memory: String
    var system: String
    var swift: String
    var date: String

    static func current() -> MachineDescription {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let cpu = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown CPU"
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let pretty = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let gigabytes = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let formatter = ISO8601DateFormatter()
        return MachineDescription(
            cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount,
            memory: String(format: "%.1f GiB", gigabytes),
            system: pretty ?? ProcessInfo.processInfo.operatingSystemVersionString,
            swift: swiftVersion(), date: formatter.string(from: Date()))
    }

    var summary: String { "\(cores) cores \(cpu), \(memory), \(system), \(swift), release build" }

    var json: [String: Any] {
        ["cpu": cpu, "cores": cores, "memory": memory, "system": system, "swift": swift, "date": date, "build": "release"]
    }

    /// `swift --version`'s first line when a toolchain is on PATH (make bench always has one).
    private static func swiftVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "Swift (version unknown)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? "Swift (version unknown)" : line
    }
}
