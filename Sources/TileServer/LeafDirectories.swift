import Synchronization

/// The PMTiles leaf directories an archive parsed lately, by their offset in
/// the leaf section: a tile request whose leaf is here costs no read and no
/// inflate. Holds at most `capacity` directories and forgets the least
/// recently used first. Shared by every loop that serves tiles (a `Mutex`).
final class LeafDirectories: Sendable {
    private struct State {
        var directories: [UInt64: (entries: [PMTilesEntry], used: UInt64)] = [:]
        var clock: UInt64 = 0
        var misses = 0
    }

    /// Directories kept (a leaf holds at most a few thousand 24-byte entries).
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
    }

    /// The directory at `offset` when it is kept (it counts as used now).
    func directory(at offset: UInt64) -> [PMTilesEntry]? {
        state.withLock { s in
            s.clock += 1
            guard let kept = s.directories[offset] else {
                s.misses += 1
                return nil
            }
            s.directories[offset] = (kept.entries, s.clock)
            return kept.entries
        }
    }

    /// Keeps `entries`, the directory at `offset`, forgetting the least recently used one when full.
    func keep(_ entries: [PMTilesEntry], at offset: UInt64) {
        state.withLock { s in
            if s.directories[offset] == nil, s.directories.count >= capacity,
                let oldest = s.directories.min(by: { $0.value.used < $1.value.used })?.key
            {
                s.directories[oldest] = nil
            }
            s.clock += 1
            s.directories[offset] = (entries, s.clock)
        }
    }

    /// Lookups that found no directory kept (each one read and parsed a leaf), since the archive opened.
    var misses: Int { state.withLock { $0.misses } }

    /// Directories kept now.
    var count: Int { state.withLock { $0.directories.count } }
}
