import CamHubProtocol
import Foundation
import HubCore
import WebSocketTransport

/// The answers of the server API's commands: what the hub sends its API
/// sessions (keys at `apiConnectionBase` and above) becomes HTTP responses.
/// On its loop only (its hub's thread), like the `TransportSink` that feeds it.
final class APIAnswers {
    /// A request that waits for its animation: its first report, or with
    /// `untilEnd` the one that ends it (an `error` for it answers too).
    struct Waiter {
        let key: ConnectionKey
        let id: String
        let untilEnd: Bool
        let responder: HTTPResponder
        let since: Double

        /// Whether `bytes` is the animation report this request waits for.
        func isAnswered(by bytes: [UInt8]) -> Bool {
            guard case .object(let o)? = try? JSONParser.parse(bytes), case .string("animation")? = o["type"],
                case .string(id)? = o["id"], case .string(let status)? = o["status"]
            else { return false }
            return status != "started" || !untilEnd
        }
    }

    private var waiters: [Waiter] = []
    /// What the API sessions were sent while a command ran (`collect`).
    private var collected: [ConnectionKey: [[UInt8]]]?
    /// The longest a request waits for its animation (hub seconds); then 504.
    static let longestWait = 300.0

    /// A message the hub sent API session `key`.
    func received(_ bytes: [UInt8], for key: ConnectionKey) {
        if collected != nil { collected![key, default: []].append(bytes) }
        guard !waiters.isEmpty, let message = try? JSONParser.parse(bytes) else { return }
        waiters.removeAll { waiter in
            guard waiter.key == key else { return false }
            switch text(message, "type") {
            case "animation":
                guard waiter.isAnswered(by: bytes) else { return false }
                waiter.responder.respond(.json(String(decoding: bytes, as: UTF8.self)))
                return true
            case "error":
                guard text(message, "ref") == waiter.id, let code = text(message, "code"),
                    let known = ProtocolError.Code(rawValue: code)
                else { return false }
                let failure = APIFailure(ProtocolError(known, text(message, "message") ?? "", ref: waiter.id))
                waiter.responder.respond(.json(String(decoding: failure.json, as: UTF8.self), status: failure.status))
                return true
            default:
                return false
            }
        }
    }

    /// Runs `body` and returns what it made the hub send each API session.
    func collect(_ body: () throws(APIFailure) -> Void) throws(APIFailure) -> [ConnectionKey: [[UInt8]]] {
        collected = [:]
        defer { collected = nil }
        try body()
        return collected ?? [:]
    }

    func wait(_ waiter: Waiter) { waiters.append(waiter) }

    /// The string field `name` of a JSON object, if it has one.
    private func text(_ value: JSONValue, _ name: String) -> String? {
        guard case .object(let object) = value, case .string(let s)? = object[name] else { return nil }
        return s
    }

    /// Requests that waited `longestWait` get 504 (at hub second `now`).
    func expire(at now: Double) {
        waiters.removeAll { waiter in
            guard now - waiter.since >= Self.longestWait else { return false }
            let failure = APIFailure(status: 504, code: "timeout", "wait: the animation did not end within \(Int(Self.longestWait)) s", ref: waiter.id)
            waiter.responder.respond(.json(String(decoding: failure.json, as: UTF8.self), status: 504))
            return true
        }
    }
}
