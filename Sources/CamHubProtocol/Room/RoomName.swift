import CameraCore

/// A validated room name: 1–64 characters of `[A-Za-z0-9_-]`.
public struct RoomName: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    public init(validating value: String, field: String = "room") throws(CameraInputError) {
        guard !value.isEmpty else { throw CameraInputError(field: field, message: "must not be empty") }
        guard value.utf8.count <= HubProtocol.maxNameLength else {
            throw CameraInputError(field: field, message: "must be at most \(HubProtocol.maxNameLength) characters")
        }
        for b in value.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                throw CameraInputError(field: field, message: "may only contain A-Z, a-z, 0-9, '_' and '-'")
            }
        }
        self.value = value
    }

    public var description: String { value }
}
