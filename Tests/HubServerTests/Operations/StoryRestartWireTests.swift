import CamHubProtocol
import Foundation
import HubCore
import SocketTestSupport
import Testing

extension HubServerTests {
    /// A room's storyboard, and the step it is on, are kept across a restart of
    /// the hub (`--data`): a joiner after the restart finds them, paused, and
    /// the presenter steps on from there.
    @Test func theStoryboardAndItsStepSurviveARestart() throws {
        let data = NSTemporaryDirectory() + "camhub-story-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        do {
            let hub = try RunningHub { $0.dataDirectory = data }
            let presenter = try HubClients(port: hub.port).join("kept", role: "presenter")
            presenter.send(
                #"{"type":"story","op":"set","steps":[{"camera":{"lat":38.72,"lon":-9.14,"zoom":11},"via":"jump","title":"Lisbon","hold":5},{"camera":{"lat":41.15,"lon":-8.61,"zoom":12,"roll":-8},"via":"jump","title":"Porto"}]}"#
            )
            presenter.send(#"{"type":"step","to":"play"}"#)
            #expect(presenter.nextEvent("storyStep")?["playing"]?.boolValue == true)
            hub.shutdown()
        }
        let again = try RunningHub { $0.dataDirectory = data }
        let clients = try HubClients(port: again.port)
        let follower = clients.join("kept", role: "follower")
        let story = follower.messages("welcome").first?.json["story"]
        #expect(story?["count"]?.numberValue == 2 && story?["index"]?.numberValue == 0 && story?["title"]?.stringValue == "Lisbon")
        #expect(story?["playing"]?.boolValue == false, "autoplay does not outlive the hub")
        clients.join("kept", role: "presenter").send(#"{"type":"step","to":"next"}"#)
        let step = follower.nextEvent("storyStep")
        #expect(step?["title"]?.stringValue == "Porto" && step?["camera"]?["roll"]?.numberValue == -8)
    }
}
