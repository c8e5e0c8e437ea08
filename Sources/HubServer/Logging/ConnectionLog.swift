import CamHubProtocol
import HubCore
import Logging

/// The hub's log lines about connections, on the loop thread: opened (debug),
/// joined and closed (info, with client id, room, role, remote address, close
/// code and reason, duration), refused handshakes (notice) and refused hellos
/// (warning, with the hub's reason, which never repeats a token), errors sent
/// to clients (debug). Nothing per frame. Loop thread only.
final class ConnectionLog {
    let logger: Logger

    /// What every open connection's lines need, for its whole life: kept
    /// small (one per connection, and the dictionary keeps up to twice as
    /// many slots as entries).
    fileprivate struct Entry: Sendable {
        let remote: String
        /// Seconds after `origin` (8 bytes, where an instant takes 16).
        let opened: Double
        var joined = false
    }

    /// What `Entry.opened` counts from.
    private let origin = ContinuousClock.now

    private var entries: [ConnectionKey: Entry] = [:]
    /// The last error sent to a connection that has not joined, for its "hello refused" line.
    private var helloErrors: [ConnectionKey: String] = [:]
    /// The close the hub asked for, from then until the connection is gone.
    private var hubCloses: [ConnectionKey: (code: UInt16, reason: String)] = [:]

    init(logger: Logger) { self.logger = logger }

    func opened(_ connection: ConnectionKey, remote: String, origin: String?) {
        entries[connection] = Entry(remote: remote, opened: secondsSinceOrigin())
        logger.debug(
            "connection opened",
            metadata: [
                "connection": "\(connection)", "remote": "\(remote)",
                "origin": "\(origin ?? "")",
            ])
    }

    /// After each message: logs the join once, when the hub has just admitted the connection.
    func received(on connection: ConnectionKey, hub: Hub) {
        guard let entry = entries[connection], !entry.joined,
            let info = hub.sessionInfo(connection), let client = info.client
        else { return }
        entries[connection]?.joined = true
        helloErrors[connection] = nil
        logger.info(
            "client joined",
            metadata: [
                "client": "\(client)", "room": "\(info.room ?? "")",
                "role": "\(info.role?.rawValue ?? "")", "remote": "\(entry.remote)",
                "connection": "\(connection)",
            ])
    }

    /// The hub sent an `error` message (encoded as `bytes`).
    func errorSent(_ bytes: [UInt8], to connection: ConnectionKey) {
        let parsed = try? JSONParser.parse(bytes)
        let code = parsed?["code"]?.stringValue ?? "unknown"
        let message = parsed?["message"]?.stringValue ?? ""
        if entries[connection]?.joined == false { helloErrors[connection] = message }
        logger.debug("error sent", metadata: ["connection": "\(connection)", "code": "\(code)", "error": "\(message)"])
    }

    /// The hub is closing the connection.
    func closing(_ connection: ConnectionKey, code: UInt16, reason: String) {
        guard let entry = entries[connection] else { return }
        hubCloses[connection] = (code, reason)
        if !entry.joined {
            logger.warning(
                "hello refused",
                metadata: [
                    "connection": "\(connection)", "remote": "\(entry.remote)",
                    "code": .stringConvertible(Int(code)), "reason": "\(reason)",
                    "error": "\(helloErrors[connection] ?? "")",
                ])
        }
    }

    /// What this log knows of a connection that has not joined, taken out to
    /// go with it to another loop's hub (`arrive` there).
    struct Handed: Sendable {
        fileprivate let entry: Entry
        fileprivate let helloError: String?
        fileprivate let hubClose: (code: UInt16, reason: String)?
    }

    func handOver(_ connection: ConnectionKey) -> Handed? {
        guard let entry = entries.removeValue(forKey: connection) else { return nil }
        return Handed(entry: entry, helloError: helloErrors.removeValue(forKey: connection), hubClose: hubCloses.removeValue(forKey: connection))
    }

    func arrive(_ connection: ConnectionKey, _ handed: Handed?) {
        guard let handed else { return }
        entries[connection] = handed.entry
        helloErrors[connection] = handed.helloError
        hubCloses[connection] = handed.hubClose
    }

    /// The server is closing every connection (shutdown or restart).
    func serverClosing(code: UInt16, reason: String) {
        for key in entries.keys where hubCloses[key] == nil { hubCloses[key] = (code, reason) }
    }

    /// The connection is gone (`info`: who it was in the hub, read before the hub forgets it).
    func closed(_ connection: ConnectionKey, code: UInt16?, info: SessionInfo?) {
        guard let entry = entries.removeValue(forKey: connection) else { return }
        helloErrors[connection] = nil
        let hubClose = hubCloses.removeValue(forKey: connection)
        let seconds = secondsSinceOrigin() - entry.opened
        var metadata: Logger.Metadata = [
            "connection": "\(connection)", "remote": "\(entry.remote)",
            "code": code.map { .stringConvertible(Int($0)) } ?? "none",
            "by": "\(hubClose != nil ? "hub" : "client")",
            "duration": .stringConvertible((seconds * 1000).rounded() / 1000),
        ]
        if let client = info?.client { metadata["client"] = "\(client)" }
        if let room = info?.room { metadata["room"] = "\(room)" }
        if let role = info?.role { metadata["role"] = "\(role.rawValue)" }
        if let hubClose {
            metadata["hubCode"] = .stringConvertible(Int(hubClose.code))
            metadata["reason"] = "\(hubClose.reason)"
        }
        logger.info("connection closed", metadata: metadata)
    }

    /// A WebSocket upgrade refused by the transport (origin, path, subprotocol, …).
    func refused(remote: String, status: Int, reason: String) {
        logger.notice("handshake refused", metadata: ["remote": "\(remote)", "status": .stringConvertible(status), "reason": "\(reason)"])
    }

    private func secondsSinceOrigin() -> Double { (ContinuousClock.now - origin).seconds }

    /// Connections still open (for the shutdown line).
    var openCount: Int { entries.count }
}
