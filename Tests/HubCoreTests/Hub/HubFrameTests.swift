import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Hub: throttled frames and rate limiting")
struct HubFrameTests {
    static let ease = #"{"type":"ease","id":"e","camera":{"lat":48.8566,"lon":2.3522,"zoom":12,"bearing":30,"tilt":45},"duration":1}"#

    func expectEaseTarget(_ camera: JSONValue?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(camera?["lat"]?.numberValue == 48.8566, sourceLocation: sourceLocation)
        #expect(camera?["lon"]?.numberValue == 2.3522, sourceLocation: sourceLocation)
        #expect(camera?["zoom"]?.numberValue == 12, sourceLocation: sourceLocation)
        #expect(camera?["bearing"]?.numberValue == 30, sourceLocation: sourceLocation)
        #expect(camera?["tilt"]?.numberValue == 45, sourceLocation: sourceLocation)
    }

    /// A driver eases for 1 s; a follower at `rate` and a watcher at the full tick rate look on.
    func easeWatched(rate: Double) -> (bench: HubBench, follower: ConnectionKey, watcher: ConnectionKey, welcomeSeq: UInt64) {
        let bench = HubBench()  // 60 Hz
        let d = bench.join(role: "driver")
        let watcher = bench.join(role: "follower", rate: bench.tick)
        let f = bench.join(role: "follower", rate: rate)
        let welcomeSeq = UInt64(bench.welcome(f.key)?["seq"]?.numberValue ?? -1)
        bench.runTicks(1)
        bench.send(Self.ease, from: d.key)
        bench.run(seconds: 3)
        return (bench, f.key, watcher.key, welcomeSeq)
    }

    @Test(arguments: [1.0, 7, 10, 25, 30, 60])
    func clientGetsAtMostRateFramesPerSecondNeverTwoPerTick(rate: Double) {
        let (bench, f, _, _) = easeWatched(rate: rate)
        let frames = bench.frames(f)
        #expect(frames.count >= Int(rate.rounded(.down)), "frames flow while the camera moves")
        // The ease's start and end are changes of course: a slow follower also
        // gets the corner frame after each and the frame a tick before the end.
        let tick = 1 / bench.tick
        let cornerTimes = frames.filter(\.corner).map(\.at)
        let slow = rate * 2 < bench.tick
        let extra = frames.filter { frame in
            slow && (frame.corner || cornerTimes.contains { abs($0 - tick - frame.at) < 1e-6 })
        }
        #expect(extra.count <= 3, "at most one corner frame per change of course and one before the end")
        let regular = frames.filter { frame in !extra.contains { $0.seq == frame.seq } }
        for (i, frame) in regular.enumerated() {
            let window = regular[i...].prefix { $0.at < frame.at + 1 - 1e-9 }
            #expect(window.count <= Int(rate.rounded(.up)), "\(window.count) frames in the second from \(frame.at)")
        }
        #expect(Set(frames.map(\.at)).count == frames.count)
    }

