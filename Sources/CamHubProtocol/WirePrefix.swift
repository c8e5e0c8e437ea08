/// Fixed byte sequences that fast paths match instead of parsing a whole
/// message (the bench's follower sockets read a frame's `seq` and `time` this
/// way). The encoders write these same constants, so a fast path and the hub
/// cannot drift apart.
public enum WirePrefix {
    /// How every JSON `frame` starts; its `seq` digits follow.
    public static let frame: StaticString = "{\"type\":\"frame\",\"seq\":"
    /// What follows a JSON frame's `seq`; its `time` (ms since the epoch) follows.
    public static let frameTime: StaticString = ",\"time\":"
    /// How a hub message of `type` starts (`{"type":"welcome"`).
    public static func message(_ type: String) -> String { "{\"type\":\"\(type)\"" }

    /// A binary frame's `seq` (u64, little-endian) and `time` (f64) offsets, and the
    /// bytes up to the end of `time` (`BinaryFrame`'s layout).
    public static let binarySeqOffset = 2
    public static let binaryTimeOffset = 10
    public static let binaryHead = 18

    /// `prefix` as bytes.
    public static func bytes(_ prefix: StaticString) -> [UInt8] { prefix.withUTF8Buffer { Array($0) } }
}
