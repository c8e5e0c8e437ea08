import ArgumentParser
import CamHubClient

/// What `--room` and `--token` mean to one command: their help, and the room
/// joined without `--room`.
protocol RoomConnectionPurpose {
    /// `--room`'s help, without its default: "Room to follow."
    static var roomHelp: String { get }

    /// `--token`'s help: whose token it is.
    static var tokenHelp: String { get }

    /// The room joined without `--room`, shown as its default; nil where the
    /// command picks the room itself (replay: the recorded room).
    static var defaultRoom: String? { get }
}

/// A purpose with a room of its own to join when `--room` is not given.
protocol DefaultRoomPurpose: RoomConnectionPurpose {
    static var room: String { get }
}

extension DefaultRoomPurpose {
    static var defaultRoom: String? { room }
}

/// `--url`, `--room` and `--token`, with the TLS options of a `wss://` URL:
/// how `present`, `follow` and `replay` reach a room. (`bench` keeps its own
/// `--url`: it is repeatable there, one per hub of a cluster.) The URL's scheme
/// and the TLS options are checked before anything connects.
struct RoomConnectionOptions<Purpose: RoomConnectionPurpose>: ParsableArguments {
    @Option(help: "Hub WebSocket URL: ws://HOST:PORT/hub, or wss://… for a hub with TLS.")
    var url = "ws://127.0.0.1:8080/hub"

    @OptionGroup(title: "TLS (wss:// URLs)")
    var tls: TLSClientOptions

    /// `--room` as given; `room` adds the purpose's default.
    @Option(name: .customLong("room"), help: Self.roomHelp)
    var givenRoom: String?

    @Option(help: ArgumentHelp(Purpose.tokenHelp))
    var token: String?

    /// The help as the argument parser shows an option's default: "Room to follow. (default: demo)".
    private static var roomHelp: ArgumentHelp {
        ArgumentHelp(Purpose.roomHelp + (Purpose.defaultRoom.map { " (default: \($0))" } ?? ""), valueName: "room")
    }

    /// The hub's URL with the TLS options applied.
    var hubURL: HubURL {
        get throws { try tls.hubURL(url) }
    }

    func validate() throws {
        _ = try hubURL
    }
}

extension RoomConnectionOptions where Purpose: DefaultRoomPurpose {
    /// `--room`, else the purpose's room.
    var room: String { givenRoom ?? Purpose.room }
}
