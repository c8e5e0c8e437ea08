import CamHubProtocol
import CameraCore
import FuzzSupport
import HubCore

/// Fuzzes the whole hub logic (decoder, roles, animator manager, gestures,
/// limits, queries, throttle) with message sequences: a presenter, a driver
/// and a follower join room "f"; each input line is then one message from one
/// of them, with time moving on between lines. Whatever they send, the hub
/// must not crash or trap, everything it sends must be valid JSON (so no nan,
/// no inf), and the room's camera must stay a valid camera. Built with
/// `-sanitize=fuzzer,address` by scripts/fuzz_hub.sh (the target exists only
/// when CAMHUB_FUZZ is set, see Package.swift).

/// Checks what the hub sends; keeps nothing.
struct CheckingSink: HubSink {
    func send(_ bytes: [UInt8], to connection: ConnectionKey) { check(bytes) }
    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) { check(frame.bytes) }
    func close(_ connection: ConnectionKey, code: UInt16, reason: String) {}

    private func check(_ bytes: [UInt8]) {
        // Everything sent must be a JSON object that the strict parser accepts
        // (JSON has no nan or inf literals).
        do {
            guard case .object = try JSONParser.parse(bytes) else {
                return require(false, "not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
            }
        } catch {
            require(false, "invalid JSON sent (\(error)): \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

func checkCameras(_ hub: Hub) {
    for room in hub.roomSummaries {
        let c = room.camera
        require(c.latitude.isFinite && abs(c.latitude) <= 85.051129, "latitude \(c.latitude)")
        require(c.longitude >= -180 && c.longitude < 180, "longitude \(c.longitude)")
        require(c.zoom >= 0 && c.zoom <= 22 + 1e-9, "zoom \(c.zoom)")
        require(c.bearing >= 0 && c.bearing < 360, "bearing \(c.bearing)")
        require(c.tilt >= 0 && c.tilt <= 85 + 1e-9, "tilt \(c.tilt)")
    }
}

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var hub = Hub()
    let sink = CheckingSink()
    var t = 1000.0
    func now() -> HubTime { HubTime(seconds: t, epochMilliseconds: t * 1000) }
    for (key, role) in [(UInt64(1), "presenter"), (2, "driver"), (3, "follower")] {
        hub.open(key, at: now())
        hub.receive(Array(#"{"type":"hello","room":"f","role":"\#(role)","name":"p\#(key)"}"#.utf8), from: key, at: now(), sink: sink)
    }
    // Each line: one byte picks the sender (3 clients) and how far time moves (0…0.75 s), then the message.
    for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
        let head = line.first!
        t += Double((head / 3) % 16) * 0.05
        hub.tick(at: now(), sink: sink)
        checkCameras(hub)
        hub.receive(Array(line.dropFirst()), from: UInt64(head % 3) + 1, at: now(), sink: sink)
        checkCameras(hub)
    }
    // Let whatever was started run out (flights, momentum, chains), then everyone leaves.
    for _ in 0..<120 {
        t += 0.25
        hub.tick(at: now(), sink: sink)
        checkCameras(hub)
    }
    for key in UInt64(1)...3 { hub.closed(key, at: now(), sink: sink) }
    hub.tick(at: now(), sink: sink)
    return 0
}

/// libFuzzer's own `main` calls this where the build renamed ours (SwiftPM's debug
/// builds do, so that tests could link the executable); otherwise `runFuzzer` below runs.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzOne(data, size) }

runFuzzer(fuzzOne)