    /// Two linear segments chained with `after` (a turn at `0.5 + 1.03` s), watched at `rate`.
    func chainWatched(rate: Double) -> (bench: HubBench, follower: ConnectionKey, watcher: ConnectionKey, turn: Double) {
        let bench = HubBench()  // 60 Hz
        let p = bench.join(role: "presenter")
        let watcher = bench.join(role: "follower", rate: bench.tick)
        let f = bench.join(role: "follower", rate: rate)
        bench.runTicks(1)
        let start = bench.now
        bench.send(#"{"type":"animate","id":"pan","to":{"lon":20},"duration":1.03,"curve":"linear"}"#, from: p.key)
        bench.send(#"{"type":"animate","id":"turn","to":{"bearing":90},"duration":1,"curve":"linear","after":"pan"}"#, from: p.key)
        bench.run(seconds: 3)
        return (bench, f.key, watcher.key, start + 1.03)
    }

    @Test(arguments: [1.0, 10, 25])
    func aSlowFollowerGetsAFrameOnEachSideOfAChainedHandOver(rate: Double) throws {
        let (bench, f, _, turn) = chainWatched(rate: rate)
        let frames = bench.frames(f)
        let tick = 1 / bench.tick
        let before = try #require(frames.last { $0.at < turn })
        let after = try #require(frames.first { $0.at >= turn })
        #expect(turn - before.at < tick + 1e-9, "the last frame before the hand-over is at most a tick before it")
        #expect(after.at - turn < tick + 1e-9, "the first frame after it is at most a tick after it")
        #expect(after.corner, "and is marked as the corner")
        #expect(!before.corner)
    }

    @Test func aSlowFollowersScheduleStartsAfreshFromACornerFrame() throws {
        let (bench, f, _, turn) = chainWatched(rate: 10)
        let frames = bench.frames(f)
        let corner = try #require(frames.first { $0.at >= turn })
        let next = try #require(frames.first { $0.at > corner.at })
        #expect(abs(next.at - corner.at - 0.1) < 1e-6, "the next frame comes one interval after the corner")
    }

    @Test(arguments: [30.0, 60])
    func followersAtHalfTheTickRateOrFasterGetNoFramesBesidesTheirRate(rate: Double) {
        let (bench, f, watcher, _) = chainWatched(rate: rate)
        let frames = bench.frames(f)
        let gaps = zip(frames, frames.dropFirst()).filter { $0.1.moving }.map { $1.at - $0.at }
        #expect(gaps.allSatisfy { $0 > 1 / rate - 1e-6 }, "no gap shorter than 1/rate while moving: \(gaps.min() ?? 0)")
        #expect(bench.frames(watcher).filter(\.corner).count >= 3, "the corners are marked for them too (start, hand-over, end)")
    }

    @Test func movingFramesCarryThePlannedVelocityAndTheRestingFrameNone() throws {
        let (bench, _, watcher, turn) = chainWatched(rate: 10)
        let frames = bench.frames(watcher)
        let panning = try #require(frames.first { $0.moving && $0.at < turn - 0.1 })
        let turning = try #require(frames.first { $0.moving && $0.at > turn + 0.1 })
        #expect(abs((panning.json["velocity"]?["lon"]?.numberValue ?? 0) - 20 / 1.03) < 1e-6, "20° in 1.03 s")
        #expect(panning.json["velocity"]?["bearing"]?.numberValue == 0)
        #expect(turning.json["velocity"]?["bearing"]?.numberValue == 90)
        #expect(turning.json["velocity"]?["lon"]?.numberValue == 0)
        #expect(frames.last.map { !$0.moving && $0.json["velocity"] == nil } == true)
    }

    @Test func onlyFramesAfterAChangeOfCourseAreMarkedCorner() {
        let (bench, _, watcher, _) = chainWatched(rate: 10)
        let frames = bench.frames(watcher)
        let corners = frames.filter(\.corner)
        // pan starts, pan ends and turn starts (one tick), turn ends (the resting frame).
        #expect(corners.count == 3, "corners at \(corners.map(\.at))")
        #expect(corners.last?.moving == false)
        #expect(frames.count > 100)
    }

    @Test(arguments: [1.0, 7, 10, 25, 30, 60])
    func clientGetsAFrameOnlyWhenSeqAdvanced(rate: Double) {
        let (bench, f, _, welcomeSeq) = easeWatched(rate: rate)
        let seqs = bench.frames(f).map(\.seq)
        #expect(seqs.first.map { $0 > welcomeSeq } == true)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test(arguments: [1.0, 7, 10, 25, 30, 60])
    func restingCameraReachesEveryClientExactlyWithinOneInterval(rate: Double) throws {
        let (bench, f, watcher, _) = easeWatched(rate: rate)
        // The watcher gets every tick's frame: its first `moving:false` frame is when the room came to rest.
        let rest = try #require(bench.frames(watcher).first { !$0.moving })
        let frames = bench.frames(f)
        let last = try #require(frames.last)
        #expect(!last.moving)
        #expect(last.seq == rest.seq)
        #expect(last.at - rest.at <= 1 / rate + 1e-9, "rest at \(rest.at), delivered at \(last.at)")
        #expect(frames.filter { !$0.moving }.count == 1)
        #expect(last.camera == wireCamera(bench.room()!.camera))
        expectEaseTarget(last.camera)
    }

    @Test func lastFrameIsTheExactEaseTargetWhateverTheStartTime() {
        var off: [Double] = []
        for k in 0..<40 {
            let bench = HubBench()
            let start = 0.003 + Double(k) * 0.0371
            bench.now = start  // hub clocks start near 0, where end − start is often not the duration
            let d = bench.join(role: "driver")
            let f = bench.join(role: "follower", rate: 10)
            bench.send(Self.ease, from: d.key)
            bench.run(seconds: 1.5)
            let last = bench.frames(f.key).last
            let c = last?.camera
            let exact =
                c?["lat"]?.numberValue == 48.8566 && c?["lon"]?.numberValue == 2.3522 && c?["zoom"]?.numberValue == 12
                && c?["bearing"]?.numberValue == 30 && c?["tilt"]?.numberValue == 45
            if last?.moving != false || c != wireCamera(bench.room()!.camera) || !exact { off.append(start) }
        }
        #expect(off.isEmpty, "eases started at \(off) did not end exactly on target")
    }

    @Test func stillCameraSendsNoFrames() {
        let bench = HubBench()
        let f = bench.join(role: "follower", rate: 60)
        let d = bench.join(role: "driver")
        bench.run(seconds: 1)
        #expect(bench.frames(f.key).isEmpty)
        bench.send(#"{"type":"set","camera":{"zoom":3}}"#, from: d.key)
        bench.run(seconds: 1)
        #expect(bench.frames(f.key).count == 1, "one jump, one frame")
    }

    @Test func frameIsEncodedOncePerTickAndTheSameObjectGoesToEveryFollowerDueIt() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let fast = (0..<3).map { _ in bench.join(role: "follower", rate: 60).key }
        let slow = (0..<3).map { _ in bench.join(role: "follower", rate: 20).key }
        let d2 = bench.join("other", role: "driver")
        let other = bench.join("other", role: "follower", rate: 60).key
        bench.send(Self.ease, from: d.key)
        bench.send(Self.ease, from: d2.key)
        bench.clear()
        bench.run(seconds: 1.5)

        var demo: [Double: Set<ObjectIdentifier>] = [:]
        var shared: [Double: Int] = [:]
        for key in fast + slow + [d.key] {
            for frame in bench.frames(key) {
                demo[frame.at, default: []].insert(ObjectIdentifier(frame.encoded))
                shared[frame.at, default: 0] += 1
            }
        }
        #expect(!demo.isEmpty)
        #expect(demo.values.allSatisfy { $0.count == 1 }, "one frame object per room per tick")
        #expect((shared.values.max() ?? 0) >= 4, "ticks where many members got the same object")
        let otherFrames = Set(bench.frames(other).map { ObjectIdentifier($0.encoded) })
        #expect(otherFrames.isDisjoint(with: demo.values.reduce(into: Set()) { $0.formUnion($1) }), "rooms do not share frames")
        // Encoded once: one object per seq.
        let all = (fast + slow).flatMap { bench.frames($0) }
        let bySeq = Dictionary(grouping: all, by: \.seq).mapValues { Set($0.map { ObjectIdentifier($0.encoded) }).count }
        #expect(bySeq.values.allSatisfy { $0 == 1 })
    }

    @Test func floodIsCutTo240WithOneRateLimitedErrorPerSecond() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.wait(1)  // the bucket refills after hello
        for _ in 0..<300 { bench.send(#"{"type":"ping"}"#, from: d.key) }
        #expect(bench.messages(d.key, type: "pong").count == 240)
        #expect(bench.errors(d.key).map { $0["code"]?.stringValue } == ["rate_limited"])
        #expect(bench.lastError(d.key)?["ref"]?.isNull == true)

        bench.wait(0.5)  // 120 tokens back, but the last report is only 0.5 s old
        for _ in 0..<200 { bench.send(#"{"type":"ping"}"#, from: d.key) }
        #expect(bench.messages(d.key, type: "pong").count == 360)
        #expect(bench.errors(d.key).count == 1)

        bench.wait(0.6)  // 144 more tokens, and a second has passed since the report
        for _ in 0..<200 { bench.send(#"{"type":"ping"}"#, from: d.key) }
        let pongs = bench.messages(d.key, type: "pong").count
        #expect(pongs >= 503 && pongs <= 504)
        #expect(bench.errors(d.key).count == 2)
        #expect(!bench.isClosed(d.key))
    }

    @Test func droppedCommandsDoNotMoveTheCamera() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        for _ in 0..<239 { bench.send(#"{"type":"ping"}"#, from: d.key) }  // 240 with hello
        bench.send(#"{"type":"set","camera":{"zoom":9}}"#, from: d.key)
        #expect(bench.lastError(d.key)?["code"]?.stringValue == "rate_limited")
        #expect(bench.room()?.camera.zoom == Camera.world.zoom)
    }
}

@Suite("Hub: frames leave with the transport's headroom")
struct HubFrameHeadroomTests {
    @Test func encodedFramesReserveTheConfiguredHeadroomOnce() throws {
        let bench = HubBench { $0.frameHeadroom = 24 }
        let p = bench.join(role: "presenter")
        let followers = (0..<3).map { _ in bench.join(role: "follower", rate: 60).key }
        bench.send(#"{"type":"set","camera":{"zoom":4}}"#, from: p.key)
        bench.runTicks(1)
        let frames = followers.compactMap { bench.frames($0).last }
        #expect(frames.count == 3)
        #expect(frames.allSatisfy { $0.encoded.payload.headroom == 24 })
        #expect(Set(frames.map { ObjectIdentifier($0.encoded.payload) }).count == 1, "one payload for the whole room")
    }
}
