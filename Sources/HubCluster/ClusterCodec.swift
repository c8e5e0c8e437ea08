import CamHubProtocol
import CameraCore
import CameraMotion
import HubCore

/// The hub-to-hub messages on Redis, in a small binary form (little-endian
/// numbers, length-prefixed strings): hubs of one version talk to each other,
/// so there is no versioning beyond the first byte, the message kind.
enum ClusterMessage: Hashable, Sendable {
    /// Owner → `{room}:frames` (and the `{room}:frame` checkpoint key).
    case frame(RoomFrame)
    /// Mirror → `{room}:cmd`: a driving message of one of its clients, answers to `replyTo`.
    case command(ForwardedCommand, replyTo: String)
    /// Mirror → `{room}:cmd`: a client that sent commands left.
    case left(client: String)
    /// Owner of lease `epoch` → `{room}:frames` (published only while `epoch`
    /// is the room's: `LeaseScripts.fencedPublish`): a room event about the
    /// camera, encoded, and its subscription bit.
    case event(kind: UInt32, message: [UInt8], epoch: UInt64)
    /// Every hub → `{room}:frames`, when it changed: its own members of the
    /// room, and the newest epoch of the room it knows (`HubPresence.epoch`).
    case presence(hub: String, HubPresence)
    /// Owner → `hub:{id}`: a message for one client of that hub.
    case reply(client: String, message: [UInt8])
    /// Any hub → `{room}:frames`: its presenter (`by`, display `name`) summoned
    /// the room, when the newest epoch of the room it knew was `epoch`.
    case summon(hub: String, by: String, name: String, epoch: UInt64)
    /// Owner → `hub:{id}`: it ran forwarded command `id` of `client` (after
    /// its answers, if any), as the owner of lease `epoch`.
    case handled(client: String, id: UInt64, epoch: UInt64)
    /// Owner → `{room}:frames` (and the `{room}:route` key): the whole route now, as the owner of lease `epoch` has it.
    case route([GeoCoordinate], epoch: UInt64)
    /// Every hub → `hubs`, every renewal interval: it is alive (its members everywhere stay).
    case heartbeat(hub: String)
    /// A hub → `hubs`, when it shuts down cleanly: it gave up its rooms and lease.
    case goodbye(hub: String)
    /// A hub → `hubs`, `{room}:cmd` or `hub:{id}`: a server API request it took over HTTP.
    case apiRequest(ClusterAPIRequest)
    /// → `hub:{replyTo}`: the answer to API request `id` (HTTP status, JSON body).
    case apiAnswer(id: UInt64, status: Int, body: [UInt8])
    /// → `hub:{replyTo}`: hub `hub` runs API command `id` and answers when its animation ends.
    case apiWaiting(id: UInt64, hub: String)
    /// → `hub:{replyTo}`: hub `hub`'s rooms, for API request `id`.
    case apiRooms(id: UInt64, hub: String, [APIRoomEntry])

