import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// What the hub handed its broker.
final class RecordingBroker: RoomBroker {
    var published: [RoomFrame] = []
    var forwarded: [ForwardedCommand] = []
    /// Publishes and relays in the order the hub made them ("frame", "event").
    var order: [String] = []
    func publish(_ frame: RoomFrame, in room: RoomName) {
        published.append(frame)
        order.append("frame")
    }
    func forward(_ command: ForwardedCommand) { forwarded.append(command) }
    func clientLeft(_ client: String, in room: RoomName) {}
    func roomRemoved(_ room: RoomName) {}
    var relayedEpochs: [UInt64] = []
    var summonEpochs: [UInt64] = []
    func relay(_ event: [UInt8], kind: EventSubscriptions, epoch: UInt64, in room: RoomName) {
        relayedEpochs.append(epoch)
        order.append("event")
    }
    func summon(by client: String, name: String, epoch: UInt64, in room: RoomName) { summonEpochs.append(epoch) }
    func deliver(_ message: [UInt8], toClient client: String) {}
    var routes: [[GeoCoordinate]] = []
    func routeChanged(_ points: [GeoCoordinate], epoch: UInt64, in room: RoomName) { routes.append(points) }
}

/// Fencing: an owner runs the camera only while its lease holds, and frames carry the lease's epoch.
struct HubFencingTests {
    let demo = try! RoomName(validating: "demo")

    /// A hub in a cluster with room `demo` owned under `lease` (nil: mirrored, at epoch 1).
    func clusterBench(lease: ClusterLease?) -> (HubBench, RecordingBroker) {
        let bench = HubBench()
        let broker = RecordingBroker()
        bench.hub.broker = broker
        var frame = RoomFrame(seq: 5, time: 0, camera: Camera(), limits: CameraLimits(), moving: false, by: nil)
        frame.epoch = 1
        bench.hub.prepareRoom(demo, owned: lease != nil, lease: lease, frame: frame, at: bench.time)
        return (bench, broker)
    }

    func frame(seq: UInt64, epoch: UInt64, zoom: Double) -> RoomFrame {
        var f = RoomFrame(seq: seq, time: 0, camera: Camera(zoom: zoom), limits: CameraLimits(), moving: false, by: nil)
        f.epoch = epoch
        return f
    }

