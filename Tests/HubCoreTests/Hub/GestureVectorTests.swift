import CameraCore
import CameraMotion
import Foundation
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The shared gesture vectors (Tests/Vectors/gestures.json): scripted gestures
/// of every kind that moves the camera, with the camera the hub's engine makes
/// after each message and along the animations they start. The page's
/// prediction (clients/js/src/drive/gesture_rules.js, clients/js/src/drive/prediction.js) is checked
/// against the same file by web/tests/prediction.test.mjs, so the JavaScript
/// and Swift gesture rules cannot drift apart.
///
/// `CAMHUB_RECORD_VECTORS=1 swift test --filter GestureVectorTests` rewrites the
/// file from the scripts below; otherwise the test checks the file's cameras.
@Suite("Shared gesture vectors")
struct GestureVectorTests {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/gestures.json")
    static let viewport = Viewport(width: 800, height: 600)

    /// A scripted case: the room's camera and limits, gesture messages at hub
    /// times (seconds; each message's `t` is the same time in ms), then samples.
    struct Script {
        var name: String
        var camera: Camera
        var limits = CameraLimits()
        var steps: [(at: Double, gesture: String)]
        var samples: [Double] = []
    }

    static func gesture(_ kind: String, _ phase: String, _ x: Double, _ y: Double, _ at: Double, _ extra: String) -> String {
        let t = at * 1000
        return "{\"type\":\"gesture\",\"kind\":\"\(kind)\",\"phase\":\"\(phase)\",\"x\":\(x),\"y\":\(y),\"t\":\(t)\(extra)}"
    }

    static func drag(
        _ kind: String, from start: Double, points: [(Double, Double)], extra: (Int) -> String = { _ in "" },
        endPause: Double = 0.016
    ) -> [(at: Double, gesture: String)] {
        var steps: [(at: Double, gesture: String)] = []
        for (i, p) in points.enumerated() {
            let at: Double = start + Double(i) * 0.016
            steps.append((at, gesture(kind, i == 0 ? "begin" : "change", p.0, p.1, at, extra(i))))
        }
        let end: Double = start + Double(points.count - 1) * 0.016 + endPause
        let last = points[points.count - 1]
        steps.append((end, gesture(kind, "end", last.0, last.1, end, extra(points.count - 1))))
        return steps
    }

    static func pinchExtra(_ i: Int) -> String {
        let scales: [Double] = [1.0, 1.1, 1.25, 1.45, 1.7, 2.0, 2.4]
        let turns: [Double] = [0, 2, 5, 9, 14, 20, 27]
        return ",\"scale\":\(scales[i]),\"rotation\":\(turns[i])"
    }

    static func rotateAndTilt() -> [(at: Double, gesture: String)] {
        var steps: [(at: Double, gesture: String)] = []
        steps.append((7, gesture("rotate", "begin", 500, 350, 7, ",\"rotation\":0")))
        steps.append((7, gesture("tilt", "begin", 500, 350, 7, ",\"dy\":0")))
        for i in 1...6 {
            let at: Double = 7 + Double(i) * 0.016
            let x: Double = 500 + 12 * Double(i)
            let y: Double = 350 - 8 * Double(i)
            let rotation: Double = 9.6 * Double(i)
            let dy: Double = -8 * Double(i)
            steps.append((at, gesture("rotate", "change", x, y, at, ",\"rotation\":\(rotation)")))
            steps.append((at, gesture("tilt", "change", x, y, at, ",\"dy\":\(dy)")))
        }
        steps.append((7.2, "{\"type\":\"gesture\",\"kind\":\"rotate\",\"phase\":\"end\",\"t\":7200}"))
        steps.append((7.2, "{\"type\":\"gesture\",\"kind\":\"tilt\",\"phase\":\"end\",\"t\":7200}"))
        return steps
    }

