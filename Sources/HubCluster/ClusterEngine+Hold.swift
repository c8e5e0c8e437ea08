import CamHubProtocol
import HubCore

/// How much a connection may send while its room is being prepared (its
/// hello waits for Redis), and how long a room may take to be prepared.
public struct HoldLimits: Sendable {
    /// Messages one waiting connection may send (its hello included); one
    /// more closes it 1013 (try again later).
    public var messages = 64
    /// Bytes one waiting connection may send; beyond them it is closed 1013.
    public var bytes = 64 * 1024
    /// Seconds a room may wait for Redis's answers before it is given up:
    /// its waiting clients get `unavailable` (ref `hello`), and the room no
    /// longer counts against the hub's room cap (`--max-rooms`).
    public var deadline = 2.0

    public init() {}
}

/// Messages that wait for Redis before the hub may take them (server glue,
/// on the hub's loop thread): a `hello` for a room this hub does not have
/// yet, and what its connection sends until the room is ready. Bounded per
/// connection (`HoldLimits`) and in time.
extension ClusterEngine {
    /// Holds `bytes` when it must wait for Redis: a `hello` for a room this hub
    /// does not have yet (the room is prepared first: owned here or mirrored,
    /// with the cluster's camera), or anything from a connection whose earlier
    /// messages wait. Returns false when the hub may take the message now. A
    /// connection that sends more than `holdLimits` allow meanwhile is closed
    /// 1013 and its messages dropped.
    ///
    /// Nothing is done for a room before its hello is admitted: a hello the
    /// hub would refuse (token, caps) goes straight to the hub, which answers
    /// it, and leaves no key, lease or subscription in Redis.
    public func hold(_ bytes: [UInt8], from connection: ConnectionKey, hub: Hub, at time: HubTime, sink: some HubSink) -> Bool {
        if let room = heldConnections[connection] {
            let size = preparing[room]?.heldSize[connection] ?? (0, 0)
            guard size.messages < holdLimits.messages, size.bytes + bytes.count <= holdLimits.bytes else {
                heldTooMuch += 1
                connectionClosed(connection)
                sink.close(connection, code: 1013, reason: "too much sent before the room was ready; try again later")
                return true
            }
            preparing[room]?.held.append((connection, bytes))
            preparing[room]?.heldSize[connection] = (size.messages + 1, size.bytes + bytes.count)
            return true
        }
        guard case .hello(let hello)? = try? ClientMessage.decode(bytes, tick: hub.configuration.tick),
            hub.owns(hello.room) == nil
        else { return false }
        let others = preparing.count - (preparing[hello.room] == nil ? 0 : 1)
        guard (try? hub.admit(hello, preparing: others, at: time)) != nil else { return false }
        heldConnections[connection] = hello.room
        if preparing[hello.room] != nil {  // the room is on its way already
            preparing[hello.room]?.held.append((connection, bytes))
            preparing[hello.room]?.heldSize[connection] = (1, bytes.count)
            return true
        }
        var preparation = Preparation(startedAt: time.seconds, held: [(connection, bytes)])
        preparation.heldSize[connection] = (1, bytes.count)
        preparing[hello.room] = preparation
        subscribe(hello.room)
        requestLeases([(hello.room, 0)], as: .claim(hello.room, sentAt: time.seconds))
        send(["GET", key(hello.room, "frame")], .load(hello.room))
        send(["GET", key(hello.room, "route")], .loadRoute(hello.room))
        send(["HGETALL", key(hello.room, "presence")], .loadPresence(hello.room))
        return true
    }

    /// Rooms whose first hello waits for Redis now.
    public var preparingRooms: Int { preparing.count }

    /// `connection` closed (or was closed): what it had waiting is dropped, so
    /// that a room that becomes ready later does not join a connection that is gone.
    public func connectionClosed(_ connection: ConnectionKey) {
        guard let room = heldConnections.removeValue(forKey: connection) else { return }
        preparing[room]?.held.removeAll { $0.0 == connection }
        preparing[room]?.heldSize[connection] = nil
    }

    /// Rooms that waited for Redis past `holdLimits.deadline` (Redis takes
    /// commands but does not answer): each is given up. Its waiting clients
    /// get `unavailable` for their hello and may send it again; the room's
    /// subscriptions go, and a claim Redis may still run is released after it.
    func giveUpLatePreparations(at time: HubTime, sink: some HubSink) {
        for (room, preparation) in preparing where time.seconds - preparation.startedAt >= holdLimits.deadline {
            preparing[room] = nil
            preparationsGivenUp += 1
            var answered: Set<ConnectionKey> = []
            for (connection, _) in preparation.held where answered.insert(connection).inserted {
                heldConnections[connection] = nil
                sink.send(HubMessage.error(.unavailable(ref: "hello")), to: connection)
            }
            subscribed.remove(room)
            redis.unsubscribe(key(room, "frames"))
            redis.unsubscribe(key(room, "cmd"))
            send(["EVAL", LeaseScripts.release, "1", key(room, "owner"), hubID], .ignore)
        }
    }
}
