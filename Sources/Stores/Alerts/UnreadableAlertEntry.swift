/// An entry of the file's `alerts` that is not an alert this version can read: kept as it was and
/// written back unchanged, so nothing the user wrote is lost, and named in a note so it can be fixed.
struct UnreadableAlertEntry: Sendable, Hashable {
    /// The entry as it is in the file.
    var json: StoredJSON
    /// `entry 2 (id 5): "price" is not a decimal: "abc"`.
    var problem: String
}
