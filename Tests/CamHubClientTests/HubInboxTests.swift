import Dispatch
import Foundation
import Synchronization
import Testing
import WebSocketTransport

@testable import CamHubClient
@testable import CamHubProtocol

/// What a connection's loop thread hands to the threads that read it:
/// messages in order, then the close, and every waiting reader woken.
@Suite("HubInbox: from the client loop to the reading threads")
struct HubInboxTests {
    func message(_ text: String) -> HubConnection.Received {
        HubConnection.Received(text: text, message: HubToClient.reading(text: text), localTime: 0)
    }

    let bye = ClientCloseEvent(code: .normal, wasOpen: true, error: nil)

    func texts(_ inbox: HubInbox) -> [String] {
        var seen: [String] = []
        while case .message(let r)? = inbox.next(until: monotonicSeconds()) { seen.append(r.text) }
        return seen
    }

    @Test func messagesComeOutInTheOrderTheyArrivedThenTheClose() {
        let inbox = HubInbox()
        for n in 0..<3 { inbox.received(message(#"{"type":"pong","n":\#(n)}"#)) }
        inbox.closed(bye)
        #expect(texts(inbox) == (0..<3).map { #"{"type":"pong","n":\#($0)}"# })
        #expect(inbox.closeEvent == bye)
        #expect(inbox.next(until: monotonicSeconds()) == nil, "the close is taken once")
    }

    @Test func aReaderWaitsForTheNextMessageAndNoLonger() {
        let inbox = HubInbox()
        let started = monotonicSeconds()
        #expect(inbox.next(until: started + 0.05) == nil)
        #expect(monotonicSeconds() - started >= 0.05, "it waited until its deadline")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { inbox.received(message(#"{"type":"pong"}"#)) }
        guard case .message(let r)? = inbox.next(until: monotonicSeconds() + 5) else {
            Issue.record("the message that came while it waited")
            return
        }
        #expect(r.text == #"{"type":"pong"}"#)
    }

    @Test func oneCloseWakesEveryReaderWaiting() {
        let inbox = HubInbox()
        let woken = Mutex(0)
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            DispatchQueue.global().async {
                if inbox.waitClosed(until: monotonicSeconds() + 5) { woken.withLock { $0 += 1 } }
                done.leave()
            }
        }
        Thread.sleep(forTimeInterval: 0.1)  // both waiting (and if not yet, they find the close at once)
        let closedAt = monotonicSeconds()
        inbox.closed(bye)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(woken.withLock { $0 } == 2)
        #expect(monotonicSeconds() - closedAt < 2, "woken by the close, not by their deadlines")
    }

    @Test func openingIsSeenAndAFailedConnectionIsNot() {
        let opened = HubInbox()
        opened.opened()
        #expect(opened.waitOpen(until: monotonicSeconds() + 1))
        let refused = HubInbox()
        refused.closed(ClientCloseEvent(code: nil, wasOpen: false, error: "connection refused"))
        #expect(!refused.waitOpen(until: monotonicSeconds() + 1))
    }
}
