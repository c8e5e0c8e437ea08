import CameraCore
import CameraMotion
import Foundation
import Gzip
import HubCore
import SocketTestSupport
import Synchronization
import Testing

@testable import HubRecording

/// The recording files of `camhub serve --record`: format, compression, rotation.
@Suite struct RecorderTests {
    static let camera = Camera(
        latitude: 48.518813798570104, longitude: 2.3185159187478, zoom: 4.526642311129816,
        tilt: 15.354692, bearing: 0.1 + 0.2, anchor: Anchor(x: 0.5, y: 0.6))

    static func command(_ n: Int, room: String = "demo") -> RecordEntry {
        .command(
            RecordEntry.Command(
                room: room, client: "c1", role: .presenter, viewport: Viewport(width: 800, height: 600),
                message: Array(#"{"type":"set","camera":{"zoom":\#(n)}}"#.utf8),
                time: HubTime(seconds: 100 + Double(n) * 0.5, epochMilliseconds: 1_763_900_000_000 + Double(n) * 500)))
    }

    static func ended(at seconds: Double) -> RecordEntry {
        .animationEnded(
            RecordEntry.AnimationEnd(
                room: "demo", id: "a1", owner: "c1", status: .finished, camera: camera,
                time: HubTime(seconds: seconds, epochMilliseconds: 1_763_900_000_000)))
    }

    static func files(_ dir: String, room: String = "demo") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir + "/" + room).sorted().map { dir + "/" + room + "/" + $0 }
    }

    @Test func entriesReadBackWithTheirTimesSendersAndTheCameraToTheBit() async throws {
        let dir = try TempDir()
        let recorder = try Recorder(directory: dir.path) { _ in }
        recorder.append(Self.command(0))
        recorder.append(Self.command(3))
        recorder.append(Self.ended(at: 102.25))
        await recorder.finish()
        let paths = try Self.files(dir.path)
        #expect(paths.count == 1)
        #expect(paths[0].hasSuffix("-001.jsonl.gz"))
        let recording = try Recording.read(paths)
        #expect(recording.room == "demo")
        #expect(!recording.truncated)
        #expect(recording.entries.map(\.t) == [0, 1.5, 2.25], "seconds since the room's first entry")
        guard case .command(let client, let role, let viewport, let message) = recording.entries[1].kind else {
            Issue.record("not a command")
            return
        }
        #expect(client == "c1" && role == "presenter")
        #expect(viewport == Viewport(width: 800, height: 600))
        #expect(message == #"{"type":"set","camera":{"zoom":3}}"#)
        let camera = try #require(recording.finalCamera)
        guard case .object(let fields) = camera else {
            Issue.record("camera is not an object")
            return
        }
        #expect(fields["lat"] == .number(Self.camera.latitude))
        #expect(fields["lon"] == .number(Self.camera.continuousLongitude))
        #expect(fields["bearing"] == .number(0.1 + 0.2), "0.30000000000000004 survives")
    }

    @Test func aFileIsRotatedOnceItHoldsTheMaximumBytes() async throws {
        let dir = try TempDir()
        let recorder = try Recorder(directory: dir.path, maxBytes: 1024) { _ in }
        // Incompressible-ish messages: distinct numbers in every line.
        for n in 0..<400 {
            recorder.append(Self.command(n * 7919 % 100_003))
            if n % 50 == 49 { recorder.flush() }  // the hub flushes once a second
        }
        await recorder.finish()
        let paths = try Self.files(dir.path)
        try #require(paths.count >= 2, "\(paths)")
        #expect(paths[0].hasSuffix("-001.jsonl.gz"))
        #expect(paths[1].hasSuffix("-002.jsonl.gz"))
        let all = try Recording.read(paths)
        #expect(all.entries.count == 400, "every entry is in one of the parts")
        let messages = all.entries.compactMap { entry -> String? in
            if case .command(_, _, _, let message) = entry.kind { message } else { nil }
        }
        #expect(messages == (0..<400).map { #"{"type":"set","camera":{"zoom":\#($0 * 7919 % 100_003)}}"# }, "in order across the parts")
    }

    @Test func aFileCutShortReadsBackUpToItsLastFlush() async throws {
        let dir = try TempDir()
        let recorder = try Recorder(directory: dir.path) { _ in }
        recorder.append(Self.command(1))
        recorder.append(Self.command(2))
        recorder.flush()
        // Wait until the flush reached the file, then copy it as a crash would leave it (no trailer).
        let deadline = Date().addingTimeInterval(20)
        var copy: [UInt8] = []
        while Date() < deadline {
            let path = (try? Self.files(dir.path))?.first ?? dir.path + "/none"
            copy = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
            if let read = try? Gzip.decompress(copy), read.bytes.filter({ $0 == 10 }).count == 3 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        await recorder.finish()
        try Data(copy).write(to: URL(fileURLWithPath: dir.path + "/cut.jsonl.gz"))
        let recording = try Recording.read([dir.path + "/cut.jsonl.gz"])
        #expect(recording.truncated)
        #expect(recording.entries.count == 2)
    }

    @Test func somethingThatIsNotARecordingIsRefusedByFileAndLine() async throws {
        let dir = try TempDir()
        try dir.write("plain.jsonl", "{\"type\":\"recording\",\"version\":1,\"room\":\"demo\",\"started\":0,\"part\":1}\n{\"type\":\"command\",\"t\":-1}\n")
        #expect(throws: Recording.Failure.self) { try Recording.read([dir.path + "/plain.jsonl"]) }
        do { _ = try Recording.read([dir.path + "/plain.jsonl"]) } catch {
            #expect(error.description == "\(dir.path)/plain.jsonl:2: t must be seconds ≥ 0")
        }
        try dir.write("junk.gz", "\u{1F}\u{8B}not gzip at all")
        #expect(throws: Recording.Failure.self) { try Recording.read([dir.path + "/junk.gz"]) }
    }

    @Test func anUnwritableRecordFolderIsAClearErrorAtStart() async throws {
        let dir = try TempDir()
        try dir.write("file", "x")
        do {
            _ = try Recorder(directory: dir.path + "/file/sub") { _ in }
            Issue.record("a folder under a file was accepted")
        } catch let failure as Recorder.Failure {
            #expect(failure.description.hasPrefix("--record \(dir.path)/file/sub: cannot create the folder"))
        }
    }
}

