import CamHubProtocol
import Foundation
import HubCluster
import HubCore
import HubRecording
import Logging
import WebSocketTransport

extension HubServer {
    /// One loop's hub and everything around it, on that loop's thread (inside
    /// a `LoopBound`): the rooms `RoomPlacement` gives the loop, the sessions of
    /// the clients in them (whichever loop holds their sockets), the tick and
    /// send passes, their tally, the room store's bookkeeping, the server
    /// API's answers; in a cluster, the loop's Redis engine (each loop is a
    /// member of the cluster) and the API requests it asked of other hubs.
    final class State {
        var hub: Hub
        /// The loop this state lives on.
        let home: Int
        /// This loop's Redis engine (`--redis`); nil: the in-memory engine.
        /// Its Redis thread posts events to this loop (`clusterEvent`).
        var cluster: ClusterEngine?
        /// What this loop's hub sent, received and skipped since loop 0 last gathered it for the metrics.
        let tally = HubTally()
        let log: ConnectionLog
        var persistence: RoomPersistence?
        /// `--record`: accepted commands and animation ends (nil: not recording; shared by the loops).
        let recorder: Recorder?
        /// The hubs' shared clock's zero: every loop's hub tells the same time (frames carry it).
        let start: ContinuousClock.Instant
        var sink: TransportSink
        /// The server API's answers in waiting (`--api-key-file`), for the rooms of this loop.
        let api = APIAnswers()
        /// The server API's requests this loop's engine asked of other hubs, until they answer (`--redis`).
        let forwarded = ForwardedAPIRequests()
        /// Frames the next tick or send slice may write, sized from the measured
        /// cost of the last ones, so the 60 Hz clock never waits long for a slice.
        var sliceBudget: SendSliceBudget
        /// Whether a send slice is scheduled: one at a time. (Each tick that left
        /// a pass unfinished used to schedule one more; under load the chains
        /// piled up, every loop iteration ran all of them, and the clock fell to
        /// 38–52 ticks a second at 10,000 followers.)
        var sliceScheduled = false
        /// Connections this hub handed to another loop's hub at their `hello`
        /// (`Hub.handOver`) → that loop: what they send next follows them there, in order.
        var handedOver: [ConnectionKey: Int] = [:]

        init(hub: Hub, home: Int, start: ContinuousClock.Instant, logger: Logger, loops: HubLoops, recorder: Recorder?) {
            self.hub = hub
            self.home = home
            self.start = start
            log = ConnectionLog(logger: logger)
            self.recorder = recorder
            sliceBudget = SendSliceBudget(tick: hub.configuration.tick, ceiling: hub.configuration.sendBudget)
            sink = TransportSink(
                loops: loops, home: home, batches: OutboundBatches(loops: loops.count),
                tally: tally, log: log, recorder: recorder)
            sink.api = api
        }

        func now() -> HubTime {
            HubTime(seconds: (ContinuousClock.now - start).seconds, epochMilliseconds: Date().timeIntervalSince1970 * 1000)
        }

        /// What loop 0 gathers from every loop for the metrics, once a second and on each scrape.
        func figures() -> LoopFigures {
            LoopFigures(
                hub: HubFigures(hub, now: now().seconds), tally: tally.take(loop: home), roomStore: persistence?.depth ?? 0,
                cluster: cluster.map(ClusterFigures.init))
        }

        /// Runs one tick or send slice (`body` gets the frames it may write and
        /// leaves what it did not use), hands its messages to the transport, and
        /// measures it for the next slice's budget. Returns whether sends remain.
        func sendSlice(_ body: (inout Hub, inout Int) -> Bool) -> Bool {
            let started = ContinuousClock.now
            let given = sliceBudget.frames
            var left = given
            let more = body(&hub, &left)
            sink.flush()
            sliceBudget.record(frames: given - left, seconds: (ContinuousClock.now - started).seconds)
            return more
        }
    }
}

/// One loop's part of the metrics (`State.figures`).
struct LoopFigures: LoopPart {
    var hub: HubFigures
    var tally: TallyCounts
    /// Rooms of this loop waiting for the room store's writer.
    var roomStore: Int
    /// This loop's Redis engine (`--redis`).
    var cluster: ClusterFigures?

    static func + (a: LoopFigures, b: LoopFigures) -> LoopFigures {
        LoopFigures(hub: a.hub + b.hub, tally: a.tally + b.tally, roomStore: a.roomStore + b.roomStore, cluster: a.cluster + b.cluster)
    }
}
