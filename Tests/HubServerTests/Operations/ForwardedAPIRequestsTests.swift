import CamHubProtocol
import HubCore
import Synchronization
import Testing
import WebSocketTransport

@testable import HubServer

/// The asking side of the server API in a cluster: every forwarded request
/// ends with an answer, the other hub's or this one's (no sockets: time is given).
@Suite("Server API: requests asked of other hubs")
struct ForwardedAPIRequestsTests {
    final class Answers: Sendable {
        let responses = Mutex<[HTTPResponse]>([])
        var all: [HTTPResponse] { responses.withLock { $0 } }
        var responder: HTTPResponder { HTTPResponder { response in self.responses.withLock { $0.append(response) } } }
    }

    let nowhere = APIFailure(status: 404, code: "not_found", "room: nowhere")

    func entry(_ name: String, owned: Bool) -> APIRoomEntry {
        APIRoomEntry(name: try! RoomName(validating: name), owned: owned, json: Array(#"{"name":"\#(name)"}"#.utf8))
    }

    @Test func theOtherHubsAnswerIsTheAnswerAndNoHubMeans404() {
        let requests = ForwardedAPIRequests()
        let answers = Answers()
        requests.add(1, .single(nowhere: nowhere, unanswered: "late"), responder: answers.responder, at: 0)
        requests.add(2, .single(nowhere: nowhere, unanswered: "late"), responder: answers.responder, at: 0)
        requests.arrived(.delivered(id: 1, receivers: 1))
        requests.arrived(.answered(id: 1, status: 409, body: Array("{}".utf8)))
        requests.arrived(.delivered(id: 2, receivers: 0))
        #expect(answers.all.map(\.status) == [409, 404] && requests.count == 0)
    }

    @Test func noAnswerWithinTheBoundIs503AndAWaitingCommandLastsWhileItsHubLives() throws {
        let requests = ForwardedAPIRequests()
        let answers = Answers()
        requests.add(1, .single(nowhere: nowhere, unanswered: "cluster: late"), responder: answers.responder, at: 0)
        requests.add(2, .single(nowhere: nowhere, unanswered: "cluster: late"), responder: answers.responder, at: 0)
        requests.arrived(.waiting(id: 2, hub: "h2"))
        requests.expire(at: ForwardedAPIRequests.answerWithin - 0.1) { _ in false }
        #expect(answers.all.isEmpty)
        requests.expire(at: ForwardedAPIRequests.answerWithin) { _ in false }
        #expect(answers.all.map(\.status) == [503] && requests.count == 1, "the waiting command goes on")
        let failure = try JSONParser.parse(answers.all[0].body)
        #expect(failure["code"]?.stringValue == "unavailable" && failure["message"]?.stringValue == "cluster: late")
        requests.expire(at: 10) { $0 == "h2" }
        #expect(answers.all.map(\.status) == [503, 503] && requests.count == 0, "its hub fell silent")
    }

    @Test func theRoomListWaitsForEveryHubThenGivesWhatCameCountingTheSilent() throws {
        let requests = ForwardedAPIRequests()
        let answers = Answers()
        requests.add(1, .rooms(lists: [[entry("a", owned: false)]], expected: nil), responder: answers.responder, at: 0)
        requests.arrived(.rooms(id: 1, hub: "h2", [entry("a", owned: true)]))
        requests.arrived(.delivered(id: 1, receivers: 3))
        #expect(answers.all.isEmpty, "one hub of two has answered")
        requests.expire(at: ForwardedAPIRequests.answerWithin) { _ in false }
        let list = try JSONParser.parse(try #require(answers.all.first).body)
        #expect(list["unanswered"]?.numberValue == 1 && list["rooms"]?.arrayValue?.count == 1)
    }
}
