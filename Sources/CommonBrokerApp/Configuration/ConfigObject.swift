/// A config object whose keys have been checked, with comment members already dropped.
struct ConfigObject {
    let keyPath: String
    let members: [String: JSONMember]

    subscript(key: String) -> JSONValue? { members[key]?.value }

    /// The key path of a member: `brokers.tradier` + `token`.
    func path(_ key: String) -> String { Self.join(keyPath, key) }

    static func join(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : parent + "." + key
    }
}
