import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

/// Every `HubEvent` comes back from `HubMessage.event`'s bytes, with its time.
@Suite("Hub events decode to what the hub encoded")
struct HubEventDecoderTests {
    static let route = [
        GeoCoordinate(latitude: 52.52, longitude: 13.4), GeoCoordinate(latitude: 0.1 + 0.2, longitude: -180),
        GeoCoordinate(latitude: -85.05112877980659, longitude: 179.99999999999997),
    ]

    /// Each event at least once, optionals both nil and set; every value one
    /// the wire carries whole (see the tests of losses for the others).
    static let events: [HubEvent] = [
        .steady(camera: Awkward.cameras[0]),
        .steady(camera: Awkward.cameras[1]),
        .significantChange(camera: Awkward.cameras[2], by: "c2"),
        .significantChange(camera: Awkward.cameras[3], by: nil),
        .trackingModeChanged(mode: .followRouteDirection, by: "c1"),
        .trackingModeChanged(mode: .none, by: nil),
        .limitsChanged(limits: Awkward.limits, by: "c1"),
        .limitsChanged(limits: CameraLimits(), by: nil),
        .presenterChanged(client: "c2", previous: "c1", demoted: "c1", by: "c2"),
        .presenterChanged(client: nil, previous: nil, demoted: nil, by: nil),
        .joined(RosterEntry(client: "c2", name: "bob", role: .follower)),
        .left(RosterEntry(client: "c3", name: "x\u{2028}y \"z\"", role: .driver)),
        .tap(by: "c2", at: GeoCoordinate(latitude: 0.1 + 0.2, longitude: -180), point: ViewPoint(x: 412.5, y: 1e-9)),
        .tap(by: "c2", at: GeoCoordinate(latitude: 52.52, longitude: 13.405), point: nil),
        .longPress(by: "c2", phase: .begin, point: ViewPoint(x: 640, y: 360), at: GeoCoordinate(latitude: 52.52, longitude: 13.405)),
        .longPress(by: "c2", phase: .change, point: ViewPoint(x: 740, y: -0.0), at: nil),
        .longPress(by: "c2", phase: .cancel, point: nil, at: nil),
        .audience(Audience(clients: 3, followers: 2, follow: FollowCounts(following: 1, exploring: 0, away: 1))),
        .audience(Audience(clients: 0, followers: 0)),
        .gesture(
            by: "c2", kind: .pinch, phase: .change, point: ViewPoint(x: 1, y: 2), at: GeoCoordinate(latitude: 3, longitude: -179.25),
            disabled: false),
        .gesture(by: "c4", kind: .scroll, phase: nil, point: nil, at: nil, disabled: true),
        .gesture(by: "c4", kind: .doubleTap, phase: nil, point: ViewPoint(x: 0.1 + 0.2, y: 5), at: nil, disabled: false),
        .clamped(properties: [.zoom, .tilt], camera: Awkward.cameras[1]),
        .clamped(properties: [], camera: Awkward.cameras[0]),
        .routeChanged(by: "c2", points: route, append: false, total: 3),
        .routeChanged(by: "c2", points: [], append: false, total: 0),
        .routeChanged(by: "c2", points: [route[0]], append: true, total: 10_000),
        .followChanged(RosterEntry(client: "c5", name: "eve", role: .follower, follow: .exploring)),
        .summoned(by: "c1", name: "Ana \u{1F600}"),
        .followPolicyChanged(FollowPolicy(explore: false, by: "c1")),
        .followPolicyChanged(FollowPolicy(explore: true, by: nil)),
        .viewChanged(RoomView(by: "c1", viewport: Viewport(width: 1600, height: 900.5), padding: EdgeInsets(top: 0, left: 300, bottom: 1e-9, right: 0))),
        .viewChanged(RoomView(by: "c1", viewport: Viewport(width: 1, height: 16_384))),
        .projectionChanged(.globe, by: "c1"),
        .projectionChanged(.mercator, by: nil),
        .storyStep(
            StoryStepEvent(
                index: 2, count: 8, title: "Porto \u{1F309}", notes: "Line one.\nLine two.", camera: Awkward.cameras[1], playing: true,
                by: "c1")),
        .storyStep(StoryStepEvent(index: 0, count: 1, title: nil, notes: nil, camera: Awkward.cameras[0], playing: false, by: nil)),
        .storyChanged(StoryChange(op: "move", count: 8, index: 3, title: "Porto", notes: "a\nb", playing: false, drivers: true, by: "c1")),
        .storyChanged(StoryChange(op: nil, count: 0, index: nil, playing: false, drivers: false, by: nil)),
        .viewports(
            RoomViewports(
                clients: [
                    MemberViewport(
                        client: "c9", name: "ann \u{1F600}", state: .exploring,
                        region: [
                            GeoCoordinate(latitude: 48.9, longitude: 179.5), GeoCoordinate(latitude: 48.9, longitude: -179.5),
                            GeoCoordinate(latitude: 48.8, longitude: -179.5), GeoCoordinate(latitude: 48.8, longitude: 179.5),
                        ])
                ], others: 7)),
        .viewports(RoomViewports(clients: [], others: 0)),
    ]

    @Test(arguments: HubEventDecoderTests.events)
    func anEventComesBackWithItsTime(event: HubEvent) {
        for time in Awkward.times {
            #expect(hubDecoded(HubMessage.event(event, time: time)) == .event(event, time: time))
        }
    }

    @Test func theSamplesCoverEveryEvent() {
        let names = EventSubscriptions.named.map(\.name).filter { $0 != "animation" && $0 != "roomAnimations" }
        #expect(Set(Self.events.map(\.name)) == Set(names))
    }
}
