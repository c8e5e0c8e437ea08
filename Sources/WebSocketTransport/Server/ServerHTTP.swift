import CLWS

/// A dynamic response body waiting for HTTP_WRITEABLE (loop thread).
final class PendingHTTPBody {
    let storage: SharedFrame  // reuses the LWS_PRE headroom layout
    let closeAfter: Bool
    init(body: [UInt8], closeAfter: Bool) {
        storage = SharedFrame(kind: .binary, bytes: body)
        self.closeAfter = closeAfter
    }
}

/// Plain HTTP on the server port: API handlers (any method), dynamic
/// handlers, then static files, else 404. Outside the APIs GET and HEAD only
/// (others get 405 and the connection closes). Loop thread only.
extension ServerCore {
    func http(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
        let method: HTTPRequest.Method
        if LWS.hasHeader(wsi, WSI_TOKEN_GET_URI) {
            method = .get
        } else if LWS.hasHeader(wsi, WSI_TOKEN_HEAD_URI) {
            method = .head
        } else if LWS.hasHeader(wsi, WSI_TOKEN_POST_URI) {
            method = .post
        } else if LWS.hasHeader(wsi, WSI_TOKEN_PUT_URI) {
            method = .put
        } else if LWS.hasHeader(wsi, WSI_TOKEN_DELETE_URI) {
            method = .delete
        } else {
            return respond(wsi, .text("method not allowed\n", status: 405), head: false, closeAfter: true)
        }
        if let handler = apiHandler(for: path) { return beginAPIRequest(wsi, path: path, method: method, handler: handler) }
        guard method == .get || method == .head else {
            return respond(wsi, .text("method not allowed\n", status: 405), head: false, closeAfter: true)
        }
        let head = method == .head
        if let handler = handlers.http[path] ?? config.httpHandlers[path] ?? prefixHandler(for: path) {
            let request = HTTPRequest(
                method: method, path: path, authorization: LWS.header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION),
                host: LWS.header(wsi, WSI_TOKEN_HOST))
            return respond(wsi, handler(request), head: head)
        }
        if let route = routes[path] {
            let text = "\(path) is a WebSocket endpoint (\(route.endpoint.subprotocolText)): connect with a WebSocket client\n"
            return respond(wsi, .text(text, status: 426), head: head, extraHeaders: [("upgrade", "websocket")])
        }
        guard let mount = staticFiles.first(where: { path.hasPrefix($0.prefix) }) else {
            return respond(wsi, .text("not found\n", status: 404), head: head)
        }
        switch mount.files.resolve(String(path.dropFirst(mount.prefix.count - 1))) {
        case .notFound:
            return respond(wsi, .text("not found\n", status: 404), head: head)
        case .forbidden:
            return respond(wsi, .text("forbidden\n", status: 403), head: head)
        case .file(let file, let contentType):
            var extra = "x-content-type-options: nosniff\r\n"
            if let csp = config.contentSecurityPolicy { extra += "content-security-policy: \(csp)\r\n" }
            let rc = lws_serve_http_file(wsi, file, contentType, extra, Int32(extra.utf8.count))
            if rc < 0 { return -1 }
            if rc > 0 { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
            return 0
        }
    }

    /// The handler of the longest `httpPrefixHandlers` prefix of `path`.
    private func prefixHandler(for path: String) -> HTTPHandler? {
        guard !config.httpPrefixHandlers.isEmpty else { return nil }
        return config.httpPrefixHandlers.filter { path.hasPrefix($0.key) }.max { $0.key.count < $1.key.count }?.value
    }

