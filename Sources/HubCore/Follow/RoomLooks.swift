import CamHubProtocol
import CameraCore

/// What a room's exploring members look at (`looking`), kept for the `views`
/// event. Bounded by the roster: only listed clients that explore have an
/// entry, and it goes when they follow again, go away or leave.
struct RoomLooks: Hashable, Sendable {
    /// By client id.
    var byClient: [String: MemberLook] = [:]
    /// Changed since the last `views` event, which went out at `sentAt` (seconds).
    var changed = false
    var sentAt = -Double.infinity
}

/// One exploring member's last reported view.
struct MemberLook: Hashable, Sendable {
    var camera: Camera
    var viewport: Viewport
    /// Its `looking` messages' own bucket (`Hub.lookingPolicy`).
    var limiter = CommandRateLimiter()
}

extension Room {
    /// Takes `camera`, seen in `viewport`, as what listed `client` looks at,
    /// unless its `looking` messages come faster than `policy` allows. O(1).
    mutating func noteLook(
        of client: String, camera: Camera, viewport: Viewport, at now: Double, policy: CommandRateLimiter.Policy
    ) -> CommandRateLimiter.Verdict {
        var looks = self.looks
        let old = looks.byClient[client]
        var look = old ?? MemberLook(camera: camera, viewport: viewport)
        let verdict = look.limiter.admit(now: now, policy: policy)
        if verdict == .accept {
            look.camera = camera
            look.viewport = viewport
            if old?.camera != camera || old?.viewport != viewport { looks.changed = true }
        }
        looks.byClient[client] = look
        self.looks = looks
        return verdict
    }

    /// A listed explorer's viewport changed (`viewport`); nothing when it has no look.
    mutating func noteLookViewport(of client: String, _ viewport: Viewport) {
        guard var look = looks.byClient[client], look.viewport != viewport else { return }
        look.viewport = viewport
        looks.byClient[client] = look
        looks.changed = true
    }

    /// Forgets what `client` looked at (it follows again, went away or left);
    /// false when nothing was kept.
    mutating func dropLook(of client: String) -> Bool {
        guard looks.byClient[client] != nil else { return false }
        looks.byClient[client] = nil
        looks.changed = true
        return true
    }

    /// Someone newly subscribed to `views` needs the list: the next event carries it.
    mutating func resendViews() {
        guard !looks.byClient.isEmpty else { return }
        looks.changed = true
    }

    /// The `views` list when one is due at `now` (changed, and `interval`
    /// seconds after the last), in roster order, corners computed for the
    /// room's projection; nil otherwise. O(listed).
    mutating func dueViews(at now: Double, interval: Double) -> [MemberView]? {
        guard looks.changed, now - looks.sentAt >= interval else { return nil }
        looks.changed = false
        looks.sentAt = now
        let looks = looks.byClient
        let projection = projection
        return roster.entries.compactMap { entry in
            looks[entry.client].map {
                MemberView(
                    client: entry.client, name: entry.name, state: entry.follow, camera: $0.camera, viewport: $0.viewport, projection: projection)
            }
        }
    }
}
