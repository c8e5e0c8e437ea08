import HubCore
import WebSocketTransport

/// The hub's output onto the libwebsockets server. Used on the loop thread only.
/// Frames go out as the payload the hub encoded (with the server's headroom:
/// `HubConfiguration.frameHeadroom`), so every follower writes the same bytes.
/// Counts what it hands over in `tally` (plain integers; see `HubMetrics`);
/// tells `log` about errors and closes.
struct TransportSink: HubSink {
    let server: WebSocketServer
    let tally: HubTally
    let log: ConnectionLog
    /// The Redis engine's route for clients of other hubs (keys at `remoteConnectionBase`
    /// and above): true when it took the message. nil without `--redis`.
    var remote: (@Sendable (ConnectionKey, [UInt8]) -> Bool)?

    func send(_ bytes: [UInt8], to connection: ConnectionKey) {
        if connection >= remoteConnectionBase, let remote, remote(connection, bytes) { return }
        if tally.countMessage(bytes, copies: 1) == "error" { log.errorSent(bytes, to: connection) }
        server.send(SharedFrame(kind: .text, bytes: bytes), to: ConnectionID(rawValue: connection))
    }

    func send(_ bytes: [UInt8], to connections: some Sequence<ConnectionKey>) {
        let shared = SharedFrame(kind: .text, bytes: bytes)
        var copies = 0
        for connection in connections {
            if connection >= remoteConnectionBase, let remote, remote(connection, bytes) { continue }
            server.send(shared, to: ConnectionID(rawValue: connection))
            copies += 1
        }
        tally.countMessage(bytes, copies: copies)
    }

    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) {
        tally.framesSent += 1
        tally.frameBytes += frame.payload.count
        server.sendLatest(SharedFrame(kind: .text, payload: frame.payload), to: ConnectionID(rawValue: connection))
    }

    func close(_ connection: ConnectionKey, code: UInt16, reason: String) {
        log.closing(connection, code: code, reason: reason)
        server.close(ConnectionID(rawValue: connection), code: CloseCode(code), reason: reason)
    }

    func note(_ activity: HubActivity) { tally.note(activity) }
}
