extension Hub {
    /// Throws `full` (then close 1013 "try again later") when joining `room`
    /// would exceed `maxRooms` or `maxClientsPerRoom`. Nobody already joined is affected.
    func checkCaps(joining room: RoomName) throws(ProtocolError) {
        if let existing = rooms[room] {
            guard existing.members.count < configuration.maxClientsPerRoom else {
                throw ProtocolError(
                    .full, "room: \(room) is full (\(configuration.maxClientsPerRoom) clients); try again later",
                    ref: "hello", close: .tryAgainLater)
            }
        } else {
            guard rooms.count < configuration.maxRooms else {
                throw ProtocolError(
                    .full, "room: the hub holds its maximum of \(configuration.maxRooms) rooms; try again later or join an existing room",
                    ref: "hello", close: .tryAgainLater)
            }
        }
    }
}
