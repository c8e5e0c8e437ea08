/// Which hub messages beyond frames a client gets: the `event` kinds of
/// docs/PROTOCOL.md, plus `animation` (animation status reports). Set by
/// `hello.events` and changed by `subscribe`; without them a role's default.
///
/// Followers get by default only what they need to render and stay in step,
/// so a large audience costs one message per frame, not frames plus a stream
/// of `significantChange`, `joined`, `left` and gesture reports. Drivers and
/// presenters get everything but `roomAnimations` (other clients' animation
/// reports: as with an SDK's completion handlers, a client hears about its
/// own animations) and `gesture` (every gesture input of the room, which a
/// client asks for as it would set a HERE gesture listener).
public struct EventSubscriptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let steady = EventSubscriptions(rawValue: 1 << 0)
    public static let significantChange = EventSubscriptions(rawValue: 1 << 1)
    public static let trackingModeChanged = EventSubscriptions(rawValue: 1 << 2)
    public static let limitsChanged = EventSubscriptions(rawValue: 1 << 3)
    public static let presenterChanged = EventSubscriptions(rawValue: 1 << 4)
    public static let joined = EventSubscriptions(rawValue: 1 << 5)
    public static let left = EventSubscriptions(rawValue: 1 << 6)
    public static let tap = EventSubscriptions(rawValue: 1 << 7)
    public static let longPress = EventSubscriptions(rawValue: 1 << 8)
    public static let audience = EventSubscriptions(rawValue: 1 << 9)
    public static let gesture = EventSubscriptions(rawValue: 1 << 10)
    public static let clamped = EventSubscriptions(rawValue: 1 << 11)
    /// `animation` messages (status reports of the client's animations).
    public static let animation = EventSubscriptions(rawValue: 1 << 12)
    /// `animation` messages of every animation in the room, whoever owns it
    /// (a client's own arrive once, whether it also has `animation` or not).
    public static let roomAnimations = EventSubscriptions(rawValue: 1 << 13)
    /// `routeChanged` events (the room's route was set, extended or cleared).
    public static let routeChanged = EventSubscriptions(rawValue: 1 << 14)
    /// `followChanged` events (a listed client's follow state changed).
    public static let followChanged = EventSubscriptions(rawValue: 1 << 15)
    /// `summoned` events (the presenter calls this client back; only ever sent to it).
    public static let summoned = EventSubscriptions(rawValue: 1 << 16)
    /// `followPolicyChanged` events (the presenter locked or unlocked exploring).
    public static let followPolicyChanged = EventSubscriptions(rawValue: 1 << 17)
    /// `viewChanged` events (the viewport of whoever moves the camera changed).
    public static let viewChanged = EventSubscriptions(rawValue: 1 << 18)
    /// `projectionChanged` events (the room's map went to the globe or back to Mercator).
    public static let projectionChanged = EventSubscriptions(rawValue: 1 << 19)
    /// `storyStep` events (the room went to a step of its storyboard, or autoplay started or stopped).
    public static let storyStep = EventSubscriptions(rawValue: 1 << 20)
    /// `storyChanged` events (the room's storyboard was edited, or who may step it changed).
    public static let storyChanged = EventSubscriptions(rawValue: 1 << 21)
    /// `viewports` events (where exploring members look). Presenters and drivers
    /// only (`forbidden(for:)`): a follower never learns where others look.
    public static let viewports = EventSubscriptions(rawValue: 1 << 22)

    /// Every name a client may subscribe to, in the order PROTOCOL.md lists them.
    public static let named: [(name: String, kind: EventSubscriptions)] = [
        ("steady", .steady), ("significantChange", .significantChange), ("trackingModeChanged", .trackingModeChanged),
        ("limitsChanged", .limitsChanged), ("presenterChanged", .presenterChanged), ("joined", .joined), ("left", .left),
        ("tap", .tap), ("longPress", .longPress), ("audience", .audience), ("gesture", .gesture), ("clamped", .clamped),
        ("routeChanged", .routeChanged), ("followChanged", .followChanged), ("summoned", .summoned),
        ("followPolicyChanged", .followPolicyChanged), ("viewChanged", .viewChanged), ("projectionChanged", .projectionChanged),
        ("storyStep", .storyStep), ("storyChanged", .storyChanged), ("viewports", .viewports), ("animation", .animation),
        ("roomAnimations", .roomAnimations),
    ]

    public static let all: EventSubscriptions = named.reduce([]) { $0.union($1.kind) }
    /// A follower's default: what it needs to render and stay in step.
    public static let followerDefault: EventSubscriptions = [
        .steady, .limitsChanged, .presenterChanged, .trackingModeChanged, .audience,
        .routeChanged, .summoned, .followPolicyChanged, .viewChanged, .projectionChanged,
        .storyStep, .storyChanged,
    ]

    /// A driver's or presenter's default: everything but `roomAnimations` and
    /// `gesture` (every gesture of the room, as a HERE gesture listener hears
    /// them: opt-in, like setting a delegate).
    public static let controllerDefault: EventSubscriptions = all.subtracting([.roomAnimations, .gesture])

    /// What `role` may not subscribe to: where others look (`viewports`) are for presenters and drivers.
    public static func forbidden(for role: Role) -> EventSubscriptions {
        role == .follower ? .viewports : []
    }

    /// `forbidden` (naming the event and `ref`) when `role` may not have one of these subscriptions.
    public func authorize(_ role: Role, field: String, ref: String) throws(ProtocolError) {
        let denied = intersection(Self.forbidden(for: role))
        guard !denied.isEmpty else { return }
        throw ProtocolError(
            .forbidden,
            "\(field): a \(role.rawValue) may not subscribe to \(denied.names.joined(separator: ", ")) (what others look at is for presenters and drivers)",
            ref: ref)
    }

    /// The default for `role` (followers: `followerDefault`; drivers and presenters: `controllerDefault`).
    public static func defaults(for role: Role) -> EventSubscriptions {
        role == .follower ? followerDefault : controllerDefault
    }

    /// The names subscribed, in `named` order.
    public var names: [String] { Self.named.filter { contains($0.kind) }.map(\.name) }

    /// The set of `names`; throws naming the first unknown one (`field` is the
    /// message field, e.g. `events`).
    public init(names: [String], field: String = "events") throws(ProtocolError) {
        var set: EventSubscriptions = []
        for name in names {
            guard let kind = Self.named.first(where: { $0.name == name })?.kind else {
                let known = Self.named.map(\.name).joined(separator: ", ")
                throw ProtocolError(.badMessage, "\(field): unknown event '\(name)' (known: \(known))")
            }
            set.insert(kind)
        }
        self = set
    }
}

extension HubEvent {
    /// The subscription that lets this event through.
    public var subscription: EventSubscriptions {
        switch self {
        case .steady: .steady
        case .significantChange: .significantChange
        case .trackingModeChanged: .trackingModeChanged
        case .limitsChanged: .limitsChanged
        case .presenterChanged: .presenterChanged
        case .joined: .joined
        case .left: .left
        case .tap: .tap
        case .longPress: .longPress
        case .audience: .audience
        case .gesture: .gesture
        case .clamped: .clamped
        case .routeChanged: .routeChanged
        case .followChanged: .followChanged
        case .summoned: .summoned
        case .followPolicyChanged: .followPolicyChanged
        case .viewChanged: .viewChanged
        case .projectionChanged: .projectionChanged
        case .storyStep: .storyStep
        case .storyChanged: .storyChanged
        case .viewports: .viewports
        }
    }
}
