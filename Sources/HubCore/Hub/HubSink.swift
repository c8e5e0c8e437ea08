import CamHubProtocol
import SharedBytes

/// A connection as the hub knows it: an opaque number the transport assigns.
public typealias ConnectionKey = UInt64

/// One encoded `frame` message, shared by every follower due it in a tick:
/// the hub encodes a room's frame once, into a payload with the transport's
/// headroom (`HubConfiguration.frameHeadroom`), and hands the same bytes to all.
public final class EncodedFrame: Sendable {
    public let seq: UInt64
    public let payload: SharedBytes
    /// JSON text, or binary (`BinaryFrame`): the WebSocket message kind to send it as.
    public let encoding: FrameEncoding
    public init(seq: UInt64, payload: SharedBytes, encoding: FrameEncoding = .json) {
        self.seq = seq
        self.payload = payload
        self.encoding = encoding
    }
    /// The frame's bytes (a copy: for tests and tools).
    public var bytes: [UInt8] { payload.array }
}

/// Where the hub's output goes. The server implements it on its loop thread
/// (ordered control lane, latest-frame lane, close); tests record it.
public protocol HubSink {
    /// An ordered message that must not be dropped (welcome, errors, events, results).
    func send(_ bytes: [UInt8], to connection: ConnectionKey)
    /// The same ordered message to many connections (a room event): a sink can
    /// share one buffer among them instead of copying per connection.
    func send(_ bytes: [UInt8], to connections: some Sequence<ConnectionKey>)
    /// A frame for the latest-only lane: replaces any frame not yet written.
    func sendFrame(_ frame: EncodedFrame, to connection: ConnectionKey)
    /// Sends queued control messages, then closes with `code`.
    func close(_ connection: ConnectionKey, code: UInt16, reason: String)
    /// What the hub did besides its output, for metrics (default: ignored).
    /// Called per command and per room per tick, never per frame.
    func note(_ activity: HubActivity)
    /// True when the sink keeps a recording (`camhub serve --record`): the hub
    /// then calls `record` per accepted command and per ended animation
    /// (default: false, and nothing is built for it).
    var isRecording: Bool { get }
    /// One entry for the recording (default: ignored).
    func record(_ entry: RecordEntry)
}

/// What the hub reports to its sink for counting (`HubSink.note`).
public enum HubActivity: Sendable {
    /// A message decoded and handed to the hub's logic (`type` as on the wire).
    case command(type: String)
    /// A message dropped by the per-connection rate limit.
    case rateLimited
    /// Followers of a room passed over in one tick although the room had a
    /// newer frame: their rate is below the tick rate.
    case framesThrottled(Int)
    /// Brackets one room's frame sends in a tick (encoding and handing frames to the sink).
    case sendPassStarted, sendPassEnded
}

extension HubSink {
    public func note(_ activity: HubActivity) {}
    public var isRecording: Bool { false }
    public func record(_ entry: RecordEntry) {}

    public func send(_ bytes: [UInt8], to connections: some Sequence<ConnectionKey>) {
        for connection in connections { send(bytes, to: connection) }
    }
}

/// The hub's two clocks at one instant. `seconds` is monotonic (drives the
/// cameras); `epochMilliseconds` is the wall clock put in every `time` field.
public struct HubTime: Hashable, Sendable {
    public var seconds: Double
    public var epochMilliseconds: Double
    public init(seconds: Double, epochMilliseconds: Double) {
        self.seconds = seconds
        self.epochMilliseconds = epochMilliseconds
    }

    /// The wall clock (ms since the epoch) at monotonic hub time `seconds`.
    public func epochMilliseconds(at seconds: Double) -> Double {
        epochMilliseconds + (seconds - self.seconds) * 1000
    }
}
