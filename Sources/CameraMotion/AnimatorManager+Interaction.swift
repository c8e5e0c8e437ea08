import CameraCore

/// Gestures in progress hold camera properties like animations do, but the
/// gesture engine writes their values directly as fingers move.
extension AnimatorManager {
    /// Claims `claims` for a gesture `name` of `owner`: refused (nothing
    /// changes) if a higher rank or another client's gesture holds one of them;
    /// otherwise overlapping animations end `cancelled` (reason `gesture`),
    /// and overlapping tracking or lower-rank gestures end. Returns the gesture's handle.
    public mutating func beginInteraction(_ name: String, claims: CameraProperties, owner: Owner, at now: Double) -> Result<Int, CommandError> {
        advance(to: now)
        if let (holder, contested) = blocker(for: claims, owner: owner) { return .failure(Self.conflict(holder, contested)) }
        takeOver(claims, for: nil, by: owner, cancelReason: "gesture", at: now)
        let serial = nextSerial
        nextSerial += 1
        var motion = Motion(
            serial: serial, id: "#\(serial)", owner: owner, kind: .interaction(name: name), claims: claims,
            groups: [claims], phase: .interaction)
        motion.held = claims
        motions.append(motion)
        return .success(serial)
    }

    /// False once the gesture ended or a newer claim took it over.
    public func isInteractionActive(_ handle: Int) -> Bool {
        motions.contains { $0.serial == handle && { if case .interaction = $0.phase { true } else { false } }($0) }
    }

    /// Writes the gesture's held properties from `next` (then clamps). Returns
    /// false (writing nothing) if the gesture is no longer active.
    @discardableResult
    public mutating func moveInteraction(_ handle: Int, to next: Camera, at now: Double) -> Bool {
        advance(to: now)
        guard let i = index(of: handle), case .interaction = motions[i].phase else { return false }
        let held = motions[i].held
        var camera = self.camera
        MotionPlan.interpolate(held, from: camera, to: next, p: 1, into: &camera)
        commit(camera, by: motions[i].owner.client, at: now)
        return true
    }

    /// Ends the gesture (if still active) and releases its properties.
    public mutating func endInteraction(_ handle: Int, at now: Double) {
        advance(to: now)
        if let i = index(of: handle) { motions.remove(at: i) }
        reportSteadyIfDue(at: now)
    }
}