/// A sink whose first `append` waits until the test lets it go: a writer
/// stuck on a stalled disk.
final class HeldSink: RecordSink, Sendable {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let taken = Mutex(0)

    var appended: Int { taken.withLock { $0 } }

    func append(_ entry: RecordEntry) {
        let first = taken.withLock {
            $0 += 1
            return $0 == 1
        }
        if first {
            entered.signal()
            release.wait()
        }
    }
    func flush() {}
    func finish() {}
}

extension RecorderTests {
    /// While the writer is stuck, `append` never waits: the hand-over keeps
    /// `queueLimit` entries, drops the rest whole and counts them, and the
    /// writer gets the kept ones once it goes on.
    @Test func aStuckWriterMakesTheRecorderDropAndCountWholeEntriesWithoutBlocking() async throws {
        let sink = HeldSink()
        let recorder = Recorder(directory: "unused", maxBytes: 1 << 20, queueLimit: 8) { sink }
        recorder.append(Self.command(0))
        sink.entered.wait()  // the writer holds entry 0 and is stuck in it
        for n in 1..<100 { recorder.append(Self.command(n)) }
        #expect(recorder.depth == 8, "8 entries wait for the writer")
        #expect(recorder.dropped == 91, "the other 91 were dropped")
        sink.release.signal()
        await recorder.finish()
        #expect(sink.appended == 9, "the writer got the entry it held and the 8 kept")
    }
}
