import CamHubProtocol
import CameraCore
import CameraMotion
import Foundation
import Testing

@Suite("Client messages: the encoder")
struct ClientMessageEncoderTests {
    /// Every JSON example in docs/PROTOCOL.md (one line or several) that the hub's decoder takes
    /// as a client message.
    static func documentedClientMessages() throws -> [ClientMessage] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
        let text = Array(try String(contentsOf: url, encoding: .utf8).utf8)
        return jsonObjects(startingWith: Array(#"{"type":"#.utf8), in: text).compactMap { try? ClientMessage.decode($0, tick: 60) }
    }

    /// The balanced `{…}` objects that begin with `prefix` (braces inside strings do not count).
    static func jsonObjects(startingWith prefix: [UInt8], in text: [UInt8]) -> [[UInt8]] {
        var found: [[UInt8]] = []
        var i = 0
        while i + prefix.count <= text.count {
            guard text[i..<i + prefix.count].elementsEqual(prefix) else {
                i += 1
                continue
            }
            var depth = 0
            var inString = false
            var j = i
            while j < text.count {
                let b = text[j]
                if inString {
                    if b == UInt8(ascii: "\\") { j += 1 } else if b == UInt8(ascii: "\"") { inString = false }
                } else if b == UInt8(ascii: "\"") {
                    inString = true
                } else if b == UInt8(ascii: "{") {
                    depth += 1
                } else if b == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 { break }
                }
                j += 1
            }
            if j < text.count { found.append(Array(text[i...j]).filter { $0 != UInt8(ascii: "\n") }) }
            i = j + 1
        }
        return found
    }

    func roundTrip(_ message: ClientMessage) throws -> ClientMessage {
        try ClientMessage.decode(message.encoded, tick: 60)
    }

    @Test func everyDocumentedClientMessageDecodesBackFromItsEncoding() throws {
        let messages = try Self.documentedClientMessages()
        for message in messages {
            #expect(try roundTrip(message) == message, "\(message.json)")
        }
        let types = Set(messages.map(\.type))
        #expect(types == Set(ClientMessage.types), "documented types without an example: \(Set(ClientMessage.types).subtracting(types))")
    }

    @Test func awkwardDoublesComeBackToTheBit() throws {
        var camera = CameraUpdate()
        camera.latitude = 0.1 + 0.2
        camera.longitude = -179.99999999999997
        camera.zoom = 1e-7
        camera.bearing = 5e-324
        camera.tilt = 59.999999999999993
        let message = ClientMessage.set(camera)
        guard case .set(let back) = try roundTrip(message) else {
            Issue.record("not a set")
            return
        }
        #expect(back.latitude?.bitPattern == camera.latitude?.bitPattern)
        #expect(back.longitude?.bitPattern == camera.longitude?.bitPattern)
        #expect(back.zoom?.bitPattern == camera.zoom?.bitPattern)
        #expect(back.bearing?.bitPattern == camera.bearing?.bitPattern)
        #expect(back.tilt?.bitPattern == camera.tilt?.bitPattern)
    }

    @Test func aHelloSaysOnlyWhatDiffersFromTheHubsDefaults() throws {
        let plain = Hello(room: try RoomName(validating: "r"), role: .follower)
        #expect(ClientMessage.hello(plain).json == #"{"type":"hello","room":"r","role":"follower"}"#)
        var full = Hello(
            room: try RoomName(validating: "r"), role: .driver, name: "Ana", token: "t", rate: 20,
            viewport: Viewport(width: 390, height: 844), events: [.joined, .left])
        full.fit = .cover
        full.encoding = .binary
        #expect(
            ClientMessage.hello(full).json
                == #"{"type":"hello","room":"r","role":"driver","name":"Ana","token":"t","rate":20,"viewport":{"width":390,"height":844},"events":["joined","left"],"fit":"cover","encoding":"binary"}"#
        )
        #expect(try roundTrip(.hello(full)) == .hello(full))
    }

    @Test func integralNumbersAreWrittenAsPeopleWriteThem() {
        var camera = CameraUpdate()
        camera.zoom = 12
        camera.bearing = -90
        #expect(ClientMessage.set(camera).json == #"{"type":"set","camera":{"zoom":12,"bearing":-90}}"#)
    }

    @Test func aGestureToggleWithNothingInItStillNamesAList() throws {
        #expect(ClientMessage.gestures(GestureToggle()).json == #"{"type":"gestures","disable":[]}"#)
        #expect(try roundTrip(.gestures(GestureToggle())) == .gestures(GestureToggle()))
    }

    @Test func aHiddenPointerIsANullLatitude() throws {
        #expect(ClientMessage.pointer(nil).json == #"{"type":"pointer","lat":null}"#)
        #expect(try roundTrip(.pointer(nil)) == .pointer(nil))
    }

    @Test func limitsSayWhatChangesAndNullForWhatIsReset() throws {
        var change = CameraLimits.Change()
        change.minZoom = .set(2)
        change.maxTilt = .reset
        change.maxTiltByZoom = .set([CameraLimits.TiltStop(zoom: 4, tilt: 30), CameraLimits.TiltStop(zoom: 10, tilt: 60)])
        change.bounds = .set(GeoBounds(south: -10, west: -20, north: 10, east: 20))
        #expect(
            ClientMessage.limits(change).json
                == #"{"type":"limits","minZoom":2,"maxTilt":null,"maxTiltByZoom":[[4,30],[10,60]],"bounds":{"south":-10,"west":-20,"north":10,"east":20}}"#
        )
        #expect(try roundTrip(.limits(change)) == .limits(change))
    }

    @Test func commandsKeepEveryOptionTheyWereGiven() throws {
        var to = CameraUpdate()
        to.zoom = 14
        to.anchor = Anchor(x: 0.25, y: 0.75)
        to.padding = PaddingUpdate(top: 40, left: nil, bottom: 10.5, right: nil)
        var ease = EaseCommand(id: "e", camera: to, duration: 0.75, curve: .cubicBezier(0.1, 0.2, 0.3, 1.4), around: nil)
        ease.essential = true
        var fly = FlyCommand(id: "f", camera: to, duration: nil, speed: 2, curve: 1.1, minZoom: 3)
        fly.essential = true
        var from = CameraUpdate()
        from.zoom = 10
        let animate = AnimateCommand(id: "a", to: to, duration: 2, curve: .linear, delay: 0.5, after: "e", from: from)
        var gesture = GestureInput(kind: .pinch, phase: .change, x: 100, y: 200.5, t: 1234.25, scale: 1.5)
        gesture.seq = 42
        let messages: [ClientMessage] = [
            .ease(ease), .fly(fly), .animate(animate), .gesture(gesture), .cancel(.id("e")), .cancel(.own), .cancel(.all),
            .gestures(GestureToggle(disable: [.rotate, .tilt], enable: [.pan])),
            .track(TrackMessage(mode: .followDirection, location: TrackedLocation(latitude: 48.1, longitude: 11.5, heading: 270))),
            .query(QueryCommand(id: "q", what: .fit(GeoBounds(south: 1, west: 2, north: 3, east: 4), padding: EdgeInsets(top: 5)))),
            .query(QueryCommand(id: "p", what: .unproject([ViewPoint(x: 1, y: 2)]))),
            .route(RouteMessage(points: [GeoCoordinate(latitude: 1, longitude: 2)], append: true)),
            .ping(t: 17.5), .ping(t: nil), .summon(id: nil), .follow(.exploring), .fit(.cover), .subscribe([]),
        ]
        for message in messages {
            #expect(try roundTrip(message) == message, "\(message.json)")
        }
    }
}
