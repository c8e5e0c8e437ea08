/// Send passes that ran out of budget in a tick go on here, between ticks.
extension Hub {
    /// Goes on with the send passes a tick left unfinished, sending at most
    /// `configuration.sendBudget` frames, oldest pass first. Members not
    /// reached yet get the room's newest frame. Returns true while passes remain.
    @discardableResult
    public mutating func continueSending(at time: HubTime, sink: some HubSink) -> Bool {
        var budget = configuration.sendBudget
        return continueSending(at: time, sendBudget: &budget, sink: sink)
    }

    /// `continueSending(at:sink:)` with the owner's own budget for this slice
    /// (in place of `configuration.sendBudget`); on return `sendBudget` holds what is left.
    @discardableResult
    public mutating func continueSending(at time: HubTime, sendBudget: inout Int, sink: some HubSink) -> Bool {
        var budget = sendBudget
        defer { sendBudget = budget }
        let tickTime = gridTime(time.seconds)
        while budget > 0, let name = unfinishedPasses.first() {
            // A pass of a room fenced since it began is dropped: its frame is from before the lease ran out.
            if isFenced(name, at: time.seconds) {
                unfinishedPasses.removeFirst()
                continue
            }
            let headroom = configuration.frameHeadroom
            let tickCapacity = tickCapacity
            let sent = rooms.update(name) { room in
                room.sendDueFrames(
                    tickTime: tickTime, epochMilliseconds: time.epochMilliseconds, headroom: headroom, budget: &budget,
                    tickCapacity: tickCapacity, sink: sink)
            }
            guard let pass = sent else {
                unfinishedPasses.removeFirst()
                continue
            }
            guard case .finished = pass else { break }
            unfinishedPasses.removeFirst()
            // The room stays awake: its next tick visit decides when it sleeps.
        }
        return !unfinishedPasses.isEmpty
    }

    /// Rooms with a send pass under way (for `/healthz` and tests).
    public var unfinishedSendPasses: Int { unfinishedPasses.count }
}
