/// The independently animatable parts of a camera. Animations, gestures and
/// clamping reports speak in these units: an animation *claims* properties,
/// and a write reports which properties the limits *clamped*.
public struct CameraProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Target latitude and longitude (always claimed together).
    public static let center = CameraProperties(rawValue: 1 << 0)
    public static let zoom = CameraProperties(rawValue: 1 << 1)
    public static let bearing = CameraProperties(rawValue: 1 << 2)
    public static let tilt = CameraProperties(rawValue: 1 << 3)
    public static let anchor = CameraProperties(rawValue: 1 << 4)
    public static let padding = CameraProperties(rawValue: 1 << 5)

    public static let all: CameraProperties = [.center, .zoom, .bearing, .tilt, .anchor, .padding]

    /// Wire names in a fixed order: `center`, `zoom`, `bearing`, `tilt`, `anchor`, `padding`.
    public var names: [String] {
        var out: [String] = []
        if contains(.center) { out.append("center") }
        if contains(.zoom) { out.append("zoom") }
        if contains(.bearing) { out.append("bearing") }
        if contains(.tilt) { out.append("tilt") }
        if contains(.anchor) { out.append("anchor") }
        if contains(.padding) { out.append("padding") }
        return out
    }

    public var description: String { "[" + names.joined(separator: ", ") + "]" }

    /// Parses one wire name (see `names`); nil for an unknown name.
    public init?(name: String) {
        switch name {
        case "center": self = .center
        case "zoom": self = .zoom
        case "bearing": self = .bearing
        case "tilt": self = .tilt
        case "anchor": self = .anchor
        case "padding": self = .padding
        default: return nil
        }
    }
}