    /// The message's bytes. Longer than a screen on purpose: one short case
    /// per message kind, the mirror image of `init?(decoding:)` below, so
    /// that a field's order can be checked by reading the two side by side.
    func encoded() -> [UInt8] {
        var w = ByteWriter()
        switch self {
        case .frame(let f):
            w.byte(UInt8(ascii: "F"))
            w.u64(f.seq)
            w.u64(f.epoch)
            w.double(f.time)
            w.byte(FrameFlags.byte(f))
            if let v = f.velocity {
                for x in [v.latitude, v.longitude, v.zoom, v.bearing, v.tilt, v.roll, v.elevation, v.fov] { w.double(x) }
            }
            w.camera(f.camera)
            w.limits(f.limits)
            w.string(f.by)
            w.u64(UInt64(f.animations.count))
            for a in f.animations { w.animation(a) }
            w.string(f.trackingMode.rawValue)
            w.string(f.projection.rawValue)
            w.string(f.trackingOwner?.client)
            w.byte(UInt8(f.trackingOwner?.rank.rawValue ?? 0))
            if let fix = f.trackedLocation {
                w.byte(1)
                w.double(fix.latitude)
                w.double(fix.longitude)
                w.double(fix.heading ?? .nan)
            } else {
                w.byte(0)
            }
            w.string(f.view?.by)
            if let view = f.view {
                let p = view.padding
                for x in [view.viewport.width, view.viewport.height, p.top, p.left, p.bottom, p.right] { w.double(x) }
            }
            switch f.pointer {
            case .none: w.byte(0)
            case .hidden: w.byte(1)
            case .shown(let p):
                w.byte(2)
                w.double(p.latitude)
                w.double(p.longitude)
                w.string(p.by)
            }
            w.bytes(f.story?.encoded() ?? [])  // the storyboard's JSON; empty: none
        case .command(let c, let replyTo):
            w.byte(UInt8(ascii: "C"))
            w.string(replyTo)
            w.u64(c.id)
            w.string(c.room.value)
            w.string(c.client)
            w.string(c.role.rawValue)
            w.double(c.viewport.width)
            w.double(c.viewport.height)
            w.bytes(c.message)
        case .left(let client):
            w.byte(UInt8(ascii: "L"))
            w.string(client)
        case .reply(let client, let message):
            w.byte(UInt8(ascii: "R"))
            w.string(client)
            w.bytes(message)
        case .event(let kind, let message, let epoch):
            w.byte(UInt8(ascii: "E"))
            w.u64(UInt64(kind))
            w.u64(epoch)
            w.bytes(message)
        case .presence(let hub, let p):
            w.byte(UInt8(ascii: "P"))
            w.string(hub)
            w.u64(p.epoch)
            w.double(p.presenterSince ?? -1)
            w.u64(UInt64(p.audience.clients))
            w.u64(UInt64(p.audience.followers))
            for state in FollowState.allCases { w.u64(UInt64(max(0, p.audience.follow[state]))) }
            w.byte(p.followPolicy.explore ? 1 : 0)
            w.double(p.followPolicy.since)
            w.string(p.followPolicy.by)
            w.u64(UInt64(p.entries.count))
            for e in p.entries {
                w.string(e.client)
                w.string(e.name)
                w.string(e.role.rawValue)
                w.byte(e.follow.rawValue)
            }
            w.looks(p.looks, count: p.lookCount)
        case .summon(let hub, let by, let name, let epoch):
            w.byte(UInt8(ascii: "S"))
            w.string(hub)
            w.string(by)
            w.string(name)
            w.u64(epoch)
        case .handled(let client, let id, let epoch):
            w.byte(UInt8(ascii: "H"))
            w.string(client)
            w.u64(id)
            w.u64(epoch)
        case .heartbeat(let hub):
            w.byte(UInt8(ascii: "B"))
            w.string(hub)
        case .goodbye(let hub):
            w.byte(UInt8(ascii: "G"))
            w.string(hub)
        case .apiRequest, .apiAnswer, .apiWaiting, .apiRooms:
            encodeAPI(into: &w)
        case .route(let points, let epoch):
            w.byte(UInt8(ascii: "T"))
            w.u64(epoch)
            w.u64(UInt64(points.count))
            for p in points {
                w.double(p.latitude)
                w.double(p.longitude)
            }
        }
        return w.out
    }

    /// Whether `bytes` are a moving frame that a later frame supersedes whole
    /// (not a corner or prompt frame): what a full `RedisInbox` may shed.
    /// Reads the kind and the flags byte only (after seq, epoch and time),
    /// on the Redis thread, without decoding the frame.
    static func isSheddableFrame(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > FrameFlags.offset, bytes[0] == UInt8(ascii: "F") else { return false }
        let flags = bytes[FrameFlags.offset]
        return flags & (FrameFlags.moving | FrameFlags.corner | FrameFlags.prompt) == FrameFlags.moving
    }

    /// The epoch of the frame `bytes` (after the kind and seq), read without
    /// decoding the frame, on the Redis thread; nil for any other message.
    static func frameEpoch(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count > FrameFlags.offset, bytes[0] == UInt8(ascii: "F") else { return nil }
        var reader = ByteReader(bytes)
        reader.at = 1 + 8
        return reader.u64()
    }

    /// The flags byte of a frame message: where it is (after the kind, seq,
    /// epoch and time) and its bits, for the encoder, the decoder and `isSheddableFrame`.
    enum FrameFlags {
        static let offset = 1 + 8 + 8 + 8
        static let moving: UInt8 = 1
        static let corner: UInt8 = 2
        static let prompt: UInt8 = 4
        static let velocity: UInt8 = 8
        /// The first value with a bit this version does not know.
        static let end: UInt8 = 16

        static func byte(_ f: RoomFrame) -> UInt8 {
            (f.moving ? moving : 0) | (f.corner ? corner : 0) | (f.prompt ? prompt : 0) | (f.velocity != nil ? velocity : 0)
        }
    }

