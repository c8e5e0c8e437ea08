import CamHubProtocol
import HubCore
import WebSocketTransport

/// Where a client's events run. A connection starts on the hub of the loop
/// that holds its socket. Its `hello` for a room of another loop hands it over
/// (`Hub.handOver`, then `Hub.arrive` there): that hub posts the hello on, and
/// what the client sends later, and its close, follow it from the same loop
/// (a mailbox is FIFO), so nothing is reordered. A client whose hello was
/// dropped there (a spent rate limit) may ask for a room of a third loop: the
/// chain grows by one; a chain that comes back to a loop is undone (`forget`),
/// so no link outlives its connection. In a cluster the room's loop's Redis
/// engine takes the hello from there (`ClusterEngine.hold`).
extension HubServer {
    /// The handlers of loop `index`.
    func handlers(loop index: Int) -> ServerHandlers {
        let hubs = self.hubs
        let state = hubs.states[index]
        let server = loops.servers[index]
        let gate = loops.mailboxGates[index]
        var handlers = ServerHandlers(
            onOpen: { info in
                let s = state.value
                s.log.opened(info.id.rawValue, remote: info.remoteAddress, origin: info.origin)
                s.hub.open(info.id.rawValue, at: s.now())
                s.sink.flush()
            },
            onMessage: { id, message in
                Self.deliver(message, from: id, to: state.value, hubs, admitted: false, server: server, gate: gate)
            },
            onClose: { id, code in Self.closed(id, code: code, at: state.value, hubs) }
        )
        handlers.onRefused = { remote, status, reason in state.value.log.refused(remote: remote, status: status, reason: reason) }
        handlers.api = hubEndpoints(loop: index)
        if !configuration.apiKeys.isEmpty {
            handlers.api[ServerAPI.prefix] = ServerAPI(access: apiAccess).handler(hubs)
        }
        return handlers
    }

    /// The client's loop: the hub's queue for its messages is full.
    private static func tooFarBehind(_ id: ConnectionID, _ server: WebSocketServer) {
        server.close(id, code: .tryAgainLater, reason: "the hub is behind; try again later")
    }

    /// On `s`'s loop: a message of `id`, run here or passed on to the hub
    /// the client was handed to. `admitted`: the message holds a place in
    /// its loop's `gate` (it was posted from the client's loop); else this
    /// is the client's loop, which admits it before posting it anywhere.
    static func deliver(
        _ message: WebSocketMessage, from id: ConnectionID, to s: State, _ hubs: LoopHubs, admitted: Bool,
        server: WebSocketServer, gate: HubMailboxGate
    ) {
        let key = id.rawValue
        if let next = s.handedOver[key] {
            guard admitted || gate.admit() else { return tooFarBehind(id, server) }
            hubs.post(to: next) { deliver(message, from: id, to: $0, hubs, admitted: true, server: server, gate: gate) }
            return
        }
        if admitted { gate.done() }
        if handOver(message, from: id, at: s, hubs, server: server, gate: gate) { return }
        receive(message, from: id, s)
        s.sink.flush()
    }

    /// A `hello` of a client that has not joined, for a room of another
    /// loop: the session goes to that loop's hub with the hello (true).
    private static func handOver(
        _ message: WebSocketMessage, from id: ConnectionID, at s: State, _ hubs: LoopHubs, server: WebSocketServer,
        gate: HubMailboxGate
    ) -> Bool {
        let key = id.rawValue
        guard case .text = message.kind, let room = s.hub.roomAsked(in: message.bytes, by: key) else { return false }
        let target = hubs.placement.loop(of: room)
        guard target != s.home, let arrival = s.hub.handOver(key) else { return false }
        s.handedOver[key] = target
        let logged = s.log.handOver(key)
        hubs.post(to: target) { t in
            // Handed on from here before and back now: the links out of here are stale.
            if let stale = t.handedOver.removeValue(forKey: key) { forget(key, at: stale, until: t.home, hubs) }
            t.hub.arrive(key, arrival)
            t.log.arrive(key, logged)
            receive(message, from: id, t)  // its room's loop: nothing to hand over or pass on
            t.sink.flush()
        }
        return true
    }

    /// The chain of hand-overs that left loop `until` for `key` and came back
    /// to it: each link forgets it, after passing on what it had been handed
    /// until then (each mailbox is FIFO, so those messages go first).
    private static func forget(_ key: ConnectionKey, at index: Int, until home: Int, _ hubs: LoopHubs) {
        hubs.post(to: index) { s in
            if let next = s.handedOver.removeValue(forKey: key), next != home { forget(key, at: next, until: home, hubs) }
        }
    }

    private static func receive(_ message: WebSocketMessage, from id: ConnectionID, _ s: State) {
        guard case .text = message.kind else {
            s.sink.send(HubMessage.error(ProtocolError(.badMessage, "message: binary messages are not part of protocol v1; send JSON text")), to: id.rawValue)
            return
        }
        if s.cluster?.hold(message.bytes, from: id.rawValue, hub: s.hub, at: s.now(), sink: s.sink) == true { return }
        s.hub.receive(message.bytes, from: id.rawValue, at: s.now(), sink: s.sink)
        s.log.received(on: id.rawValue, hub: s.hub)
    }

    /// On `s`'s loop: `id` closed; its session leaves its room, here or on the hub it was handed to.
    static func closed(_ id: ConnectionID, code: CloseCode?, at s: State, _ hubs: LoopHubs) {
        if let next = s.handedOver.removeValue(forKey: id.rawValue) {
            hubs.post(to: next) { closed(id, code: code, at: $0, hubs) }
            return
        }
        s.tally.countClose(code: code?.rawValue)
        s.cluster?.connectionClosed(id.rawValue)
        s.log.closed(id.rawValue, code: code?.rawValue, info: s.hub.sessionInfo(id.rawValue))
        s.hub.closed(id.rawValue, at: s.now(), sink: s.sink)
        s.sink.flush()
    }
}
