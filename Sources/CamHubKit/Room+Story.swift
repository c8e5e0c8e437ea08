import CamHubProtocol
import CameraCore

/// The presenter's side of a room: its storyboard (edits and stepping), where
/// its explorers look, and calling one of them back. The same commands as the
/// JavaScript client's `setStory`, `insertSteps`, `updateStep`, `moveStep`,
/// `removeStep`, `allowStoryDrivers`, `step`, `looking` and `summon(client)`.
/// Each returns once the hub has handled it (a refusal throws its error).
extension Room {
    /// Presenters (drivers where allowed): replaces the room's storyboard with `steps`
    /// (`[]` clears it); one larger than a message goes as a `set` and `insert`s
    /// (`StorySplit`). `drivers` (presenters): whether drivers may edit and step it.
    public func setStory(_ steps: [StoryStep], drivers: Bool? = nil) async throws(CamHubError) {
        for command in try StorySplit.commands(steps, drivers: drivers) { try await story(command) }
    }

    /// Puts `steps` before step `index` (from 0; nil: at the end).
    public func insertSteps(_ steps: [StoryStep], at index: Int? = nil) async throws(CamHubError) {
        try await story(StoryCommand(op: .insert(steps, at: index)))
    }

    /// Replaces step `index`.
    public func updateStep(_ step: StoryStep, at index: Int) async throws(CamHubError) {
        try await story(StoryCommand(op: .update(step, at: index)))
    }

    /// Moves step `from` to position `to`.
    public func moveStep(from: Int, to: Int) async throws(CamHubError) {
        try await story(StoryCommand(op: .move(from: from, to: to)))
    }

    /// Takes step `index` out.
    public func removeStep(at index: Int) async throws(CamHubError) {
        try await story(StoryCommand(op: .remove(at: index)))
    }

    /// Presenters: whether drivers may edit and step the room's storyboard.
    public func allowStoryDrivers(_ allow: Bool) async throws(CamHubError) {
        try await story(StoryCommand(op: nil, drivers: allow))
    }

    /// While this client explores: its visible region, four corners (top-left, top-right,
    /// bottom-right, bottom-left), for the room's presenters and drivers (`viewports`);
    /// nil stops sharing it. The hub keeps at most 3 a second (faster ones are dropped).
    public func looking(region: [GeoCoordinate]?) async throws(CamHubError) {
        if let region, region.count != LookRegion.corners {
            throw CamHubError(.badArgument, "region: must be \(LookRegion.corners) corners (got \(region.count))")
        }
        try await roundTrip(.looking(region: region))
    }
}

/// The room's storyboard as everyone hears it: `welcome.story`, then `storyStep`
/// and `storyChanged` (the JavaScript `RoomState.story`). Pure.
extension StorySummary {
    /// The room went to a step, or autoplay started or stopped (who may step it is unchanged).
    func stepped(_ e: StoryStepEvent) -> StorySummary {
        StorySummary(count: e.count, index: e.index, title: e.title, notes: e.notes, playing: e.playing, drivers: drivers)
    }

    /// The storyboard after an edit; nil when it was cleared with nothing left to say.
    static func changed(_ c: StoryChange) -> StorySummary? {
        guard c.count > 0 || c.index != nil || c.drivers else { return nil }
        return StorySummary(count: c.count, index: c.index, title: c.title, notes: c.notes, playing: c.playing, drivers: c.drivers)
    }
}
