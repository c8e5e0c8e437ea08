import CamHubProtocol
import HubCore

/// What the hub sent, received and skipped since the last flush, in plain
/// integers: the loop thread adds to it per message and per frame without a
/// lock, and `HubMetrics` moves it into swift-metrics once a second (and on
/// each scrape). Loop thread only.
final class HubTally {
    /// Added to once per frame per follower: no dynamic exclusivity check
    /// (only the loop thread touches the tally, one access at a time).
    @exclusivity(unchecked) var framesSent = 0
    @exclusivity(unchecked) var frameBytes = 0
    /// The rest of what was counted since the last `take` (its frame counts and
    /// durations stay zero and empty here: they are kept above and below, and
    /// `take` files them in).
    private var counts = TallyCounts()
    /// Durations of ticks (and of their frame-send passes) not yet taken.
    private var tickDurations: [Duration] = []
    private var sendPassDurations: [Duration] = []
    /// The send pass of the tick running now.
    var sendPassStarted: ContinuousClock.Instant?
    var sendPassTotal: Duration = .zero
    var sendPassRan = false

    /// Caps the buffered durations if nobody flushes (a tick rate of 240 Hz fills it in ~4 s).
    static let maxBufferedDurations = 1024

    /// Counts `copies` sends of one encoded message; returns its type.
    @discardableResult
    func countMessage(_ bytes: [UInt8], copies: Int) -> String {
        let type = Self.messageType(bytes)
        counts.messagesByType[type, default: 0] += copies
        counts.messageBytes += bytes.count * copies
        if type == "error" { counts.errorsByCode[Self.errorCode(bytes), default: 0] += copies }
        return type
    }

    func note(_ activity: HubActivity) {
        switch activity {
        case .command(let type): counts.commandsByType[type, default: 0] += 1
        case .rateLimited: counts.rateLimited += 1
        case .framesThrottled(let count): counts.framesThrottled += count
        case .sendPassStarted:
            sendPassStarted = .now
        case .sendPassEnded:
            if let started = sendPassStarted { sendPassTotal += .now - started }
            sendPassStarted = nil
            sendPassRan = true
        }
    }

    /// After each tick: its duration, and how long its frame sends took (when any room sent).
    func tickEnded(duration: Duration) {
        if tickDurations.count < Self.maxBufferedDurations { tickDurations.append(duration) }
        if sendPassRan, sendPassDurations.count < Self.maxBufferedDurations { sendPassDurations.append(sendPassTotal) }
        sendPassRan = false
        sendPassTotal = .zero
    }

    func countClose(code: UInt16?) {
        counts.closesByCode[Self.closeLabel(code), default: 0] += 1
    }

    /// A close code as a label value with bounded cardinality: the codes of
    /// RFC 6455 as they are, application codes by range, "none" without a close frame.
    static func closeLabel(_ code: UInt16?) -> String {
        guard let code else { return "none" }
        switch code {
        case 1000...1015: return String(code)
        case 3000...3999: return "3xxx"
        case 4000...4999: return "4xxx"
        default: return "other"
        }
    }

    /// What was counted since the last `take`, as a value another thread may
    /// add up (each loop's hub has a tally; loop 0 moves their sum into the
    /// metrics); the tally starts again from nothing.
    /// `loop`: the loop whose hub this tally counts (its ticks are labelled with it).
    func take(loop: Int) -> TallyCounts {
        var taken = counts
        taken.framesSent = framesSent
        taken.frameBytes = frameBytes
        taken.tickDurations = [loop: tickDurations]
        taken.sendPassDurations = [loop: sendPassDurations]
        counts = TallyCounts()
        framesSent = 0
        frameBytes = 0
        tickDurations.removeAll(keepingCapacity: true)
        sendPassDurations.removeAll(keepingCapacity: true)
        return taken
    }

    private static let typePrefix = Array(#"{"type":""#.utf8)
    private static let errorPrefix = Array(#"{"type":"error","code":""#.utf8)

    /// The `type` of a message the hub encoded (they all start `{"type":"`),
    /// read from its first bytes without parsing (a small string: no heap allocation).
    static func messageType(_ bytes: [UInt8]) -> String {
        guard bytes.starts(with: typePrefix) else { return "other" }
        let rest = bytes[typePrefix.count...].prefix(maxTypeLength + 1)
        guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return "other" }
        let type = String(decoding: rest[..<end], as: UTF8.self)
        return knownTypes.contains(type) ? type : "other"
    }

    /// The hub's message types (a bounded label set: anything else is "other").
    static let knownTypes: Set<String> = [
        "welcome", "frame", "animation", "event", "error", "result", "pong", "gestures", "gestureAck",
    ]
    static let maxTypeLength = knownTypes.map(\.count).max() ?? 0

    /// The `code` of an encoded `error` message (`HubMessage.error` writes it right after the type).
    static func errorCode(_ bytes: [UInt8]) -> String {
        guard bytes.starts(with: errorPrefix) else { return "unknown" }
        let rest = bytes[errorPrefix.count...]
        guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return "unknown" }
        return String(decoding: rest[..<end], as: UTF8.self)
    }
}

/// A `HubTally`'s counts at one moment (`take`), added up over loops with `+`.
struct TallyCounts: Sendable, Equatable {
    var framesSent = 0
    var frameBytes = 0
    var messagesByType: [String: Int] = [:]
    var messageBytes = 0
    var errorsByCode: [String: Int] = [:]
    var commandsByType: [String: Int] = [:]
    var rateLimited = 0
    var framesThrottled = 0
    var closesByCode: [String: Int] = [:]
    /// By loop: each loop's hub ticks on its own.
    var tickDurations: [Int: [Duration]] = [:]
    var sendPassDurations: [Int: [Duration]] = [:]

    static func + (a: TallyCounts, b: TallyCounts) -> TallyCounts {
        var sum = a
        sum.framesSent += b.framesSent
        sum.frameBytes += b.frameBytes
        sum.messagesByType.merge(b.messagesByType, uniquingKeysWith: +)
        sum.messageBytes += b.messageBytes
        sum.errorsByCode.merge(b.errorsByCode, uniquingKeysWith: +)
        sum.commandsByType.merge(b.commandsByType, uniquingKeysWith: +)
        sum.rateLimited += b.rateLimited
        sum.framesThrottled += b.framesThrottled
        sum.closesByCode.merge(b.closesByCode, uniquingKeysWith: +)
        sum.tickDurations.merge(b.tickDurations, uniquingKeysWith: +)
        sum.sendPassDurations.merge(b.sendPassDurations, uniquingKeysWith: +)
        return sum
    }
}
