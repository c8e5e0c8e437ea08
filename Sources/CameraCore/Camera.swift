/// The map camera: what a room shows. A value; every write goes through
/// `applying(_:limits:)` (or `clamped(to:)`) so it always satisfies its limits.
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

    public init(
        latitude: Double = 0, longitude: Double = 0, zoom: Double = 1, tilt: Double = 0,
        bearing: Double = 0, anchor: Anchor = .center, padding: EdgeInsets = .zero
    ) {
        self.padding = padding
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

    /// The default camera of a new room: the whole world, north up, looking down.
    public static let world = Camera(latitude: 20, longitude: 0, zoom: 1.5)

    /// True when the two cameras show the same view (longitudes compared wrapped).
    public func isSameView(as other: Camera) -> Bool {
        latitude == other.latitude && longitude == other.longitude && zoom == other.zoom
            && tilt == other.tilt && bearing == other.bearing && anchor == other.anchor && padding == other.padding
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
        return out
    }
}
