import CamHubProtocol
import CameraCore
import CameraMotion
import Testing

/// Decodes hub message bytes, recording an issue when they do not decode.
func hubDecoded(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> HubToClient? {
    do {
        return try HubToClient.decode(bytes)
    } catch {
        Issue.record("\(text(bytes)) failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The error decoding `text` raises, or nil when it decodes.
func hubDecodeError(_ text: String) -> HubToClient.DecodingError? {
    do {
        _ = try HubToClient.decode(text)
        return nil
    } catch {
        return error
    }
}

/// `camera` as the wire carries it: the longitude wrapped to [-180, 180)
/// (`JSONWriter.wireLongitude`), the bearing to [0, 360).
func onTheWire(_ camera: Camera) -> Camera {
    var c = camera
    c.continuousLongitude = JSONWriter.wireLongitude(c.continuousLongitude)
    c.bearing = normalizeBearing(c.bearing)
    return c
}

/// The bit patterns of a camera's numbers, to tell values `==` does not (-0.0 from 0.0).
func bits(_ c: Camera) -> [UInt64] {
    [c.latitude, c.continuousLongitude, c.zoom, c.bearing, c.tilt, c.anchor.x, c.anchor.y, c.padding.top, c.padding.left, c.padding.bottom, c.padding.right]
        .map(\.bitPattern)
}

/// Values whose last bits a sloppy writer or parser would lose.
enum Awkward {
    /// Cameras already in wire form (longitude in [-180, 180), bearing in [0, 360)).
    static let cameras: [Camera] = [
        Camera(latitude: 0.1 + 0.2, longitude: 179.99999999999997, zoom: 4.526642311129816, tilt: 15.354692, bearing: 359.99999999999994),
        Camera(
            latitude: -85.05112877980659, longitude: -180, zoom: 0, tilt: 0, bearing: 0, anchor: Anchor(x: 0.5, y: 0.6),
            padding: EdgeInsets(top: 10, left: 400, bottom: 0.5, right: 1e-9)),
        Camera(latitude: Double.leastNonzeroMagnitude, longitude: -0.0, zoom: 22, tilt: 60, bearing: 1e-300, anchor: Anchor(x: 0, y: 1)),
        Camera(latitude: 48.85661400000001, longitude: 2.3522219, zoom: 12.345678901234567, tilt: 33.3, bearing: 90, padding: EdgeInsets(all: 1e300)),
    ]

    static let times: [Double] = [1_718_000_000_123.456, 0.1 + 0.2, 0, 1.7976931348623157e308]

    /// Limits with every field set, and a bounds box that crosses the antimeridian.
    static let limits = try! CameraLimits(
        minZoom: 2.5, maxZoom: 20.000000000000004, minTilt: 0.1 + 0.2, maxTilt: 75,
        maxTiltByZoom: [.init(zoom: 4, tilt: 30), .init(zoom: 10.5, tilt: 60.00000000000001)],
        bounds: GeoBounds(south: -10.1, west: 170, north: 50.00000000000001, east: -170))
}
