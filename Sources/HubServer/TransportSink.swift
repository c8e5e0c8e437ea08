import HubCore
import WebSocketTransport

/// The hub's output onto the libwebsockets server. Used on the loop thread only.
/// Frames go out as the payload the hub encoded (with the server's headroom:
/// `HubConfiguration.frameHeadroom`), so every follower writes the same bytes.
struct TransportSink: HubSink {
    let server: WebSocketServer

    func send(_ bytes: [UInt8], to connection: ConnectionKey) {
        server.send(SharedFrame(kind: .text, bytes: bytes), to: ConnectionID(rawValue: connection))
    }

    func send(_ bytes: [UInt8], to connections: some Sequence<ConnectionKey>) {
        let shared = SharedFrame(kind: .text, bytes: bytes)
        for connection in connections { server.send(shared, to: ConnectionID(rawValue: connection)) }
    }

    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) {
        server.sendLatest(SharedFrame(kind: .text, payload: frame.payload), to: ConnectionID(rawValue: connection))
    }

    func close(_ connection: ConnectionKey, code: UInt16, reason: String) {
        server.close(ConnectionID(rawValue: connection), code: CloseCode(code), reason: reason)
    }
}
