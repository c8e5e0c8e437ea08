import CameraMotion

/// What a client may do in its room. At most one presenter per room.
public enum Role: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Drives with the highest rank; only one per room.
    case presenter
    /// May move the camera; loses conflicts against the presenter.
    case driver
    /// Watches only (may still query, set its viewport and ping).
    case follower

    /// The rank of this role's commands in conflicts.
    public var rank: Rank {
        switch self {
        case .presenter: .presenter
        case .driver: .driver
        case .follower: .follower
        }
    }

    /// True when this role may send `message` (see `ClientMessage.requiredRole`).
    public func may(_ message: ClientMessage) -> Bool { rank >= message.requiredRole.rank }

    public var description: String { rawValue }
}
