import Testing

@testable import HubCore

/// What the hub keeps per idle follower, inline in its tables: every open
/// connection has a `Session` (in a dictionary with up to twice as many slots
/// as entries) and, once joined, a `Room.Member` (in an array that grows by
/// doubling). At 10,000 followers each 8 bytes of either cost ~13 bytes of
/// RSS per connection (docs/BENCHMARKS.md, "Idle RSS per connection").
@Suite("Hub: memory per connection")
struct HubMemoryTests {
    @Test func aSessionKeepsNeitherItsKeyNorTheRateLimitersPolicy() {
        // client, room, viewport (16 each), gestures (8), limiter state (24), remote role (1).
        #expect(MemoryLayout<Session>.stride <= 88, "\(MemoryLayout<Session>.stride) bytes")
        #expect(MemoryLayout<CommandRateLimiter>.size <= 24, "\(MemoryLayout<CommandRateLimiter>.size) bytes")
    }

    @Test func aMemberFitsItsThrottleAndSubscriptionsIn56Bytes() {
        // connection (8), throttle (rate, tick, last send, next due, last seq: 41), events (4).
        #expect(MemoryLayout<Room.Member>.stride <= 56, "\(MemoryLayout<Room.Member>.stride) bytes")
    }
}

@Suite("Hub: memory per room")
struct RoomMemoryTests {
    @Test func aRoomStaysInline() {
        // Rooms are stored inline in the hub's table: each byte here is a byte per room at rest
        // (the current frame in its two encodings, JSON and binary, is two references of them).
        // The camera's roll, elevation and field of view add 24 bytes to each of the three cameras it holds;
        // the render classes of members whose maps cannot draw everything are one array (8 bytes, empty: no allocation);
        // the storyboard is one reference (8 bytes, nil while the room has none).
        #expect(MemoryLayout<Room>.stride <= 800, "\(MemoryLayout<Room>.stride) bytes")
    }
}
