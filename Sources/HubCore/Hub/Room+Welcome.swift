import CamHubProtocol
import CameraMotion

extension Room {
    /// What a joiner is welcomed with, of this room's state at `time` (on an
    /// owner from its animator manager, on a mirror from the owner's frame).
    /// The joiner's own fields (client, role, rate, gestures, events, fit) are
    /// the caller's to set; here they are a follower's defaults.
    func welcome(at time: HubTime, tick: Double) -> Welcome {
        var welcome = Welcome(
            client: "", room: name, role: .follower, rate: tick, tick: tick,
            seq: seq, camera: camera, limits: limits, presenter: clusterPresenter, roster: clusterRoster,
            gestures: [], audience: audience, events: .defaults(for: .follower))
        welcome.animations = mirror?.animations ?? manager.liveAnimations.map { AnimationSummary($0, epoch: time.epochMilliseconds(at:)) }
        welcome.trackingMode = mirror?.trackingMode ?? manager.trackingMode
        welcome.trackedLocation = mirror.map { $0.trackedLocation } ?? manager.trackedLocation
        welcome.route = routePoints
        welcome.followPolicy = followPolicy
        welcome.view = view
        welcome.projection = projection
        welcome.story = story.flatMap { $0 == StoryState() ? nil : $0.summary }
        return welcome
    }
}