    static var scripts: [Script] {
        let paris = Camera(latitude: 48.85, longitude: 2.35, zoom: 12)
        let tilted = Camera(latitude: 46.5, longitude: 7.5, zoom: 9, tilt: 45, bearing: 30)
        var line: [(Double, Double)] = []
        for i in 0..<8 { line.append((300 + 25 * Double(i), 400 - 10 * Double(i))) }
        let flatter: [(Double, Double)] = line.map { p in (p.0, 300 + (p.1 - 300) / 3) }
        var across: [(Double, Double)] = []
        for i in 0..<6 { across.append((400 - 60 * Double(i), 300 + 90 * Double(i))) }
        var focal: [(Double, Double)] = []
        for i in 0..<7 { focal.append((400 + 10 * Double(i), 300 - 5 * Double(i))) }
        var lift: [(Double, Double)] = []
        for i in 0..<6 { lift.append((400, 300 - 30 * Double(i))) }
        return [
            Script(
                name: "pan with momentum, north up", camera: paris, steps: drag("pan", from: 10, points: line),
                samples: [10.2, 10.4, 10.7, 11.5]),
            Script(
                name: "pan tilted and turned, stopped before release (no momentum)", camera: tilted,
                steps: drag("pan", from: 20, points: flatter, endPause: 0.2)),
            Script(
                name: "pan across the antimeridian within bounds", camera: Camera(latitude: 0, longitude: 179.9, zoom: 8),
                limits: try! CameraLimits(bounds: GeoBounds(south: -1, west: 179, north: 0.5, east: -179)),
                steps: drag("pan", from: 5, points: across, endPause: 0.2)),
            Script(
                name: "pinch zooms and turns around the moving focal point up to maxZoom", camera: paris,
                limits: try! CameraLimits(maxZoom: 12.8),
                steps: drag("pinch", from: 3, points: focal, extra: pinchExtra, endPause: 0.2)),
            Script(
                name: "right-drag rotates around the pivot and tilts to the table's limit", camera: tilted,
                limits: try! CameraLimits(maxTiltByZoom: [.init(zoom: 5, tilt: 60), .init(zoom: 12, tilt: 50)]),
                steps: rotateAndTilt()),
            Script(
                name: "two-finger tilt past maxTilt", camera: paris,
                steps: drag("tilt", from: 2, points: lift, extra: { ",\"dy\":\(-30 * Double($0))" }, endPause: 0.1)),
            Script(
                name: "double tap zooms in around the point", camera: tilted,
                steps: [(4, #"{"type":"gesture","kind":"doubleTap","x":200,"y":450,"t":4000}"#)],
                samples: [4.05, 4.1, 4.2, 4.3, 4.4]),
            Script(
                name: "two-finger tap zooms out around the point", camera: paris,
                steps: [(4, #"{"type":"gesture","kind":"twoFingerTap","x":650,"y":120,"t":4000}"#)],
                samples: [4.1, 4.2, 4.35]),
            Script(
                name: "scrolls add up around the pointer", camera: paris,
                steps: [
                    (6, #"{"type":"gesture","kind":"scroll","x":600,"y":200,"t":6000,"delta":-120}"#),
                    (6.05, #"{"type":"gesture","kind":"scroll","x":600,"y":200,"t":6050,"delta":-120}"#),
                    (6.1, #"{"type":"gesture","kind":"scroll","x":600,"y":200,"t":6100,"delta":-500}"#),
                ],
                samples: [6.15, 6.2, 6.25, 6.4]),
        ]
    }

    /// Runs a script through the hub's engine: the camera after each step and at each sample.
    static func run(camera: Camera, limits: CameraLimits, steps: [(at: Double, gesture: String)], samples: [Double])
        throws -> (steps: [Camera], samples: [Camera])
    {
        var manager = AnimatorManager(camera: camera, limits: limits)
        var engine = GestureEngine()
        let client = GestureClient(owner: Owner(client: "d1", rank: .driver), viewport: viewport)
        var after: [Camera] = []
        for step in steps {
            guard case .gesture(let input) = try ClientMessage.decode(step.gesture) else { throw VectorError.notAGesture(step.gesture) }
            if case .failure(let error) = engine.handle(input, client: client, manager: &manager, at: step.at) {
                throw VectorError.refused(step.gesture, error.message)
            }
            after.append(manager.camera)
        }
        var sampled: [Camera] = []
        for t in samples {
            manager.advance(to: t)
            sampled.append(manager.camera)
        }
        return (after, sampled)
    }

    enum VectorError: Error {
        case notAGesture(String)
        case refused(String, String)
        case badFile(String)
    }

    static func cameraText(_ c: Camera) -> String {
        var w = JSONWriter(capacity: 128)
        w.camera(c)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The room's limits as `welcome.limits` carries them (maxTiltByZoom as [zoom, tilt] pairs).
    static func limitsText(_ l: CameraLimits) -> String {
        var w = JSONWriter(capacity: 256)
        w.limits(l)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func record() throws {
        var text = """
            {"description":"Gestures through the hub's engine (Sources/CameraMotion/Gestures), written by Tests/HubCoreTests/Hub/GestureVectorTests.swift with CAMHUB_RECORD_VECTORS=1. Each step is one gesture message at hub time `at` (s; its t is the same time in ms) and the room's camera after it; samples are the camera at later times (animations the gestures started). Checked by the Swift tests and by web/tests/prediction.test.mjs.",
            "viewport":{"width":\(viewport.width),"height":\(viewport.height)},
            "cases":[
            """
        for (i, s) in scripts.enumerated() {
            let out = try run(camera: s.camera, limits: s.limits, steps: s.steps, samples: s.samples)
            text += i > 0 ? ",\n" : ""
            text += "{\"name\":\(JSONWriter.quoted(s.name)),\"camera\":\(cameraText(s.camera)),\"limits\":\(limitsText(s.limits)),\n \"steps\":["
            text += zip(s.steps, out.steps).map { step, camera in
                "\n  {\"at\":\(step.at),\"gesture\":\(step.gesture),\"camera\":\(cameraText(camera))}"
            }.joined(separator: ",")
            text += "],\n \"samples\":["
            text += zip(s.samples, out.samples).map { at, camera in "\n  {\"at\":\(at),\"camera\":\(cameraText(camera))}" }.joined(separator: ",")
            text += "]}"
        }
        text += "\n]}\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static func number(_ v: JSONValue?, _ what: String) throws -> Double {
        guard let n = v?.numberValue else { throw VectorError.badFile("\(what): not a number") }
        return n
    }

    static func camera(_ v: JSONValue?) throws -> Camera {
        Camera(
            latitude: try number(v?["lat"], "lat"), longitude: try number(v?["lon"], "lon"), zoom: try number(v?["zoom"], "zoom"),
            tilt: try number(v?["tilt"], "tilt"), bearing: try number(v?["bearing"], "bearing"))
    }

    static func limits(_ v: JSONValue?) throws -> CameraLimits {
        let table = try (v?["maxTiltByZoom"]?.arrayValue ?? []).map { CameraLimits.TiltStop(zoom: try number($0[0], "zoom"), tilt: try number($0[1], "tilt")) }
        var bounds: GeoBounds?
        if let b = v?["bounds"], !b.isNull {
            bounds = GeoBounds(
                south: try number(b["south"], "south"), west: try number(b["west"], "west"),
                north: try number(b["north"], "north"), east: try number(b["east"], "east"))
        }
        return try CameraLimits(
            minZoom: try number(v?["minZoom"], "minZoom"), maxZoom: try number(v?["maxZoom"], "maxZoom"),
            minTilt: try number(v?["minTilt"], "minTilt"), maxTilt: try number(v?["maxTilt"], "maxTilt"),
            maxTiltByZoom: table, bounds: bounds)
    }

    static func close(_ a: Camera, _ b: Camera) -> Bool {
        abs(a.latitude - b.latitude) < 1e-9 && abs(shortestTurn(from: a.continuousLongitude, to: b.continuousLongitude)) < 1e-9
            && abs(a.zoom - b.zoom) < 1e-9 && abs(shortestTurn(from: a.bearing, to: b.bearing)) < 1e-9 && abs(a.tilt - b.tilt) < 1e-9
    }

    static func text(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): "\(n)"
        case .string(let s): JSONWriter.quoted(s)
        case .array(let a): "[" + a.map(text).joined(separator: ",") + "]"
        case .object(let o): "{" + o.sorted { $0.key < $1.key }.map { JSONWriter.quoted($0.key) + ":" + text($0.value) }.joined(separator: ",") + "}"
        }
    }

    @Test func theEngineMakesEveryCameraOfTheSharedGestureVectors() throws {
        if ProcessInfo.processInfo.environment["CAMHUB_RECORD_VECTORS"] == "1" { try Self.record() }
        let file = try JSONParser.parse(try String(contentsOf: Self.url, encoding: .utf8))
        let cases = try #require(file["cases"]?.arrayValue)
        #expect(cases.count == Self.scripts.count, "the file has every scripted case (rerun with CAMHUB_RECORD_VECTORS=1)")
        var kinds: Set<String> = []
        for c in cases {
            let name = c["name"]?.stringValue ?? "?"
            let steps = try #require(c["steps"]?.arrayValue)
            let samples = c["samples"]?.arrayValue ?? []
            let input = try steps.map { (at: try Self.number($0["at"], "at"), gesture: Self.text($0["gesture"] ?? .null)) }
            for s in steps { if let k = s["gesture"]?["kind"]?.stringValue { kinds.insert(k) } }
            let out = try Self.run(
                camera: try Self.camera(c["camera"]), limits: try Self.limits(c["limits"]), steps: input,
                samples: try samples.map { try Self.number($0["at"], "at") })
            for (i, camera) in out.steps.enumerated() {
                let expected = try Self.camera(steps[i]["camera"])
                #expect(Self.close(camera, expected), "\(name), step \(i): \(camera) vs \(expected)")
            }
            for (i, camera) in out.samples.enumerated() {
                let expected = try Self.camera(samples[i]["camera"])
                #expect(Self.close(camera, expected), "\(name), sample \(i): \(camera) vs \(expected)")
            }
        }
        #expect(kinds == ["pan", "pinch", "rotate", "tilt", "doubleTap", "twoFingerTap", "scroll"], "every kind that moves the camera")
    }
}
