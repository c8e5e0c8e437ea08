import Foundation
import SharedBytes
import SocketTestSupport
import Testing

@testable import WebSocketTransport

extension TransportTests {
    private static func frame(_ n: Int) -> SharedFrame {
        SharedFrame(kind: .binary, count: 8) { $0.storeBytes(of: UInt64(n).bigEndian, as: UInt64.self) }
    }

    private static func numbers(_ frames: [SharedFrame]) -> [Int] {
        frames.map { frame in frame.withUnsafeBytes { Int(UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))) } }
    }

    /// While the loop is behind, the frame lane keeps what a follower is owed,
    /// oldest first, up to its bound; past it the oldest goes, counted as replaced.
    @Test func theFrameLaneKeepsTheNewestFramesUpToItsBoundOldestFirst() {
        var slots = OutboundSlots()
        let dropped = (1...6).map { slots.addFrame(Self.frame($0), keeping: 4) }
        #expect(dropped == [0, 0, 0, 0, 1, 1])
        #expect(slots.frameCount == 4 && slots.framesReplaced == 2)
        let taken = slots.takeFrames()
        #expect(Self.numbers(taken?.earlier ?? []) == [3, 4, 5] && Self.numbers(taken.map { [$0.newest] } ?? []) == [6])
        let again = slots.takeFrames()
        #expect(slots.isEmpty && again == nil)
    }

    /// A socket that stopped draining gets its newest frame only: a frame set
    /// as the latest replaces everything owed, and frames put back after a
    /// send the kernel refused keep only the newest when asked to.
    @Test func aSocketThatDoesNotDrainHoldsOnlyItsNewestFrame() {
        var slots = OutboundSlots()
        for n in 1...3 { _ = slots.addFrame(Self.frame(n), keeping: 4) }
        let replaced = slots.setLatest(Self.frame(4))
        let next = slots.next()
        #expect(replaced == 3 && Self.numbers([next].compactMap { $0 }) == [4] && slots.isEmpty)
        for n in 5...7 { _ = slots.addFrame(Self.frame(n), keeping: 4) }
        let taken = slots.takeFrames()
        #expect(Self.numbers(taken?.earlier ?? []) == [5, 6])
        _ = slots.addFrame(Self.frame(8), keeping: 4)
        let dropped = taken.map { slots.putBack(earlier: $0.earlier, newest: $0.newest, keeping: 1) }
        #expect(dropped == 3)
        let last = slots.next()
        #expect(Self.numbers([last].compactMap { $0 }) == [8], "the frame added since is the newest")
        #expect(slots.framesReplaced == 6)
    }

    /// Frames taken and refused go back ahead of frames added since, and the
    /// writable path then writes them oldest first, after control messages.
    @Test func framesPutBackGoAheadOfNewerOnesAndLeaveAfterControl() {
        var slots = OutboundSlots()
        _ = slots.addFrame(Self.frame(1), keeping: 4)
        _ = slots.addFrame(Self.frame(2), keeping: 4)
        let taken = slots.takeFrames()!
        _ = slots.addFrame(Self.frame(3), keeping: 4)
        let dropped = slots.putBack(earlier: taken.earlier, newest: taken.newest, keeping: 4)
        let queued = slots.enqueueControl(Self.frame(0), limits: SendQueueLimits(maxMessages: 4, maxBytes: 100))
        #expect(dropped == 0 && queued)
        var written: [SharedFrame] = []
        while let frame = slots.next() { written.append(frame) }
        #expect(Self.numbers(written) == [0, 1, 2, 3])
    }

    /// When a loop hands a follower several frames before it gets to write
    /// (it fell behind), they reach the follower whole, in order, in one send
    /// per follower; past the lane's bound only the newest arrive.
    @Test func framesOwedToAFollowerGoOutTogetherInOrder() throws {
        let server = try ServerHarness { $0.endpoints = [WebSocketEndpoint(path: "/feed")] }
        let client = try ClientHarness()
        defer {
            client.client.shutdown()
            server.server.shutdown()
        }
        try #require(server.server.batchesSends, "io_uring is not available here: nothing to check")
        let clientIDs = Self.openFollowers(5, server: server, client: client)
        #expect(clientIDs.allSatisfy(client.isOpen) && server.opened.count == 5)
        let serverIDs = server.opened.map(\.id)
        let bound = ServerCore.framesOwedAtMost
        // One job on the loop hands every follower bound + 2 frames: no pass ends in between.
        let handed = Box(false)
        _ = server.server.loop.execute {
            for n in 1...(bound + 2) {
                let frame = Self.frame(n)
                for id in serverIDs { server.server.sendLatest(frame, to: id) }
            }
            handed.value = true
        }
        #expect(waitUntil { handed.value })
        #expect(waitUntil(.seconds(10)) { clientIDs.allSatisfy { client.messages($0).count == bound } })
        for id in clientIDs {
            let received = client.messages(id).compactMap { message -> Int? in
                guard case .binary(let bytes) = message, bytes.count == 8 else { return nil }
                return bytes.reduce(0) { $0 << 8 | Int($1) }
            }
            #expect(received == Array(3...(bound + 2)), "the newest \(bound), oldest first")
        }
        let stats = server.server.batchedSendStats
        #expect(stats.joinedSends == 5 && stats.joinedFrames == 5 * bound, "\(stats)")
        #expect(server.server.framesReplaced == 5 * 2)
    }
}
