import CLWS

/// Keepalive for server connections, done here rather than by lws's
/// "validity" timers: lws 4.1 keeps those in one list sorted by due time and
/// inserts by walking it from the head, so every ping and pong cost a walk
/// over all connections (a fifth of the loop thread's time at 5,000
/// followers). Here one sweep a second looks at each connection once.
extension ServerCore {
    /// Loop thread, about once a second: pings connections that have been
    /// quiet for `pingAfterSeconds` and drops those quiet for
    /// `hangupAfterSeconds` (no close frame: a peer that answers nothing
    /// reads nothing; the close reports code nil), and closes with 1008 "too
    /// slow" those whose socket has not drained for `slowClientTimeout`.
    func sweepIdle() {
        let now = lws_now_usecs()
        let pingAfter = Int64(config.idle.pingAfterSeconds) * 1_000_000
        let hangupAfter = Int64(config.idle.hangupAfterSeconds) * 1_000_000
        let slowAfter = config.slowClientTimeout > 0 ? Int64(config.slowClientTimeout * 1e6) : .max
        for conn in connections.values where !conn.closing {
            // Waiting for the socket to drain (its writable callback) for too long: a reader that stopped.
            if conn.writeRequested && now - conn.writeWaitSinceUS >= slowAfter {
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
}
