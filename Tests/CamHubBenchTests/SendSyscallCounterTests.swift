import CamHubBench
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `camhub bench`'s "sends per delivered message" comes from this counter.
@Suite struct SendSyscallCounterTests {
    /// Why the counter cannot run here (no tracefs, no permission), or nil.
    static let unavailable: String? = {
        do throws(SendSyscallCounter.Unavailable) {
            _ = try SendSyscallCounter(threads: [SendSyscallCounter.currentThreadID])
            return nil
        } catch { return error.description }
    }()

    @Test(.enabled(if: unavailable == nil, "perf tracepoints unavailable"))
    func countsEverySendAndWritevOfTheThreadsItWatches() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { for fd in fds { _ = close(fd) } }
        let writer = fds[0]
        // A thread of its own, so that the other tests' sockets are not counted.
        let result = Mutex<(before: UInt64, after: UInt64)?>(nil)
        let thread = Thread {
            guard let counter = try? SendSyscallCounter(threads: [SendSyscallCounter.currentThreadID]) else { return }
            let before = counter.count()
            var byte: UInt8 = 7
            for _ in 0..<100 { _ = send(writer, &byte, 1, 0) }
            for _ in 0..<5 {
                var one = iovec(iov_base: &byte, iov_len: 1)
                _ = writev(writer, &one, 1)
            }
            _ = write(writer, &byte, 1)  // not a send: writes to files and eventfds are left out
            result.withLock { $0 = (before, counter.count()) }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(20)
        while result.withLock({ $0 }) == nil && Date() < deadline { usleep(10_000) }
        let counts = try #require(result.withLock { $0 })
        #expect(counts.before == 0)
        #expect(counts.after == 105)
    }
}
