import CamHubProtocol
import CameraCore
import Foundation
import HubCore
import Testing

@testable import CamHubBench
@testable import CamHubClient

/// The script's error, or a test failure when it parsed.
private func rejection(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ScriptError? {
    do {
        _ = try PresenterScript.parse(text)
        Issue.record("script was accepted: \(text)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Asserts the step number, the field and a fragment of the message, and that the
/// printed form names them the same way.
private func expectRejected(
    _ text: String, step: Int?, field: String?, _ fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let e = rejection(text, sourceLocation: sourceLocation) else { return }
    #expect(e.step == step, "step: \(e)", sourceLocation: sourceLocation)
    #expect(e.field == field, "field: \(e)", sourceLocation: sourceLocation)
    #expect(e.message.contains(fragment), "message: \(e)", sourceLocation: sourceLocation)
    if let step { #expect(e.description.hasPrefix("step \(step)"), "\(e)", sourceLocation: sourceLocation) }
    if let field { #expect(e.description.contains("\(field): "), "\(e)", sourceLocation: sourceLocation) }
}

private let fly = #"{"type":"fly","id":"f1","camera":{"lat":48.8566,"lon":2.3522,"zoom":11}}"#

@Suite struct ScriptParsingTests {
    @Test func examplesValidate() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 3)
        for file in files {
            let script = try PresenterScript.parse(String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8))
            #expect(script.steps.count > 5, "\(file)")
            #expect(script.name != nil, "\(file)")
        }
    }

    @Test func commandStepsAreTheProtocolMessages() throws {
        let script = try PresenterScript.parse(
            """
            [\(fly),
             {"type":"waitFor","id":"f1"},
             {"type":"ease","camera":{"zoom":3},"duration":2,"curve":[0.25,0.1,0.25,1],"label":"out"},
             {"type":"animate","id":"a","to":{"bearing":90},"duration":1,"after":"step3"},
             {"type":"wait","seconds":0.5},
             {"type":"set","camera":{"tilt":10}},
             {"type":"cancel","id":"a"},
             {"type":"gesture","kind":"doubleTap","x":10,"y":20}]
            """)
        #expect(script.steps.map(\.type) == ["fly", "waitFor", "ease", "animate", "wait", "set", "cancel", "gesture"])
        #expect(script.steps.map(\.number) == Array(1...8))
        for step in script.steps {
            guard case .command(let text, let message, _) = step.action else { continue }
            // What is sent decodes, with HubCore's decoder, to the validated message.
            #expect(try ClientMessage.decode(text) == message)
            #expect(!text.contains("label"))
        }
        guard case .command(_, .fly(let f), "f1") = script.steps[0].action else {
            Issue.record("fly")
            return
        }
        #expect(f.camera.latitude == 48.8566 && f.camera.longitude == 2.3522 && f.camera.zoom == 11)
        // An ease without id gets one, so its completion can be tracked and chained.
        guard case .command(let text, .ease(let e), "step3") = script.steps[2].action else {
            Issue.record("ease")
            return
        }
        #expect(e.id == "step3" && e.duration == 2 && text.contains(#""id":"step3""#))
        #expect(script.steps[2].label == "out")
        #expect(script.steps[1].action == .waitFor(id: "f1", timeout: 120))
        #expect(script.steps[4].action == .wait(0.5))
        #expect(script.plannedSeconds == 0.5)
    }

    @Test func routeAndRouteTrackingSteps() throws {
        let script = try PresenterScript.parse(
            """
            [{"type":"route","points":[{"lat":52.52,"lon":13.40},{"lat":52.52,"lon":13.41}]},
             {"type":"route","points":[{"lat":52.53,"lon":13.41}],"append":true},
             {"type":"track","mode":"followRouteDirection","location":{"lat":52.52,"lon":13.405}},
             {"type":"set","camera":{"padding":{"left":300}}}]
            """)
        #expect(
            script.steps.map(\.summary) == [
                "route 2 points", "route + 1 point", "track followRouteDirection at 52.52,13.405",
                "set padding left 300",
            ])
        for step in script.steps {
            guard case .command(let text, let message, _) = step.action else { continue }
            #expect(try ClientMessage.decode(text) == message)
        }
        #expect(throws: ScriptError.self) { try PresenterScript.parse(#"[{"type":"route","points":[{"lat":1,"lon":2}]}]"#) }
    }

    @Test func followModeStepsSummonLockAndPoint() throws {
        let script = try PresenterScript.parse(
            """
            [{"type":"pointer","lat":48.8584,"lon":2.2945}, {"type":"pointer","lat":null},
             {"type":"followPolicy","explore":false}, {"type":"summon"},
             {"type":"ease","camera":{"zoom":3},"essential":true}]
            """)
        #expect(
            script.steps.map(\.summary) == [
                "pointer at 48.8584,2.2945", "pointer hidden", "followPolicy lock", "summon", "ease step5 → zoom 3 in 1.5 s",
            ])
        for step in script.steps {
            guard case .command(let text, let message, _) = step.action else { continue }
            #expect(try ClientMessage.decode(text) == message)
        }
        expectRejected(#"[{"type":"pointer","lat":91,"lon":0}]"#, step: 1, field: "lat", "-90…90")
        expectRejected(#"[{"type":"followPolicy"}]"#, step: 1, field: "explore", "missing")
    }

    @Test func assignedIdsNeverCollideWithNamedOnes() throws {
        let script = try PresenterScript.parse(
            """
            [{"type":"ease","camera":{"zoom":3}}, {"type":"ease","id":"step1","camera":{"zoom":4}}, {"type":"waitFor","id":"step1_"}]
            """)
        guard case .command(_, _, let id) = script.steps[0].action else {
            Issue.record()
            return
        }
        #expect(id == "step1_")
    }

    @Test func scriptObjectForm() throws {
        let script = try PresenterScript.parse(#"{"name":"t","steps":[{"type":"wait","seconds":1}]}"#)
        #expect(script.name == "t" && script.steps.count == 1)
        expectRejected(#"{"name":"t","stepz":[]}"#, step: nil, field: "stepz", "unknown field in the script object")
        expectRejected(#"{"name":"t"}"#, step: nil, field: "steps", "missing")
        expectRejected(#"{"steps":{}}"#, step: nil, field: "steps", "must be an array")
    }

    @Test func wholeScriptRejections() {
        expectRejected(
            "[\n  {\"type\": \"wait\", \"seconds\": 1},\n  {\"type\": \"wait\" \"seconds\": 1}\n]", step: nil, field: nil,
            "invalid JSON at line 3, column 19")
        expectRejected("[]", step: nil, field: "steps", "no steps")
        expectRejected(#""fly""#, step: nil, field: nil, "must be a JSON array of steps")
        expectRejected(#"[{"type":"wait","seconds":1},{"type":"wait","seconds":1,"seconds":2}]"#, step: nil, field: nil, "duplicate key 'seconds'")
    }

    @Test func unknownAndMissingStepTypes() {
        expectRejected(#"[{"type":"wait","seconds":1},{"type":"jump","camera":{"zoom":1}}]"#, step: 2, field: "type", "unknown step 'jump'")
        expectRejected(#"[{"type":"wait","seconds":1},{"camera":{"zoom":1}}]"#, step: 2, field: "type", "missing")
        expectRejected(#"[{"type":3}]"#, step: 1, field: "type", "must be a string (got a number)")
        expectRejected(#"[{"type":"hello","room":"x","role":"presenter"}]"#, step: 1, field: "type", "not a script step")
        expectRejected(#"[{"type":"wait","seconds":1},"fly"]"#, step: 2, field: nil, "must be an object (got a string)")
    }

    @Test func badFields() {
        // Top-level typos the hub would ignore are errors in a script.
        expectRejected(#"[{"type":"ease","camera":{"zoom":3},"duraton":2}]"#, step: 1, field: "duraton", "unknown field in a ease step")
        expectRejected(#"[{"type":"fly","camera":{"lat":1,"lng":2}}]"#, step: 1, field: "camera.lng", "unknown field in camera")
        expectRejected(#"[{"type":"wait","seconds":1,"for":2}]"#, step: 1, field: "for", "unknown field in a wait step")
        expectRejected(#"[{"type":"ease","camera":{"zoom":3},"curve":"bouncy"}]"#, step: 1, field: "curve", "unknown curve 'bouncy'")
        expectRejected(#"[{"type":"ease","camera":{"zoom":3},"label":7}]"#, step: 1, field: "label", "must be a string")
        expectRejected(
            #"[{"type":"ease","camera":{"zoom":3},"around":{"x":1,"y":2}},{"type":"ease","camera":{"lat":3},"around":{"x":1,"y":2}}]"#,
            step: 2, field: "around", "cannot be combined")
    }

    @Test func badNumbers() {
        expectRejected(#"[{"type":"set","camera":{"zoom":"3"}}]"#, step: 1, field: "camera.zoom", "must be a finite number (got a string)")
        expectRejected(#"[{"type":"set","camera":{"zoom":1e999}}]"#, step: 1, field: "camera.zoom", "must be a finite number (got inf)")
        expectRejected(#"[{"type":"set","camera":{"lat":91}}]"#, step: 1, field: "camera.lat", "must be within -90…90 degrees")
        expectRejected(#"[{"type":"ease","camera":{"zoom":3},"duration":61}]"#, step: 1, field: "duration", "must be within 0…60")
        expectRejected(#"[{"type":"fly","camera":{"zoom":3},"speed":0}]"#, step: 1, field: "speed", "greater than 0")
        expectRejected(#"[{"type":"animate","to":{"zoom":3},"duration":1,"curve":[0.1,0,1.5,1]}]"#, step: 1, field: "curve[2]", "x2 must be within 0…1")
        expectRejected(
            #"[{"type":"animate","from":{"tilt":"5"},"to":{"tilt":3},"duration":1}]"#, step: 1, field: "from.tilt", "must be a finite number (got a string)")
        expectRejected(#"[{"type":"animate","from":{"tilt":5},"to":{"zoom":3},"duration":1}]"#, step: 1, field: "from.tilt", "is not animated")
        expectRejected(#"[{"type":"wait","seconds":-1}]"#, step: 1, field: "seconds", "must be within 0…3600")
        expectRejected(#"[{"type":"wait","seconds":"2"}]"#, step: 1, field: "seconds", "must be a finite number (got a string)")
        expectRejected(#"[{"type":"wait","seconds":true}]"#, step: 1, field: "seconds", "must be a finite number (got a boolean)")
        expectRejected("[\(fly),{\"type\":\"waitFor\",\"id\":\"f1\",\"timeout\":0}]", step: 2, field: "timeout", "greater than 0")
    }

    @Test func missingFields() {
        expectRejected(#"[{"type":"animate","to":{"zoom":3}}]"#, step: 1, field: "duration", "missing")
        expectRejected(#"[{"type":"fly","id":"x"}]"#, step: 1, field: "camera", "missing")
        expectRejected(#"[{"type":"set","camera":{}}]"#, step: 1, field: "camera", "must name at least one of")
        expectRejected(#"[{"type":"wait"}]"#, step: 1, field: "seconds", "missing")
        expectRejected("[\(fly),{\"type\":\"waitFor\"}]", step: 2, field: "id", "missing")
        expectRejected(#"[{"type":"gesture","kind":"pan","phase":"begin","x":3}]"#, step: 1, field: "y", "missing")
        expectRejected(#"[{"type":"gesture","kind":"pinch","phase":"change","x":3,"y":4}]"#, step: 1, field: "scale", "missing")
    }

    @Test func unknownAnimationIds() {
        expectRejected("[\(fly),{\"type\":\"waitFor\",\"id\":\"f2\"}]", step: 2, field: "id", "unknown animation id 'f2'")
        // A waitFor must come after the step that starts the animation.
        expectRejected("[{\"type\":\"waitFor\",\"id\":\"f1\"},\(fly)]", step: 1, field: "id", "unknown animation id 'f1'")
        expectRejected(
            "[\(fly),{\"type\":\"animate\",\"to\":{\"zoom\":1},\"duration\":1,\"after\":\"nope\"}]", step: 2, field: "after",
            "unknown animation id 'nope'")
        expectRejected("[\(fly),{\"type\":\"cancel\",\"id\":\"f9\"}]", step: 2, field: "id", "known: f1")
        expectRejected(#"[{"type":"animate","id":"a","to":{"zoom":1},"duration":1,"after":"a"}]"#, step: 1, field: "after", "cannot wait for itself")
    }

    @Test func gestureStrokes() throws {
        let script = try PresenterScript.parse(
            """
            [{"type":"gesture","kind":"pan","from":{"x":100,"y":200},"to":{"x":400,"y":200},"duration":0.5},
             {"type":"gesture","kind":"pinch","x":640,"y":360,"scale":4,"rotation":30,"duration":0.1,"rate":20},
             {"type":"gesture","kind":"pan","from":{"x":0,"y":0},"to":{"x":10,"y":0},"duration":0.1,"momentum":true}]
            """)
        guard case .stroke(let pan) = script.steps[0].action, case .stroke(let pinch) = script.steps[1].action,
            case .stroke(let fling) = script.steps[2].action
        else {
            Issue.record("not strokes")
            return
        }
        // begin, 30 changes at 60 Hz, end; the end waits 0.1 s so the pan does not fling.
        #expect(pan.messages.count == 32)
        #expect(pan.messages.first?.text == #"{"type":"gesture","kind":"pan","phase":"begin","x":100,"y":200}"#)
        #expect(pan.messages[pan.messages.count - 2].text == #"{"type":"gesture","kind":"pan","phase":"change","x":400,"y":200}"#)
        #expect(pan.messages.last?.text == #"{"type":"gesture","kind":"pan","phase":"end"}"#)
        #expect(abs(pan.messages.last!.offset - 0.6) < 1e-9)
        #expect(fling.messages.last!.offset == 0.1)
        #expect(pinch.messages.count == 4)
        let last = try JSONParser.parse(pinch.messages[2].text)
        #expect(last["scale"] == .number(4) && last["rotation"] == .number(30))
        for m in pan.messages + pinch.messages { #expect(throws: Never.self) { try ClientMessage.decode(m.text) } }

        expectRejected(#"[{"type":"gesture","kind":"doubleTap","x":1,"y":1,"duration":1}]"#, step: 1, field: "duration", "instantaneous")
        expectRejected(#"[{"type":"gesture","kind":"pan","from":{"x":1,"y":1},"duration":1}]"#, step: 1, field: "to", "missing")
        expectRejected(#"[{"type":"gesture","kind":"pan","from":{"x":1},"to":{"x":1,"y":1},"duration":1}]"#, step: 1, field: "from.y", "missing")
        expectRejected(#"[{"type":"gesture","kind":"pinch","x":1,"y":1,"scale":0,"duration":1}]"#, step: 1, field: "scale", "greater than 0")
        expectRejected(#"[{"type":"gesture","kind":"swipe","duration":1}]"#, step: 1, field: "kind", "unknown gesture kind 'swipe'")
        expectRejected(#"[{"type":"gesture","kind":"tilt","dy":5,"duration":0}]"#, step: 1, field: "duration", "greater than 0")
        expectRejected(#"[{"type":"gesture","kind":"tilt","dy":5,"scale":2,"duration":1}]"#, step: 1, field: "scale", "not used by a tilt stroke")
        expectRejected(#"[{"type":"gesture","kind":"rotate","rotation":5,"duration":1,"momentum":true}]"#, step: 1, field: "momentum", "only a pan")
        expectRejected(#"[{"type":"gesture","kind":"rotate","duration":1}]"#, step: 1, field: "rotation", "missing")
    }
}

@Suite struct WireTests {
    @Test func urls() throws {
        let u = try HubURL(parsing: "ws://127.0.0.1:8080/hub")
        #expect(u.host == "127.0.0.1" && u.port == 8080 && u.path == "/hub" && u.isLoopback)
        #expect(try HubURL(parsing: "ws://localhost:9").isLoopback)
        #expect(try HubURL(parsing: "ws://localhost:9").path == "/hub")
        #expect(try HubURL(parsing: "ws://[::1]:81/x").host == "::1")
        #expect(try HubURL(parsing: "ws://[::1]:81/x").isLoopback)
        #expect(try HubURL(parsing: "ws://127.9.9.9:1/hub").isLoopback)
        #expect(try !HubURL(parsing: "ws://10.0.0.5:8080/hub").isLoopback)
        #expect(try !HubURL(parsing: "ws://127.example.org:8080/hub").isLoopback)
        let secure = try HubURL(parsing: "wss://hub.example.org/hub")
        #expect(secure.secure && secure.port == 443 && secure.description == "wss://hub.example.org:443/hub")
        #expect(secure.connectRequest().useTLS && secure.connectRequest().serverName == "hub.example.org")
        #expect(try HubURL(parsing: "wss://localhost:8443").connectRequest().host == "127.0.0.1", "dials the address, checks the name")
        #expect(try !HubURL(parsing: "ws://x/hub").connectRequest().useTLS)
        #expect(throws: ClientError.self) { try HubURL(parsing: "ws://x:99999/hub") }
        #expect(throws: ClientError.self) { try HubURL(parsing: "http://x/hub") }
    }

    @Test func aURLNamesTheRoomItsHelloJoinsUnlessItNamesOneAlready() throws {
        #expect(try HubURL(parsing: "ws://h:1/hub").naming(room: "demo").path == "/hub?room=demo")
        #expect(try HubURL(parsing: "ws://h:1/hub?lag=100").naming(room: "demo").path == "/hub?lag=100&room=demo")
        #expect(try HubURL(parsing: "ws://h:1/hub?room=other").naming(room: "demo").path == "/hub?room=other")
    }

    @Test func frameScanReadsTheHubsBytes() {
        let bytes = HubMessage.frame(seq: 123456, time: 1718000000123.456, camera: .world, moving: true, by: "c1")
        let scanned = bytes.withUnsafeBufferPointer { FrameScan.scan($0) }
        #expect(scanned?.seq == 123456)
        #expect(abs((scanned?.time ?? 0) - 1718000000123.456) < 1e-3)
        let whole = HubMessage.frame(seq: 1, time: 1_718_000_000_123, camera: .world, moving: false, by: nil)
        #expect(whole.withUnsafeBufferPointer { FrameScan.scan($0) }?.time == 1_718_000_000_123)
        let other = Array(#"{"type":"event","event":"steady"}"#.utf8)
        #expect(other.withUnsafeBufferPointer { FrameScan.scan($0) } == nil)
    }

    @Test func incomingFrameIsExact() throws {
        let camera = CameraCore.Camera(latitude: 48.856614, longitude: 2.3522219, zoom: 12.000000000000002, tilt: 45.5, bearing: 30.1)
        let text = String(decoding: HubMessage.frame(seq: 9, time: 5.5, camera: camera, moving: false, by: nil), as: UTF8.self)
        guard case .frame(let f) = HubToClient.reading(text: text) else {
            Issue.record("not a frame")
            return
        }
        #expect(f.camera == camera)
        #expect(f.seq == 9 && f.time == 5.5 && !f.moving && f.by == nil)
    }

    @Test func windowCountsRateTimesDurationWhateverThePhase() {
        let w = MeasureWindow(start: 1000, length: 3000, period: 1000.0 / 30)
        #expect(w.expectedPerFollower == 90)
        for phase in stride(from: 0.0, to: 33.3, by: 2.7) {
            // Tolerated: the first and last frame may be off by up to half a period in all.
            for jitter in [0.0, 3.0, -3.0, 8.0] {
                var c = WindowCounter()
                var t = 900 + phase
                var k = 0
                while t < 5000 {
                    let j = k % 2 == 0 ? jitter : -jitter
                    _ = c.admit(t + j, w)
                    t += w.period
                    k += 1
                }
                #expect(c.count == 90, "phase \(phase) jitter \(jitter)")
            }
        }
        // A follower whose frames stop half way gets half.
        var c = WindowCounter()
        for k in 0..<45 { _ = c.admit(1000 + Double(k) * w.period, w) }
        #expect(c.count == 45)
        // A first frame that comes late costs the frames it missed.
        var late = WindowCounter()
        for k in 0..<200 { _ = late.admit(1500 + Double(k) * w.period, w) }
        #expect(late.count == 75)
    }

    @Test func everyAdmittedFrameFallsInASecondOfTheWindowEvenWhenTheWindowOpensLate() {
        let w = MeasureWindow(start: 1000, length: 3000, period: 1000.0 / 30)
        // First frame 1.4 periods after `start`: the connection's window ends 1.4 periods
        // after `start + length`, and its last frame belongs to second 2, not to a 4th second.
        var c = WindowCounter()
        var perSecond = [0, 0, 0]
        var t = 1000 + 1.4 * w.period
        while t < 5000 {
            if c.admit(t, w) { perSecond[c.second(of: t, w, seconds: 3)] += 1 }
            t += w.period
        }
        #expect(c.count == 90)
        #expect(perSecond == [30, 30, 30])
    }

    @Test func latencyHistogramPercentiles() {
        var h = LatencyHistogram()
        for i in 1...1000 { h.record(milliseconds: Double(i) / 10) }
        h.record(milliseconds: -1)
        let s = h.summary
        #expect(s.count == 1001 && s.negative == 1)
        #expect(abs(s.p50 - 50) < 0.1 && abs(s.p99 - 99) < 0.2 && abs(s.max - 100) < 0.1)
        #expect(s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.p999 && s.p999 <= s.max)
    }

    @Test func clockOffsetKeepsTheTightestRoundTrip() {
        var o = ClockOffset()
        o.add(sent: 1000, hubTime: 6010, received: 1030)  // rtt 30: offset 4995
        o.add(sent: 2000, hubTime: 7001, received: 2002)  // rtt 2: offset 5000
        o.add(sent: 3000, hubTime: 8100, received: 3100)
        #expect(o.offset == 5000 && o.bestRoundTrip == 2 && o.samples == 3)
    }

    @Test func spinSegmentsAreValidChainedAnimations() throws {
        for k in 1...8 {
            guard case .animate(let a) = try ClientMessage.decode(Spin.segment(k)) else {
                Issue.record("not animate")
                return
            }
            #expect(a.id == "spin-\(k)")
            #expect(a.after == (k > 1 ? "spin-\(k - 1)" : nil))
            #expect(a.curve == .linear && a.duration == Spin.segmentSeconds)
        }
    }

    @Test func helloText() throws {
        let text = try HelloOptions(room: "r", role: "follower", name: "n", rate: 30).text()
        guard case .hello(let h) = try ClientMessage.decode(text, tick: 60) else {
            Issue.record()
            return
        }
        #expect(h.room.value == "r" && h.role == .follower && h.rate == 30 && h.name == "n")
    }
}
