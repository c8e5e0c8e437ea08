import Foundation

/// Which browser origins may open a WebSocket: the server's own host,
/// localhost in any form, and the listed extra origins (exact match).
struct OriginCheck: Sendable {
    let serverHost: String
    let extra: Set<String>

    func allows(_ origin: String) -> Bool {
        if extra.contains(origin) { return true }
        guard let host = URLComponents(string: origin)?.host?.lowercased() else { return false }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare == "localhost" || bare == "::1" || bare.hasPrefix("127.") { return true }
        return bare == serverHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }
}
