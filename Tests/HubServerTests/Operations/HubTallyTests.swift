import Testing

@testable import HubServer

extension HubServerTests {
    @Test func everyMessageTypeTheHubSendsIsCountedUnderItsOwnName() {
        for type in ["welcome", "frame", "animation", "event", "error", "result", "pong", "gestures", "gestureAck"] {
            #expect(HubTally.messageType(Array(#"{"type":"\#(type)","x":1}"#.utf8)) == type)
        }
        #expect(HubTally.messageType(Array(#"{"type":"somethingNew","x":1}"#.utf8)) == "other", "labels stay bounded")
        #expect(HubTally.messageType(Array(#"{"seq":1}"#.utf8)) == "other")
    }
}
