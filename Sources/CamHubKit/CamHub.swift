import CamHubProtocol
import CameraCore

/// Joins rooms of a CameraHub hub from any Swift program: apps on Apple
/// platforms and Linux alike (swift-nio through hummingbird-project's
/// swift-websocket; on Apple platforms its Network.framework transport).
///
/// ```swift
/// let room = try await CamHub.connect(url: "ws://127.0.0.1:8080/hub", room: "demo", role: .presenter)
/// let report = try await room.fly(to: CameraUpdate(latitude: 48.85, longitude: 2.35, zoom: 12))
/// for await frame in room.frames { print(frame.camera) }
/// ```
public enum CamHub {
    /// Opens a WebSocket to `url` (the hub's `/hub` endpoint), says `hello`
    /// and returns the joined room once the hub welcomed it. A refused hello
    /// throws the hub's error (`CamHubError.code`: `unauthorized`, `full`, …);
    /// a first socket that cannot be made throws `.connection` (no retry).
    ///
    /// - Parameters:
    ///   - token: a signed or static token; with `getToken` and no token, the first comes from `getToken`.
    ///   - getToken: a fresh token: sent with `refresh` when the hub says the session's expires
    ///     within a minute (`tokenExpiring`), and used to join again after a close for an
    ///     expired or revoked token (4001, 4003).
    ///   - rate: frames per second wanted (followers; the hub's default when nil).
    ///   - encoding: how frames come: `.binary` (the default, a third of the bytes) or `.json`.
    ///   - render: what this client's map can draw (MapLibre Native: `maxTilt: 60`; Mapbox: `roll: false`):
    ///     the hub sends it the closest camera it can show.
    ///   - events: what the room subscribes to (nil: `RoomSubscriptions.defaults(for:)`).
    ///   - joinTimeout: seconds from the start of each connection to the hub's welcome; a socket
    ///     without one by then is given up (the first: `connect` throws; later ones are retried).
    ///   - reconnect: the wait before each new connection after one is lost (1001, 1012, a drop);
    ///     nil: the room ends with the connection.
    ///   - fit: how this client fits the room's camera to its screen (`hello.fit`).
    ///   - tls: how a `wss://` hub's certificate is checked (the system's authorities by default).
    public static func connect(
        url: String, room: String, role: Role = .follower, name: String? = nil, token: String? = nil,
        getToken: TokenSource? = nil, rate: Double? = nil, encoding: FrameEncoding = .binary,
        viewport: Viewport = Hello.defaultViewport, render: RenderCapabilities = .all, events: EventSubscriptions? = nil,
        fit: FitMode = .same, joinTimeout: Double = 15, reconnect: Backoff? = Backoff(), tls: HubTLS = .system
    ) async throws(CamHubError) -> Room {
        let roomName: RoomName
        do { roomName = try RoomName(validating: room) } catch {
            throw CamHubError(.badArgument, "room: \(error.message)")
        }
        var hello = Hello(
            room: roomName, role: role, name: name, token: token, rate: rate, viewport: viewport,
            events: events ?? RoomSubscriptions.defaults(for: role))
        hello.encoding = encoding
        hello.render = render
        hello.fit = fit
        let joined = Room(url: url, hello: hello, getToken: getToken, backoff: reconnect, joinTimeout: joinTimeout, tls: tls)
        if token == nil, getToken != nil { try await joined.useFirstToken() }
        try await joined.open()
        return joined
    }
}

/// What a room subscribes to unless told: the role's default
/// (`EventSubscriptions.defaults(for:)`) plus what keeps `Room.roster` and
/// `Room.animations` up to date (`joined`, `left`, `followChanged`, `roomAnimations`).
public enum RoomSubscriptions {
    public static func defaults(for role: Role) -> EventSubscriptions {
        EventSubscriptions.defaults(for: role).union([.joined, .left, .followChanged, .presenterChanged, .roomAnimations])
    }
}

extension Room {
    /// The first hello's token, from `getToken`.
    func useFirstToken() async throws(CamHubError) {
        hello.token = try await fetchToken()
    }
}
