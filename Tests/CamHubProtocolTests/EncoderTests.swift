import CameraCore
import CameraMotion
import Foundation
import Testing

@testable import CamHubProtocol

@Suite("JSON string escaping")
struct EscaperTests {
    @Test("quotes, backslashes and control characters")
    func escapes() {
        #expect(JSONWriter.quoted("plain") == #""plain""#)
        #expect(JSONWriter.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONWriter.quoted("\n\r\t\u{8}\u{c}") == #""\n\r\t\b\f""#)
        #expect(JSONWriter.quoted("\u{0}\u{1}\u{1f}\u{7f}") == #""\u0000\u0001\u001f\u007f""#)
        #expect(JSONWriter.quoted("é€😀") == "\"é€😀\"")
        #expect(JSONWriter.quoted("line\u{2028}sep\u{2029}") == #""line\u2028sep\u2029""#)
        #expect(JSONWriter.quoted("</script>") == "\"</script>\"")
    }

    @Test("every string round-trips through Foundation and the hub's own parser")
    func roundTrip() throws {
        var samples = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["", "ana", "\"; drop table", "\\u0041", "😀 é \u{2028} \u{0}", String(repeating: "\"\\\n", count: 50), "\u{10FFFF}\u{FEFF}"]
        for s in samples {
            var w = JSONWriter()
            w.raw("[")
            w.string(s)
            w.raw("]")
            let foundation = try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String]
            #expect(foundation == [s])
            #expect(try JSONParser.parse(w.bytes) == .array([.string(s)]))
        }
    }
}

@Suite("Hub → client encoders")
struct EncoderTests {
    let camera = Camera(latitude: 48.85661400000001, longitude: 2.3522219, zoom: 12.345678901234567, tilt: 33.3, bearing: 359.99999999999994)

