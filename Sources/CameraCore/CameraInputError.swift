/// A rejected input: names the field and says what was wrong. Whatever raised
/// it changed nothing.
public struct CameraInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending field, as named on the wire (`lat`, `zoom`, `maxTilt`, …).
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }

    public static func notFinite(field: String, value: Double) -> CameraInputError {
        CameraInputError(field: field, message: "must be a finite number (got \(value))")
    }
}

/// Throws unless `value` is finite.
@inlinable
func requireFinite(_ value: Double, _ field: String) throws(CameraInputError) {
    guard value.isFinite else { throw .notFinite(field: field, value: value) }
}
