import CamHubProtocol

/// The lease a hub holds in a cluster: one for the whole hub, not one per
/// room. The hub's own key in Redis lives while the hub renews it; a room's
/// owner key names its hub, and the room stays that hub's while the hub's key
/// lives (`LeaseScripts`). So a renewal is one command whatever the number of
/// rooms, and idle rooms cost nothing.
///
/// An owned room runs its camera while `now < until` and it is not
/// `unconfirmed`. Plain state on the hub's loop thread.
struct HubLease {
    /// Hub seconds from which the hub's key may have expired (the last
    /// renewal's send time plus the lease, less a margin); from then on every
    /// owned room is *fenced*.
    var until: Double = -.infinity
    /// Owned rooms the hub may not count as its own until Redis confirms them:
    /// the hub's key expired meanwhile (another hub may have taken them), or
    /// the room was started while Redis did not answer.
    var unconfirmed: Set<RoomName> = []

    /// Whether an owned room `name` may run its camera at hub second `now`.
    func holds(_ name: RoomName, at now: Double) -> Bool {
        now < until && (unconfirmed.isEmpty || !unconfirmed.contains(name))
    }
}