    /// nil: not a message of this version (a clear log line, never a crash).
    /// One case per message kind, the mirror image of `encoded()` (hence its length).
    init?(decoding bytes: [UInt8]) {
        var r = ByteReader(bytes)
        guard let kind = r.byte() else { return nil }
        switch kind {
        case UInt8(ascii: "F"):
            guard let seq = r.u64(), let epoch = r.u64(), let time = r.double(), let flags = r.byte(), flags < FrameFlags.end,
                let velocity = r.velocity(if: flags & FrameFlags.velocity != 0),
                let camera = r.camera(),
                let limits = r.limits(), let by = r.string(), let count = r.u64(), count < 10_000
            else { return nil }
            var frame = RoomFrame(seq: seq, time: time, camera: camera, limits: limits, moving: flags & FrameFlags.moving != 0, by: by)
            frame.epoch = epoch
            frame.corner = flags & FrameFlags.corner != 0
            frame.prompt = flags & FrameFlags.prompt != 0
            frame.velocity = velocity
            for _ in 0..<count {
                guard let animation = r.animation() else { return nil }
                frame.animations.append(animation)
            }
            guard let mode = r.string() ?? nil, let tracking = TrackingMode(rawValue: mode) else { return nil }
            frame.trackingMode = tracking
            guard let projectionText = r.string() ?? nil, let projection = MapProjection(rawValue: projectionText) else { return nil }
            frame.projection = projection
            guard let trackingOwner = r.string(), let rankValue = r.byte(), let rank = Rank(rawValue: Int(rankValue)),
                let hasFix = r.byte()
            else { return nil }
            frame.trackingOwner = trackingOwner.map { Owner(client: $0, rank: rank) }
            if hasFix == 1 {
                guard let lat = r.double(), let lon = r.double(), let heading = r.double() else { return nil }
                frame.trackedLocation = TrackedLocation(latitude: lat, longitude: lon, heading: heading.isNaN ? nil : heading)
            }
            guard let viewBy = r.string() else { return nil }
            if let viewBy {
                var x: [Double] = []
                for _ in 0..<6 {
                    guard let value = r.double() else { return nil }
                    x.append(value)
                }
                frame.view = RoomView(
                    by: viewBy, viewport: Viewport(width: x[0], height: x[1]),
                    padding: EdgeInsets(top: x[2], left: x[3], bottom: x[4], right: x[5]))
            }
            switch r.byte() {
            case 0?: frame.pointer = .none
            case 1?: frame.pointer = .hidden
            case 2?:
                guard let lat = r.double(), let lon = r.double(), let by = r.string() ?? nil else { return nil }
                frame.pointer = .shown(RoomPointer(latitude: lat, longitude: lon, by: by))
            default: return nil
            }
            guard let story = r.bytes() else { return nil }
            if !story.isEmpty {
                guard let decoded = try? StoryState.decode(story) else { return nil }
                frame.story = decoded
            }
            self = .frame(frame)
        case UInt8(ascii: "C"):
            guard let replyTo = r.string() ?? nil, let id = r.u64(), let roomText = r.string() ?? nil,
                let room = try? RoomName(validating: roomText), let client = r.string() ?? nil,
                let roleText = r.string() ?? nil, let role = Role(rawValue: roleText),
                let width = r.double(), let height = r.double(), let message = r.bytes()
            else { return nil }
            var command = ForwardedCommand(
                room: room, client: client, role: role, viewport: Viewport(width: width, height: height), message: message)
            command.id = id
            self = .command(command, replyTo: replyTo)
        case UInt8(ascii: "L"):
            guard let client = r.string() ?? nil else { return nil }
            self = .left(client: client)
        case UInt8(ascii: "R"):
            guard let client = r.string() ?? nil, let message = r.bytes() else { return nil }
            self = .reply(client: client, message: message)
        case UInt8(ascii: "P"):
            guard let hub = r.string() ?? nil, let epoch = r.u64(), let since = r.double(), let clients = r.u64(), let followers = r.u64(),
                clients < 1 << 40, followers < 1 << 40
            else { return nil }
            var follow = FollowCounts()
            for state in FollowState.allCases {
                guard let n = r.u64(), n < 1 << 40 else { return nil }
                follow[state] = Int(n)
            }
            guard let explore = r.byte(), let policySince = r.double(), let policyBy = r.string(), let count = r.u64(), count < 100_000
            else { return nil }
            var entries: [RosterEntry] = []
            for _ in 0..<count {
                guard let client = r.string() ?? nil, let name = r.string() ?? nil, let roleText = r.string() ?? nil,
                    let role = Role(rawValue: roleText), let stateByte = r.byte(), let state = FollowState(rawValue: stateByte)
                else { return nil }
                entries.append(RosterEntry(client: client, name: name, role: role, follow: state))
            }
            guard let (looks, lookCount) = r.looks() else { return nil }
            self = .presence(
                hub: hub,
                HubPresence(
                    entries: entries, audience: Audience(clients: Int(clients), followers: Int(followers), follow: follow),
                    presenterSince: since < 0 ? nil : since,
                    followPolicy: FollowPolicy(explore: explore != 0, by: policyBy, since: policySince), epoch: epoch,
                    looks: looks, lookCount: lookCount))
        case UInt8(ascii: "S"):
            guard let hub = r.string() ?? nil, let by = r.string() ?? nil, let name = r.string() ?? nil, let epoch = r.u64() else { return nil }
            self = .summon(hub: hub, by: by, name: name, epoch: epoch)
        case UInt8(ascii: "H"):
            guard let client = r.string() ?? nil, let id = r.u64(), let epoch = r.u64() else { return nil }
            self = .handled(client: client, id: id, epoch: epoch)
        case UInt8(ascii: "B"):
            guard let hub = r.string() ?? nil else { return nil }
            self = .heartbeat(hub: hub)
        case UInt8(ascii: "G"):
            guard let hub = r.string() ?? nil else { return nil }
            self = .goodbye(hub: hub)
        case UInt8(ascii: "T"):
            guard let epoch = r.u64(), let count = r.u64(), count <= UInt64(Route.maxPoints) else { return nil }
            var points: [GeoCoordinate] = []
            for _ in 0..<count {
                guard let lat = r.double(), let lon = r.double() else { return nil }
                points.append(GeoCoordinate(latitude: lat, longitude: lon))
            }
            self = .route(points, epoch: epoch)
        case UInt8(ascii: "E"):
            guard let kind = r.u64(), kind <= UInt64(UInt32.max), let epoch = r.u64(), let message = r.bytes() else { return nil }
            self = .event(kind: UInt32(kind), message: message, epoch: epoch)
        default:
            guard let api = Self.decodeAPI(kind, &r) else { return nil }
            self = api
        }
    }
}

