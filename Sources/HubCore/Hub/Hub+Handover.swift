import CamHubProtocol

/// A connection that has not joined a room yet, taken out of one hub to be
/// given to another: a server that runs several hubs (one per loop, each
/// holding some of the rooms) moves a client to the hub of the room its
/// `hello` names. What the first hub knew of it goes along, so the hello
/// timeout and the rate limit go on where they were.
public struct Arrival: Sendable, Equatable {
    /// When the connection opened (s, on the hubs' shared clock).
    public let openedAt: Double
    let limiter: CommandRateLimiter
}

extension Hub {
    /// The room `bytes` asks to join, when `connection` has not joined one and
    /// `bytes` is a well-formed `hello` (nil otherwise: the hub answers it
    /// where it is, as it would any message).
    public func roomAsked(in bytes: [UInt8], by connection: ConnectionKey) -> RoomName? {
        guard awaitingHello[connection] != nil,
            case .hello(let hello)? = try? ClientMessage.decode(bytes, tick: configuration.tick)
        else { return nil }
        return hello.room
    }

    /// Takes `connection` out of this hub if it has not joined a room (nil:
    /// unknown here, or joined, and then it stays).
    public mutating func handOver(_ connection: ConnectionKey) -> Arrival? {
        guard let openedAt = awaitingHello[connection], let session = sessions[connection], session.room == nil else { return nil }
        sessions[connection] = nil
        awaitingHello[connection] = nil
        return Arrival(openedAt: openedAt, limiter: session.limiter)
    }

    /// A connection another hub handed over (`handOver`): it has what is left
    /// of its `helloTimeout` to join, and its rate limiter as it was.
    public mutating func arrive(_ connection: ConnectionKey, _ arrival: Arrival) {
        var session = Session()
        session.limiter = arrival.limiter
        sessions[connection] = session
        awaitingHello[connection] = arrival.openedAt
    }
}