    @Test("frame: exact shape and exact doubles")
    func frame() throws {
        let bytes = HubMessage.frame(seq: 42, time: 1718000000123.456, camera: camera, moving: true, by: "c3")
        #expect(
            text(bytes)
                == #"{"type":"frame","seq":42,"time":1718000000123.456,"camera":{"lat":48.85661400000001,"lon":2.3522219,"zoom":12.345678901234567,"bearing":359.99999999999994,"tilt":33.3},"moving":true,"by":"c3"}"#
        )
        // JSONDecoder parses doubles correctly rounded, as browsers' JSON.parse does.
        // (Linux JSONSerialization does not: it goes through NSDecimalNumber.)
        let frame = try JSONDecoder().decode(WireFrame.self, from: Data(bytes))
        #expect(
            frame.camera
                == WireCamera(
                    lat: camera.latitude, lon: camera.continuousLongitude, zoom: camera.zoom,
                    bearing: camera.bearing, tilt: camera.tilt, anchor: nil))
        #expect(frame.seq == 42 && frame.time == 1718000000123.456 && frame.moving && frame.by == "c3")
        #expect(text(HubMessage.frame(seq: 0, time: 1, camera: Camera(), moving: false, by: nil)).hasSuffix(#""moving":false,"by":null}"#))
    }

    @Test("frame: the pointer comes last, only when the frame has one; null once it was hidden")
    func framePointer() {
        let shown = HubMessage.frame(
            seq: 1, time: 2, camera: Camera(), moving: false, by: "c3",
            pointer: .shown(RoomPointer(latitude: 48.5, longitude: 182, by: "c1")))
        #expect(text(shown).hasSuffix(#""by":"c3","pointer":{"lat":48.5,"lon":-178.0,"by":"c1"}}"#), "\(text(shown))")
        let hidden = HubMessage.frame(seq: 2, time: 2, camera: Camera(), moving: false, by: "c3", pointer: .hidden)
        #expect(text(hidden).hasSuffix(#""by":"c3","pointer":null}"#))
        #expect(
            HubMessage.frame(seq: 3, time: 2, camera: camera, moving: true, by: "c3", pointer: .none)
                == HubMessage.frame(seq: 3, time: 2, camera: camera, moving: true, by: "c3"),
            "a frame without a pointer is the bytes it always was")
    }

    @Test("frame: corner and velocity (rounded to 1e-7) follow by, and only when given")
    func frameCornerAndVelocity() {
        let v = CameraVelocity(latitude: 0.123456789, longitude: -1.5, zoom: 1e-9, bearing: 30.00000004, tilt: -0.25)
        let bytes = HubMessage.frame(seq: 1, time: 2, camera: Camera(), moving: true, by: "c3", corner: true, velocity: v)
        #expect(
            text(bytes).hasSuffix(
                #""by":"c3","corner":true,"velocity":{"lat":0.1234568,"lon":-1.5,"zoom":0.0,"bearing":30.0,"tilt":-0.25}}"#),
            "\(text(bytes))")
        #expect(!text(HubMessage.frame(seq: 1, time: 2, camera: Camera(), moving: true, by: nil)).contains("corner"))
    }

    @Test("random cameras round-trip bit-exactly through the hub's parser and Foundation")
    func exactDoubles() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let cam = Camera(
                latitude: .random(in: -85...85, using: &rng), longitude: .random(in: -720...720, using: &rng),
                zoom: .random(in: 0...22, using: &rng), tilt: .random(in: 0...60, using: &rng),
                bearing: .random(in: 0..<360, using: &rng),
                anchor: Bool.random(using: &rng) ? .center : Anchor(x: .random(in: 0...1, using: &rng), y: .random(in: 0...1, using: &rng)))
            let bytes = HubMessage.frame(
                seq: UInt64.random(in: 0...UInt64.max, using: &rng), time: 1.7e12 + .random(in: 0...1e6, using: &rng),
                camera: cam, moving: true, by: "c1")
            guard case .object(let o) = try JSONParser.parse(bytes), case .object(let c)? = o["camera"] else {
                Issue.record()
                continue
            }
            #expect(c["lat"] == .number(cam.latitude))
            let lon = JSONWriter.wireLongitude(cam.continuousLongitude)
            #expect(lon >= -180 && lon < 180 && abs(lon - cam.longitude) < 1e-12)
            #expect(c["lon"] == .number(lon))
            #expect(c["zoom"] == .number(cam.zoom))
            #expect(c["tilt"] == .number(cam.tilt))
            #expect(c["bearing"] == .number(cam.bearing))
            if cam.anchor == .center {
                #expect(c["anchor"] == nil)
            } else {
                #expect(c["anchor"] == .object(["x": .number(cam.anchor.x), "y": .number(cam.anchor.y)]))
            }
            let f = try JSONDecoder().decode(WireFrame.self, from: Data(bytes))
            #expect(f.camera.lat == cam.latitude && f.camera.lon == lon && f.camera.zoom == cam.zoom)
            #expect(f.camera.bearing == cam.bearing && f.camera.tilt == cam.tilt)
            #expect(f.camera.anchor?.x == (cam.anchor == .center ? nil : cam.anchor.x))
        }
    }

    @Test("in-range longitudes go out bit for bit; others are wrapped")
    func exactLongitude() {
        #expect(JSONWriter.wireLongitude(2.3522219) == 2.3522219)
        #expect(JSONWriter.wireLongitude(-180) == -180)
        #expect(JSONWriter.wireLongitude(180) == -180)
        #expect(JSONWriter.wireLongitude(362.5) == 2.5)
        #expect(JSONWriter.wireLongitude(-190) == 170)
    }

    @Test("longitude is wrapped to [-180, 180), bearing to [0, 360), -0 and tiny values stay valid JSON")
    func wrapping() throws {
        let cam = Camera(latitude: -0.0, longitude: 540, zoom: 1e-7, tilt: 0, bearing: -90)
        let bytes = HubMessage.frame(seq: 1, time: 0, camera: cam, moving: false, by: nil)
        #expect(text(bytes).contains(#""lat":-0.0,"lon":-180.0,"zoom":1e-07,"bearing":270.0"#))
        _ = try foundationObject(bytes)
    }

    @Test("non-finite numbers are never written")
    func nonFinite() throws {
        var w = JSONWriter()
        w.raw("[")
        w.number(.nan)
        w.raw(",")
        w.number(.infinity)
        w.raw(",")
        w.number(-.infinity)
        w.raw(",")
        w.number(Double?.none)
        w.raw("]")
        #expect(text(w.bytes) == "[null,null,null,null]")
    }

    @Test("welcome carries everything a client needs")
    func welcome() throws {
        let limits = try CameraLimits(minZoom: 2, maxTiltByZoom: [.init(zoom: 10, tilt: 30)], bounds: GeoBounds(south: 1, west: 2, north: 3, east: 4))
        let w = Welcome(
            client: "c7", room: try RoomName(validating: "demo"), role: .driver, rate: 25, tick: 60, seq: 9,
            camera: Camera(latitude: 1, longitude: 2, zoom: 3), limits: limits, presenter: "c1",
            roster: [RosterEntry(client: "c1", name: "Ana \"the boss\"", role: .presenter), RosterEntry(client: "c7", name: "c7", role: .driver)],
            gestures: [.tilt, .doubleTap])
        let bytes = HubMessage.welcome(w, time: 1000.5)
        #expect(
            text(bytes)
                == #"{"type":"welcome","client":"c7","room":"demo","role":"driver","rate":25.0,"tick":60.0,"time":1000.5,"seq":9,"camera":{"lat":1.0,"lon":2.0,"zoom":3.0,"bearing":0.0,"tilt":0.0},"limits":{"minZoom":2.0,"maxZoom":22.0,"minTilt":0.0,"maxTilt":60.0,"maxTiltByZoom":[[10.0,30.0]],"bounds":{"south":1.0,"west":2.0,"north":3.0,"east":4.0}},"presenter":"c1","clients":2,"followers":0,"following":0,"exploring":0,"away":0,"followPolicy":{"explore":true},"roster":[{"client":"c1","name":"Ana \"the boss\"","role":"presenter","follow":"following"},{"client":"c7","name":"c7","role":"driver","follow":"following"}],"gestures":["tilt","doubleTap"],"events":["steady","significantChange","trackingModeChanged","limitsChanged","presenterChanged","joined","left","tap","longPress","audience","clamped","routeChanged","followChanged","summoned","followPolicyChanged","viewChanged","projectionChanged","storyStep","storyChanged","viewports","animation"],"animations":[],"tracking":{"mode":"none","location":null},"route":[],"view":null,"fit":"same","projection":"mercator"}"#
        )
        let o = try foundationObject(bytes)
        #expect(o["presenter"] as? String == "c1")
        let plain = HubMessage.welcome(
            Welcome(
                client: "c1", room: try RoomName(validating: "r"), role: .follower, rate: 30, tick: 30, seq: 0,
                camera: .world, limits: CameraLimits(), presenter: nil, roster: []), time: 0)
        #expect(
            text(plain).contains(
                #""maxTiltByZoom":[],"bounds":null},"presenter":null,"clients":0,"followers":0,"# + #""following":0,"exploring":0,"away":0,"#
                    + #""followPolicy":{"explore":true},"roster":[],"gestures":[],"events":["steady"#))
    }

    @Test("welcome lists the room's live animations and tracking")
    func welcomeMotion() throws {
        var w = Welcome(
            client: "c7", room: try RoomName(validating: "demo"), role: .follower, rate: 30, tick: 60, seq: 1,
            camera: .world, limits: CameraLimits(), presenter: nil, roster: [])
        let epoch: (Double) -> Double = { 1_000_000 + $0 * 1000 }
        w.animations = [
            AnimationSummary(
                LiveAnimation(
                    id: "f1", owner: Owner(client: "c1", rank: .presenter), kind: .fly,
                    state: .running(start: 2.5, duration: 4), properties: [.zoom, .center], after: nil, requestedDuration: nil), epoch: epoch),
            AnimationSummary(
                LiveAnimation(
                    id: "a2", owner: Owner(client: "c2", rank: .driver), kind: .animate,
                    state: .delayed(until: 9), properties: .tilt, after: nil, requestedDuration: 1), epoch: epoch),
            AnimationSummary(
                LiveAnimation(
                    id: "a3", owner: Owner(client: "c2", rank: .driver), kind: .animate,
                    state: .waiting, properties: .bearing, after: "a2", requestedDuration: 2), epoch: epoch),
        ]
        w.trackingMode = .followDirection
        w.trackedLocation = TrackedLocation(latitude: 52.5, longitude: 193, heading: 87)
        let t = text(HubMessage.welcome(w, time: 5))
        #expect(
            t.hasSuffix(
                #""animations":[{"id":"f1","by":"c1","kind":"fly","status":"running","properties":["center","zoom"],"started":1002500.0,"duration":4.0,"after":null},{"id":"a2","by":"c2","kind":"animate","status":"delayed","properties":["tilt"],"started":null,"duration":1.0,"after":null,"starts":1009000.0},{"id":"a3","by":"c2","kind":"animate","status":"waiting","properties":["bearing"],"started":null,"duration":2.0,"after":"a2"}],"tracking":{"mode":"followDirection","location":{"lat":52.5,"lon":-167.0,"heading":87.0}},"route":[],"view":null,"fit":"same","projection":"mercator"}"#
            ), "\(t)")
        _ = try foundationObject(HubMessage.welcome(w, time: 5))
    }

    @Test("the limits object in welcome decodes back as a limits message to the same limits")
    func limitsRoundTrip() throws {
        let limits = try CameraLimits(
            minZoom: 1.5, maxZoom: 20, minTilt: 5, maxTilt: 70,
            maxTiltByZoom: [.init(zoom: 4, tilt: 20), .init(zoom: 16, tilt: 70)],
            bounds: GeoBounds(south: -10, west: 170, north: 10, east: -170))
        // Splice the object's fields into a limits message.
        var inner = JSONWriter()
        inner.limits(limits)
        let message = "{\"type\":\"limits\"," + text(inner.bytes).dropFirst()
        guard case .limits(let change) = try ClientMessage.decode(message) else {
            Issue.record()
            return
        }
        #expect(try CameraLimits().applying(change) == limits)
    }

    @Test("animation reports")
    func animation() throws {
        let r = AnimationMessage(
            id: "a1", status: .superseded, by: "c2", lost: [.zoom, .center], clamped: [.tilt],
            camera: Camera(latitude: 1, longitude: 2, zoom: 3), reason: "presenter took over")
        #expect(
            text(HubMessage.animation(r, time: 5))
                == #"{"type":"animation","id":"a1","status":"superseded","by":"c2","lost":["center","zoom"],"clamped":["tilt"],"camera":{"lat":1.0,"lon":2.0,"zoom":3.0,"bearing":0.0,"tilt":0.0},"reason":"presenter took over","time":5.0}"#
        )
        let owned = AnimationMessage(id: "a1", status: .started, by: "c2", owner: "c2")
        #expect(
            text(HubMessage.animation(owned, time: 5))
                == #"{"type":"animation","id":"a1","status":"started","by":"c2","owner":"c2","lost":[],"clamped":[],"time":5.0}"#)
        #expect(
            text(HubMessage.animation(AnimationMessage(id: nil, status: .started, by: nil), time: 1))
                == #"{"type":"animation","id":null,"status":"started","by":null,"lost":[],"clamped":[],"time":1.0}"#)
    }

    @Test(
        "events",
        arguments: [
            (
                HubEvent.steady(camera: Camera(latitude: 1, longitude: 2, zoom: 3)),
                #"{"type":"event","event":"steady","time":7.0,"camera":{"lat":1.0,"lon":2.0,"zoom":3.0,"bearing":0.0,"tilt":0.0}}"#
            ),
            (
                HubEvent.significantChange(camera: Camera(latitude: 1, longitude: 2, zoom: 3), by: "c1"),
                #"{"type":"event","event":"significantChange","time":7.0,"camera":{"lat":1.0,"lon":2.0,"zoom":3.0,"bearing":0.0,"tilt":0.0},"by":"c1"}"#
            ),
            (
                HubEvent.trackingModeChanged(mode: .followDirection, by: "c1"),
                #"{"type":"event","event":"trackingModeChanged","time":7.0,"mode":"followDirection","by":"c1"}"#
            ),
            (
                HubEvent.limitsChanged(limits: CameraLimits(), by: nil),
                #"{"type":"event","event":"limitsChanged","time":7.0,"limits":{"minZoom":0.0,"maxZoom":22.0,"minTilt":0.0,"maxTilt":60.0,"maxTiltByZoom":[],"bounds":null},"by":null}"#
            ),
            (
                HubEvent.presenterChanged(PresenterChange(previous: "c1", current: "c4", demoted: "c1"), by: "c4"),
                #"{"type":"event","event":"presenterChanged","time":7.0,"client":"c4","previous":"c1","demoted":"c1","by":"c4"}"#
            ),
            (
                HubEvent.joined(RosterEntry(client: "c2", name: "bo\nb", role: .follower)),
                #"{"type":"event","event":"joined","time":7.0,"client":"c2","name":"bo\nb","role":"follower"}"#
            ),
            (
                HubEvent.left(RosterEntry(client: "c2", name: "bob", role: .driver)),
                #"{"type":"event","event":"left","time":7.0,"client":"c2","name":"bob","role":"driver"}"#
            ),
            (
                HubEvent.tap(by: "c3", at: GeoCoordinate(latitude: 10, longitude: 190), point: ViewPoint(x: 5, y: 6.5)),
                #"{"type":"event","event":"tap","time":7.0,"by":"c3","x":5.0,"y":6.5,"lat":10.0,"lon":-170.0}"#
            ),
            (
                HubEvent.longPress(by: "c3", phase: .change, point: ViewPoint(x: 1, y: 2), at: GeoCoordinate(latitude: 10, longitude: 20)),
                #"{"type":"event","event":"longPress","time":7.0,"by":"c3","phase":"change","x":1.0,"y":2.0,"lat":10.0,"lon":20.0}"#
            ),
            (
                HubEvent.longPress(by: "c3", phase: .end, point: ViewPoint(x: 1, y: 2), at: nil),
                #"{"type":"event","event":"longPress","time":7.0,"by":"c3","phase":"end","x":1.0,"y":2.0,"lat":null,"lon":null}"#
            ),
            (
                HubEvent.gesture(
                    by: "c3", kind: .pan, phase: .change, point: ViewPoint(x: 1, y: 2), at: GeoCoordinate(latitude: 3, longitude: 4), disabled: false),
                #"{"type":"event","event":"gesture","time":7.0,"by":"c3","kind":"pan","phase":"change","disabled":false,"x":1.0,"y":2.0,"lat":3.0,"lon":4.0}"#
            ),
            (
                HubEvent.routeChanged(
                    by: "c3", points: [GeoCoordinate(latitude: 1, longitude: 2), GeoCoordinate(latitude: 3, longitude: 181)], append: true, total: 7),
                #"{"type":"event","event":"routeChanged","time":7.0,"by":"c3","append":true,"total":7,"points":[{"lat":1.0,"lon":2.0},{"lat":3.0,"lon":-179.0}]}"#
            ),
            (
                HubEvent.gesture(by: "c3", kind: .pan, phase: .end, point: nil, at: nil, disabled: true),
                #"{"type":"event","event":"gesture","time":7.0,"by":"c3","kind":"pan","phase":"end","disabled":true}"#
            ),
        ])
    func events(event: HubEvent, expected: String) throws {
        let bytes = HubMessage.event(event, time: 7)
        #expect(text(bytes) == expected)
        _ = try foundationObject(bytes)
    }

    @Test("error and pong")
    func errorAndPong() throws {
        let e = ProtocolError(.badMessage, "camera.lat: must be within -90…90 degrees (got 91.0)", ref: "set")
        #expect(
            text(HubMessage.error(e)) == #"{"type":"error","code":"bad_message","message":"camera.lat: must be within -90…90 degrees (got 91.0)","ref":"set"}"#)
        #expect(text(HubMessage.error(ProtocolError(.badMessage, "x"))) == #"{"type":"error","code":"bad_message","message":"x","ref":null}"#)
        // A user-controlled ref with quotes and control characters stays valid JSON.
        if let hostile = decodeError("{\"type\":\"ease\",\"id\":\"\\\"},\\u0000\",\"camera\":{}}") {
            let o = try foundationObject(HubMessage.error(hostile))
            #expect(o["ref"] as? String == "\"},\u{0}")
        } else {
            Issue.record("expected an error")
        }
        #expect(text(HubMessage.pong(t: 12.5, time: 99)) == #"{"type":"pong","t":12.5,"time":99.0}"#)
        #expect(text(HubMessage.pong(t: nil, time: 99)) == #"{"type":"pong","time":99.0}"#)
        #expect(text(HubMessage.gestures(disabled: [.longPress, .pan])) == #"{"type":"gestures","disabled":["pan","longPress"]}"#)
        #expect(
            Set(ProtocolError.Code.allCases.map(\.rawValue)) == [
                "bad_message", "unknown_type", "not_joined", "forbidden", "conflict", "unknown_animation", "rate_limited", "full", "policy",
                "unavailable", "token",
            ])
    }
}

struct WireAnchor: Decodable, Equatable {
    var x: Double
    var y: Double
}
struct WireCamera: Decodable, Equatable {
    var lat: Double, lon: Double, zoom: Double, bearing: Double, tilt: Double
    var anchor: WireAnchor?
}
struct WireFrame: Decodable {
    var type: String
    var seq: UInt64
    var time: Double
    var camera: WireCamera
    var moving: Bool
    var by: String?
}