struct ByteWriter {
    var out: [UInt8] = []
    mutating func byte(_ b: UInt8) { out.append(b) }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
    mutating func double(_ v: Double) { u64(v.bitPattern) }
    mutating func bytes(_ b: [UInt8]) {
        u64(UInt64(b.count))
        out.append(contentsOf: b)
    }
    /// A string or nil (a length of all ones).
    mutating func string(_ s: String?) {
        guard let s else {
            u64(.max)
            return
        }
        bytes(Array(s.utf8))
    }
    /// A hub's shared looks: their number, each client and its four corners, then the count of all.
    mutating func looks(_ looks: [SharedLook], count: Int) {
        u64(UInt64(looks.count))
        for look in looks {
            string(look.client)
            for corner in look.region {
                double(corner.latitude)
                double(corner.longitude)
            }
        }
        u64(UInt64(count))
    }
    mutating func camera(_ c: Camera) {
        for v in [
            c.latitude, c.continuousLongitude, c.zoom, c.tilt, c.bearing, c.anchor.x, c.anchor.y,
            c.padding.top, c.padding.left, c.padding.bottom, c.padding.right, c.roll, c.elevation, c.fov,
        ] { double(v) }
    }
    /// nil times and durations as NaN.
    mutating func animation(_ a: AnimationSummary) {
        string(a.id)
        string(a.by)
        string(a.kind.rawValue)
        string(a.status)
        byte(UInt8(a.properties.rawValue & 0xFF))
        byte(UInt8(a.properties.rawValue >> 8))
        for v in [a.started, a.duration, a.starts] { double(v ?? .nan) }
        string(a.after)
    }
    mutating func limits(_ l: CameraLimits) {
        for v in [l.minZoom, l.maxZoom, l.minTilt, l.maxTilt, l.maxRoll] { double(v) }
        u64(UInt64(l.maxTiltByZoom.count))
        for stop in l.maxTiltByZoom {
            double(stop.zoom)
            double(stop.tilt)
        }
        if let b = l.bounds {
            byte(1)
            double(b.south)
            double(b.west)
            double(b.north)
            double(b.east)
        } else {
            byte(0)
        }
    }
}

struct ByteReader {
    let data: [UInt8]
    var at = 0
    init(_ data: [UInt8]) { self.data = data }

