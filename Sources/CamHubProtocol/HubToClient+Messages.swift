import CameraCore
import CameraMotion

/// `frame`, `animation`, `gestureAck`, `result` and `error`, read back from
/// what their encoders write.
extension HubToClient {
    /// A JSON `frame` (`HubMessage.frame`; see `HubFrame` for what the wire
    /// rounds). `corner` absent is false, `epoch` absent is 0, `velocity`
    /// absent is nil; `pointer` absent is `.none` and null is `.hidden`.
    static func decodeFrame(_ f: WireReader) throws(DecodingError) -> HubFrame {
        var frame = HubFrame(
            seq: try f.requiredInteger("seq"), time: try f.requiredNumber("time"), camera: try f.camera("camera"),
            moving: try f.requiredBool("moving"), by: try f.string("by"))
        frame.corner = try f.bool("corner") ?? false
        frame.epoch = try f.integer("epoch") ?? 0
        if let v = try f.object("velocity") {
            frame.velocity = CameraVelocity(
                latitude: try v.requiredNumber("lat"), longitude: try v.requiredNumber("lon"), zoom: try v.requiredNumber("zoom"),
                bearing: try v.requiredNumber("bearing"), tilt: try v.requiredNumber("tilt"), roll: try v.number("roll") ?? 0,
                elevation: try v.number("elevation") ?? 0, fov: try v.number("fov") ?? 0)
        }
        switch f.object["pointer"] {
        case nil: frame.pointer = .none
        case .null?: frame.pointer = .hidden
        case let value?:
            let p = try WireReader.object(value, field: f.name("pointer"))
            frame.pointer = .shown(RoomPointer(latitude: try p.requiredNumber("lat"), longitude: try p.requiredNumber("lon"), by: try p.requiredString("by")))
        }
        return frame
    }

    /// An `animation` report but its `time` (`HubMessage.animation`): the
    /// optional fields the hub leaves out when nil come back nil.
    static func decodeAnimation(_ f: WireReader) throws(DecodingError) -> AnimationMessage {
        var m = AnimationMessage(
            id: try f.string("id"), status: try f.requiredEnumeration("status", AnimationMessage.Status.self, what: "animation status"),
            by: try f.string("by"), lost: try f.properties("lost"), clamped: try f.properties("clamped"),
            camera: try f.optionalCamera("camera"), reason: try f.string("reason"), owner: try f.string("owner"))
        m.to = try f.optionalCamera("to")
        m.essential = try f.bool("essential")
        return m
    }

    /// A `gestureAck` (`HubMessage.gestureAck`).
    static func decodeGestureAck(_ f: WireReader) throws(DecodingError) -> GestureAck {
        var animation: GestureAck.Animation?
        if let a = try f.object("animation") {
            animation = GestureAck.Animation(id: try a.requiredString("id"), duration: try a.requiredNumber("duration"), to: try a.camera("to"))
        }
        return GestureAck(
            seq: try f.requiredInt("seq"), kind: try f.requiredEnumeration("kind", GestureKind.self, what: "gesture kind"),
            phase: try f.enumeration("phase", GesturePhase.self, what: "gesture phase"), time: try f.requiredNumber("time"),
            camera: try f.camera("camera"), animation: animation)
    }

    /// The answer of a query `result` (`HubMessage.result`) whose `what` is not `summon`.
    static func decodeAnswer(_ f: WireReader, what: String) throws(DecodingError) -> QueryAnswer {
        switch what {
        case "project":
            var points: [ViewPoint?] = []
            for item in try f.requiredArray("points") {
                points.append(try nullable(item) { p throws(DecodingError) in ViewPoint(x: try p.requiredNumber("x"), y: try p.requiredNumber("y")) })
            }
            return .project(points)
        case "unproject":
            var geos: [GeoCoordinate?] = []
            for item in try f.requiredArray("points") { geos.append(try nullable(item) { g throws(DecodingError) in try g.geo() }) }
            return .unproject(geos)
        case "bounds":
            var quad: [GeoCoordinate] = []
            for corner in try f.requiredObjects("quad") { quad.append(try corner.geo()) }
            return .bounds(VisibleRegion(quad: quad, bounds: try f.requiredObject("bounds").bounds()))
        case "fit":
            return .fit(try f.camera("camera"))
        case "story":
            return .story(try f.storyResult())
        default:
            throw f.fail("what", "unknown result '\(what)' (known: project, unproject, bounds, fit, story, summon)")
        }
    }

    /// nil for a null item, else the object item read by `read`.
    private static func nullable<T>(
        _ item: (value: JSONValue, field: String), _ read: (WireReader) throws(DecodingError) -> T
    ) throws(DecodingError) -> T? {
        if item.value == .null { return nil }
        return try read(try WireReader.object(item.value, field: item.field))
    }

    /// An `error` (`HubMessage.error`). `close` is not on the wire (nil here).
    /// nil for a `code` this version does not know (a newer hub's): the caller
    /// hands the message on as `.unknown(type: "error", …)` rather than failing it.
    static func decodeError(_ f: WireReader) throws(DecodingError) -> ProtocolError? {
        guard let code = ProtocolError.Code(rawValue: try f.requiredString("code")) else { return nil }
        return ProtocolError(code, try f.requiredString("message"), ref: try f.string("ref"))
    }
}
