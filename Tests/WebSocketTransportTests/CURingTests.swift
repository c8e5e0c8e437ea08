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
        guard let ring = curing_ring_new(8) else { return }  // no io_uring here: the server sends with send(2)
        defer { curing_ring_free(ring) }
        let (writer, reader, filled) = try Self.fullSocketPair()
        defer {
            close(writer)
            close(reader)
        }
        let message = [UInt8](repeating: 0x5A, count: 100)
        var results: [Int32] = [0]
        let started = ContinuousClock.now
        let status = message.withUnsafeBytes { bytes in
            var sends = [curing_send(bytes: bytes.baseAddress, length: UInt32(bytes.count), fd: writer)]
            return curing_send_all_flags(ring, &sends, &results, 1, Int32(MSG_NOSIGNAL), 2000)
        }
        let waited = ContinuousClock.now - started
        #expect(status == 0, "cancelled, not stuck")
        #expect(results[0] == curing_not_sent(), "reported not sent (got \(results[0]))")
        #expect(waited < .milliseconds(500), "the caller waited \(waited), not for the socket")
        let received = Self.drain(reader)
        #expect(received.count == filled && !received.contains(0x5A), "none of the cancelled send's bytes arrived")
    }

    @Test func theRingStillSendsAfterACancelledSend() throws {
        guard let ring = curing_ring_new(8) else { return }
        defer { curing_ring_free(ring) }
        let (writer, reader, _) = try Self.fullSocketPair()
        defer {
            close(writer)
            close(reader)
        }
        let blocked = [UInt8](repeating: 0x5A, count: 10)
        var results: [Int32] = [0]
        _ = blocked.withUnsafeBytes { bytes in
            var sends = [curing_send(bytes: bytes.baseAddress, length: UInt32(bytes.count), fd: writer)]
            return curing_send_all_flags(ring, &sends, &results, 1, Int32(MSG_NOSIGNAL), 2000)
        }
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let hello = Array("hello".utf8)
        let status = hello.withUnsafeBytes { bytes in
            var sends = [curing_send(bytes: bytes.baseAddress, length: UInt32(bytes.count), fd: fds[0])]
            return curing_send_all(ring, &sends, &results, 1)
        }
        #expect(status == 0 && results[0] == 5)
        #expect(Self.drain(fds[1]) == hello)
    }

    @Test func aFullSocketAnswersAtOnceWithTheDefaultFlags() throws {
        guard let ring = curing_ring_new(8) else { return }
        defer { curing_ring_free(ring) }
        let (writer, reader, _) = try Self.fullSocketPair()
        defer {
            close(writer)
            close(reader)
        }
        let message = [UInt8](repeating: 0x5A, count: 100)
        var results: [Int32] = [0]
        let status = message.withUnsafeBytes { bytes in
            var sends = [curing_send(bytes: bytes.baseAddress, length: UInt32(bytes.count), fd: writer)]
            return curing_send_all(ring, &sends, &results, 1)
        }
        #expect(status == 0 && results[0] == -EAGAIN, "MSG_DONTWAIT: -EAGAIN at once, nothing to cancel")
    }
}
