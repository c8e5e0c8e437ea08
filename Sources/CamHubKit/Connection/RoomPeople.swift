import CamHubProtocol

/// The room's listed members as the hub told them: `welcome.roster`, then
/// `joined`, `left`, `followChanged` and `presenterChanged`. Pure.
struct RoomPeople: Hashable, Sendable {
    private(set) var entries: [RosterEntry] = []

    mutating func welcome(_ roster: [RosterEntry]) { entries = roster }

    mutating func apply(_ event: HubEvent) {
        switch event {
        case .joined(let entry):
            // (`joined` carries no follow state: a newcomer follows)
            remove(entry.client)
            entries.append(entry)
        case .left(let entry):
            remove(entry.client)
        case .followChanged(let change):
            if let i = index(change.client) { entries[i].follow = change.follow }
        case .presenterChanged(let current, _, let demoted, _):
            if let demoted, let i = index(demoted) { entries[i].role = .driver }
            if let current, let i = index(current) { entries[i].role = .presenter }
        default:
            break
        }
    }

    private func index(_ client: String) -> Int? { entries.firstIndex { $0.client == client } }

    private mutating func remove(_ client: String) { entries.removeAll { $0.client == client } }
}
