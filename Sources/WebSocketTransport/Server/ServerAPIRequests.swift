import CLWS

/// An API request being read or answered (`httpAPIHandlers`). Loop thread.
final class PendingAPIRequest {
    var request: HTTPRequest
    let handler: HTTPAPIHandler
    /// Set when the handler answered: written on the next HTTP_WRITEABLE.
    var response: HTTPResponse?
    init(request: HTTPRequest, handler: @escaping HTTPAPIHandler) {
        self.request = request
        self.handler = handler
    }
}

/// Request/response APIs on the server port: any method, the body read
/// whole (up to `maxRequestBody`), the handler's answer written whenever it
/// comes. Loop thread only.
extension ServerCore {
    /// The API handler of the longest `httpAPIHandlers` prefix of `path`.
    func apiHandler(for path: String) -> HTTPAPIHandler? {
        let all = handlers.api.merging(config.httpAPIHandlers) { given, _ in given }
        guard !all.isEmpty else { return nil }
        return all.filter { path.hasPrefix($0.key) }.max { $0.key.count < $1.key.count }?.value
    }

    /// LWS_CALLBACK_HTTP for an API path: a request with a body waits for it
    /// (HTTP_BODY, HTTP_BODY_COMPLETION); others go to the handler now.
    func beginAPIRequest(_ wsi: OpaquePointer, path: String, method: HTTPRequest.Method, handler: @escaping HTTPAPIHandler) -> Int32 {
        var request = HTTPRequest(
            method: method, path: path, authorization: LWS.header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), host: LWS.header(wsi, WSI_TOKEN_HOST))
        request.query = LWS.urlArguments(wsi)
        request.contentType = LWS.header(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE)
        let length = LWS.header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap { Int($0) } ?? 0
        if length > config.maxRequestBody {
            return respond(wsi, .text("request body over \(config.maxRequestBody) bytes\n", status: 413), head: false, closeAfter: true)
        }
        let id = nextID()
        clws_set_id(wsi, id)
        apiPending[id] = PendingAPIRequest(request: request, handler: handler)
        if length > 0 && (method == .post || method == .put) { return 0 }  // the body follows
        dispatchAPIRequest(id, wsi)
        return 0
    }

    /// LWS_CALLBACK_HTTP_BODY: more of the request body.
    func apiBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let pending = apiPending[clws_get_id(wsi)], let input else { return 0 }
        guard pending.request.body.count + length <= config.maxRequestBody else {
            apiPending[clws_get_id(wsi)] = nil
            return respond(wsi, .text("request body over \(config.maxRequestBody) bytes\n", status: 413), head: false, closeAfter: true)
        }
        pending.request.body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        return 0
    }

    /// LWS_CALLBACK_HTTP_BODY_COMPLETION: the whole request is here.
    func apiBodyComplete(_ wsi: OpaquePointer) -> Int32 {
        let id = clws_get_id(wsi)
        guard apiPending[id] != nil else { return 0 }
        dispatchAPIRequest(id, wsi)
        return 0
    }

    /// Hands the request to its handler; its answer comes back to this loop.
    private func dispatchAPIRequest(_ id: UInt64, _ wsi: OpaquePointer) {
        guard let pending = apiPending[id] else { return }
        let loop = self.loop
        let answered = Locked(false)
        let responder = HTTPResponder { [self] response in
            let first = answered.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            loop.onLoop { [self] in
                guard let pending = apiPending[id], pending.response == nil, let wsi = pendingWSI[id] else { return }
                pending.response = response
                lws_callback_on_writable(wsi)
            }
        }
        pendingWSI[id] = wsi
        pending.handler(pending.request, responder)
    }

    /// HTTP_WRITEABLE of an answered API request: its status, headers and body.
    func apiWriteable(_ wsi: OpaquePointer) -> Int32? {
        let id = clws_get_id(wsi)
        guard let pending = apiPending[id], let response = pending.response else { return nil }
        apiPending[id] = nil
        pendingWSI[id] = nil
        return respond(wsi, response, head: pending.request.method == .head)
    }

    /// The connection of an API request closed.
    func apiClosed(_ wsi: OpaquePointer) {
        let id = clws_get_id(wsi)
        apiPending[id] = nil
        pendingWSI[id] = nil
    }
}
