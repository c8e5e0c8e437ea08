import CLWS
import CTCPProgress
import Synchronization

/// Keepalive for server connections, done here rather than by lws's
/// "validity" timers: lws 4.1 keeps those in one list sorted by due time and
/// inserts by walking it from the head, so every ping and pong cost a walk
/// over all connections (a fifth of the loop thread's time at 5,000
/// followers). Here a sweep looks at each connection once a second, in
/// `sweepSlices` slices an eighth of a second apart: a slice's system calls
/// (a TCP_INFO read is ~0.8 µs) stay well inside a tick at 10,000 followers.
extension ServerCore {
    /// Seconds between two looks at one connection.
    static let sweepInterval = 1
    /// The connections are swept in this many slices, one per `sweepInterval / sweepSlices`.
    static let sweepSlices: UInt64 = 8

    /// Loop thread, `sweepSlices` times a second, over the connections of the
    /// next slice: pings connections that have been
    /// quiet for `pingAfterSeconds` and drops those quiet for
    /// `hangupAfterSeconds` (no close frame: a peer that answers nothing
    /// reads nothing; the close reports code nil), and closes with 1008 "too
    /// slow" those that stopped reading for `slowClientTimeout`.
    func sweepIdle() {
        let slice = sweepSlice
        sweepSlice = (slice + 1) % Self.sweepSlices
        let now = lws_now_usecs()
        let pingAfter = Int64(config.idle.pingAfterSeconds) * 1_000_000
        let hangupAfter = Int64(config.idle.hangupAfterSeconds) * 1_000_000
        let slowAfter = config.slowClientTimeout > 0 ? Int64(config.slowClientTimeout * 1e6) : .max
        // Sweeps in a row with nothing acknowledged (counted up to 255, so a longer timeout counts as 255 s).
        let stalledSweepsAllowed =
            config.slowClientTimeout > 0
            ? min(Int(UInt8.max), max(1, Int(config.slowClientTimeout.rounded(.up)) / Self.sweepInterval)) : .max
        for conn in connections.values where !conn.closing && conn.id.rawValue / config.loopCount % Self.sweepSlices == slice {
            // Waiting for the socket to drain (its writable callback) for too long: a reader that stopped.
            if conn.writeRequested && now - conn.writeWaitSinceUS >= slowAfter {
                slowCloses.undrained.add(1, ordering: .relaxed)
                conn.closeSlow()
                continue
            }
            // The kernel may still take our writes, but the peer acknowledges none of them.
            if Int(watchAcknowledgements(conn)) >= stalledSweepsAllowed {
                slowCloses.unacknowledged.add(1, ordering: .relaxed)
                conn.closeSlow()
                continue
            }
            let quiet = now - conn.lastHeardUS
            if quiet >= hangupAfter {
                conn.drop()
            } else if quiet >= pingAfter && !conn.pingSent && conn.pendingClose == nil {
                conn.pingSent = true
                // Straight to the socket when nothing is queued (the sweep runs
                // from a timer): no writable round trip for a quiet connection.
                if !writeThrough(pingPayload, to: conn, ping: true) {
                    conn.pingDue = true
                    conn.requestWrite()
                }
            }
        }
    }

    /// Looks at the peer's acknowledgements (one getsockopt) when anything was
    /// written to it since the last sweep or it already looked stalled, and
    /// returns for how many sweeps in a row bytes have waited for it with none
    /// acknowledged. A connection written nothing costs no system call.
    private func watchAcknowledgements(_ conn: ServerConnection) -> UInt8 {
        var watch = conn.ackWatch
        guard conn.wroteSinceSweep || watch.stalledSweeps > 0 else { return 0 }
        conn.wroteSinceSweep = false
        var progress = ctcp_progress()
        guard ctcp_progress_read(lws_get_socket_fd(conn.wsi), &progress) == 0 else { return 0 }
        let acknowledged = UInt32(truncatingIfNeeded: progress.bytes_acked)
        let waiting = progress.unacked_segments > 0 || progress.notsent_bytes > 0
        if waiting && acknowledged == watch.acknowledged {
            if watch.stalledSweeps < .max { watch.stalledSweeps += 1 }
        } else {
            watch.stalledSweeps = 0
        }
        watch.acknowledged = acknowledged
        conn.ackWatch = watch
        return watch.stalledSweeps
    }
}

/// Clients closed 1008 "too slow", by what showed they stopped reading
/// (written on the loop thread, read from any).
final class SlowCloseCounts: Sendable {
    /// Bytes waited for the peer and it acknowledged none for `slowClientTimeout`.
    let unacknowledged = Atomic<Int>(0)
    /// A write waited for the socket to drain for `slowClientTimeout`.
    let undrained = Atomic<Int>(0)

    var snapshot: SlowCloses {
        SlowCloses(
            unacknowledged: unacknowledged.load(ordering: .relaxed),
            undrained: undrained.load(ordering: .relaxed))
    }
}

/// Clients closed 1008 "too slow" so far, by what showed they stopped reading.
public struct SlowCloses: Sendable, Equatable {
    /// Bytes waited in the kernel for the client and it acknowledged none of
    /// them for `slowClientTimeout` (the kernel's buffers still took writes).
    public var unacknowledged: Int
    /// A write waited `slowClientTimeout` for the client's socket to drain.
    public var undrained: Int

    public init(unacknowledged: Int = 0, undrained: Int = 0) {
        self.unacknowledged = unacknowledged
        self.undrained = undrained
    }

    public static func + (a: SlowCloses, b: SlowCloses) -> SlowCloses {
        SlowCloses(unacknowledged: a.unacknowledged + b.unacknowledged, undrained: a.undrained + b.undrained)
    }
}
