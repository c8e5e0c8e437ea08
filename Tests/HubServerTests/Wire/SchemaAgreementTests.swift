import CamHubProtocol
import CameraCore
import CameraMotion
import Foundation
import HubCore
import SocketTestSupport
import Testing

/// docs/asyncapi.yaml against the hub's decoder, message by message: each
/// client message below is given to `ClientMessage.decode` and to the schema
/// (scripts/validate_messages.py, Python's jsonschema), and both must accept it
/// or both refuse it. The corpus keeps to what the decoder checks on its own
/// (not room state, not the rules the schema leaves to the hub: `from` ⊆ `to`,
/// `south ≤ north`, a kind in both `disable` and `enable`, `rate` ≤ the tick).
@Suite("docs/asyncapi.yaml accepts exactly what the hub's decoder accepts")
struct SchemaAgreementTests {
    static let corpus: [String] = [
        // accepted
        #"{"type":"hello","room":"demo","role":"follower"}"#,
        #"{"type":"hello","room":"a_b-9","role":"presenter","name":"ana","token":"s3cret","rate":60,"viewport":{"width":1280,"height":720},"events":["steady","roomAnimations"]}"#,
        #"{"type":"set","camera":{"lat":48.8566,"lon":2.3522,"zoom":12}}"#,
        #"{"type":"set","camera":{"padding":{"left":300}}}"#,
        #"{"type":"set","camera":{"anchor":{"x":0.5,"y":0.8},"bearing":-30}}"#,
        #"{"type":"set","camera":{"tilt":85,"roll":-12.5,"elevation":350,"fov":50}}"#,
        #"{"type":"animate","id":"r","to":{"roll":180},"from":{"roll":-180},"duration":2}"#,
        #"{"type":"limits","maxTilt":85,"maxRoll":30}"#,
        #"{"type":"projection","projection":"globe"}"#,
        #"{"type":"hello","room":"demo","role":"follower","render":{"roll":false,"maxTilt":60,"globe":false}}"#,
        #"{"type":"ease","id":"e1","camera":{"zoom":14},"duration":60,"curve":[0,5,1,-2],"around":{"x":1,"y":2}}"#,
        #"{"type":"fly","camera":{"lat":-90,"lon":500},"duration":0,"speed":100,"curve":10,"minZoom":24}"#,
        #"{"type":"animate","id":"a1","to":{"bearing":180},"from":{"bearing":10},"duration":4,"delay":3600,"after":"a0"}"#,
        #"{"type":"cancel"}"#, #"{"type":"cancel","id":"a1"}"#, #"{"type":"cancel","all":true}"#, #"{"type":"cancel","id":"a1","all":false}"#,
        #"{"type":"gesture","kind":"pan","phase":"begin","x":1,"y":2,"t":3}"#,
        #"{"type":"gesture","kind":"pan","phase":"end"}"#,
        #"{"type":"gesture","kind":"pinch","phase":"change","x":1,"y":2,"scale":0.5,"rotation":4}"#,
        #"{"type":"gesture","kind":"tilt","phase":"change","dy":-40}"#,
        #"{"type":"gesture","kind":"rotate","phase":"begin","rotation":0}"#,
        #"{"type":"gesture","kind":"scroll","x":1,"y":2,"delta":-120}"#,
        #"{"type":"gesture","kind":"twoFingerTap"}"#,
        #"{"type":"gesture","kind":"tap","x":1,"y":2}"#,
        #"{"type":"gesture","kind":"longPress","phase":"end"}"#,
        #"{"type":"gestures","disable":["tilt"]}"#, #"{"type":"gestures","enable":[]}"#,
        #"{"type":"viewport","width":1,"height":16384}"#,
        #"{"type":"limits","maxZoom":null}"#,
        #"{"type":"limits","maxTiltByZoom":[[10,30],[14,60]],"bounds":{"south":40,"west":-10,"north":60,"east":20}}"#,
        #"{"type":"limits","bounds":null,"maxTiltByZoom":null}"#,
        #"{"type":"track","mode":"routeOverview"}"#,
        #"{"type":"track","location":{"lat":52.5,"lon":13.4,"heading":400}}"#,
        #"{"type":"route","points":[{"lat":1,"lon":2},{"lat":3,"lon":4}]}"#,
        #"{"type":"route","points":[]}"#,
        #"{"type":"route","points":[{"lat":1,"lon":2}],"append":true}"#,
        #"{"type":"query","id":"q1","what":"project","points":[{"lat":48.85,"lon":2.35}]}"#,
        #"{"type":"query","id":"q2","what":"unproject","points":[]}"#,
        #"{"type":"query","id":"q3","what":"bounds"}"#,
        #"{"type":"query","id":"q4","what":"fit","bounds":{"south":1,"west":2,"north":3,"east":4},"padding":{"top":5}}"#,
        #"{"type":"query","id":"s1","what":"story"}"#,
        #"{"type":"ping"}"#, #"{"type":"ping","t":12345.6}"#,
        #"{"type":"subscribe","events":[]}"#,
        #"{"type":"ping","newField":{"anything":true}}"#,
        #"{"type":"follow","state":"exploring"}"#, #"{"type":"follow","state":"away"}"#,
        #"{"type":"summon"}"#, #"{"type":"summon","id":"back"}"#,
        #"{"type":"followPolicy","explore":false}"#,
        #"{"type":"fit","mode":"cover"}"#, #"{"type":"hello","room":"demo","role":"follower","fit":"cover"}"#,
        #"{"type":"ease","camera":{"zoom":3},"essential":true}"#, #"{"type":"fly","camera":{"zoom":3},"essential":false}"#,
        #"{"type":"animate","to":{"zoom":3},"duration":1,"essential":true}"#,
        #"{"type":"pointer","lat":48.8584,"lon":2.2945}"#, #"{"type":"pointer","lat":null}"#, #"{"type":"pointer","lat":-90,"lon":540}"#,
        #"{"type":"story","op":"set","steps":[{"camera":{"lat":38.7,"lon":-9.1,"zoom":11,"roll":-5,"elevation":80,"fov":40},"via":"ease","duration":2,"curve":"linear","hold":4,"title":"Lisbon","notes":"Line one.\nLine two.","essential":true}]}"#,
        #"{"type":"story","op":"set","steps":[]}"#,
        #"{"type":"story","op":"insert","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"via":"jump"}],"index":0,"drivers":false}"#,
        #"{"type":"story","op":"update","index":0,"step":{"camera":{"lat":1,"lon":2,"zoom":3,"padding":{"left":300}},"speed":2}}"#,
        #"{"type":"story","op":"move","from":2,"to":0}"#, #"{"type":"story","op":"remove","index":1}"#, #"{"type":"story","drivers":true}"#,
        #"{"type":"step","to":"next"}"#, #"{"type":"step","to":"pause"}"#, #"{"type":"step","to":2,"id":"s3"}"#,
        #"{"type":"looking","region":[[2.3,48.9],[2.4,48.9],[2.4,48.8],[2.3,48.8]]}"#,
        #"{"type":"looking","region":[[179.5,10],[-179.5,10],[-179.5,9],[179.5,9]]}"#,
        #"{"type":"looking","region":null}"#,
        #"{"type":"summon","id":"back-ann","client":"c9"}"#,
        // refused
        #"{"type":"looking","camera":{"lat":48.85,"lon":2.35,"zoom":13}}"#,
        #"{"type":"looking","region":[[2.3,48.9],[2.4,48.9],[2.4,48.8]]}"#,
        #"{"type":"looking","region":[[2.3,91],[2.4,48.9],[2.4,48.8],[2.3,48.8]]}"#,
        #"{"room":"demo","role":"follower"}"#,
        #"{"type":"jump","camera":{"zoom":3}}"#,
        #"{"type":"hello","room":"demo"}"#,
        #"{"type":"hello","room":"a b","role":"driver"}"#,
        #"{"type":"hello","room":"demo","role":"pilot"}"#,
        #"{"type":"hello","room":"demo","role":"driver","rate":0.5}"#,
        #"{"type":"hello","room":"demo","role":"driver","name":""}"#,
        #"{"type":"hello","room":"demo","role":"driver","viewport":{"width":0,"height":720}}"#,
        #"{"type":"hello","room":"demo","role":"driver","viewport":{"width":800,"height":600,"dpr":2}}"#,
        #"{"type":"hello","room":"demo","role":"driver","events":["moved"]}"#,
        #"{"type":"set","camera":{}}"#,
        #"{"type":"set","camera":{"lng":2}}"#,
        #"{"type":"set","camera":{"lat":91}}"#,
        #"{"type":"set","camera":{"zoom":"3"}}"#,
        #"{"type":"set","camera":{"padding":{}}}"#,
        #"{"type":"set","camera":{"padding":{"top":-1}}}"#,
        #"{"type":"set","camera":{"anchor":{"x":1}}}"#,
        #"{"type":"set"}"#,
        #"{"type":"ease","camera":{"zoom":1},"duration":61}"#,
        #"{"type":"ease","camera":{"zoom":1},"curve":"bouncy"}"#,
        #"{"type":"ease","camera":{"zoom":1},"curve":[2,0,0,1]}"#,
        #"{"type":"ease","camera":{"zoom":1},"curve":[0,0,1]}"#,
        #"{"type":"ease","camera":{"lat":1},"around":{"x":1,"y":2}}"#,
        #"{"type":"ease","id":"","camera":{"zoom":1}}"#,
        #"{"type":"fly","camera":{"zoom":1},"speed":0}"#,
        #"{"type":"fly","camera":{"zoom":1},"curve":"linear"}"#,
        #"{"type":"fly","camera":{"zoom":1},"minZoom":25}"#,
        #"{"type":"animate","to":{"zoom":1}}"#,
        #"{"type":"animate","to":{"zoom":1},"duration":1,"delay":-1}"#,
        #"{"type":"cancel","id":"a1","all":true}"#,
        #"{"type":"cancel","all":"yes"}"#,
        #"{"type":"gesture","kind":"swipe","x":1,"y":2}"#,
        #"{"type":"gesture","kind":"pan","x":1,"y":2}"#,
        #"{"type":"gesture","kind":"pinch","phase":"change","x":1,"y":2}"#,
        #"{"type":"gesture","kind":"pan","phase":"change","x":1}"#,
        #"{"type":"gesture","kind":"pinch","phase":"begin","x":1,"y":2,"scale":0}"#,
        #"{"type":"gesture","kind":"doubleTap","phase":"end"}"#,
        #"{"type":"gesture","kind":"scroll","x":1,"y":2}"#,
        #"{"type":"gesture","kind":"tilt","phase":"begin"}"#,
        #"{"type":"gestures"}"#,
        #"{"type":"gestures","disable":["swipe"]}"#,
        #"{"type":"viewport","width":1280,"height":20000}"#,
        #"{"type":"limits"}"#,
        #"{"type":"limits","maxTiltByZoom":[[1]]}"#,
        #"{"type":"limits","bounds":{"south":1,"west":2,"north":3}}"#,
        #"{"type":"limits","minZoom":"low"}"#,
        #"{"type":"track"}"#,
        #"{"type":"track","location":{"lat":91,"lon":0}}"#,
        #"{"type":"track","mode":"orbit"}"#,
        #"{"type":"route","points":[{"lat":1,"lon":2}]}"#,
        #"{"type":"route","points":[],"append":true}"#,
        #"{"type":"route","points":[{"lat":100,"lon":2},{"lat":1,"lon":2}]}"#,
        #"{"type":"route","points":[{"lat":1,"lon":2,"alt":3},{"lat":1,"lon":2}]}"#,
        #"{"type":"query","what":"bounds"}"#,
        #"{"type":"query","id":"q","what":"nearest"}"#,
        #"{"type":"query","id":"q","what":"project","points":[{"x":1,"y":2}]}"#,
        #"{"type":"query","id":"q","what":"fit","bounds":{"south":1,"west":2,"north":3}}"#,
        #"{"type":"query","id":"q","what":"fit","bounds":{"south":1,"west":2,"north":3,"east":4},"padding":-1}"#,
        #"{"type":"query","id":"q","what":"fit","bounds":{"south":1,"west":200,"north":3,"east":4}}"#,
        #"{"type":"ping","t":"now"}"#,
        #"{"type":"subscribe"}"#,
        #"{"type":"follow"}"#, #"{"type":"follow","state":"wandering"}"#, #"{"type":"follow","state":1}"#,
        #"{"type":"summon","id":""}"#,
        #"{"type":"story"}"#, #"{"type":"story","op":"shuffle"}"#, #"{"type":"story","op":"set"}"#,
        #"{"type":"story","op":"insert","steps":[]}"#, #"{"type":"story","op":"remove"}"#, #"{"type":"story","op":"move","from":1}"#,
        #"{"type":"story","op":"remove","index":-1}"#, #"{"type":"story","op":"remove","index":1.5}"#,
        #"{"type":"story","op":"set","steps":[{"camera":{"lat":1,"lon":2}}]}"#,
        #"{"type":"story","op":"set","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"hold":-1}]}"#,
        #"{"type":"story","op":"set","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"via":"drift"}]}"#,
        #"{"type":"story","op":"set","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"subtitle":"x"}]}"#,
        #"{"type":"story","op":"set","steps":[{"camera":{"lat":1,"lon":2,"zoom":3},"title":"a\nb"}]}"#,
        #"{"type":"story","drivers":"yes"}"#,
        #"{"type":"step"}"#, #"{"type":"step","to":"sideways"}"#, #"{"type":"step","to":-1}"#, #"{"type":"step","to":true}"#,
        #"{"type":"followPolicy"}"#, #"{"type":"followPolicy","explore":"no"}"#,
        #"{"type":"ease","camera":{"zoom":3},"essential":"yes"}"#,
        #"{"type":"pointer"}"#, #"{"type":"pointer","lat":91,"lon":0}"#, #"{"type":"pointer","lat":1}"#,
        #"{"type":"pointer","lat":"1","lon":2}"#,
        #"{"type":"fit"}"#, #"{"type":"fit","mode":"stretch"}"#, #"{"type":"hello","room":"demo","role":"follower","fit":"zoom"}"#,
        #"{"type":"ping","t":1,"t":2}"#,
        #"[{"type":"ping"}]"#,
    ]

