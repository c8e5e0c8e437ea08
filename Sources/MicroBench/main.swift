// camhub-microbench: costs of the pure core's hot operations.
// Run: swift run -c release camhub-microbench   (or: make bench-core)
// A benchmark, not a test: figures depend on the machine; compare ratios.
import CamHubProtocol
import CameraCore
import CameraMotion
import Foundation
import HubCore

/// Keeps the optimizer from deleting the measured work.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Runs `body` (which does `batch` operations) until ~`seconds` have passed, repeated
/// `rounds` times; reports the best round in ns per operation (least disturbed by noise).
func measure(_ name: String, batch: Int, seconds: Double = 0.3, rounds: Int = 5, _ body: () -> Void) -> Double {
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        var operations = 0
        let start = clock.now
        var elapsed = 0.0
        while elapsed < seconds {
            body()
            operations += batch
            let d = clock.now - start
            elapsed = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        best = min(best, elapsed * 1e9 / Double(operations))
    }
    print(name.padding(toLength: 64, withPad: " ", startingAt: 0) + String(format: "%10.1f ns/op", best))
    return best
}

let viewport = Viewport(width: 1280, height: 720)
let camera = Camera(latitude: 48.85, longitude: 2.35, zoom: 12.5, tilt: 45, bearing: 30, anchor: Anchor(x: 0.5, y: 0.6))
let transform = ViewTransform(camera: camera, viewport: viewport)
let points = (0..<1000).map { i in GeoCoordinate(latitude: 48.85 + Double(i % 40) * 0.001, longitude: 2.35 + Double(i / 40) * 0.001) }
let limits = try! CameraLimits(
    minZoom: 2, maxZoom: 20, maxTilt: 70,
    maxTiltByZoom: [.init(zoom: 4, tilt: 20), .init(zoom: 10, tilt: 50), .init(zoom: 16, tilt: 70)],
    bounds: GeoBounds(south: 30, west: -20, north: 70, east: 40))

print("camhub-microbench on \(ProcessInfo.processInfo.activeProcessorCount) cores; best of 5 rounds")
let sinCost = measure("baseline: Foundation sin()", batch: 1000) {
    var s = 0.0
    for p in points { s += sin(p.latitude) }
    blackHole(s)
}
let geoToView = measure("ViewTransform.geoToView (tilt 45, bearing 30)", batch: 1000) {
    for p in points { blackHole(transform.geoToView(p)) }
}
_ = measure("ViewTransform.viewToGeo", batch: 1000) {
    for i in 0..<1000 { blackHole(transform.viewToGeo(ViewPoint(x: Double(i % 1280), y: 300 + Double(i % 400)))) }
}
_ = measure("ViewTransform.init (per camera and viewport)", batch: 1000) {
    for i in 0..<1000 { blackHole(ViewTransform(camera: camera, viewport: Viewport(width: 1280 + Double(i & 1), height: 720))) }
}
let updates: [CameraUpdate] = (0..<1000).map { (i: Int) -> CameraUpdate in
    let lat: Double = 40 + Double(i % 50) * 0.3
    let lon: Double = Double(i % 70) - 10
    return CameraUpdate(latitude: lat, longitude: lon, zoom: Double(i % 24), tilt: Double(i % 80))
}
let apply = measure("Camera.applying(CameraUpdate) with bounds and tilt table", batch: 1000) {
    for u in updates { blackHole(try? camera.applying(u, limits: limits)) }
}

/// A room with four running animations, each on its own properties (a fly
/// and three low-level animators, which run beside it).
func busyRoom(_ i: Int) -> AnimatorManager {
    var m = AnimatorManager(camera: Camera(latitude: 10, longitude: Double(i % 300) - 150, zoom: 4), time: 0)
    let owner = Owner(client: "c\(i)", rank: .driver)
    _ = m.fly(FlyRequest(update: CameraUpdate(latitude: 40, longitude: Double(i % 200) - 100, zoom: 9), duration: 1e6), id: "f", owner: owner, at: 0)
    _ = m.animate(EaseRequest(update: CameraUpdate(bearing: 180), duration: 1e6), id: "b", owner: owner, at: 0)
    _ = m.animate(EaseRequest(update: CameraUpdate(tilt: 50), duration: 1e6, curve: .cubicBezier(0.3, 0.1, 0.2, 1)), id: "t", owner: owner, at: 0)
    _ = m.animate(EaseRequest(update: CameraUpdate(anchor: Anchor(x: 0.5, y: 0.7)), duration: 1e6), id: "a", owner: owner, at: 0)
    _ = m.takeEvents()
    return m
}

