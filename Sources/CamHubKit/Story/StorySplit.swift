import CamHubProtocol

/// A whole storyboard as the `story` messages that send it, each within the
/// hub's message limit (`HubProtocol.maxMessageBytes`): one `set` when it fits,
/// else a `set` of the first steps and `insert`s of the rest, in order (the
/// JavaScript client's `storySet`, clients/js/src/protocol/story.js). Pure.
public enum StorySplit {
    /// The commands for `steps`; `drivers` (presenters) goes with the `set`. A step
    /// that does not fit in a message by itself throws `.badArgument` naming it.
    public static func commands(_ steps: [StoryStep], drivers: Bool? = nil) throws(CamHubError) -> [StoryCommand] {
        let whole = StoryCommand(op: .set(steps), drivers: drivers)
        if fits(whole) { return [whole] }
        var commands: [StoryCommand] = []
        var current = StoryCommand(op: .set([]), drivers: drivers)
        var batch: [StoryStep] = []
        for (i, step) in steps.enumerated() {
            batch.append(step)
            current.op = commands.isEmpty ? .set(batch) : .insert(batch, at: nil)
            guard !fits(current) else { continue }
            guard batch.count > 1 else {
                throw CamHubError(.badArgument, "steps[\(i)]: a step larger than one message (\(HubProtocol.maxMessageBytes) bytes)")
            }
            batch.removeLast()
            current.op = commands.isEmpty ? .set(batch) : .insert(batch, at: nil)
            commands.append(current)
            batch = [step]
            current = StoryCommand(op: .insert(batch, at: nil))
            guard fits(current) else {
                throw CamHubError(.badArgument, "steps[\(i)]: a step larger than one message (\(HubProtocol.maxMessageBytes) bytes)")
            }
        }
        commands.append(current)
        return commands
    }

    /// Whether `command` goes in one message the hub takes.
    static func fits(_ command: StoryCommand) -> Bool {
        ClientMessage.story(command).encoded.count <= HubProtocol.maxMessageBytes
    }
}
