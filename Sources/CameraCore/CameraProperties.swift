/// The independently animatable parts of a camera. Animations, gestures and
/// clamping reports speak in these units: an animation *claims* properties,
/// and a write reports which properties the limits *clamped*.
public struct CameraProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Target latitude and longitude (always claimed together).
    public static let center = CameraProperties(rawValue: 1 << 0)
    public static let zoom = CameraProperties(rawValue: 1 << 1)
    public static let bearing = CameraProperties(rawValue: 1 << 2)
    public static let tilt = CameraProperties(rawValue: 1 << 3)
    public static let anchor = CameraProperties(rawValue: 1 << 4)
    public static let padding = CameraProperties(rawValue: 1 << 5)
    public static let roll = CameraProperties(rawValue: 1 << 6)
    public static let elevation = CameraProperties(rawValue: 1 << 7)
    public static let fov = CameraProperties(rawValue: 1 << 8)

    public static let all: CameraProperties = [.center, .zoom, .bearing, .tilt, .roll, .elevation, .fov, .anchor, .padding]

    /// Each property with its wire name, in the wire's fixed order.
    static let named: [(CameraProperties, String)] = [
        (.center, "center"), (.zoom, "zoom"), (.bearing, "bearing"), (.tilt, "tilt"), (.roll, "roll"),
        (.elevation, "elevation"), (.fov, "fov"), (.anchor, "anchor"), (.padding, "padding"),
    ]

    /// Wire names in a fixed order: `center`, `zoom`, `bearing`, `tilt`, `roll`,
    /// `elevation`, `fov`, `anchor`, `padding`.
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }

    public var description: String { "[" + names.joined(separator: ", ") + "]" }

    /// Parses one wire name (see `names`); nil for an unknown name.
    public init?(name: String) {
        guard let found = Self.named.first(where: { $0.1 == name }) else { return nil }
        self = found.0
    }
}