    mutating func byte() -> UInt8? {
        guard at < data.count else { return nil }
        defer { at += 1 }
        return data[at]
    }
    mutating func u64() -> UInt64? {
        guard data.count - at >= 8 else { return nil }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(data[at + i]) << (8 * UInt64(i)) }
        at += 8
        return v
    }
    mutating func double() -> Double? { u64().map(Double.init(bitPattern:)) }
    /// Eight doubles when `present` (`.some(nil)` when not; nil: the bytes ran out).
    mutating func velocity(if present: Bool) -> CameraVelocity?? {
        guard present else { return .some(nil) }
        guard let lat = double(), let lon = double(), let zoom = double(), let bearing = double(), let tilt = double(),
            let roll = double(), let elevation = double(), let fov = double()
        else { return nil }
        return CameraVelocity(
            latitude: lat, longitude: lon, zoom: zoom, bearing: bearing, tilt: tilt, roll: roll, elevation: elevation, fov: fov)
    }
    mutating func bytes() -> [UInt8]? {
        guard let n = u64(), n <= UInt64(data.count - at) else { return nil }
        defer { at += Int(n) }
        return Array(data[at..<at + Int(n)])
    }
    /// .some(nil) for a nil string; nil when the input is cut short.
    mutating func string() -> String?? {
        guard data.count - at >= 8 else { return nil }
        let save = at
        if u64() == .max { return .some(nil) }
        at = save
        return bytes().map { .some(String(decoding: $0, as: UTF8.self)) }
    }
    /// The mirror image of `ByteWriter.looks` (nil: cut short or out of range).
    mutating func looks() -> (looks: [SharedLook], count: Int)? {
        guard let n = u64(), n <= UInt64(RoomViewports.maxListed) else { return nil }
        var looks: [SharedLook] = []
        for _ in 0..<n {
            guard let client = string() ?? nil else { return nil }
            var region: [GeoCoordinate] = []
            for _ in 0..<LookRegion.corners {
                guard let lat = double(), let lon = double() else { return nil }
                region.append(GeoCoordinate(latitude: lat, longitude: lon))
            }
            looks.append(SharedLook(client: client, region: region))
        }
        guard let count = u64(), count >= n, count < 1 << 40 else { return nil }
        return (looks, Int(count))
    }
    mutating func camera() -> Camera? {
        var v: [Double] = []
        for _ in 0..<14 {
            guard let d = double() else { return nil }
            v.append(d)
        }
        return Camera(
            latitude: v[0], longitude: v[1], zoom: v[2], tilt: v[3], bearing: v[4], anchor: Anchor(x: v[5], y: v[6]),
            padding: EdgeInsets(top: v[7], left: v[8], bottom: v[9], right: v[10]), roll: v[11], elevation: v[12], fov: v[13])
    }
    mutating func animation() -> AnimationSummary? {
        guard let id = string() ?? nil, let by = string() ?? nil, let kindText = string() ?? nil,
            let kind = LiveAnimation.Kind(rawValue: kindText), let status = string() ?? nil, let low = byte(), let high = byte(),
            let started = double(), let duration = double(), let starts = double(), let after = string()
        else { return nil }
        func optional(_ v: Double) -> Double? { v.isNaN ? nil : v }
        return AnimationSummary(
            id: id, by: by, kind: kind, status: status, properties: CameraProperties(rawValue: UInt16(high) << 8 | UInt16(low)),
            started: optional(started), duration: optional(duration), after: after, starts: optional(starts))
    }
    mutating func limits() -> CameraLimits? {
        guard let minZoom = double(), let maxZoom = double(), let minTilt = double(), let maxTilt = double(), let maxRoll = double(),
            let count = u64(), count < 1000
        else { return nil }
        var stops: [CameraLimits.TiltStop] = []
        for _ in 0..<count {
            guard let z = double(), let t = double() else { return nil }
            stops.append(.init(zoom: z, tilt: t))
        }
        var bounds: GeoBounds?
        guard let hasBounds = byte() else { return nil }
        if hasBounds == 1 {
            guard let s = double(), let w = double(), let n = double(), let e = double() else { return nil }
            bounds = GeoBounds(south: s, west: w, north: n, east: e)
        }
        return try? CameraLimits(
            minZoom: minZoom, maxZoom: maxZoom, minTilt: minTilt, maxTilt: maxTilt,
            maxTiltByZoom: stops, bounds: bounds, maxRoll: maxRoll)
    }
}
