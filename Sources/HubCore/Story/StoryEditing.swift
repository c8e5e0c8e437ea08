import CamHubProtocol

/// The storyboard's rules, pure: an edit and a step either apply whole or
/// throw a `bad_message` that names the field and its range, changing nothing.
extension StoryState {
    /// Applies `op`. The room stays on the step it was on wherever that step
    /// goes; `set`, and removing that step, leave the room on no step with autoplay off.
    public mutating func apply(_ op: StoryCommand.Op, ref: String?) throws(ProtocolError) {
        switch op {
        case .set(let new):
            steps = new
            index = nil
            playing = false
        case .insert(let new, let at):
            let at = at ?? steps.count
            guard at <= steps.count else { throw Self.range("index", at, 0, steps.count, ref: ref) }
            guard steps.count + new.count <= StoryLimits.steps else {
                throw ProtocolError(
                    .badMessage, "steps: the storyboard would hold \(steps.count + new.count) steps (at most \(StoryLimits.steps))", ref: ref)
            }
            steps.insert(contentsOf: new, at: at)
            if let i = index, i >= at { index = i + new.count }
        case .update(let step, let at):
            try requireStep("index", at, ref: ref)
            steps[at] = step
        case .move(let from, let to):
            try requireStep("from", from, ref: ref)
            try requireStep("to", to, ref: ref)
            steps.insert(steps.remove(at: from), at: to)
            if let i = index {
                if i == from {
                    index = to
                } else if from < i && i <= to {
                    index = i - 1
                } else if to <= i && i < from {
                    index = i + 1
                }
            }
        case .remove(let at):
            try requireStep("index", at, ref: ref)
            steps.remove(at: at)
            if let i = index {
                if i == at {
                    index = nil
                    playing = false
                } else if i > at {
                    index = i - 1
                }
            }
        }
    }

    /// The step `to` goes to (next, previous or an index); nil for play and pause.
    public func destination(of to: StepTarget, ref: String?) throws(ProtocolError) -> Int? {
        guard !steps.isEmpty else { throw ProtocolError(.badMessage, "to: the room has no storyboard (send story set first)", ref: ref) }
        switch to {
        case .next:
            guard let i = index else { return 0 }
            guard i + 1 < steps.count else {
                throw ProtocolError(.badMessage, "to: next: the room is on the last step (\(i) of 0…\(steps.count - 1))", ref: ref)
            }
            return i + 1
        case .previous:
            guard let i = index, i > 0 else {
                let now = index == nil ? "on no step yet" : "on the first step"
                throw ProtocolError(.badMessage, "to: previous: the room is \(now)", ref: ref)
            }
            return i - 1
        case .index(let i):
            try requireStep("to", i, ref: ref)
            return i
        case .play, .pause:
            return nil
        }
    }

    private func requireStep(_ field: String, _ i: Int, ref: String?) throws(ProtocolError) {
        guard !steps.isEmpty else { throw ProtocolError(.badMessage, "\(field): the storyboard has no steps", ref: ref) }
        guard i < steps.count else { throw Self.range(field, i, 0, steps.count - 1, ref: ref) }
    }

    private static func range(_ field: String, _ got: Int, _ low: Int, _ high: Int, ref: String?) -> ProtocolError {
        ProtocolError(.badMessage, "\(field): must be within \(low)…\(high) (got \(got))", ref: ref)
    }
}
