import HubCore
import WebSocketTransport

/// The hub's output onto the libwebsockets server. Used on the loop thread only.
struct TransportSink: HubSink {
    let server: WebSocketServer
    let frames: FrameCache

    func send(_ bytes: [UInt8], to connection: ConnectionKey) {
        server.send(SharedFrame(kind: .text, bytes: bytes), to: ConnectionID(rawValue: connection))
    }

    func send(_ bytes: [UInt8], to connections: some Sequence<ConnectionKey>) {
        let shared = SharedFrame(kind: .text, bytes: bytes)
        for connection in connections { server.send(shared, to: ConnectionID(rawValue: connection)) }
    }

    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) {
        server.sendLatest(frames.shared(for: frame), to: ConnectionID(rawValue: connection))
    }

    func close(_ connection: ConnectionKey, code: UInt16, reason: String) {
        server.close(ConnectionID(rawValue: connection), code: CloseCode(code), reason: reason)
    }
}

/// Turns each encoded frame into one transport frame, however many followers
/// get it: one copy per room per tick, never one per follower. Loop thread only.
final class FrameCache: @unchecked Sendable {
    private var byFrame: [ObjectIdentifier: SharedFrame] = [:]

    func shared(for frame: EncodedFrame) -> SharedFrame {
        if let shared = byFrame[ObjectIdentifier(frame)] { return shared }
        let shared = SharedFrame(kind: .text, bytes: frame.bytes)
        byFrame[ObjectIdentifier(frame)] = shared
        return shared
    }

    /// Forget last tick's frames (their `EncodedFrame`s may be freed and their ids reused).
    func reset() { byFrame.removeAll(keepingCapacity: true) }
}
