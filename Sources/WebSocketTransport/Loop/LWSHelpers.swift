import CLWS

/// Small wrappers over lws calls. Every function here is loop-thread only
/// (it takes a `wsi`, which belongs to the loop thread).
enum LWS {
    /// A request header as a String, nil when absent.
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Decodes a NUL-terminated C string held in an array.
    static func cString(_ chars: [CChar]) -> String {
        let bytes = chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hasHeader(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> Bool {
        lws_hdr_total_length(wsi, token) > 0
    }

    /// The query's `name=value` arguments (lws keeps each as a fragment of
    /// WSI_TOKEN_HTTP_URI_ARGS, already URL-decoded); a bare `name` has the value "".
    static func urlArguments(_ wsi: OpaquePointer) -> [String: String] {
        var arguments: [String: String] = [:]
        var index: Int32 = 0
        while true {
            let length = Int(lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index))
            guard length > 0 else { break }
            var buffer = [CChar](repeating: 0, count: length + 1)
            guard lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index) >= 0 else { break }
            let text = cString(buffer)
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if arguments[name] == nil { arguments[name] = parts.count > 1 ? String(parts[1]) : "" }
            index += 1
        }
        return arguments
    }

    /// The peer's IP address as text ("" if unknown).
    static func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        return cString(buffer)
    }

    /// Sets the close code and reason lws sends when the callback then returns -1.
    static func setCloseReason(_ wsi: OpaquePointer, _ code: CloseCode, _ reason: String) {
        // A close payload holds at most 125 bytes: 2 for the code, 123 of reason.
        var bytes = Array(reason.utf8.prefix(123))
        while !bytes.isEmpty && !UTF8Check.isValid(bytes) { bytes.removeLast() }
        bytes.withUnsafeMutableBufferPointer { buf in
            lws_close_reason(
                wsi, lws_close_status(rawValue: UInt32(code.rawValue)),
                buf.baseAddress, buf.count)
        }
    }

    /// Reads the close code from a WS_PEER_INITIATED_CLOSE payload.
    static func peerCloseCode(_ input: UnsafeMutableRawPointer?, _ length: Int) -> CloseCode? {
        guard let input, length >= 2 else { return nil }
        return CloseCode.parse(UnsafeRawBufferPointer(start: input, count: length))
    }

    static func writeProtocol(_ kind: MessageKind) -> lws_write_protocol {
        kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
    }
}

/// Process-wide libwebsockets settings.
public enum WebSocketTransportSettings {
    /// Sets the lws log mask (bits of LLL_ERR=1, LLL_WARN=2, LLL_NOTICE=4,
    /// ...) and shows those lines on stderr as "lws E: …". By default (unless
    /// `CAMHUB_LWS_LOG` is set, see `LibraryLog`) lws logs errors only and
    /// none is shown. Call before starting servers or clients (lws keeps it
    /// in a global).
    public static func setLogLevel(_ mask: Int32) {
        LibraryLog.apply(.init(mask: mask, show: true))
    }

    /// Sends lws's log lines at `mask` to `handler` (level bit, line without
    /// newline; any thread) instead of stderr, whatever `CAMHUB_LWS_LOG` says.
    /// Errors are always kept for start-up failures. Call before starting servers or clients.
    public static func routeLibraryLog(mask: Int32, to handler: @escaping @Sendable (Int32, String) -> Void) {
        LibraryLog.route(mask: mask | 1, to: handler)
    }

    /// The libwebsockets version, e.g. "4.1.6" (Debian's build reports
    /// "4.1.6-": the dash of an empty git hash is dropped).
    public static let libraryVersion: String = {
        var version = String(cString: lws_get_library_version())
        while let last = version.last, last == "-" || last == " " { version.removeLast() }
        return version
    }()

    /// Whether new loops run lws on libev (epoll) rather than lws's own poll()
    /// loop. On by default; `CAMHUB_EVENT_LOOP=poll` in the environment turns it
    /// off (to compare the two, or where lws's libev plugin is missing).
    public static let useLibev: Bool =
        getenv("CAMHUB_EVENT_LOOP").map { String(cString: $0) } != "poll"

    /// Whether servers may batch their frame sends with io_uring
    /// (`ServerConfiguration.batchedSends`). On by default;
    /// `CAMHUB_IO_URING=off` in the environment turns it off (to compare).
    public static let allowIOURing: Bool =
        getenv("CAMHUB_IO_URING").map { String(cString: $0) } != "off"

    /// Raises the soft open-file limit (RLIMIT_NOFILE) to the hard limit.
    /// Returns the new soft limit, or nil if it could not be read or set.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int? {
        let n = clws_raise_nofile_limit()
        return n < 0 ? nil : n
    }

    /// Sets TCP_NOTSENT_LOWAT on a socket (the server does this for every
    /// accepted WebSocket). False where unsupported; callers may ignore it.
    @discardableResult
    public static func setNotSentLowWatermark(fd: Int32, bytes: Int) -> Bool {
        clws_set_notsent_lowat(fd, Int32(clamping: bytes)) == 0
    }

    /// Applies the default once unless a level was chosen (see `LibraryLog`).
    static func applyDefaultLogLevel() {
        LibraryLog.applyDefault()
    }
}
