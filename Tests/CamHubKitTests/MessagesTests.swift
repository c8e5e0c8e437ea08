import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import Testing

/// What a room offers besides its state and commands: every hub message as it
/// came (`messages`), sending any message as is (`send`), and a bounded number
/// of attempts to join again.
@Suite("CamHubKit messages and attempts", .serialized)
struct MessagesTests {
    @Test func messagesStartWithTheWelcomeAsTheHubWroteIt() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit", encoding: .json)
        let welcome = await first(room.messages, within: 10) { _ in true }
        guard case .welcome(let w, _)? = welcome?.message else {
            Issue.record("the first message is not the welcome: \(String(describing: welcome))")
            return
        }
        #expect(w.room.value == "kit")
        let text = try #require(welcome?.text)
        #expect(try JSONParser.parse(text)["type"]?.stringValue == "welcome", "its text as it came")
        let now = ReceivedMessage.wallClock()
        #expect(welcome.map { $0.receivedAt <= now && $0.receivedAt > now - 60_000 } == true, "stamped with the wall clock on arrival")
        await room.close()
    }

    @Test func aMessageSentAsItIsIsAnsweredInMessages() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        try await room.send(.ping(t: 42))
        let pong = await first(room.messages, within: 10) { if case .pong(42, _) = $0.message { true } else { false } }
        #expect(pong != nil, "the hub answered the ping")
        await room.close()
    }

    @Test func aRoomGivesUpAfterItsAttemptsAndSaysWhy() async throws {
        let hub = try LocalHub(["--drain-spread", "0"])
        var backoff = Backoff(delays: [0.05], jitter: 0, attempts: 2)
        backoff.drainWindowMax = 0.05
        let room = try await CamHub.connect(url: hub.url, room: "kit", reconnect: backoff)
        hub.stop()
        let ended = await first(room.changes, within: 10) { if case .connection(.closed) = $0 { true } else { false } }
        guard case .connection(.closed(let why?))? = ended else {
            Issue.record("the room did not end: \(String(describing: ended))")
            return
        }
        #expect(why.closeCode == 1012 && why.message.contains("gave up after 2 attempts"), "\(why)")
    }
}
