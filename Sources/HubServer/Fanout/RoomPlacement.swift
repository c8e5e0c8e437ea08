import CamHubProtocol

/// Which loop runs a room: its name hashed over the loops, the same in every
/// process and every run (FNV-1a over the name's UTF-8, not Swift's `Hasher`,
/// which is seeded per process), so every client of a room reaches the same
/// hub whichever loop accepted it. In a cluster (`--redis`) too: each loop's
/// hub is a member of the cluster with its own Redis engine, and the leases
/// decide which process's loop owns a room (rooms across processes are the
/// engines' job, rooms across loops this one's).
struct RoomPlacement: Sendable {
    let loops: Int

    /// The loop whose hub runs `room` (0 ..< `loops`).
    func loop(of room: RoomName) -> Int {
        guard loops > 1 else { return 0 }
        return Int(Self.fnv1a(room.value) % UInt64(loops))
    }

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