    /// Writes status and headers now; the body follows on HTTP_WRITEABLE.
    /// A 204 carries no Content-Length (RFC 9110 §8.6).
    func respond(
        _ wsi: OpaquePointer, _ response: HTTPResponse, head: Bool,
        closeAfter: Bool = false, extraHeaders: [(String, String)] = []
    ) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: clws_pre() + 2048)
        let ok = buffer.withUnsafeMutableBufferPointer { buf -> Bool in
            let start = buf.baseAddress! + clws_pre()
            let end = buf.baseAddress! + buf.count - 1
            var p: UnsafeMutablePointer<UInt8>? = start
            guard addStatusLine(wsi, response.status, &p, end),
                addHeader(wsi, "content-type:", response.contentType, &p, end),
                response.status == 204 || lws_add_http_header_content_length(wsi, lws_filepos_t(response.body.count), &p, end) == 0,
                addHeader(wsi, "cache-control:", response.headers["cache-control"] ?? "no-store", &p, end),
                response.headers.filter({ $0.key != "cache-control" }).sorted(by: { $0.key < $1.key })
                    .allSatisfy({ addHeader(wsi, $0.key + ":", $0.value, &p, end) }),
                addHeader(wsi, "x-content-type-options:", "nosniff", &p, end),
                extraHeaders.allSatisfy({ addHeader(wsi, $0.0 + ":", $0.1, &p, end) }),
                lws_finalize_write_http_header(wsi, start, &p, end) == 0
            else { return false }
            return true
        }
        guard ok else { return -1 }
        if head || response.body.isEmpty {
            if closeAfter { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        let id = nextID()
        clws_set_id(wsi, id)
        httpPending[id] = PendingHTTPBody(body: response.body, closeAfter: closeAfter)
        lws_callback_on_writable(wsi)
        return 0
    }

    /// HTTP_CONFIRM_UPGRADE: answers a refused WebSocket upgrade with a whole
    /// HTTP/1.1 response (plain-text `message` as the body, also in the
    /// `x-websocket-refusal` header for clients such as lws's that drop the
    /// body of a non-101 answer), written at once. Returns the callback result:
    /// 1 tells lws the response was sent (it then ends the transaction and,
    /// since the request was not keep-alive, closes the connection).
    func refuseUpgrade(_ wsi: OpaquePointer, _ refusal: UpgradeRefusal) -> Int32 {
        let body = Array((refusal.message + "\n").utf8)
        var buffer = [UInt8](repeating: 0, count: clws_pre() + 2048 + body.count)
        let written = buffer.withUnsafeMutableBufferPointer { buf -> Bool in
            let start = buf.baseAddress! + clws_pre()
            let end = buf.baseAddress! + buf.count - 1
            var p: UnsafeMutablePointer<UInt8>? = start
            guard addStatusLine(wsi, refusal.status, &p, end),
                addHeader(wsi, "content-type:", "text/plain; charset=utf-8", &p, end),
                addHeader(wsi, "content-length:", String(body.count), &p, end),
                addHeader(wsi, "connection:", "close", &p, end),
                addHeader(wsi, "cache-control:", "no-store", &p, end),
                addHeader(wsi, "x-content-type-options:", "nosniff", &p, end),
                addHeader(wsi, UpgradeRefusal.headerName + ":", printableASCII(refusal.message, limit: 300), &p, end),
                refusal.headers.allSatisfy({ addHeader(wsi, $0.0 + ":", $0.1, &p, end) }),
                lws_finalize_http_header(wsi, &p, end) == 0,
                let bodyStart = p, bodyStart + body.count < end
            else { return false }
            body.withUnsafeBufferPointer { bodyStart.update(from: $0.baseAddress!, count: body.count) }
            let count = bodyStart + body.count - start
            return lws_write(wsi, start, count, LWS_WRITE_HTTP) == count
        }
        return written ? 1 : -1
    }

    func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard let pending = httpPending.removeValue(forKey: clws_get_id(wsi)) else { return 0 }
        let body = pending.storage
        if lws_write(wsi, body.payloadForWrite, body.count, LWS_WRITE_HTTP_FINAL) < 0 { return -1 }
        if pending.closeAfter { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    func httpClosed(_ wsi: OpaquePointer) {
        httpPending.removeValue(forKey: clws_get_id(wsi))
        apiClosed(wsi)
    }

    private func addHeader(
        _ wsi: OpaquePointer, _ name: String, _ value: String,
        _ p: inout UnsafeMutablePointer<UInt8>?, _ end: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let v = Array(value.utf8)
        return v.withUnsafeBufferPointer { vb in
            lws_add_http_header_by_name(wsi, name, vb.baseAddress, Int32(vb.count), &p, end) == 0
        }
    }

    /// "HTTP/1.1 426 Upgrade Required": lws 4.1's own status line says
    /// HTTP/1.0 before the request version is known (upgrades) and leaves the
    /// reason phrase empty for codes it has no text for (426, 429).
    private func addStatusLine(
        _ wsi: OpaquePointer, _ status: Int,
        _ p: inout UnsafeMutablePointer<UInt8>?, _ end: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let line = Array("HTTP/1.1 \(status) \(HTTPStatus.reason(status))".utf8)
        return line.withUnsafeBufferPointer { lb in
            lws_add_http_header_by_name(wsi, nil, lb.baseAddress, Int32(lb.count), &p, end) == 0
        }
    }
}

/// Reason phrases (RFC 9110) for the statuses a server or client here meets.
public enum HTTPStatus {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default:
            switch status / 100 {
            case 1: "Informational"
            case 2: "Success"
            case 3: "Redirection"
            case 4: "Client Error"
            default: "Server Error"
            }
        }
    }
}
