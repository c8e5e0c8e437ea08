import CamHubProtocol

extension Hub {
    /// Whether `hello` will be let in, as far as its token and the caps go:
    /// what `join` checks first, for a broker to check before it does any
    /// work for the room (in a cluster, before any Redis command).
    /// `preparing`: rooms not on this hub yet that earlier hellos wait for.
    public func admit(_ hello: Hello, preparing: Int = 0, at time: HubTime) throws(ProtocolError) {
        _ = try tokenPolicy.authorize(hello, now: time.epochMilliseconds / 1000)
        try checkCaps(joining: hello.room, preparing: preparing)
    }

    /// Throws `full` (then close 1013 "try again later") when joining `room`
    /// would exceed `maxRooms` (this hub's rooms) or `maxClientsPerRoom` (the
    /// room's clients on every hub of the cluster, as their presence says).
    /// Nobody already joined is affected.
    func checkCaps(joining room: RoomName, preparing: Int = 0) throws(ProtocolError) {
        if let clients = rooms.read(room, { $0.remote.values.reduce($0.members.count) { $0 + $1.audience.clients } }) {
            guard clients < configuration.maxClientsPerRoom else {
                throw ProtocolError(
                    .full, "room: \(room) is full (\(configuration.maxClientsPerRoom) clients); try again later",
                    ref: "hello", close: .tryAgainLater)
            }
        } else {
            guard rooms.counted + preparing < configuration.maxRooms else { throw Self.roomsFull(configuration.maxRooms) }
        }
    }

    /// `full`: the hub holds `maxRooms` rooms (a new room cannot be made).
    static func roomsFull(_ maxRooms: Int) -> ProtocolError {
        ProtocolError(
            .full, "room: the hub holds its maximum of \(maxRooms) rooms; try again later or join an existing room",
            ref: "hello", close: .tryAgainLater)
    }
}