    /// The schema's verdict on each client message (`valid` or `invalid: …`), from scripts/validate_messages.py.
    static func schemaVerdicts(_ messages: [String]) throws -> [String] {
        let dir = try TempDir()
        try dir.write("client.jsonl", messages.joined(separator: "\n") + "\n")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/validate_messages.py").path
        let run = try Subprocess.run(
            "/usr/bin/env", ["python3", script, "--sender", "client", "--verdicts", dir.path + "/client.jsonl"],
            timeout: .seconds(60), environment: ["PYTHONDONTWRITEBYTECODE": "1"])
        try #require(run.status == 0, "validate_messages.py failed (pip install jsonschema pyyaml): \(run.stderr)")
        let verdicts = run.stdout.split(separator: "\n").map(String.init)
        try #require(verdicts.count == messages.count, "\(verdicts.count) verdicts for \(messages.count) messages: \(run.stdout)")
        return verdicts
    }

    @Test func schemaAndDecoderAgreeOnEveryMessage() throws {
        let verdicts = try Self.schemaVerdicts(Self.corpus)
        var accepted = 0
        for (text, verdict) in zip(Self.corpus, verdicts) {
            let decoder: String
            do {
                _ = try ClientMessage.decode(text)
                decoder = "valid"
                accepted += 1
            } catch {
                decoder = "invalid: \(error)"
            }
            #expect(
                decoder.hasPrefix("invalid") == verdict.hasPrefix("invalid"),
                "\(text)\n  decoder: \(decoder)\n  schema:  \(verdict)")
        }
        #expect(accepted > 30 && accepted < Self.corpus.count - 30, "the corpus needs both kinds (\(accepted) accepted)")
    }
}

