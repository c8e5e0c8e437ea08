extension HubProtocol {
    /// `target` (a URL, or a path with its query) with `room=NAME` added to
    /// its query, naming the room the hello will join, unless it names one
    /// already: a hub of several loops then serves the connection on its room's
    /// loop from the start. A placement hint only; the hello decides the room.
    /// Room names need no escaping (A-Z, a-z, 0-9, _ and -).
    public static func naming(room: String, in target: String) -> String {
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        guard !room.isEmpty, !query.split(separator: "&").contains(where: { $0.hasPrefix("room=") }) else { return target }
        return target + (target.contains("?") ? "&" : "?") + "room=" + room
    }
}
