import CamHubProtocol
import HubCluster
import HubCore
import HubRecording
import WebSocketTransport

/// One loop's hub's output onto the server loops. Used on that loop's thread
/// only (`home`, where its `Hub` lives).
///
/// Connections on the home loop are written at once. Those on the other loops
/// (`HubServerConfiguration.loops`) are gathered into one `OutboundBatch` per
/// loop and handed over by `flush()`, one mailbox post per loop, which the
/// home loop calls after each tick, send slice and message. Frames go out as
/// the payload the hub encoded (with the server's headroom:
/// `HubConfiguration.frameHeadroom`): every follower on the home loop writes those
/// bytes, and each other loop gets one copy per frame (lws writes a frame's
/// header into its headroom on the writing thread, so a payload belongs to
/// one loop) shared by all its followers.
///
/// Counts what it hands over in `tally` (plain integers; see `HubMetrics`);
/// tells `log` about errors and closes.
struct TransportSink: HubSink {
    let loops: HubLoops
    /// The loop whose hub this is.
    let home: Int
    let batches: OutboundBatches
    let tally: HubTally
    let log: ConnectionLog
    /// `--record`: accepted commands and animation ends go here (nil: not recording).
    let recorder: Recorder?
    /// `--redis`: the route to clients of other hubs (keys at `remoteConnectionBase`
    /// and above, whose commands this hub ran as their room's owner); nil alone.
    var cluster: ClusterEngine?

    /// `--api-key-file`: what the hub sends the server API's sessions (keys at
    /// `apiConnectionBase` and above) becomes HTTP answers; nil without the API.
    var api: APIAnswers?

    func send(_ bytes: [UInt8], to connection: ConnectionKey) {
        if connection >= apiConnectionBase {
            api?.received(bytes, for: connection)
            return
        }
        if connection >= remoteConnectionBase, let cluster, cluster.route(bytes, to: connection) { return }
        if tally.countMessage(bytes, copies: 1) == "error" { log.errorSent(bytes, to: connection) }
        let id = ConnectionID(rawValue: connection)
        let loop = loops.index(of: id)
        if loop == home {
            loops.servers[home].send(SharedFrame(kind: .text, bytes: bytes), to: id)
        } else {
            batches.batches[loop].send(SharedFrame(kind: .text, bytes: bytes), to: id)
        }
    }

    func send(_ bytes: [UInt8], to connections: some Sequence<ConnectionKey>) {
        var perLoop = [SharedFrame?](repeating: nil, count: loops.count)
        var copies = 0
        for connection in connections {
            if connection >= apiConnectionBase {
                api?.received(bytes, for: connection)
                continue
            }
            if connection >= remoteConnectionBase, let cluster, cluster.route(bytes, to: connection) { continue }
            let id = ConnectionID(rawValue: connection)
            let loop = loops.index(of: id)
            let frame = perLoop[loop] ?? SharedFrame(kind: .text, bytes: bytes)
            perLoop[loop] = frame
            if loop == home {
                loops.servers[home].send(frame, to: id)
            } else {
                batches.batches[loop].send(frame, to: id)
            }
            copies += 1
        }
        tally.countMessage(bytes, copies: copies)
    }

    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey) {
        tally.framesSent += 1
        tally.frameBytes += frame.payload.count
        let id = ConnectionID(rawValue: connection)
        let loop = loops.index(of: id)
        if loop == home {
            loops.servers[home].sendLatest(SharedFrame(kind: frame.messageKind, payload: frame.payload), to: id)
        } else {
            batches.batches[loop].sendLatest(batches.copy(of: frame, for: loop), to: id)
        }
    }

    func close(_ connection: ConnectionKey, code: UInt16, reason: String) {
        log.closing(connection, code: code, reason: reason)
        let id = ConnectionID(rawValue: connection)
        let loop = loops.index(of: id)
        if loop == home {
            loops.servers[home].close(id, code: CloseCode(code), reason: reason)
        } else {
            batches.batches[loop].close(id, code: CloseCode(code), reason: reason)
        }
    }

    func note(_ activity: HubActivity) { tally.note(activity) }

    var isRecording: Bool { recorder != nil }

    func record(_ entry: RecordEntry) { recorder?.append(entry) }

    /// Hands each other loop what was gathered for it since the last flush.
    func flush() {
        guard loops.count > 1 else { return }
        for loop in 0..<loops.count where loop != home && !batches.batches[loop].isEmpty {
            loops.servers[loop].apply(batches.take(loop))
        }
    }
}

/// What a hub's loop has gathered for each other loop since the last
/// flush (its own index unused). That loop only.
final class OutboundBatches {
    var batches: [OutboundBatch]
    /// Per loop and encoding, the last frame copied for it and its copy: a
    /// room's frame is handed to its followers one after the other, so one
    /// entry per loop and encoding makes one copy per room, tick, encoding and
    /// loop, however the room's JSON and binary followers interleave. Cleared with the batch.
    private var copies: [[(frame: EncodedFrame, copy: SharedFrame)?]]

    init(loops: Int) {
        batches = Array(repeating: OutboundBatch(), count: loops)
        copies = Array(repeating: Array(repeating: nil, count: FrameEncoding.allCases.count), count: loops)
    }

    func copy(of frame: EncodedFrame, for loop: Int) -> SharedFrame {
        let slot = frame.encoding == .json ? 0 : 1
        if let last = copies[loop][slot], last.frame === frame { return last.copy }
        let copy = SharedFrame(kind: frame.messageKind, count: frame.payload.count) { bytes in
            frame.payload.withUnsafeBytes { bytes.copyMemory(from: $0) }
        }
        copies[loop][slot] = (frame, copy)
        return copy
    }

    func take(_ loop: Int) -> OutboundBatch {
        copies[loop] = Array(repeating: nil, count: FrameEncoding.allCases.count)
        defer { batches[loop] = OutboundBatch() }
        return batches[loop]
    }
}

extension EncodedFrame {
    /// The WebSocket message it goes in: text for JSON, binary for `BinaryFrame`.
    var messageKind: MessageKind { encoding == .json ? .text : .binary }
}