    /// A hub stalled (SIGSTOP) past its lease and thawed: its first tick finds
    /// the room fenced, and a slow follower that was still owed the frame from
    /// before the stall does not get it: another hub may own the room by now.
    @Test func aThawedOwnerSendsNoFrameFromBeforeItsLeaseRanOut() {
        let (bench, _) = clusterBench(lease: ClusterLease(epoch: 2, until: 101))
        let presenter = bench.join(role: "presenter").key
        let slow = bench.join(role: "follower", rate: 5).key
        bench.send(#"{"type":"ease","id":"e","camera":{"zoom":9},"duration":5}"#, from: presenter)
        bench.run(seconds: 0.5)
        let shown = bench.frames(slow).count
        #expect(shown > 0)
        bench.runTicks(1)  // a new frame; the 5 Hz follower is not due it yet
        bench.wait(2)  // the stall: no tick, the lease runs out
        bench.runTicks(3)
        #expect(bench.hub.isFenced(demo, at: bench.now))
        #expect(bench.frames(slow).count == shown, "no frame after the thaw: \(bench.frames(slow).count - shown)")
    }

    @Test func anOwnerPastItsLeaseNeitherMovesNorPublishesAndAnswersUnavailable() {
        let (bench, broker) = clusterBench(lease: ClusterLease(epoch: 2, until: 100.5))
        let presenter = bench.join(role: "presenter").key
        let follower = bench.join(role: "follower").key
        bench.send(#"{"type":"ease","id":"e","camera":{"zoom":9},"duration":2}"#, from: presenter)
        bench.run(seconds: 0.3)
        #expect(broker.published.last?.epoch == 2, "frames carry the lease's epoch")
        #expect(bench.frames(follower).last?.json["epoch"]?.numberValue == 2)
        bench.run(seconds: 0.3)  // past 100.5
        let published = broker.published.count
        let shown = bench.frames(follower).count
        bench.run(seconds: 1)
        #expect(broker.published.count == published && bench.frames(follower).count == shown, "nothing moves, nothing is published")
        #expect(bench.hub.isFenced(demo, at: bench.now))
        bench.send(#"{"type":"set","camera":{"zoom":3}}"#, from: presenter)
        #expect(bench.lastError(presenter)?["code"]?.stringValue == "unavailable")
        #expect(bench.lastError(presenter)?["ref"]?.stringValue == "set")
        #expect(bench.answersPing(presenter), "the connection stays usable")

        bench.hub.leaseHeld(demo, ClusterLease(epoch: 2, until: bench.now + 1.35), at: bench.time, sink: bench.sink)
        bench.runTicks(1)
        #expect(bench.frames(follower).count > shown, "renewed: the camera goes on")
    }

    @Test func aFencedOwnerDoesNotRunAForwardedCommand() {
        let (bench, _) = clusterBench(lease: ClusterLease(epoch: 2, until: 100.1))
        bench.run(seconds: 0.2)
        let command = ForwardedCommand(
            room: demo, client: "c1.other", role: .driver, viewport: Viewport(width: 800, height: 600),
            message: Array(#"{"type":"set","camera":{"zoom":4}}"#.utf8))
        let ran = bench.hub.receiveForwarded(command, as: remoteConnectionBase + 1, at: bench.time, sink: bench.sink)
        #expect(!ran)
        #expect(bench.room()?.camera.zoom != 4)
    }

    @Test func aMirrorDropsAFrameOfAnOlderEpochAndAnOlderFrameOfTheSameOwner() {
        let (bench, _) = clusterBench(lease: nil)
        let follower = bench.join(role: "follower").key
        bench.hub.applyRemoteFrame(frame(seq: 7, epoch: 3, zoom: 6), in: demo)
        bench.run(seconds: 0.1)
        #expect(bench.frames(follower).last?.json["camera"]?["zoom"]?.numberValue == 6)
        #expect(bench.frames(follower).last?.json["epoch"]?.numberValue == 3)
        bench.hub.applyRemoteFrame(frame(seq: 9, epoch: 2, zoom: 2), in: demo)
        bench.hub.applyRemoteFrame(frame(seq: 6, epoch: 3, zoom: 5), in: demo)
        bench.run(seconds: 0.1)
        let shown = bench.frames(follower).last?.json["camera"]?["zoom"]?.numberValue
        #expect(shown == 6, "neither is shown")
        #expect(bench.hub.epoch(of: demo) == 3)
    }

    @Test func anOwnerThatSeesAFrameOfANewerEpochBecomesAMirrorOfIt() {
        let (bench, broker) = clusterBench(lease: ClusterLease(epoch: 2, until: 200))
        let follower = bench.join(role: "follower").key
        bench.hub.applyRemoteFrame(frame(seq: 1, epoch: 2, zoom: 8), in: demo)  // its own frame, heard back
        #expect(bench.hub.owns(demo) == true)
        bench.hub.applyRemoteFrame(frame(seq: 1, epoch: 4, zoom: 8), in: demo)
        #expect(bench.hub.owns(demo) == false, "another hub took the room")
        bench.run(seconds: 0.1)
        let last = bench.frames(follower).last
        #expect(last?.json["camera"]?["zoom"]?.numberValue == 8 && last?.json["epoch"]?.numberValue == 4)
        #expect((last?.seq ?? 0) > 5, "seq goes on increasing")
        #expect(broker.published.allSatisfy { $0.epoch == 2 }, "and it published nothing of the new epoch")
    }

    @Test func oneRenewalOfTheHubsLeaseKeepsEveryOwnedRoomRunning() {
        let (bench, broker) = clusterBench(lease: ClusterLease(epoch: 2, until: 100.5))
        let other = try! RoomName(validating: "other")
        bench.hub.prepareRoom(other, owned: true, lease: ClusterLease(epoch: 1, until: 100.5), frame: nil, at: bench.time)
        let presenter = bench.join(role: "presenter").key
        bench.send(#"{"type":"ease","id":"e","camera":{"zoom":9},"duration":3}"#, from: presenter)
        bench.run(seconds: 0.6)  // past 100.5
        #expect(bench.hub.isFenced(demo, at: bench.now) && bench.hub.isFenced(other, at: bench.now))
        bench.hub.hubLeaseRenewed(until: bench.now + 1.35, at: bench.time, sink: bench.sink)
        #expect(!bench.hub.isFenced(demo, at: bench.now) && !bench.hub.isFenced(other, at: bench.now), "both rooms, one renewal")
        let published = broker.published.count
        bench.run(seconds: 0.2)
        #expect(broker.published.count > published, "the camera goes on")
    }

    @Test func anOwnedRoomStaysFencedAfterTheHubsLeaseLapsedUntilRedisConfirmsIt() {
        let (bench, _) = clusterBench(lease: ClusterLease(epoch: 2, until: 200))
        bench.hub.hubLeaseLapsed()
        #expect(bench.hub.isFenced(demo, at: bench.now), "another hub may have taken it meanwhile")
        #expect(bench.hub.unconfirmedRooms == [demo], "the engine asks Redis about it")
        bench.hub.hubLeaseRenewed(until: bench.now + 1.35, at: bench.time, sink: bench.sink)
        #expect(bench.hub.isFenced(demo, at: bench.now), "the hub's lease alone does not give it back")
        bench.hub.leaseHeld(demo, ClusterLease(epoch: 2, until: bench.now + 1.35), at: bench.time, sink: bench.sink)
        #expect(!bench.hub.isFenced(demo, at: bench.now) && bench.hub.unconfirmedRooms.isEmpty)
    }

    // MARK: Events, summons and presence carry the epoch

    @Test func anOwnersRelayedEventsAndSummonsCarryItsEpoch() {
        let (bench, broker) = clusterBench(lease: ClusterLease(epoch: 7, until: 200))
        let presenter = bench.join(role: "presenter").key
        bench.send(#"{"type":"limits","maxTilt":45}"#, from: presenter)
        bench.send(#"{"type":"summon"}"#, from: presenter)
        #expect(!broker.relayedEpochs.isEmpty && broker.relayedEpochs.allSatisfy { $0 == 7 })
        #expect(broker.summonEpochs == [7])
    }

    @Test func aMirrorDropsAnEventOfAnOlderEpochThanItKnows() {
        let (bench, _) = clusterBench(lease: nil)
        let follower = bench.join(role: "follower").key
        bench.hub.applyRemoteFrame(frame(seq: 6, epoch: 3, zoom: 4), in: demo)
        let event = HubMessage.event(.limitsChanged(limits: CameraLimits(), by: "c9"), time: 0)
        bench.hub.applyRemoteEvent(event, kind: .limitsChanged, epoch: 2, in: demo, sink: bench.sink)
        #expect(bench.events(follower, "limitsChanged").isEmpty, "from an owner that lost the room")
        bench.hub.applyRemoteEvent(event, kind: .limitsChanged, epoch: 3, in: demo, sink: bench.sink)
        #expect(bench.events(follower, "limitsChanged").count == 1)
    }

    @Test func aSummonFromAHubThatKnewOnlyAnOlderEpochReachesNobody() {
        let (bench, _) = clusterBench(lease: nil)
        let explorer = bench.join(role: "follower").key
        bench.send(#"{"type":"follow","state":"exploring"}"#, from: explorer)
        bench.hub.applyRemoteFrame(frame(seq: 6, epoch: 3, zoom: 4), in: demo)
        bench.hub.applyRemoteSummon(by: "c1.old", name: "Ann", epoch: 2, in: demo, at: bench.time, sink: bench.sink)
        #expect(bench.events(explorer, "summoned").isEmpty)
        bench.hub.applyRemoteSummon(by: "c1.new", name: "Ann", epoch: 3, in: demo, at: bench.time, sink: bench.sink)
        #expect(bench.events(explorer, "summoned").count == 1)
    }

    @Test func presenceOfAnOlderEpochIsDroppedAndAHubAnnouncesItsOwnAgainWhenItLearnsANewerOne() {
        let (bench, _) = clusterBench(lease: nil)
        let member = bench.join(role: "driver").key
        _ = bench.hub.takePresenceChanges()
        bench.hub.applyRemoteFrame(frame(seq: 6, epoch: 3, zoom: 4), in: demo)
        #expect(bench.hub.takePresenceChanges() == [demo], "announced again under epoch 3")
        #expect(bench.hub.localPresence(of: demo)?.epoch == 3)
        let stale = HubPresence(
            entries: [RosterEntry(client: "c4.old", name: "Bo", role: .driver, follow: .following)],
            audience: Audience(clients: 1, followers: 0), epoch: 2)
        bench.hub.applyRemotePresence(stale, from: "old", in: demo, at: bench.time, sink: bench.sink)
        #expect(bench.events(member, "joined").isEmpty, "a stalled ex-owner's roster is not shown")
        var current = stale
        current.epoch = 3
        bench.hub.applyRemotePresence(current, from: "old", in: demo, at: bench.time, sink: bench.sink)
        #expect(bench.events(member, "joined").count == 1)
    }

    @Test func aHubThatTakesARoomFromItsCheckpointKeepsTheRoomsGlobe() {
        let bench = HubBench()
        bench.hub.broker = RecordingBroker()
        var checkpoint = frame(seq: 9, epoch: 4, zoom: 3)
        checkpoint.projection = .globe
        bench.hub.prepareRoom(demo, owned: true, lease: ClusterLease(epoch: 5, until: 200), frame: checkpoint, at: bench.time)
        let follower = bench.join(role: "follower").key
        #expect(bench.welcome(follower)?["projection"]?.stringValue == "globe")
    }
}
