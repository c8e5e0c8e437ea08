import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

/// What the hub's encoders do not put on the wire, so what a decoded message
/// cannot have: each test names one loss and checks what survives.
@Suite("What the wire does not carry")
struct HubDecoderLossTests {
    @Test func aCameraComesBackWithItsLongitudeAndBearingWrapped() {
        let camera = Camera(latitude: 1, longitude: 540.25, zoom: 3, tilt: 4, bearing: -90, anchor: Anchor(x: 0.25, y: 0.75))
        let frame = HubFrame(seq: 1, time: 2, camera: camera, moving: true, by: "c1")
        var wire = frame
        wire.camera = onTheWire(camera)
        #expect(wire.camera.continuousLongitude == -179.75 && wire.camera.bearing == 270)
        #expect(hubDecoded(frame.json) == .frame(wire))
    }

    @Test func aFrameVelocityComesBackRoundedTo1e7() {
        let velocity = CameraVelocity(latitude: 0.000012345678, longitude: -123.45678912, zoom: 0.5, bearing: 1e-9, tilt: -2)
        let frame = HubFrame(seq: 1, time: 2, camera: Camera(), moving: true, by: "c1", velocity: velocity)
        guard case .frame(let decoded)? = hubDecoded(frame.json) else { return }
        #expect(decoded.velocity == CameraVelocity(latitude: 0.0000123, longitude: -123.4567891, zoom: 0.5, bearing: 0, tilt: -2))
        var rest = decoded
        rest.velocity = velocity
        #expect(rest == frame)
    }

    @Test func aPointerComesBackWithItsLongitudeWrapped() {
        let frame = HubFrame(
            seq: 1, time: 2, camera: Camera(), moving: false, by: nil, pointer: .shown(RoomPointer(latitude: 3, longitude: 190, by: "c1")))
        var wire = frame
        wire.pointer = .shown(RoomPointer(latitude: 3, longitude: -170, by: "c1"))
        #expect(hubDecoded(frame.json) == .frame(wire))
    }

    @Test func aWelcomeLosesItsFollowPolicysAuthorAndTimeAndNegativeCounts() throws {
        var welcome = try HubDecoderTests.fullWelcome()
        welcome.followPolicy = FollowPolicy(explore: false, by: "c7", since: 1_718_000_000_000)
        welcome.audience.follow.away = -1
        var wire = welcome
        wire.followPolicy = FollowPolicy(explore: false)
        wire.audience.follow.away = 0
        #expect(hubDecoded(HubMessage.welcome(welcome, time: 1)) == .welcome(wire, time: 1))
    }

    @Test func aWelcomeTrackedLocationComesBackWrapped() throws {
        var welcome = try HubDecoderTests.fullWelcome()
        welcome.trackedLocation = TrackedLocation(latitude: 1, longitude: 200, heading: -10)
        welcome.route = [GeoCoordinate(latitude: 1, longitude: 181)]
        var wire = welcome
        wire.trackedLocation = TrackedLocation(latitude: 1, longitude: -160, heading: 350)
        wire.route = [GeoCoordinate(latitude: 1, longitude: -179)]
        #expect(hubDecoded(HubMessage.welcome(welcome, time: 1)) == .welcome(wire, time: 1))
    }

    @Test func joinedAndLeftLoseTheFollowState() {
        let entry = RosterEntry(client: "c2", name: "bob", role: .driver, follow: .away)
        let wire = RosterEntry(client: "c2", name: "bob", role: .driver, follow: .following)
        #expect(hubDecoded(HubMessage.event(.joined(entry), time: 1)) == .event(.joined(wire), time: 1))
        #expect(hubDecoded(HubMessage.event(.left(entry), time: 1)) == .event(.left(wire), time: 1))
    }

    @Test func followChangedLosesTheRole() {
        let entry = RosterEntry(client: "c2", name: "bob", role: .presenter, follow: .exploring)
        let wire = RosterEntry(client: "c2", name: "bob", role: .follower, follow: .exploring)
        #expect(hubDecoded(HubMessage.event(.followChanged(entry), time: 1)) == .event(.followChanged(wire), time: 1))
    }

    @Test func followPolicyChangedLosesItsTime() {
        let policy = FollowPolicy(explore: false, by: "c1", since: 1_718_000_000_000)
        #expect(
            hubDecoded(HubMessage.event(.followPolicyChanged(policy), time: 1)) == .event(.followPolicyChanged(FollowPolicy(explore: false, by: "c1")), time: 1)
        )
    }

    @Test func anAudienceLosesNegativeCounts() {
        let audience = Audience(clients: 1, followers: 1, follow: FollowCounts(following: 2, exploring: -1, away: 0))
        let wire = Audience(clients: 1, followers: 1, follow: FollowCounts(following: 2, exploring: 0, away: 0))
        #expect(hubDecoded(HubMessage.event(.audience(audience), time: 1)) == .event(.audience(wire), time: 1))
    }

    @Test func aSummonResultWithoutIdComesBackAsSummon() {
        #expect(hubDecoded(HubMessage.summonResult(id: nil, summoned: 2)) == .summonResult(id: "summon", summoned: 2))
    }

    @Test func anErrorLosesItsCloseCode() {
        let error = ProtocolError(.full, "room: full", ref: "hello", close: .tryAgainLater)
        #expect(hubDecoded(HubMessage.error(error)) == .error(ProtocolError(.full, "room: full", ref: "hello")))
    }

    @Test func aNonFiniteOptionalNumberComesBackNil() throws {
        let summary = AnimationSummary(
            id: "a", by: "c1", kind: .ease, status: "running", properties: [], started: .nan, duration: .infinity, after: nil, starts: nil)
        var welcome = Welcome(
            client: "c1", room: try RoomName(validating: "r"), role: .driver, rate: 30, tick: 60, seq: 1, camera: Camera(),
            limits: CameraLimits(), presenter: nil, roster: [])
        welcome.animations = [summary]
        var wire = welcome
        wire.animations[0].started = nil
        wire.animations[0].duration = nil
        #expect(hubDecoded(HubMessage.welcome(welcome, time: 1)) == .welcome(wire, time: 1))
    }
}
