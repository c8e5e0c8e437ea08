import Synchronization

/// The epoch of the frames this hub publishes on each room's channel, shared
/// with the Redis thread. An owner listens on its rooms' channels (the other
/// hubs' events, presence and summons come there), so Redis hands it each of
/// its own frames back; a frame of the very epoch this hub published with is
/// its own (each epoch has one owner: fencing), so the Redis thread drops it
/// there instead of posting it to the loop, which would drop it anyway
/// (`Hub.applyRemoteFrame`). A newer owner's frames carry a newer epoch and go through.
final class OwnFrames: Sendable {
    private let epochs = Mutex<[String: UInt64]>([:])

    /// The hub's loop: a frame of `epoch` is published on `channel`.
    func published(on channel: String, epoch: UInt64) {
        epochs.withLock { if $0[channel] != epoch { $0[channel] = epoch } }
    }

    /// The hub's loop: the room's channel is left.
    func forget(_ channel: String) {
        _ = epochs.withLock { $0.removeValue(forKey: channel) }
    }

    /// The Redis thread: whether `payload` on `channel` is a frame this hub published.
    func isOwn(_ payload: [UInt8], on channel: String) -> Bool {
        guard let epoch = ClusterMessage.frameEpoch(payload) else { return false }
        return epochs.withLock { $0[channel] } == epoch
    }
}
