import CameraCore
import CameraMotion

/// `event`, read back from what `HubMessage.event` writes, one case per event
/// in the order of docs/PROTOCOL.md.
extension HubToClient {
    /// The event named `name` (nil: a name this version does not know).
    ///
    /// Lost on the wire: `joined` and `left` carry no follow state (it comes
    /// back `.following`); `followChanged` carries no role (it comes back
    /// `.follower`); `followPolicyChanged` carries no `since` (it comes back
    /// 0); follow counts below 0 are written as 0; cameras and geo points
    /// have their longitudes (and bearings) wrapped.
    static func decodeEvent(_ f: WireReader, name: String) throws(DecodingError) -> HubEvent? {
        switch name {
        case "steady":
            return .steady(camera: try f.camera("camera"))
        case "significantChange":
            return .significantChange(camera: try f.camera("camera"), by: try f.string("by"))
        case "trackingModeChanged":
            return .trackingModeChanged(mode: try f.requiredEnumeration("mode", TrackingMode.self, what: "tracking mode"), by: try f.string("by"))
        case "limitsChanged":
            return .limitsChanged(limits: try f.limits("limits"), by: try f.string("by"))
        case "presenterChanged":
            return .presenterChanged(
                client: try f.string("client"), previous: try f.string("previous"), demoted: try f.string("demoted"), by: try f.string("by"))
        case "joined":
            return .joined(try f.rosterEntry(follow: nil))
        case "left":
            return .left(try f.rosterEntry(follow: nil))
        case "tap":
            return .tap(by: try f.requiredString("by"), at: try f.geo(), point: try f.viewPoint())
        case "longPress":
            return .longPress(
                by: try f.requiredString("by"), phase: try f.requiredEnumeration("phase", GesturePhase.self, what: "gesture phase"),
                point: try f.viewPoint(), at: try f.optionalGeo())
        case "audience":
            return .audience(try f.audience())
        case "gesture":
            return .gesture(
                by: try f.requiredString("by"), kind: try f.requiredEnumeration("kind", GestureKind.self, what: "gesture kind"),
                phase: try f.enumeration("phase", GesturePhase.self, what: "gesture phase"), point: try f.viewPoint(), at: try f.optionalGeo(),
                disabled: try f.requiredBool("disabled"))
        case "clamped":
            return .clamped(properties: try f.properties("clamped"), camera: try f.camera("camera"))
        case "routeChanged":
            return .routeChanged(
                by: try f.requiredString("by"), points: try f.route("points"), append: try f.requiredBool("append"), total: try f.requiredInt("total"))
        case "followChanged":
            return .followChanged(
                RosterEntry(client: try f.requiredString("client"), name: try f.requiredString("name"), role: .follower, follow: try f.followState("state")))
        case "summoned":
            let by = try f.requiredObject("by")
            return .summoned(by: try by.requiredString("client"), name: try by.requiredString("name"))
        case "projectionChanged":
            return .projectionChanged(try f.requiredEnumeration("projection", MapProjection.self, what: "projection"), by: try f.string("by"))
        case "storyStep":
            return .storyStep(try f.storyStepEvent())
        case "storyChanged":
            return .storyChanged(try f.storyChange())
        case "followPolicyChanged":
            return .followPolicyChanged(FollowPolicy(explore: try f.requiredBool("explore"), by: try f.string("by")))
        case "viewChanged":
            return .viewChanged(try f.requiredObject("view").roomView())
        case "viewports":
            return .viewports(try f.viewports())
        default:
            return nil
        }
    }
}
