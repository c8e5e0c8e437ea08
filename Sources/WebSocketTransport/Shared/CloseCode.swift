/// A WebSocket close status code (RFC 6455 §7.4).
///
/// How codes surface: the server's and client's close callbacks receive the
/// code the peer sent, or the code this side sent when it closed first, or
/// `nil` when the connection ended without a close frame (network drop,
/// idle-ping timeout, context teardown).
public struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let normal = CloseCode(1000)
    public static let goingAway = CloseCode(1001)
    public static let protocolError = CloseCode(1002)
    public static let unsupportedData = CloseCode(1003)
    public static let noStatus = CloseCode(1005)
    public static let invalidPayload = CloseCode(1007)
    public static let policyViolation = CloseCode(1008)
    public static let messageTooBig = CloseCode(1009)
    public static let internalError = CloseCode(1011)
    public static let serviceRestart = CloseCode(1012)
    /// "Try again later": the server is overloaded.
    public static let tryAgainLater = CloseCode(1013)

    public var description: String { String(rawValue) }

    /// Parses the payload of a close frame (2-byte big-endian code first).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> CloseCode? {
        guard bytes.count >= 2 else { return nil }
        return CloseCode(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
    }
}
