import CURing
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The io_uring send path never waits for a socket: a send the kernel queues
/// instead of answering at once is cancelled after `CURING_WAIT_US` and
/// reported not sent, and none of its bytes reach the socket.
@Suite("io_uring batched sends")
struct CURingTests {
    /// A connected socket pair whose first end's send buffer is full (the
    /// second end reads nothing); returns the ends and how many bytes the buffer took.
    static func fullSocketPair() throws -> (writer: Int32, reader: Int32, filled: Int) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let flags = fcntl(fds[0], F_GETFL)
        _ = fcntl(fds[0], F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x41, count: 4096)
        var filled = 0
        for _ in 0..<100_000 {  // bounded: a socket buffer is at most a few MB
            let n = chunk.withUnsafeBytes { send(fds[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            filled += n
        }
        _ = fcntl(fds[0], F_SETFL, flags)  // blocking again: without MSG_DONTWAIT io_uring arms a poll
        return (fds[0], fds[1], filled)
    }

    /// Runs `body` with a ring and a full socket pair (`fullSocketPair`); nothing
    /// when this kernel refuses io_uring (the server then sends with send(2)).
    static func withRingAndFullSocket(_ body: (OpaquePointer, (writer: Int32, reader: Int32, filled: Int)) throws -> Void) throws {
        guard let ring = curing_ring_new(8) else { return }
        defer { curing_ring_free(ring) }
        let pair = try fullSocketPair()
        defer {
            close(pair.writer)
            close(pair.reader)
        }
        try body(ring, pair)
    }

    /// Sends `bytes` to `fd` as a batch of one with `flags` (the default: curing_send_all's); returns the status and result.
    static func sendOne(_ bytes: [UInt8], to fd: Int32, ring: OpaquePointer, flags: Int32? = nil) -> (status: Int32, result: Int32) {
        var results: [Int32] = [0]
        let status = bytes.withUnsafeBytes { raw in
            var sends = [curing_send(bytes: raw.baseAddress, length: UInt32(raw.count), fd: fd)]
            if let flags { return curing_send_all_flags(ring, &sends, &results, 1, flags, 2000) }
            return curing_send_all(ring, &sends, &results, 1)
        }
        return (status, results[0])
    }

    /// Reads everything the reader has now (nonblocking); returns the bytes.
    static func drain(_ fd: Int32) -> [UInt8] {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    @Test func aSendTheKernelQueuesIsCancelledWithinTheDeadlineAndNothingOfItIsSent() throws {
        try Self.withRingAndFullSocket { ring, socket in
            let started = ContinuousClock.now
            let sent = Self.sendOne([UInt8](repeating: 0x5A, count: 100), to: socket.writer, ring: ring, flags: Int32(MSG_NOSIGNAL))
            let waited = ContinuousClock.now - started
            #expect(sent.status == 0, "cancelled, not stuck")
            #expect(sent.result == curing_not_sent(), "reported not sent (got \(sent.result))")
            #expect(waited < .milliseconds(500), "the caller waited \(waited), not for the socket")
            let received = Self.drain(socket.reader)
            #expect(received.count == socket.filled && !received.contains(0x5A), "none of the cancelled send's bytes arrived")
        }
    }

    @Test func theRingStillSendsAfterACancelledSend() throws {
        try Self.withRingAndFullSocket { ring, socket in
            _ = Self.sendOne([UInt8](repeating: 0x5A, count: 10), to: socket.writer, ring: ring, flags: Int32(MSG_NOSIGNAL))
            var fds: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            defer {
                close(fds[0])
                close(fds[1])
            }
            let hello = Array("hello".utf8)
            let sent = Self.sendOne(hello, to: fds[0], ring: ring)
            #expect(sent.status == 0 && sent.result == 5)
            #expect(Self.drain(fds[1]) == hello)
        }
    }

    @Test func aFullSocketAnswersAtOnceWithTheDefaultFlags() throws {
        try Self.withRingAndFullSocket { ring, socket in
            let sent = Self.sendOne([UInt8](repeating: 0x5A, count: 100), to: socket.writer, ring: ring)
            #expect(sent.status == 0 && sent.result == -EAGAIN, "MSG_DONTWAIT: -EAGAIN at once, nothing to cancel")
        }
    }
}
