import CamHubClient
import CamHubProtocol
import Foundation

/// What a server answered a WebSocket upgrade it refused ("HTTP 404 Not Found:
/// no WebSocket endpoint at /ws; try /hub (subprotocol camhub.v1)"). CamHubKit's
/// WebSocket (swift-websocket) reports a refused upgrade without the response,
/// and a library has no business making a second request; the command line
/// does, so that a wrong `--url` is named in the hub's words: it sends the same
/// upgrade once more over a plain socket and reads the answer. For `ws://` to
/// an IPv4 address or localhost only (nil otherwise: the plain message stands).
enum UpgradeRefusal {
    static func answer(_ url: HubURL, room: String) -> String? {
        let host = url.dialHost
        guard !url.secure, host.split(separator: ".").count == 4, host.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        let headers = [
            "Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: Y2FtaHViIGFza3MgYWdhaW4=",
            "Sec-WebSocket-Protocol: \(HubProtocol.subprotocol)",
        ]
        let path = url.naming(room: room).path
        guard let response = try? RawHTTP.request(host: host, port: url.port, path: path, extraHeaders: headers), response.status != 101 else {
            return nil
        }
        let status = response.statusLine.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? "\(response.status)"
        let body = response.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return "HTTP \(status)" + (body.isEmpty ? "" : ": \(body)")
    }
}
