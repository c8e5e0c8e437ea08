import CameraCore
import CameraMotion

/// `welcome`, read back from what `HubMessage.welcome` writes.
extension HubToClient {
    /// The welcome's fields but its `time` (which is the caller's).
    ///
    /// Lost on the wire: `followPolicy` carries only `explore` (its `by` comes
    /// back nil, its `since` 0); follow counts below 0 are written as 0; the
    /// tracked location's longitude and heading are wrapped like a camera's,
    /// and so are the route's longitudes.
    static func decodeWelcome(_ f: WireReader) throws(DecodingError) -> Welcome {
        let roomName = try f.requiredString("room")
        let room: RoomName
        do { room = try RoomName(validating: roomName) } catch { throw f.fail("room", error.message) }
        var roster: [RosterEntry] = []
        for entry in try f.requiredObjects("roster") { roster.append(try entry.rosterEntry(follow: "follow")) }
        var welcome = Welcome(
            client: try f.requiredString("client"), room: room, role: try f.requiredEnumeration("role", Role.self, what: "role"),
            rate: try f.requiredNumber("rate"), tick: try f.requiredNumber("tick"), seq: try f.requiredInteger("seq"),
            camera: try f.camera("camera"), limits: try f.limits("limits"), presenter: try f.string("presenter"), roster: roster,
            gestures: try f.gestureKinds("gestures"), audience: try f.audience(), events: try decodeSubscriptions(f, key: "events"))
        welcome.followPolicy = FollowPolicy(explore: try f.requiredObject("followPolicy").requiredBool("explore"))
        var animations: [AnimationSummary] = []
        for a in try f.requiredObjects("animations") { animations.append(try decodeAnimationSummary(a)) }
        welcome.animations = animations
        let tracking = try f.requiredObject("tracking")
        welcome.trackingMode = try tracking.requiredEnumeration("mode", TrackingMode.self, what: "tracking mode")
        if let fix = try tracking.object("location") {
            welcome.trackedLocation = TrackedLocation(
                latitude: try fix.requiredNumber("lat"), longitude: try fix.requiredNumber("lon"), heading: try fix.number("heading"))
        }
        welcome.route = try f.route("route")
        welcome.view = try f.object("view")?.roomView()
        welcome.fit = try f.requiredEnumeration("fit", FitMode.self, what: "fit mode")
        welcome.projection = try f.requiredEnumeration("projection", MapProjection.self, what: "projection")
        welcome.story = try f.object("story")?.storySummary()
        welcome.renderLimited = f.value("renderLimited") == nil ? [] : try f.requiredStrings("renderLimited")
        return welcome
    }

    /// A list of subscription names (`EventSubscriptions.names`); names this
    /// version does not know are dropped (a newer hub's events come as `.unknownEvent`).
    static func decodeSubscriptions(_ f: WireReader, key: String) throws(DecodingError) -> EventSubscriptions {
        var set: EventSubscriptions = []
        for name in try f.requiredStrings(key) {
            if let kind = EventSubscriptions.named.first(where: { $0.name == name })?.kind { set.insert(kind) }
        }
        return set
    }

    /// One of `welcome.animations`. `starts` is read only when present (the
    /// hub writes it for delayed animations only).
    static func decodeAnimationSummary(_ a: WireReader) throws(DecodingError) -> AnimationSummary {
        AnimationSummary(
            id: try a.requiredString("id"), by: try a.requiredString("by"),
            kind: try a.requiredEnumeration("kind", LiveAnimation.Kind.self, what: "animation kind"), status: try a.requiredString("status"),
            properties: try a.properties("properties"), started: try a.number("started"), duration: try a.number("duration"),
            after: try a.string("after"), starts: try a.number("starts"))
    }
}
