import CamHubProtocol
import CameraCore
import Foundation

/// KML's two views and the room's camera (MapLibre GL JS 5's), through the
/// camera's own distance model (`CameraDistance`, at the reference viewport
/// 1280 × 720 and the default field of view):
///
/// - `LookAt` (the point looked at, `heading`, `tilt`, `range`): the camera
///   looks at that point (`altitude` its `elevation`: metres above sea level
///   for `absolute`; the ground has no height here, so `relativeToGround` is
///   the same and `clampToGround` is 0), `bearing` = heading, `tilt` = tilt
///   (both from straight down), and the zoom puts the eye `range` metres away.
/// - `Camera` (the eye's position and `altitude`, `heading`, `tilt`, `roll`):
///   the camera looks at where the eye's line of sight meets sea level,
///   `altitude / cos(tilt)` metres away along `heading`, with the same
///   bearing, tilt and roll; a tilt above 85° (MapLibre's most) is taken as
///   85°, the eye staying where it is.
///
/// Written back, a camera is a `LookAt` (a `Camera` when it has a roll), so
/// a tour read and written keeps its views to rounding.
enum KMLView {
    static let maxTilt = 85.0

    static func camera(lookAt v: TreeElement) throws(StoryFormatError) -> Camera {
        let (lat, lon) = try position(v)
        let heading = try v.number("heading") ?? 0
        let tilt = try v.number("tilt") ?? 0
        guard (0...90).contains(tilt) else { throw StoryFormatError("\(v.place): tilt must be within 0…90 degrees (got \(tilt))") }
        guard let range = try v.number("range") else { throw StoryFormatError("\(v.place): range missing (metres from the point looked at)") }
        guard range > 0 else { throw StoryFormatError("\(v.place): range must be more than 0 metres (got \(range))") }
        let elevation = v.value("altitudeMode") == "clampToGround" || v.value("altitudeMode") == nil ? 0 : try v.number("altitude") ?? 0
        let zoom = CameraDistance.zoom(metres: range, latitude: lat)
        return Camera(
            latitude: lat, longitude: lon, zoom: zoom, tilt: min(tilt, maxTilt), bearing: heading,
            elevation: min(max(elevation, Camera.elevationRange.lowerBound), Camera.elevationRange.upperBound))
    }

    static func camera(eye v: TreeElement) throws(StoryFormatError) -> Camera {
        let (lat, lon) = try position(v)
        let heading = try v.number("heading") ?? 0
        let tilt = try v.number("tilt") ?? 0
        guard (0...180).contains(tilt) else { throw StoryFormatError("\(v.place): tilt must be within 0…180 degrees (got \(tilt))") }
        let roll = try v.number("roll") ?? 0
        guard Camera.rollRange.contains(roll) else { throw StoryFormatError("\(v.place): roll must be within -180…180 degrees (got \(roll))") }
        let altitude = v.value("altitudeMode") == "clampToGround" ? 0 : try v.number("altitude") ?? 0
        guard altitude > 0 else { throw StoryFormatError("\(v.place): altitude must be above the ground (got \(altitude) m)") }
        let t = min(tilt, maxTilt) * .pi / 180
        let ground = CameraDistance.destination(from: GeoCoordinate(latitude: lat, longitude: lon), heading: heading, metres: altitude * tan(t))
        let zoom = CameraDistance.zoom(metres: altitude / cos(t), latitude: ground.latitude)
        return Camera(latitude: ground.latitude, longitude: ground.longitude, zoom: zoom, tilt: min(tilt, maxTilt), bearing: heading, roll: roll)
    }

    private static func position(_ v: TreeElement) throws(StoryFormatError) -> (Double, Double) {
        guard let lon = try v.number("longitude") else { throw StoryFormatError("\(v.place): longitude missing") }
        guard let lat = try v.number("latitude") else { throw StoryFormatError("\(v.place): latitude missing") }
        guard abs(lat) <= 90 else { throw StoryFormatError("\(v.place): latitude must be within -90…90 (got \(lat))") }
        return (lat, lon)
    }

    /// The view element for `camera`, each line indented by `indent`.
    static func element(for c: Camera, indent: String) -> String {
        let n = KMLTour.number
        let range = CameraDistance.metres(zoom: c.zoom, latitude: c.latitude)
        guard c.roll != 0 else {
            return """
                \(indent)<LookAt><longitude>\(n(c.longitude))</longitude><latitude>\(n(c.latitude))</latitude>\
                <altitude>\(n(c.elevation))</altitude><heading>\(n(c.bearing))</heading><tilt>\(n(c.tilt))</tilt>\
                <range>\(n(range))</range><altitudeMode>absolute</altitudeMode></LookAt>

                """
        }
        let t = c.tilt * .pi / 180
        let eye = CameraDistance.destination(from: c.target, heading: c.bearing + 180, metres: range * sin(t))
        return """
            \(indent)<Camera><longitude>\(n(eye.longitude))</longitude><latitude>\(n(eye.latitude))</latitude>\
            <altitude>\(n(range * cos(t) + c.elevation))</altitude><heading>\(n(c.bearing))</heading><tilt>\(n(c.tilt))</tilt>\
            <roll>\(n(c.roll))</roll><altitudeMode>absolute</altitudeMode></Camera>

            """
    }
}