var one = busyRoom(0)
var t1 = 0.0
let tickOne = measure("AnimatorManager.advance: 1 room, 4 animations", batch: 1000) {
    for _ in 0..<1000 {
        t1 += 1.0 / 60
        one.advance(to: t1)
        blackHole(one.takeEvents())
    }
}
var rooms = (0..<1000).map(busyRoom)
var t2 = 0.0
let tickThousand = measure("AnimatorManager.advance: 1,000 rooms × 4 animations (per tick)", batch: 1, seconds: 1) {
    t2 += 1.0 / 60
    for i in rooms.indices {
        rooms[i].advance(to: t2)
        blackHole(rooms[i].takeEvents())
    }
}
print("")
print(String(format: "geoToView costs %.1f× a sin() call; applying an update %.1f×.", geoToView / sinCost, apply / sinCost))
print(String(format: "1,000 rooms × 4 animations at 60 Hz: %.2f%% of one core (target < 10%%).", tickThousand * 60 / 1e9 * 100))
print(String(format: "one busy room tick: %.2f µs", tickOne / 1000))

// The hub's logic without sockets: joins into one big room, and ticks over rooms at rest.
final class NullSink: HubSink {
    var messages = 0
    func send(_ bytes: [UInt8], to connection: ConnectionKey) { messages += 1 }
    func send(_ bytes: [UInt8], to connections: some Sequence<ConnectionKey>) { for _ in connections { messages += 1 } }
    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) { messages += 1 }
    func close(_ connection: ConnectionKey, code: UInt16, reason: String) {}
}

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
let sink = NullSink()
let clock = ContinuousClock()
var hub = Hub()
let hubTime = { (s: Double) in HubTime(seconds: s, epochMilliseconds: 1.7e12 + s * 1000) }
/// Resident set size of this process (bytes), from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}
let rssBeforeJoins = residentBytes()
let joinStart = clock.now
for key in 1...10_000 as ClosedRange<UInt64> {
    hub.open(key, at: hubTime(1))
    hub.receive(Array(#"{"type":"hello","room":"big","role":"follower"}"#.utf8), from: key, at: hubTime(1), sink: sink)
}
let joins = seconds(clock.now - joinStart)
let hubBytesPerFollower = Double(residentBytes() - rssBeforeJoins) / 10_000
let leaveStart = clock.now
for key in 1...10_000 as ClosedRange<UInt64> { hub.closed(key, at: hubTime(2), sink: sink) }
let leaves = seconds(clock.now - leaveStart)
print("")
print(String(format: "Hub: 10,000 hellos into one room: %.1f ms in all (target < 1 s); 10,000 leaves: %.1f ms.", joins * 1000, leaves * 1000))
print(String(format: "Hub state per joined follower (no sockets): %.0f bytes of RSS.", hubBytesPerFollower))

let rssBeforeRooms = residentBytes()
var restingHub = Hub()
for key in 1...10_000 as ClosedRange<UInt64> {
    restingHub.open(key, at: hubTime(1))
    restingHub.receive(Array("{\"type\":\"hello\",\"room\":\"r\(key)\",\"role\":\"follower\"}".utf8), from: key, at: hubTime(1), sink: sink)
}
let hubBytesPerRoom = Double(residentBytes() - rssBeforeRooms) / 10_000
print(String(format: "Hub state per room with one follower (no sockets): %.0f bytes of RSS.", hubBytesPerRoom))
var restTime = 1.0
for _ in 0..<120 {
    restTime += 1.0 / 60
    restingHub.tick(at: hubTime(restTime), sink: sink)
}
let restingTick = measure("Hub.tick: 10,000 rooms at rest, one follower each", batch: 1, seconds: 1) {
    restTime += 1.0 / 60
    restingHub.tick(at: hubTime(restTime), sink: sink)
}
print(String(format: "10,000 rooms at rest at 60 Hz: %.4f%% of one core (awake rooms: %d).", restingTick * 60 / 1e9 * 100, restingHub.awakeRooms))

// Many rooms all moving, each with its presenter's flight and one 30 Hz follower: what a moving room
// costs the hub without sockets (advance, frame state, encoding, the send pass, events, sleep).
var movingHub = Hub()
var movingKey: UInt64 = 1
for room in 0..<1_000 {
    for role in ["presenter", "follower"] {
        movingHub.open(movingKey, at: hubTime(1))
        let rate = role == "follower" ? #","rate":30,"encoding":"binary""# : ""
        movingHub.receive(
            Array(#"{"type":"hello","room":"moving-\#(room)","role":"\#(role)"\#(rate)}"#.utf8), from: movingKey, at: hubTime(1), sink: sink)
        if role == "presenter" {
            let fly = #"{"type":"fly","camera":{"lat":40,"lon":\#(room % 300 - 150),"zoom":9,"bearing":90,"tilt":40},"duration":60}"#
            movingHub.receive(Array(fly.utf8), from: movingKey, at: hubTime(1), sink: sink)
        }
        movingKey += 1
    }
}
var movingTime = 1.0
for _ in 0..<60 {
    movingTime += 1.0 / 60
    movingHub.tick(at: hubTime(movingTime), sink: sink)
}
// 5 rounds of 0.3 s at a few ms a tick stay well inside the 60 s flights.
let movingTick = measure("Hub.tick: 1,000 moving rooms, one 30 Hz follower each", batch: 1) {
    movingTime += 1.0 / 60
    movingHub.tick(at: hubTime(movingTime), sink: sink)
}
// A room whose members are all due every other tick sleeps between: per second it is visited 30 times.
let movingRoomSecond = movingTick * 60 / 1_000 / 1_000
print(
    String(
        format: "a moving room with a 30 Hz follower, no sockets: %.0f µs of hub CPU a second (one core: %.0f such rooms).",
        movingRoomSecond, 1e6 / movingRoomSecond))

// A frame's encoding, flat and in 3D (roll, elevation and fov off their defaults): bytes and time.
print("")
let flatFrameCamera = Camera(latitude: 48.8566, longitude: 2.3522, zoom: 12.25, tilt: 45, bearing: 30)
var steepFrameCamera = flatFrameCamera
(steepFrameCamera.tilt, steepFrameCamera.roll, steepFrameCamera.elevation, steepFrameCamera.fov) = (80, -12.5, 350, 50)
let flatVelocity = CameraVelocity(latitude: 0.001, longitude: 0.002, zoom: 0.5, bearing: 3, tilt: 0)
var steepVelocity = flatVelocity
(steepVelocity.roll, steepVelocity.elevation) = (-4, 20)
for (name, frameCamera, velocity) in [("flat", flatFrameCamera, flatVelocity), ("3D", steepFrameCamera, steepVelocity)] {
    let json = HubMessage.frame(seq: 42, time: 1.7e12, camera: frameCamera, moving: true, by: "c3", velocity: velocity)
    let binary = BinaryFrame.encode(seq: 42, time: 1.7e12, camera: frameCamera, moving: true, by: "c3", velocity: velocity)
    let jsonCost = measure("HubMessage.frame, \(name), with velocity (\(json.count) bytes)", batch: 1000) {
        for i in 0..<1000 { blackHole(HubMessage.frame(seq: UInt64(i), time: 1.7e12, camera: frameCamera, moving: true, by: "c3", velocity: velocity)) }
    }
    let binaryCost = measure("BinaryFrame.encode, \(name), with velocity (\(binary.count) bytes)", batch: 1000) {
        for i in 0..<1000 { blackHole(BinaryFrame.encode(seq: UInt64(i), time: 1.7e12, camera: frameCamera, moving: true, by: "c3", velocity: velocity)) }
    }
    blackHole((jsonCost, binaryCost))
}
