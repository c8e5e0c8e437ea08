import CamHubProtocol
import Foundation

/// One message from the hub as it came (`Room.messages`): decoded, the local
/// wall-clock time it arrived, and the text of a text message. The JavaScript
/// client's `message` event and the Python client's `on_wire` say the same.
public struct ReceivedMessage: Sendable {
    public var message: HubToClient
    /// The local wall clock when it arrived: ms since 1970, the unit of the hub's
    /// `time` (a frame's latency is `receivedAt − frame.time` on the hub's machine).
    public var receivedAt: Double
    /// The JSON text as the hub sent it; nil for a binary frame (`HubFrame.json` is the JSON frame that says the same).
    public var text: String?

    public init(message: HubToClient, receivedAt: Double, text: String?) {
        self.message = message
        self.receivedAt = receivedAt
        self.text = text
    }

    /// The local wall clock now, ms since 1970.
    public static func wallClock() -> Double { Date().timeIntervalSince1970 * 1000 }
}
