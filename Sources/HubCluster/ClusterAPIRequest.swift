import CamHubProtocol
import HubCore

/// A server API request one hub asks of the others over Redis
/// (`ClusterEngine.ask`): the hub that took the HTTP request (`replyTo`)
/// numbers it and waits for the answer on its own channel `hub:{replyTo}`.
public struct ClusterAPIRequest: Hashable, Sendable {
    /// What is asked, and so where it goes.
    public enum Ask: Hashable, Sendable {
        /// Every hub's rooms (on `hubs`: every hub answers with `ClusterMessage.apiRooms`).
        case rooms
        /// A room's state (on `{room}:cmd`: its owner answers).
        case room(RoomName)
        /// A command as the server API runs it (on `{room}:cmd`: its owner runs it and answers).
        case command(RoomName, body: [UInt8], untilFinished: Bool)
        /// A storyboard file as `PUT /rooms/{room}/story` takes it, with its
        /// media type (on `{room}:cmd`: its owner reads it and answers).
        case story(RoomName, body: [UInt8], contentType: String?)
        /// Close a client (on `hub:{id}` of the hub its id names).
        case remove(client: String, room: RoomName)
    }

    /// The asking hub's number for it (one answer per number).
    public var id: UInt64
    /// The asking hub's id: answers go to `hub:{replyTo}`.
    public var replyTo: String
    public var ask: Ask

    public init(id: UInt64, replyTo: String, ask: Ask) {
        self.id = id
        self.replyTo = replyTo
        self.ask = ask
    }
}

/// What reached the engine about server API requests, for the server to
/// take (`ClusterEngine.takeAPIArrivals`) on the hub's loop thread.
public enum ClusterAPIArrival: Hashable, Sendable {
    /// Another hub asks this one (a room's ask reaches only the room's owner).
    case asked(ClusterAPIRequest)
    /// How many hubs Redis handed request `id` to (0: no hub has the room,
    /// or the client's hub is not there); nil: Redis did not take it.
    case delivered(id: UInt64, receivers: Int?)
    /// The answer to request `id`: an HTTP status and a JSON body (empty for 204).
    case answered(id: UInt64, status: Int, body: [UInt8])
    /// Hub `hub` runs command `id` and waits for its animation's end (`?wait=finished`): the answer comes later.
    case waiting(id: UInt64, hub: String)
    /// Hub `hub`'s rooms, for request `id`.
    case rooms(id: UInt64, hub: String, [APIRoomEntry])
}
