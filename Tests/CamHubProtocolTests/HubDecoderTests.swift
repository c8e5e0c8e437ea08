import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

/// Every hub → client message comes back from its bytes as the value the hub
/// wrote it from (`HubToClient.decode(HubMessage.x(m)) == m`), less what the
/// wire does not carry, which the tests of losses below spell out.
@Suite("Hub → client messages decode to what the hub encoded")
struct HubDecoderTests {
    static let pointer = FramePointer.shown(RoomPointer(latitude: 48.8584, longitude: -179.5, by: "c1"))

    @Test(arguments: Awkward.cameras)
    func aFrameComesBackAsItsArguments(camera: Camera) {
        let velocity = CameraVelocity(latitude: 0.0000123, longitude: -123.4567891, zoom: 0.5, bearing: 1e-7, tilt: -2)
        let frames = [
            HubFrame(seq: 42, time: 1_718_000_000_123.456, camera: camera, moving: true, by: "c3"),
            HubFrame(
                seq: 1 << 53, time: 0.1 + 0.2, camera: camera, moving: false, by: nil, corner: true, velocity: velocity, pointer: Self.pointer,
                epoch: 1_763_900_000_123),
            HubFrame(seq: 0, time: 0, camera: camera, moving: true, by: "c\u{e9}\"\\", corner: false, pointer: .hidden),
        ]
        for frame in frames {
            guard case .frame(let decoded)? = hubDecoded(frame.json) else { continue }
            #expect(decoded == frame)
            #expect(bits(decoded.camera) == bits(camera))
        }
    }

    @Test func anEmptyWelcomeComesBackWithItsTime() throws {
        let welcome = Welcome(
            client: "c1", room: try RoomName(validating: "r"), role: .follower, rate: 1, tick: 1, seq: 0, camera: Camera(),
            limits: CameraLimits(), presenter: nil, roster: [], events: [])
        for time in Awkward.times {
            #expect(hubDecoded(HubMessage.welcome(welcome, time: time)) == .welcome(welcome, time: time))
        }
    }

    /// A welcome with a roster, animations in each status, a route, tracking
    /// with a fix, a view, full limits and every other field off its default.
    static func fullWelcome() throws -> Welcome {
        let roster = [
            RosterEntry(client: "c7", name: "Ana \"\u{e9}\" \u{1F600}", role: .presenter, follow: .exploring),
            RosterEntry(client: "c8", name: "b\\n\u{2028}", role: .follower, follow: .away),
            RosterEntry(client: "c9", name: "d", role: .driver, follow: .following),
        ]
        var w = Welcome(
            client: "c7", room: try RoomName(validating: "demo-1_A"), role: .presenter, rate: 29.97, tick: 60, seq: 1 << 50,
            camera: Awkward.cameras[1], limits: Awkward.limits, presenter: "c7", roster: roster, gestures: [.tilt, .doubleTap, .longPress],
            audience: Audience(clients: 120, followers: 117, follow: FollowCounts(following: 100, exploring: 10, away: 7)),
            events: [.steady, .gesture, .roomAnimations, .viewChanged, .animation])
        w.animations = [
            AnimationSummary(
                id: "f1", by: "c7", kind: .fly, status: "running", properties: [.center, .zoom], started: 1_718_000_000_000.5, duration: 4.2,
                after: nil, starts: nil),
            AnimationSummary(
                id: "d", by: "c9", kind: .ease, status: "delayed", properties: .all, started: nil, duration: 0.1 + 0.2, after: nil,
                starts: 1_718_000_000_100.25),
            AnimationSummary(
                id: "then", by: "c7", kind: .animate, status: "waiting", properties: [.bearing, .padding], started: nil, duration: nil,
                after: "f1", starts: nil),
        ]
        w.trackingMode = .followDirection
        w.trackedLocation = TrackedLocation(latitude: 52.52, longitude: -179.99999999999997, heading: 359.9)
        w.route = [
            GeoCoordinate(latitude: 52.52, longitude: 13.4), GeoCoordinate(latitude: -0.0, longitude: -180),
            GeoCoordinate(latitude: Double.leastNonzeroMagnitude, longitude: 179.99999999999997),
        ]
        w.followPolicy = FollowPolicy(explore: false)
        w.view = RoomView(by: "c7", viewport: Viewport(width: 1280, height: 720.5), padding: EdgeInsets(top: 0, left: 300, bottom: 1e-9, right: 0))
        w.fit = .cover
        return w
    }

    @Test func aFullWelcomeComesBackWithItsTime() throws {
        let welcome = try Self.fullWelcome()
        #expect(hubDecoded(HubMessage.welcome(welcome, time: 1_718_000_000_123.456)) == .welcome(welcome, time: 1_718_000_000_123.456))
    }

    /// A tracked location without a heading, and tracking `none` without one.
    @Test func aWelcomeTrackingWithoutHeadingOrLocationComesBack() throws {
        var welcome = try Self.fullWelcome()
        welcome.trackedLocation = TrackedLocation(latitude: 1, longitude: 2)
        #expect(hubDecoded(HubMessage.welcome(welcome, time: 5)) == .welcome(welcome, time: 5))
        welcome.trackingMode = .none
        welcome.trackedLocation = nil
        welcome.view = nil
        #expect(hubDecoded(HubMessage.welcome(welcome, time: 5)) == .welcome(welcome, time: 5))
    }

