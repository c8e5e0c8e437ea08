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

/// Throws unless `value` is finite and within `range` (`roll: must be within -180…180 (got 400)`).
func requireWithin(_ value: Double, _ range: ClosedRange<Double>, _ field: String) throws(CameraInputError) {
    try requireFinite(value, field)
    guard range.contains(value) else {
        throw CameraInputError(
            field: field, message: "must be within \(plainNumber(range.lowerBound))…\(plainNumber(range.upperBound)) (got \(plainNumber(value)))")
    }
}

/// A number as people write it: `400` rather than `400.0`, `36.5` as it is.
func plainNumber(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
}
