import WebSocketTransport

/// `GET /metrics`: the Prometheus text format (version 0.0.4). With a token
/// set, a scrape must send `Authorization: Bearer <token>` (Prometheus's
/// `authorization: { credentials: … }`); otherwise 401, and the token is
/// compared without an early exit.
struct MetricsEndpoint: Sendable {
    static let path = "/metrics"
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    let token: String?

    func authorizes(_ request: HTTPRequest) -> Bool {
        guard let token else { return true }
        guard let header = request.authorization else { return false }
        let prefix = "Bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix.lowercased()) else { return false }
        return Self.constantTimeEqual(Array(header.utf8.dropFirst(prefix.utf8.count)), Array(token.utf8))
    }

    func respond(_ request: HTTPRequest, exposition: () -> [UInt8]) -> HTTPResponse {
        guard authorizes(request) else {
            return .text("unauthorized: send Authorization: Bearer <metrics token>\n", status: 401)
        }
        return HTTPResponse(contentType: Self.contentType, body: exposition())
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var diff = a.count == b.count ? 0 : 1
        for i in 0..<max(a.count, b.count) {
            diff |= Int((i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0))
        }
        return diff == 0
    }
}
