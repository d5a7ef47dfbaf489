/// Every figure measured, by name, with one value per run. Names are dotted paths, e.g.
/// `hub.1x100.ours.maxIngest.quotesPerSecond`; the report takes medians.
struct Figures: Sendable {
    private(set) var runs: [String: [Double]] = [:]
    private(set) var notes: [String: String] = [:]

    mutating func add(_ name: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        runs[name, default: []].append(value)
    }

    mutating func add(_ name: String, _ flag: Bool) { add(name, flag ? 1 : 0) }

    mutating func note(_ name: String, _ text: String) { notes[name] = text }

    mutating func merge(_ other: Figures) {
        for (name, values) in other.runs { runs[name, default: []] += values }
        notes.merge(other.notes) { $1 }
    }

    func median(_ name: String) -> Double? { runs[name].flatMap(Statistics.median) }

    /// For pass/fail flags: true only when every run passed.
    func allRuns(_ name: String) -> Bool? {
        guard let values = runs[name], !values.isEmpty else { return nil }
        return values.allSatisfy { $0 != 0 }
    }
}
