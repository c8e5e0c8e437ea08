import CamHubProtocol
import CameraCore
import HubCore

/// The engine as the hub's `RoomBroker`: called from inside the hub, on its
/// loop thread; each call queues Redis commands and returns.
extension ClusterEngine: RoomBroker {
    public func publish(_ frame: RoomFrame, in room: RoomName) {
        published += 1
        // A moving frame may be shed by a slow Redis (the next one supersedes it); the resting one never.
        storeAndPublish(ClusterMessage.frame(frame).encoded(), as: "frame", epoch: frame.epoch, in: room, sheddable: frame.moving)
    }

    public func forward(_ command: ForwardedCommand) {
        forwarded += 1
        var command = command
        command.id = awaiting.add(client: command.client, ref: command.ref)
        publish(ClusterMessage.command(command, replyTo: hubID), on: key(command.room, "cmd"))
    }

    public func clientLeft(_ client: String, in room: RoomName) {
        publish(ClusterMessage.left(client: client), on: key(room, "cmd"))
    }

    public func relay(_ event: [UInt8], kind: EventSubscriptions, epoch: UInt64, in room: RoomName) {
        let bytes = ClusterMessage.event(kind: kind.rawValue, message: event, epoch: epoch).encoded()
        redis.command(
            bytes: [
                Words.eval, Words.fencedPublish, Words.one, Array(key(room, "epoch").utf8), Array("\(epoch)".utf8),
                Array(key(room, "frames").utf8), bytes,
            ],
            token: token(.fenced(room)))
    }

    public func summon(by client: String, name: String, epoch: UInt64, in room: RoomName) {
        publish(ClusterMessage.summon(hub: hubID, by: client, name: name, epoch: epoch), on: key(room, "frames"))
    }

    public func deliver(_ message: [UInt8], toClient client: String) {
        guard let dot = client.lastIndex(of: ".") else { return }
        publish(ClusterMessage.reply(client: client, message: message), on: "hub:{\(client[client.index(after: dot)...])}")
    }

    public func routeChanged(_ points: [GeoCoordinate], epoch: UInt64, in room: RoomName) {
        storeAndPublish(ClusterMessage.route(points, epoch: epoch).encoded(), as: "route", epoch: epoch, in: room)
    }

    /// Owner: writes `bytes` to the room's key `kind` and publishes them on
    /// the room's channel, in one script, only while `epoch` is the room's
    /// (`LeaseScripts.checkpoint`); a refusal has the room's lease asked again.
    func storeAndPublish(_ bytes: [UInt8], as kind: String, epoch: UInt64, in room: RoomName, sheddable: Bool = false) {
        let channel = key(room, "frames")
        if kind == "frame" { ownFrames.published(on: channel, epoch: epoch) }
        let token = token(.fenced(room))
        let sent = redis.command(
            bytes: [
                Words.eval, Words.checkpoint, Words.two, Array(key(room, kind).utf8), Array(key(room, "epoch").utf8),
                Array("\(epoch)".utf8), bytes, Array(channel.utf8),
            ],
            token: token, sheddable: sheddable)
        if !sent { pending[token] = nil }  // shed: no reply comes
    }

    /// The words of every frame's command, made once (a moving room sends one 60 times a second).
    private enum Words {
        static let eval = Array("EVAL".utf8)
        static let checkpoint = Array(LeaseScripts.checkpoint.utf8)
        static let fencedPublish = Array(LeaseScripts.fencedPublish.utf8)
        static let one = Array("1".utf8)
        static let two = Array("2".utf8)
    }

    public func roomRemoved(_ room: RoomName) {
        subscribed.remove(room)
        owners[room] = nil
        book.forget(room)
        send(["HDEL", key(room, "presence"), hubID], .ignore)
        redis.unsubscribe(key(room, "frames"))
        ownFrames.forget(key(room, "frames"))
        redis.unsubscribe(key(room, "cmd"))
        send(["EVAL", LeaseScripts.release, "1", key(room, "owner"), hubID], .ignore)
    }
}