/// Every kind of message the hub's encoders write (`HubMessage.*`, every
/// event, every query answer, optional fields present and absent) matches its
/// schema in docs/asyncapi.yaml, and every hub message of the schema is among
/// them: the schema and the encoders describe the same set.
@Suite("docs/asyncapi.yaml matches every message the hub's encoders write")
struct EncoderSchemaTests {
    static func messages() throws -> [[UInt8]] {
        let time = 1_718_000_000_123.456
        let plain = Camera(latitude: 48.8566, longitude: 2.3522, zoom: 12)
        let camera = Camera(
            latitude: -33.9, longitude: 362.5, zoom: 15.25, tilt: 45, bearing: -30,
            anchor: Anchor(x: 0.5, y: 0.8), padding: EdgeInsets(left: 300))
        let limits = try CameraLimits(
            minZoom: 2, maxZoom: 18, maxTiltByZoom: [.init(zoom: 10, tilt: 30), .init(zoom: 14, tilt: 60)],
            bounds: GeoBounds(south: 40, west: 170, north: 60, east: -170))
        let ana = RosterEntry(client: "c1", name: "ana", role: .presenter)
        let bob = RosterEntry(client: "c2", name: "bob ✓", role: .follower, follow: .away)
        var welcome = Welcome(
            client: "c2", room: try RoomName(validating: "demo"), role: .follower, rate: 30, tick: 60, seq: 9,
            camera: camera, limits: limits, presenter: "c1", roster: [ana, bob], gestures: [.tilt, .doubleTap],
            events: .followerDefault)
        welcome.followPolicy = FollowPolicy(explore: false, by: "c1", since: time)
        welcome.view = RoomView(by: "c1", viewport: Viewport(width: 1280, height: 720))
        welcome.fit = .cover
        welcome.projection = .globe
        welcome.story = StorySummary(count: 8, index: 2, title: "Porto", notes: "Line one.\nLine two.", playing: true, drivers: true)
        welcome.renderLimited = ["roll", "tilt"]
        welcome.animations = [
            AnimationSummary(
                id: "f1", by: "c1", kind: .fly, status: "running", properties: [.center, .zoom], started: time,
                duration: 4.2, after: nil, starts: nil),
            AnimationSummary(
                id: "later", by: "c1", kind: .animate, status: "delayed", properties: [.bearing], started: nil,
                duration: 2, after: nil, starts: time + 1000),
            AnimationSummary(
                id: "then", by: "c1", kind: .fly, status: "waiting", properties: [.center], started: nil,
                duration: nil, after: "f1", starts: nil),
        ]
        welcome.trackingMode = .followDirection
        welcome.trackedLocation = TrackMessage.Location(latitude: 52.52, longitude: 193.4, heading: 370)
        welcome.route = [GeoCoordinate(latitude: 52.52, longitude: 13.4), GeoCoordinate(latitude: 52.53, longitude: 181)]
        var bare = welcome
        bare.presenter = nil
        bare.roster = []
        bare.gestures = []
        bare.animations = []
        bare.trackingMode = .none
        bare.trackedLocation = nil
        bare.route = []
        bare.view = nil
        bare.limits = CameraLimits()
        bare.projection = .mercator
        bare.story = StorySummary(count: 0, index: nil)
        bare.renderLimited = []

        let events: [HubEvent] = [
            .steady(camera: camera), .significantChange(camera: plain, by: nil), .significantChange(camera: plain, by: "c1"),
            .trackingModeChanged(mode: .routeOverview, by: "c1"), .limitsChanged(limits: limits, by: "c1"),
            .limitsChanged(limits: CameraLimits(), by: nil),
            .presenterChanged(client: "c3", previous: "c1", demoted: "c1", by: "c3"),
            .presenterChanged(client: nil, previous: "c1", demoted: nil, by: nil),
            .joined(bob), .left(ana), .audience(Audience(clients: 20_000, followers: 19_998)),
            .tap(by: "c2", at: GeoCoordinate(latitude: 1, longitude: 190), point: ViewPoint(x: 1, y: 2)),
            .tap(by: "c2", at: GeoCoordinate(latitude: 1, longitude: 2), point: nil),
            .longPress(by: "c2", phase: .begin, point: ViewPoint(x: 3, y: 4), at: GeoCoordinate(latitude: 5, longitude: 6)),
            .longPress(by: "c2", phase: .cancel, point: nil, at: nil),
            .gesture(
                by: "c2", kind: .pinch, phase: .change, point: ViewPoint(x: 3, y: 4), at: GeoCoordinate(latitude: 5, longitude: -181),
                disabled: false),
            .gesture(by: "c2", kind: .twoFingerTap, phase: nil, point: nil, at: nil, disabled: true),
            .clamped(properties: [.zoom, .tilt], camera: camera),
            .routeChanged(
                by: "c1", points: [GeoCoordinate(latitude: 1, longitude: 2), GeoCoordinate(latitude: 3, longitude: 4)],
                append: false, total: 2),
            .routeChanged(by: "c1", points: [], append: false, total: 0),
            .followChanged(RosterEntry(client: "c9", name: "ann", role: .follower, follow: .exploring)),
            .summoned(by: "c1", name: "ana"),
            .followPolicyChanged(FollowPolicy(explore: false, by: "c1", since: time)),
            .viewChanged(RoomView(by: "c1", viewport: Viewport(width: 1600, height: 900), padding: EdgeInsets(left: 300))),
            .audience(Audience(clients: 9, followers: 7, follow: FollowCounts(following: 4, exploring: 2, away: 1))),
            .projectionChanged(.globe, by: "c1"), .projectionChanged(.mercator, by: nil),
            .storyStep(StoryStepEvent(index: 2, count: 8, title: "Porto", notes: "Line one.\nLine two.", camera: camera, playing: true, by: "c1")),
            .storyStep(StoryStepEvent(index: 0, count: 1, title: nil, notes: nil, camera: plain, playing: false, by: nil)),
            .storyChanged(StoryChange(op: "insert", count: 8, index: 3, title: "Porto", notes: nil, playing: false, drivers: true, by: "c1")),
            .storyChanged(StoryChange(op: nil, count: 0, index: nil, playing: false, drivers: false, by: nil)),
            .viewports(
                RoomViewports(
                    clients: [
                        MemberViewport(
                            client: "c9", name: "ann", state: .exploring,
                            region: [
                                GeoCoordinate(latitude: 48.9, longitude: 179.5), GeoCoordinate(latitude: 48.9, longitude: -179.5),
                                GeoCoordinate(latitude: 48.8, longitude: -179.5), GeoCoordinate(latitude: 48.8, longitude: 179.5),
                            ])
                    ], others: 3)),
            .viewports(RoomViewports(clients: [], others: 0)),
        ]
        let viewport = Viewport(width: 1280, height: 720)
        let queries: [QueryCommand] = [
            QueryCommand(id: "q1", what: .project([GeoCoordinate(latitude: 48.85, longitude: 2.35), GeoCoordinate(latitude: -80, longitude: 2)])),
            QueryCommand(id: "q2", what: .unproject([ViewPoint(x: 640, y: 360), ViewPoint(x: 0, y: 0)])),
            QueryCommand(id: "q3", what: .bounds),
            QueryCommand(id: "q4", what: .fit(GeoBounds(south: 48.8, west: 2.2, north: 48.9, east: 2.4), padding: EdgeInsets(all: 20))),
        ]
        let tilted = Camera(latitude: 48.85, longitude: 179.9, zoom: 3, tilt: 80, bearing: 90)
        var out: [[UInt8]] = [
            HubMessage.frame(seq: 42, time: time, camera: camera, moving: true, by: "c3"),
            HubMessage.frame(seq: 0, time: time, camera: plain, moving: false, by: nil),
            HubMessage.frame(seq: 43, time: time, camera: plain, moving: true, by: "c3", corner: true),
            HubMessage.frame(
                seq: 45, time: time, camera: plain, moving: false, by: "c3",
                pointer: .shown(RoomPointer(latitude: 48.8584, longitude: 182.5, by: "c1"))),
            HubMessage.frame(seq: 46, time: time, camera: plain, moving: false, by: "c3", pointer: .hidden),
            HubMessage.frame(
                seq: 44, time: time, camera: camera, moving: true, by: "c3",
                velocity: CameraVelocity(latitude: 0.012345678, longitude: -1.5, zoom: 0.5, bearing: 30, tilt: 0)),
            HubMessage.welcome(welcome, time: time), HubMessage.welcome(bare, time: time),
            HubMessage.animation(
                AnimationMessage(
                    id: "a1", status: .superseded, by: "c2", lost: [.center, .zoom], clamped: [.tilt],
                    camera: camera, reason: "highLevel", owner: "c1"), time: time),
            HubMessage.animation(AnimationMessage(id: nil, status: .cancelled, by: nil, camera: plain, owner: "c1"), time: time),
            HubMessage.animation(
                {
                    var started = AnimationMessage(id: "e1", status: .started, by: "c1", camera: plain, owner: "c1")
                    started.to = camera
                    started.essential = false
                    return started
                }(), time: time),
            HubMessage.gestures(disabled: [.pan, .longPress]), HubMessage.gestures(disabled: []),
            HubMessage.error(ProtocolError(.badMessage, "camera.lat: must be within -90…90 degrees (got 91.0)", ref: "set")),
            HubMessage.error(ProtocolError(.full, "room \"x\"\nis full", ref: nil)),
            HubMessage.pong(t: 12345.6, time: time), HubMessage.pong(t: nil, time: time),
            HubMessage.tokenExpiring(exp: 1_718_000_060), HubMessage.tokenRefreshed(exp: 1_718_003_600.5),
            HubMessage.summonResult(id: nil, summoned: 0), HubMessage.summonResult(id: "back", summoned: 12),
            HubMessage.gestureAck(GestureAck(seq: 42, kind: .pan, phase: .change, time: time, camera: plain)),
            HubMessage.gestureAck(
                GestureAck(
                    seq: 57, kind: .pan, phase: .end, time: time, camera: camera,
                    animation: .init(id: "momentum", duration: 0.42, to: plain))),
            HubMessage.gestureAck(
                GestureAck(
                    seq: 0, kind: .doubleTap, phase: nil, time: time, camera: plain,
                    animation: .init(id: "doubleTap", duration: 0.3, to: tilted))),
        ]
        out += events.map { HubMessage.event($0, time: time) }
        // The camera in 3D: a steep, rolled, elevated camera with a field of view of its own.
        let steep = Camera(latitude: 46.55, longitude: 7.98, zoom: 13.5, tilt: 85, bearing: 200, roll: -12.5, elevation: 3454, fov: 50)
        out += [
            HubMessage.frame(
                seq: 47, time: time, camera: steep, moving: true, by: "c3",
                velocity: CameraVelocity(latitude: 0, longitude: 0.001, zoom: 0, bearing: 3, tilt: 0, roll: -4, elevation: 20, fov: 0)),
            HubMessage.frame(seq: 48, time: time, camera: Camera(latitude: 1, longitude: 2, zoom: 3, roll: 180), moving: false, by: nil),
            HubMessage.event(.limitsChanged(limits: try CameraLimits(maxTilt: 85, maxRoll: 30), by: "c1"), time: time),
            HubMessage.animation(
                AnimationMessage(id: "r", status: .finished, by: "c1", lost: [.roll, .fov], clamped: [.roll], camera: steep, owner: "c1"),
                time: time),
        ]
        for query in queries {
            for c in [camera, tilted, steep] {
                out.append(HubMessage.result(id: query.id, try query.answer(camera: c, viewport: viewport, limits: CameraLimits())))
            }
        }
        // The storyboard whole (`query` `story`): steps with every field, and none on no step.
        let porto = StoryStep(camera: steep, via: .ease, duration: 2, hold: 4, title: "Porto", notes: "Line one.\nLine two.")
        out.append(HubMessage.result(id: "s1", .story(StoryState(steps: [porto, StoryStep(camera: plain)], index: 1, playing: true, drivers: true))))
        out.append(HubMessage.result(id: "s2", .story(StoryState())))
        return out
    }

