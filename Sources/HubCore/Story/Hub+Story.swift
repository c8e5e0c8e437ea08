import CamHubProtocol
import CameraCore
import CameraMotion

/// The room's storyboard on the hub that runs its camera: edits (`story`),
/// stepping (`step`: a step's move is the stepper's own fly, ease or set, so a
/// gesture or another command interrupts it as any animation) and autoplay,
/// which waits out each step's `hold` on the hub's clock.
extension Hub {
    /// The storyboard of live room `name` (on a mirror, the owner's); nil: no such room here.
    public func story(of name: RoomName) -> StoryState? {
        rooms.read(name) { $0.story ?? StoryState() }
    }

    /// `query` `story` (the steps whole) is for those who may edit them: a
    /// presenter, or a driver where the storyboard allows drivers.
    func authorizeStoryQuery(_ role: Role, in name: RoomName, ref: String) throws(ProtocolError) {
        if role == .presenter || (role == .driver && rooms.read(existing: name, { $0.story?.drivers ?? false })) { return }
        let who = role == .driver ? "a driver until a presenter lets drivers edit the storyboard" : "a \(role.rawValue)"
        throw ProtocolError(.forbidden, "what: story: the storyboard's steps are for presenters (and drivers where allowed), not \(who)", ref: ref)
    }

    /// `story`: edits the storyboard and tells the room (`storyChanged`); bad
    /// input changes nothing. A driver gets here only where the storyboard
    /// allows drivers (`Hub.handle`), and may not change that.
    mutating func editStory(_ command: StoryCommand, role: Role, by client: String, in name: RoomName, at time: HubTime, sink: some HubSink)
        throws(ProtocolError)
    {
        var room = rooms.read(existing: name, \.storyRoom)
        if command.drivers != nil, role != .presenter {
            throw ProtocolError(.forbidden, "drivers: only a presenter may let drivers edit and step the storyboard", ref: "story")
        }
        if let op = command.op { try room.story.apply(op, ref: "story") }
        if let drivers = command.drivers { room.story.drivers = drivers }
        if room.story.index == nil { room.move = nil }
        if !room.story.playing { room.holdUntil = nil }
        room.revision &+= 1
        rooms.update(existing: name) { $0.storyRoom = room }
        let s = room.story
        announceStory(
            .storyChanged(
                StoryChange(
                    op: command.op?.name, count: s.steps.count, index: s.index, title: s.current?.title, notes: s.current?.notes,
                    playing: s.playing, drivers: s.drivers, by: client)),
            in: name, at: time, sink: sink)
    }

    /// `step`: goes to a step (starting its move as `owner`'s animation `id`),
    /// or starts or stops autoplay. Every client hears `storyStep`.
    mutating func step(
        _ command: StepCommand, role: Role, owner: Owner, viewport: Viewport, in name: RoomName, at time: HubTime, sink: some HubSink
    ) throws(ProtocolError) {
        let ref = command.id ?? "step"
        var room = rooms.read(existing: name, \.storyRoom)
        switch command.to {
        case .pause:
            guard room.story.playing, let index = room.story.index else { return }
            room.story.playing = false
            room.holdUntil = nil
            room.revision &+= 1
            rooms.update(existing: name) { $0.storyRoom = room }
            announceStory(.storyStep(StoryStepEvent(room.story, index: index, by: owner.client)), in: name, at: time, sink: sink)
        case .play:
            guard !room.story.playing else { return }
            guard !room.story.steps.isEmpty else { throw ProtocolError(.badMessage, "to: the room has no storyboard (send story set first)", ref: ref) }
            room.story.playing = true
            room.player = owner
            room.playerViewport = viewport
            if let index = room.story.index, room.move != nil {
                // The step's move runs: autoplay goes on when it ends.
                room.revision &+= 1
                rooms.update(existing: name) { $0.storyRoom = room }
                announceStory(.storyStep(StoryStepEvent(room.story, index: index, by: owner.client)), in: name, at: time, sink: sink)
            } else {
                let next = room.story.index.map { $0 + 1 < room.story.steps.count ? $0 + 1 : 0 } ?? 0
                try go(to: next, in: room, id: command.id, owner: owner, viewport: viewport, room: name, at: time, ref: ref, sink: sink)
            }
        case .next, .previous, .index:
            guard let index = try room.story.destination(of: command.to, ref: ref) else { return }
            if room.story.playing {
                room.player = owner
                room.playerViewport = viewport
            }
            try go(to: index, in: room, id: command.id, owner: owner, viewport: viewport, room: name, at: time, ref: ref, sink: sink)
        }
    }

