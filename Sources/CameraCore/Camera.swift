import Foundation

/// The map camera: what a room shows. A value; every write goes through
/// `applying(_:limits:)` (or `clamped(to:)`) so it always satisfies its limits.
///
/// A Web Mercator camera in three dimensions as MapLibre GL JS 5 has it: tilt
/// (MapLibre pitch) up to 85°, roll, the centre's altitude and the field of view.
///
/// Units: degrees for angles and coordinates, MapLibre zoom levels (world is
/// `512 · 2^zoom` px wide).
public struct Camera: Hashable, Sendable {
    /// Target latitude in degrees, within ±`WebMercator.maxLatitude`.
    public var latitude: Double
    /// Target longitude in degrees, kept continuous (no jump at ±180: 181 is
    /// one degree east of 179). Read `longitude` for the wrapped value.
    public var continuousLongitude: Double
    /// Zoom level (0 shows the world in 512 px).
    public var zoom: Double
    /// Degrees from nadir (0 looks straight down).
    public var tilt: Double
    /// Degrees clockwise from north of the view's up direction, in [0, 360).
    public var bearing: Double
    /// Where the target sits in the view (normalized, 0…1 of the padded area).
    public var anchor: Anchor
    /// Pixels at the view's edges that the centre of perspective keeps clear
    /// of (MapLibre / Mapbox camera `padding`): the principal point is the
    /// centre of what is left, and the anchor a fraction of it.
    public var padding: EdgeInsets
    /// Degrees the picture is turned about the view's centre of perspective
    /// (MapLibre GL JS 5 `roll`), within −180…180; 0 keeps the horizon level.
    public var roll: Double
    /// Altitude in metres of the point the camera looks at (MapLibre's centre
    /// `elevation`): the target is that high above its ground position. 0: sea level.
    public var elevation: Double
    /// Vertical field of view in degrees (MapLibre `verticalFieldOfView`),
    /// within `Camera.fovRange`; `Camera.defaultFov` unless set.
    public var fov: Double

    public init(
        latitude: Double = 0, longitude: Double = 0, zoom: Double = 1, tilt: Double = 0,
        bearing: Double = 0, anchor: Anchor = .center, padding: EdgeInsets = .zero,
        roll: Double = 0, elevation: Double = 0, fov: Double = Camera.defaultFov
    ) {
        self.padding = padding
        self.roll = roll
        self.elevation = elevation
        self.fov = fov
        self.latitude = latitude
        self.continuousLongitude = longitude
        self.zoom = zoom
        self.tilt = tilt
        self.bearing = bearing
        self.anchor = anchor
    }

    /// Target longitude wrapped to [-180, 180).
    public var longitude: Double { wrapLongitude(continuousLongitude) }

    /// The target as a geo coordinate (longitude continuous).
    public var target: GeoCoordinate {
        get { GeoCoordinate(latitude: latitude, longitude: continuousLongitude) }
        set {
            latitude = newValue.latitude
            continuousLongitude = newValue.longitude
        }
    }

    /// MapLibre's vertical field of view, `2·atan(1/3)` (≈ 36.87°), in degrees.
    public static let defaultFov: Double = 2 * atan(1.0 / 3.0) * 180 / .pi
    /// Fields of view a camera may take, in degrees: what every map SDK the hub
    /// serves can draw (Mapbox GL JS takes 0.01…60, MapLibre 0.1…150).
    public static let fovRange: ClosedRange<Double> = 1...60
    /// Rolls a camera may take, in degrees.
    public static let rollRange: ClosedRange<Double> = -180...180
    /// Centre altitudes a camera may take, in metres: the deepest sea floor
    /// to above the highest summit.
    public static let elevationRange: ClosedRange<Double> = -11_000...9_000

    /// True when roll, elevation and field of view are at their defaults: the
    /// camera is the flat one clients before them understood, and it is
    /// written on the wire exactly as before they existed.
    public var hasOnlyFlatFields: Bool { roll == 0 && elevation == 0 && fov == Self.defaultFov }

    /// The default camera of a new room: the whole world, north up, looking down.
    public static let world = Camera(latitude: 20, longitude: 0, zoom: 1.5)

    /// True when the two cameras show the same view (longitudes compared wrapped).
    public func isSameView(as other: Camera) -> Bool {
        latitude == other.latitude && longitude == other.longitude && zoom == other.zoom
            && tilt == other.tilt && bearing == other.bearing && anchor == other.anchor && padding == other.padding
            && roll == other.roll && elevation == other.elevation && fov == other.fov
    }

    /// The properties whose values differ between the two cameras.
    public func differences(from other: Camera) -> CameraProperties {
        var out: CameraProperties = []
        if latitude != other.latitude || continuousLongitude != other.continuousLongitude { out.insert(.center) }
        if zoom != other.zoom { out.insert(.zoom) }
        if bearing != other.bearing { out.insert(.bearing) }
        if tilt != other.tilt { out.insert(.tilt) }
        if anchor != other.anchor { out.insert(.anchor) }
        if padding != other.padding { out.insert(.padding) }
        if roll != other.roll { out.insert(.roll) }
        if elevation != other.elevation { out.insert(.elevation) }
        if fov != other.fov { out.insert(.fov) }
        return out
    }
}
