import CamHubProtocol

/// Which loop runs a room: its name hashed over the loops, the same in every
/// process and every run (FNV-1a over the name's UTF-8, not Swift's `Hasher`,
/// which is seeded per process), so every client of a room reaches the same
/// hub whichever loop accepted it. In a cluster (`--redis`) every room is on
/// loop 0, where the Redis engine lives: rooms across hubs are the engine's
/// job, rooms across loops this one's.
struct RoomPlacement: Sendable {
    let loops: Int
    /// Every room on loop 0 (a hub of a cluster).
    let onFirstLoopOnly: Bool

    /// The loop whose hub runs `room` (0 ..< `loops`).
    func loop(of room: RoomName) -> Int {
        guard loops > 1, !onFirstLoopOnly else { return 0 }
        return Int(Self.fnv1a(room.value) % UInt64(loops))
    }

    /// The loop whose hub a new connection of loop `index` starts on: its
    /// own, or loop 0 in a cluster. A `hello` may move it to its room's loop.
    func entry(for index: Int) -> Int { onFirstLoopOnly ? 0 : index }

    /// 64-bit FNV-1a.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