    /// Starts step `index`'s move and makes it the room's step; throws (changing nothing) when the move is refused.
    private mutating func go(
        to index: Int, in state: StoryRoomState, id: String?, owner: Owner, viewport: Viewport, room name: RoomName, at time: HubTime,
        ref: String, sink: some HubSink
    ) throws(ProtocolError) {
        let now = time.seconds
        let step = state.story.steps[index]
        var room = state
        switch step.via {
        case .fly, .ease:
            try requireFreeAnimationID(id, owner: owner, in: name, at: now, ref: ref)
            let started = rooms.update(existing: name) { room in
                if step.via == .fly {
                    var request = FlyRequest(
                        update: step.update, duration: step.duration, speed: step.speed ?? FlyCommand.defaultSpeed, viewport: viewport)
                    request.essential = step.essential
                    request.projection = room.projection
                    return room.manager.fly(request, id: id, owner: owner, at: now)
                }
                var request = EaseRequest(
                    update: step.update, duration: step.duration ?? EaseCommand.defaultDuration, curve: step.curve ?? .easeInOut, viewport: viewport)
                request.essential = step.essential
                request.projection = room.projection
                return room.manager.ease(request, id: id, owner: owner, at: now)
            }
            let accepted = try Self.check(started, ref: ref)
            room.move = accepted.id.map { StoryMove(owner: owner.client, id: $0) }
            room.holdUntil = nil
        case .jump:
            _ = try Self.check(rooms.update(existing: name) { $0.manager.set(step.update, owner: owner, viewport: viewport, at: now) }, ref: ref)
            room.move = nil
            room.holdUntil = nil
        }
        room.story.index = index
        room.revision &+= 1
        if room.move == nil { Self.moveEnded(&room, at: now) }
        rooms.update(existing: name) { $0.storyRoom = room }
        // A jump to a step where autoplay stops says so at once (`playing` false).
        announceStory(.storyStep(StoryStepEvent(room.story, index: index, by: owner.client)), in: name, at: time, sink: sink)
    }

    /// The current step's move ended at `time`: autoplay waits out its hold,
    /// or stops (no hold, or the last step).
    private static func moveEnded(_ room: inout StoryRoomState, at time: Double) {
        room.move = nil
        guard room.story.playing, let index = room.story.index else { return }
        if let hold = room.story.steps[index].hold, index + 1 < room.story.steps.count {
            room.holdUntil = time + hold
        } else {
            room.story.playing = false
            room.holdUntil = nil
        }
    }

    /// An animation report of the room: the end of the current step's move
    /// starts its hold; a move interrupted (cancelled, superseded by a gesture
    /// or another command) stops autoplay, and the room hears it.
    mutating func noteStoryMove(_ report: AnimationReport, in name: RoomName, at time: HubTime, sink: some HubSink) {
        guard let room = rooms.read(name, \.storyRoom), let move = room.move, move.owner == report.owner.client, move.id == report.id else {
            return
        }
        var next = room
        switch report.status {
        case .started, .interrupted:
            return
        case .finished:
            Self.moveEnded(&next, at: report.time)
        case .cancelled, .superseded:
            next.move = nil
            next.story.playing = false
            next.holdUntil = nil
        }
        if next.story.playing != room.story.playing { next.revision &+= 1 }
        rooms.update(existing: name) { $0.storyRoom = next }
        if room.story.playing, !next.story.playing, let index = next.story.index {
            let by = report.status == .finished ? nil : report.by
            announceStory(.storyStep(StoryStepEvent(next.story, index: index, by: by)), in: name, at: time, sink: sink)
        }
    }

    /// The client autoplay plays as left the room: autoplay stops where it is
    /// (its move, that client's animation, ended with it), and the room hears it.
    mutating func storyPlayerLeft(_ client: String, in name: RoomName, at time: HubTime, sink: some HubSink) {
        guard let room = rooms.read(name, \.storyRoom), room.player?.client == client else { return }
        var stopped = room
        stopped.player = nil
        stopped.holdUntil = nil
        stopped.story.playing = false
        if room.story.playing { stopped.revision &+= 1 }
        rooms.update(existing: name) { $0.storyRoom = stopped }
        if room.story.playing, let index = stopped.story.index {
            announceStory(.storyStep(StoryStepEvent(stopped.story, index: index, by: client)), in: name, at: time, sink: sink)
        }
    }

    /// Autoplay: when the current step's hold is over, the next step's move
    /// starts (as the player's animation). A move the room refuses (a higher
    /// rank holds the camera) stops autoplay. True: a step started.
    mutating func advanceStory(in name: RoomName, at time: HubTime, sink: some HubSink) -> Bool {
        guard let due = rooms.read(name, \.storyHoldUntil) ?? nil, due <= time.seconds,
            let room = rooms.read(name, \.storyRoom), room.story.playing, let index = room.story.index, let player = room.player
        else { return false }
        do {
            try go(to: index + 1, in: room, id: nil, owner: player, viewport: room.playerViewport, room: name, at: time, ref: "step", sink: sink)
            return true
        } catch {
            var stopped = room
            stopped.story.playing = false
            stopped.holdUntil = nil
            stopped.revision &+= 1
            rooms.update(existing: name) { $0.storyRoom = stopped }
            announceStory(.storyStep(StoryStepEvent(stopped.story, index: index, by: nil)), in: name, at: time, sink: sink)
            return false
        }
    }
}

extension Hub {
    /// Tells the room a storyboard event. In a cluster the owner first
    /// publishes the frame that carries the storyboard, so that it reaches
    /// every mirror before the event does: a client that joins a mirror in
    /// between is welcomed with the storyboard the event speaks of.
    mutating func announceStory(_ event: HubEvent, in name: RoomName, at time: HubTime, sink: some HubSink) {
        publishFrame(of: name, at: time)
        broadcast(event, in: name, at: time, sink: sink)
    }
}
