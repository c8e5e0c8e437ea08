import Testing

@testable import CamHubProtocol
@testable import HubCore

/// A storyboard event reaches mirrors after the frame that carries the storyboard.
struct HubStoryOrderTests {
    let demo = try! RoomName(validating: "demo")

    func owner() -> (HubBench, RecordingBroker, presenter: ConnectionKey) {
        let bench = HubBench()
        let broker = RecordingBroker()
        bench.hub.broker = broker
        bench.hub.prepareRoom(demo, owned: true, lease: ClusterLease(epoch: 1, until: 1e9), frame: nil, at: bench.time)
        let presenter = bench.join(role: "presenter").key
        bench.run(seconds: 0.1)
        return (bench, broker, presenter)
    }

    @Test func aStoryEditIsPublishedInAFrameBeforeItsEventIsRelayed() throws {
        let (bench, broker, presenter) = owner()
        broker.order.removeAll()
        bench.send(HubStoryTests.threeSteps, from: presenter)
        #expect(broker.order.first == "frame" && broker.order.contains("event"), "\(broker.order)")
        #expect(broker.published.last?.story?.steps.count == 3, "the frame carries the new storyboard")
    }

    @Test func aStepIsPublishedInAFrameBeforeItsEventIsRelayed() throws {
        let (bench, broker, presenter) = owner()
        bench.send(HubStoryTests.threeSteps, from: presenter)
        bench.run(seconds: 0.1)
        broker.order.removeAll()
        bench.send(#"{"type":"step","to":1}"#, from: presenter)
        let firstEvent = try #require(broker.order.firstIndex(of: "event"))
        #expect(broker.order.prefix(firstEvent).contains("frame"), "\(broker.order)")
        #expect(broker.published.last?.story?.index == 1, "the frame carries the step the event speaks of")
    }
}