    /// The client side of the protocol module: what its encoder writes for every message
    /// of the corpus the decoder takes is valid against the schema too.
    @Test func everyClientMessageTheEncoderWritesIsValidAgainstTheSchema() throws {
        let encoded = SchemaAgreementTests.corpus.compactMap { try? ClientMessage.decode($0) }.map(\.json)
        #expect(encoded.count > 30)
        let verdicts = try SchemaAgreementTests.schemaVerdicts(encoded)
        for (text, verdict) in zip(encoded, verdicts) { #expect(verdict == "valid", "\(text): \(verdict)") }
    }

    /// The client side reads what the hub writes: every message of the schema test decodes
    /// as its own type, none as unknown.
    @Test func theHubsDecoderReadsEveryMessageTheEncodersWrite() throws {
        for bytes in try Self.messages() {
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let message = try HubToClient.decode(bytes)
                if case .unknown = message { Issue.record("read as unknown: \(text)") }
                if case .unknownEvent = message { Issue.record("read as an unknown event: \(text)") }
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
    }

    @Test func everyEncodedMessageMatchesAndEverySchemaMessageIsWritten() throws {
        let dir = try TempDir()
        try dir.write("hub.jsonl", try Self.messages().map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/validate_messages.py").path
        let run = try Subprocess.run(
            "/usr/bin/env", ["python3", script, "--sender", "hub", "--require-all", dir.path + "/hub.jsonl"],
            timeout: .seconds(60), environment: ["PYTHONDONTWRITEBYTECODE": "1"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    }
}
