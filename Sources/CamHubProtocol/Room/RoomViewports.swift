import CameraCore

/// What one exploring member of a room sees, as its own client reported it
/// (`looking`): the ground its viewport shows.
public struct MemberViewport: Hashable, Sendable {
    /// The member's client id and display name.
    public var client: String
    public var name: String
    /// Its follow state (`exploring`: the hub keeps no region of anyone else).
    public var state: FollowState
    /// The visible region's four corners as the client sent them (top-left,
    /// top-right, bottom-right, bottom-left by convention), each longitude
    /// wrapped to [-180, 180].
    public var region: [GeoCoordinate]

    public init(client: String, name: String, state: FollowState, region: [GeoCoordinate]) {
        self.client = client
        self.name = name
        self.state = state
        self.region = region
    }
}

/// The `viewports` event: at most `maxListed` explorers' regions, listed
/// members first, and how many more explorers share theirs (`others`).
public struct RoomViewports: Hashable, Sendable {
    /// The most regions one event carries.
    public static let maxListed = 50

    public var clients: [MemberViewport]
    /// Explorers sharing a region that `clients` leaves out (≥ 0).
    public var others: Int

    public init(clients: [MemberViewport], others: Int) {
        self.clients = clients
        self.others = others
    }
}

/// A visible region on the wire: `[[lon,lat]×4]`.
public enum LookRegion {
    /// Corners a region has.
    public static let corners = 4
}

extension JSONWriter {
    /// `[[lon,lat],[lon,lat],[lon,lat],[lon,lat]]`.
    mutating func region(_ region: [GeoCoordinate]) {
        raw("[")
        for (i, corner) in region.enumerated() {
            if i > 0 { raw(",") }
            raw("[")
            number(corner.longitude)
            raw(",")
            number(corner.latitude)
            raw("]")
        }
        raw("]")
    }

    /// `"clients":[{"client":…,"name":…,"state":…,"region":[…]},…],"others":N` (the `viewports` event's fields).
    mutating func viewports(_ v: RoomViewports) {
        raw(",\"clients\":[")
        for (i, m) in v.clients.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"client\":")
            string(m.client)
            raw(",\"name\":")
            string(m.name)
            raw(",\"state\":")
            string(m.state.name)
            raw(",\"region\":")
            region(m.region)
            raw("}")
        }
        raw("],\"others\":")
        integer(UInt64(max(0, v.others)))
    }
}

extension WireReader {
    /// The fields `JSONWriter.viewports` writes.
    func viewports() throws(DecodingError) -> RoomViewports {
        var clients: [MemberViewport] = []
        for m in try requiredObjects("clients") {
            var region: [GeoCoordinate] = []
            for corner in try m.requiredArray("region") {
                guard case .array(let pair) = corner.value, pair.count == 2 else {
                    throw DecodingError(field: corner.field, message: "must be [lon, lat]")
                }
                let lon = try Self.number(pair[0], field: corner.field + "[0]")
                let lat = try Self.number(pair[1], field: corner.field + "[1]")
                region.append(GeoCoordinate(latitude: lat, longitude: lon))
            }
            clients.append(
                MemberViewport(
                    client: try m.requiredString("client"), name: try m.requiredString("name"), state: try m.followState("state"), region: region))
        }
        return RoomViewports(clients: clients, others: try requiredInt("others"))
    }
}
