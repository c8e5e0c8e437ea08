import CameraCore
import HubCore
import Testing

@testable import HubCluster

/// Redis hands an owner its own frames back (it listens on its rooms'
/// channels); the Redis thread drops them by their epoch, and only them.
@Suite struct OwnFramesTests {
    static func frame(epoch: UInt64) -> [UInt8] {
        var f = RoomFrame(seq: 3, time: 1.5e12, camera: Camera(zoom: 4), limits: CameraLimits(), moving: true, by: "c1")
        f.epoch = epoch
        return ClusterMessage.frame(f).encoded()
    }

    @Test func theEpochIsReadOffAFrameWithoutDecodingIt() {
        #expect(ClusterMessage.frameEpoch(Self.frame(epoch: 1_795_838_952_615_599)) == 1_795_838_952_615_599)
        #expect(ClusterMessage.frameEpoch(ClusterMessage.heartbeat(hub: "a").encoded()) == nil)
        #expect(ClusterMessage.frameEpoch([UInt8(ascii: "F"), 1, 2]) == nil, "cut short")
    }

    @Test func onlyFramesOfTheEpochThisHubPublishedWithOnThatChannelAreItsOwn() {
        let own = OwnFrames()
        #expect(!own.isOwn(Self.frame(epoch: 7), on: "{demo}:frames"), "nothing published yet")
        own.published(on: "{demo}:frames", epoch: 7)
        #expect(own.isOwn(Self.frame(epoch: 7), on: "{demo}:frames"))
        #expect(!own.isOwn(Self.frame(epoch: 8), on: "{demo}:frames"), "a newer owner's frames go to the loop")
        #expect(!own.isOwn(Self.frame(epoch: 7), on: "{other}:frames"), "another room's channel")
        #expect(!own.isOwn(ClusterMessage.summon(hub: "b", by: "c2", name: "Ann", epoch: 1).encoded(), on: "{demo}:frames"), "not a frame")
        own.forget("{demo}:frames")
        #expect(!own.isOwn(Self.frame(epoch: 7), on: "{demo}:frames"), "the room was left")
    }
}
