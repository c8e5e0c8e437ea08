/// How much say a client has over the camera. Higher ranks win conflicts.
public enum Rank: Int, Comparable, Hashable, Sendable, CustomStringConvertible {
    case follower = 0
    case driver = 1
    case presenter = 2

    public static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .follower: "follower"
        case .driver: "driver"
        case .presenter: "presenter"
        }
    }
}

/// Who issued a command: a client id (e.g. `c3`) and that client's rank at the time.
public struct Owner: Hashable, Sendable, CustomStringConvertible {
    public var client: String
    public var rank: Rank
    public init(client: String, rank: Rank) {
        self.client = client
        self.rank = rank
    }
    public var description: String { "\(client) (\(rank))" }
}
