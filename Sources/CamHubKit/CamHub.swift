import CamHubProtocol
import CameraCore

/// Joins rooms of a CameraHub hub from any Swift program: apps on Apple
/// platforms and Linux alike (swift-nio through hummingbird-project's
/// swift-websocket; on Apple platforms its Network.framework transport).
///
/// ```swift
/// let room = try await CamHub.connect(url: "ws://127.0.0.1:8080/hub", room: "demo", role: .presenter)
/// let report = try await room.fly(to: CameraUpdate(latitude: 48.85, longitude: 2.35, zoom: 12))
/// for await frame in await room.frames { print(frame.camera) }
/// ```
public enum CamHub {
    /// Opens a WebSocket to `url` (the hub's `/hub` endpoint), says `hello`
    /// and returns the joined room once the hub welcomed it. A refused hello
    /// throws the hub's error (`CamHubError.code`: `unauthorized`, `full`, …).
    ///
    /// - Parameters:
    ///   - rate: frames per second wanted (followers; the hub's default when nil).
    ///   - encoding: how frames come: `.binary` (the default, a third of the bytes) or `.json`.
    public static func connect(
        url: String, room: String, role: Role = .follower, name: String? = nil, token: String? = nil, rate: Double? = nil,
        encoding: FrameEncoding = .binary, viewport: Viewport = Hello.defaultViewport
    ) async throws(CamHubError) -> Room {
        let roomName: RoomName
        do { roomName = try RoomName(validating: room) } catch {
            throw CamHubError(.badArgument, "room: \(error.message)")
        }
        var hello = Hello(room: roomName, role: role, name: name, token: token, rate: rate, viewport: viewport)
        hello.encoding = encoding
        let joined = Room(url: url)
        try await joined.open(hello)
        return joined
    }
}