    static let animations: [AnimationMessage] = {
        var started = AnimationMessage(id: "f1", status: .started, by: "c1", camera: Awkward.cameras[0], owner: "c1")
        started.to = Awkward.cameras[1]
        started.essential = false
        var essential = started
        essential.essential = true
        return [
            started, essential,
            AnimationMessage(
                id: "a1", status: .superseded, by: "c2", lost: [.center, .zoom], clamped: [.tilt], camera: Awkward.cameras[2],
                reason: "presenter took over", owner: "c1"),
            AnimationMessage(id: "a1", status: .interrupted, by: "c4", lost: [.zoom], camera: Awkward.cameras[3], reason: "gesture", owner: "c1"),
            AnimationMessage(id: "#3", status: .finished, by: "c1", lost: .all, clamped: .all),
            AnimationMessage(id: nil, status: .cancelled, by: nil, reason: "failover \u{1F525}"),
        ]
    }()

    @Test(arguments: HubDecoderTests.animations)
    func anAnimationReportComesBackWithItsTime(report: AnimationMessage) {
        #expect(hubDecoded(HubMessage.animation(report, time: 1_718_000_000_123.456)) == .animation(report, time: 1_718_000_000_123.456))
    }

    @Test func aGestureAckComesBackWithAndWithoutItsAnimation() {
        let acks = [
            GestureAck(seq: 42, kind: .pan, phase: .change, time: 1_718_000_000_123.456, camera: Awkward.cameras[0]),
            GestureAck(
                seq: 7, kind: .scroll, phase: nil, time: 0.1 + 0.2, camera: Awkward.cameras[1],
                animation: .init(id: "scroll", duration: 0.2, to: Awkward.cameras[2])),
            GestureAck(seq: 0, kind: .longPress, phase: .cancel, time: 0, camera: Awkward.cameras[3]),
        ]
        for ack in acks { #expect(hubDecoded(HubMessage.gestureAck(ack)) == .gestureAck(ack)) }
    }

    static let answers: [QueryAnswer] = [
        .project([ViewPoint(x: 412.5, y: 300.25), nil, ViewPoint(x: -0.1 - 0.2, y: 1e-300)]),
        .project([]),
        .unproject([GeoCoordinate(latitude: 48.85, longitude: 2.35), nil, GeoCoordinate(latitude: 0.1 + 0.2, longitude: -180)]),
        .bounds(
            VisibleRegion(
                quad: [
                    GeoCoordinate(latitude: 48.89, longitude: 179.9), GeoCoordinate(latitude: 48.89, longitude: 180.25),
                    GeoCoordinate(latitude: 48.82, longitude: 180.25), GeoCoordinate(latitude: 48.82, longitude: 179.9),
                ],
                bounds: GeoBounds(south: 48.82, west: 179.9, north: 48.89, east: -179.75))),
        .fit(Awkward.cameras[1]),
    ]

    @Test(arguments: HubDecoderTests.answers)
    func aQueryResultComesBackWithItsId(answer: QueryAnswer) {
        #expect(hubDecoded(HubMessage.result(id: "q\u{e9}", answer)) == .result(id: "q\u{e9}", answer))
    }

    @Test func aSummonResultComesBackWithItsIdAndCount() {
        #expect(hubDecoded(HubMessage.summonResult(id: "back", summoned: 3)) == .summonResult(id: "back", summoned: 3))
        #expect(hubDecoded(HubMessage.summonResult(id: "x", summoned: 0)) == .summonResult(id: "x", summoned: 0))
    }

    @Test func theDisabledGesturesComeBackAsASet() {
        for disabled in [Set<GestureKind>(), [.tilt, .doubleTap], Set(GestureKind.allCases)] {
            #expect(hubDecoded(HubMessage.gestures(disabled: disabled)) == .gestures(disabled: disabled))
        }
    }

    @Test(arguments: ProtocolError.Code.allCases)
    func anErrorComesBackWithItsCodeMessageAndRef(code: ProtocolError.Code) {
        for error in [ProtocolError(code, "camera.lat: must be within -90\u{2026}90 degrees (got 91.0)\n", ref: "set"), ProtocolError(code, "x")] {
            #expect(hubDecoded(HubMessage.error(error)) == .error(error))
        }
    }

    @Test func theTokenMessagesComeBackWithTheirExpiry() {
        for exp in [1_718_000_060, 0.1 + 0.2, 1.7976931348623157e308] {
            #expect(hubDecoded(HubMessage.tokenExpiring(exp: exp)) == .tokenExpiring(exp: exp))
            #expect(hubDecoded(HubMessage.tokenRefreshed(exp: exp)) == .tokenRefreshed(exp: exp))
        }
    }

    @Test func aPongComesBackWithAndWithoutItsT() {
        #expect(hubDecoded(HubMessage.pong(t: 12_345.6, time: 1_718_000_000_123.456)) == .pong(t: 12_345.6, time: 1_718_000_000_123.456))
        #expect(hubDecoded(HubMessage.pong(t: nil, time: 0.1 + 0.2)) == .pong(t: nil, time: 0.1 + 0.2))
    }

    @Test func aMessageDecodesFromAnyCollectionOfBytes() throws {
        let bytes = HubMessage.pong(t: 1, time: 2)
        #expect(try HubToClient.decode(AnyCollection(bytes)) == .pong(t: 1, time: 2))
        #expect(try HubToClient.decode(([0x20] + bytes)[1...]) == .pong(t: 1, time: 2))
    }
}
