import CamHubProtocol
import CameraMotion

/// One of the room's running or queued animations, as the hub reports them.
public struct RoomAnimation: Hashable, Sendable {
    /// The owner's id for it (nil: the hub's own).
    public var id: String?
    /// The client whose animation it is (nil: the hub's own).
    public var owner: String?
    /// `ease`, `fly` or `animate`; nil when only reports named it (the welcome lists the kind).
    public var kind: LiveAnimation.Kind?
    /// `running`, `interrupted`, `delayed` or `waiting`.
    public var status: String
    /// Whether this client owns it (it may cancel it by id).
    public var isMine: Bool
}

/// The room's live animations: `welcome.animations`, then every `animation`
/// report (ended ones leave). Pure; the same rule as the JavaScript client's
/// `LiveAnimations` (clients/js/src/state/animations.js).
struct LiveAnimations: Hashable, Sendable {
    private struct Key: Hashable, Sendable {
        var owner: String?
        var id: String?
    }

    private var order: [Key] = []
    private var byKey: [Key: RoomAnimation] = [:]

    mutating func welcome(_ animations: [AnimationSummary]) {
        order = []
        byKey = [:]
        for a in animations {
            put(Key(owner: a.by, id: a.id), RoomAnimation(id: a.id, owner: a.by, kind: a.kind, status: a.status, isMine: false))
        }
    }

    /// An `animation` report; `me` is this client's id (a report without `owner` is its own).
    mutating func report(_ m: AnimationMessage, me: String) {
        let owner = m.owner ?? me
        let key = Key(owner: owner, id: m.id)
        if m.status.isEnd {
            byKey[key] = nil
            order.removeAll { $0 == key }
            return
        }
        let status = m.status == .started ? "running" : m.status.rawValue
        put(key, RoomAnimation(id: m.id, owner: owner, kind: byKey[key]?.kind, status: status, isMine: false))
    }

    func entries(me: String) -> [RoomAnimation] {
        order.compactMap { key in
            guard var a = byKey[key] else { return nil }
            a.isMine = a.owner == me
            return a
        }
    }

    private mutating func put(_ key: Key, _ animation: RoomAnimation) {
        if byKey[key] == nil { order.append(key) }
        byKey[key] = animation
    }
}
