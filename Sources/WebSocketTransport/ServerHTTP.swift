import CLWS

/// A dynamic response body waiting for HTTP_WRITEABLE (loop thread).
final class PendingHTTPBody {
    let storage: SharedFrame // reuses the LWS_PRE headroom layout
    let closeAfter: Bool
    init(body: [UInt8], closeAfter: Bool) {
        storage = SharedFrame(kind: .binary, bytes: body)
        self.closeAfter = closeAfter
    }
}

/// Plain HTTP on the server port: dynamic handlers, then static files,
/// else 404. GET and HEAD only (others get 405 and the connection closes).
/// Loop thread only.
extension ServerCore {
    func http(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
        let method: HTTPRequest.Method
        if LWS.hasHeader(wsi, WSI_TOKEN_GET_URI) {
            method = .get
        } else if LWS.hasHeader(wsi, WSI_TOKEN_HEAD_URI) {
            method = .head
        } else {
            return respond(wsi, .text("method not allowed\n", status: 405), head: false, closeAfter: true)
        }
        let head = method == .head
        if let handler = config.httpHandlers[path] {
            return respond(wsi, handler(HTTPRequest(method: method, path: path)), head: head)
        }
        if routes[path] != nil {
            return respond(wsi, .text("websocket endpoint\n", status: 426), head: head)
        }
        guard let files = staticFiles else {
            return respond(wsi, .text("not found\n", status: 404), head: head)
        }
        switch files.resolve(path) {
        case .notFound:
            return respond(wsi, .text("not found\n", status: 404), head: head)
        case .forbidden:
            return respond(wsi, .text("forbidden\n", status: 403), head: head)
        case .file(let file, let contentType):
            let extra = "x-content-type-options: nosniff\r\n"
            let rc = lws_serve_http_file(wsi, file, contentType, extra, Int32(extra.utf8.count))
            if rc < 0 { return -1 }
            if rc > 0 { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
            return 0
        }
    }

    /// Writes status and headers now; the body follows on HTTP_WRITEABLE.
    func respond(_ wsi: OpaquePointer, _ response: HTTPResponse, head: Bool,
                 closeAfter: Bool = false) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: clws_pre() + 2048)
        let ok = buffer.withUnsafeMutableBufferPointer { buf -> Bool in
            let start = buf.baseAddress! + clws_pre()
            let end = buf.baseAddress! + buf.count - 1
            var p: UnsafeMutablePointer<UInt8>? = start
            guard lws_add_http_common_headers(wsi, UInt32(response.status), response.contentType,
                                              lws_filepos_t(response.body.count), &p, end) == 0,
                  addHeader(wsi, "cache-control:", "no-store", &p, end),
                  addHeader(wsi, "x-content-type-options:", "nosniff", &p, end),
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

    func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard let pending = httpPending.removeValue(forKey: clws_get_id(wsi)) else { return 0 }
        let body = pending.storage
        if lws_write(wsi, body.payloadForWrite, body.count, LWS_WRITE_HTTP_FINAL) < 0 { return -1 }
        if pending.closeAfter { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    func httpClosed(_ wsi: OpaquePointer) {
        httpPending.removeValue(forKey: clws_get_id(wsi))
    }

    private func addHeader(_ wsi: OpaquePointer, _ name: String, _ value: String,
                           _ p: inout UnsafeMutablePointer<UInt8>?, _ end: UnsafeMutablePointer<UInt8>) -> Bool {
        let v = Array(value.utf8)
        return v.withUnsafeBufferPointer { vb in
            lws_add_http_header_by_name(wsi, name, vb.baseAddress, Int32(vb.count), &p, end) == 0
        }
    }
}
