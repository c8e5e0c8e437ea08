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
        if bare == "localhost" || bare == "::1" || Self.isIPv4Loopback(bare) { return true }
        return bare == serverHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    /// A dotted-quad literal in 127.0.0.0/8, not a name that merely starts
    /// with "127." (`127.0.0.1.nip.io` is anyone's site).
    static func isIPv4Loopback(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy { ("0"..."9").contains($0) } && Int(part)! <= 255
        }
    }
}
