import CPerfEvents
import CamHubClient
import Foundation

/// Counts the sends a local process makes: its send syscalls (`sendto`,
/// `sendmsg`, `sendmmsg`, `writev`) and the requests it submits to io_uring
/// (a camhub hub's batched frame sends; every request it makes is a send),
/// with one Linux perf tracepoint counter per event and thread (threads it
/// starts later are counted too). `camhub bench`
/// divides the count over its window by the messages its followers received
/// then: the hub's sends per delivered message (1 when every message is its
/// own `send`; below 1 when a server writes several messages at once).
///
/// Needs tracefs (`/sys/kernel/tracing`) and permission to trace the process
/// (root, or `perf_event_paranoid` ≤ 1 for one's own processes); without them
/// `init` throws a reason the bench prints instead of the figure.
/// Not thread-safe: the bench's main thread opens, reads and closes it.
public final class SendSyscallCounter {
    /// The syscalls that put bytes on a socket (plain `write` is left out: it is also logs and eventfds).
    public static let syscalls = ["sendto", "sendmsg", "sendmmsg", "writev"]
    static let tracefsRoots = ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"]

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private var descriptors: [Int32]

    /// Starts counting `pid`'s send syscalls from now.
    public convenience init(pid: Int32) throws(Unavailable) {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"), !tasks.isEmpty else {
            throw Unavailable(description: "no process \(pid)")
        }
        try self.init(threads: tasks.compactMap(Int32.init))
    }

    /// Starts counting the send syscalls of the threads `threads` (Linux thread ids) from now.
    public init(threads: [Int32]) throws(Unavailable) {
        let ids = try Self.tracepointIDs()
        descriptors = []
        for tid in threads {
            for id in ids {
                let fd = camhub_open_tracepoint_counter(tid, id)
                guard fd >= 0 else {
                    let reason = String(cString: strerror(errno))
                    close()
                    throw Unavailable(description: "perf_event_open on thread \(tid): \(reason)")
                }
                descriptors.append(fd)
            }
        }
    }

    deinit { close() }

    /// The calling thread's Linux thread id (for `init(threads:)`).
    public static var currentThreadID: Int32 { camhub_current_thread_id() }

    /// Send syscalls counted since `init`.
    public func count() -> UInt64 {
        var total: UInt64 = 0
        for fd in descriptors {
            var value: UInt64 = 0
            if read(fd, &value, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size { total += value }
        }
        return total
    }

    public func close() {
        for fd in descriptors { _ = Glibc.close(fd) }
        descriptors = []
    }

    /// The tracepoint ids of `syscalls`' `sys_enter_*` events, and of
    /// `io_uring_submit_req` where the kernel has it.
    static func tracepointIDs() throws(Unavailable) -> [UInt64] {
        for root in tracefsRoots {
            func id(_ event: String) -> UInt64? {
                (try? String(contentsOfFile: "\(root)/events/\(event)/id", encoding: .utf8))
                    .flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            let ids = syscalls.compactMap { id("syscalls/sys_enter_\($0)") }
            if ids.count == syscalls.count { return ids + [id("io_uring/io_uring_submit_req")].compactMap { $0 } }
        }
        throw Unavailable(description: "no syscall tracepoints (tracefs at \(tracefsRoots.joined(separator: " or ")))")
    }
}
