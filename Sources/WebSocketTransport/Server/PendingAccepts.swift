import CLWS
import Glibc

/// Accepted sockets the listening loop holds until their request has begun
/// to arrive, so that `ServerConfiguration.handOff` can place each one by the
/// request target it asks for (a hub puts a follower on the loop of the room
/// named in `?room=`) before any loop's libwebsockets has read a byte.
///
/// The bytes are only peeked (`MSG_PEEK`): the loop that adopts the socket
/// reads the whole request itself. A socket that sends nothing within
/// `deadline`, or whose first bytes hold no complete HTTP request target (a
/// TLS ClientHello, a request line split across segments), is placed without
/// a target. Loop thread only (libev watchers on the loop's own libev loop).
final class PendingAccepts {
    /// How long a socket may wait for its first bytes before it is placed without a target.
    static let deadline = 1.0
    /// Bytes peeked: a request line with a target of up to ~4 KiB.
    static let peekBytes = 4096

    private final class Entry {
        let socket: Int32
        let watcher = UnsafeMutablePointer<clws_ev_peek>.allocate(capacity: 1)
        init(socket: Int32) {
            self.socket = socket
            watcher.initialize(to: clws_ev_peek())
        }
        deinit {
            watcher.deinitialize(count: 1)
            watcher.deallocate()
        }
    }

    private let eventLoop: UnsafeMutableRawPointer
    private let place: (_ socket: Int32, _ target: String?) -> Void
    private var entries: [Int32: Entry] = [:]

    /// `place` is called once per socket, on the loop thread, with the socket
    /// and the request target peeked from it (nil: none in time).
    init(eventLoop: UnsafeMutableRawPointer, place: @escaping (_ socket: Int32, _ target: String?) -> Void) {
        self.eventLoop = eventLoop
        self.place = place
    }

    /// Watches `socket` (owned from now on) until it is readable or the deadline passes.
    func hold(_ socket: Int32) {
        let entry = Entry(socket: socket)
        entries[socket] = entry
        clws_ev_peek_start(eventLoop, entry.watcher, socket, Self.deadline, Unmanaged.passUnretained(self).toOpaque(), pendingAcceptReady)
    }

    fileprivate func ready(socket: Int32, readable: Bool) {
        guard entries.removeValue(forKey: socket) != nil else { return }
        place(socket, readable ? Self.requestTarget(of: socket) : nil)
    }

    /// Closes every waiting socket without placing it (the server is stopping).
    func closeAll() {
        for entry in entries.values {
            clws_ev_peek_stop(eventLoop, entry.watcher)
            close(entry.socket)
        }
        entries.removeAll()
    }

    /// The target of the HTTP request line that has arrived on `socket`
    /// ("/hub?room=demo" of "GET /hub?room=demo HTTP/1.1"), left unread; nil
    /// when what arrived is not (yet) a whole request target.
    static func requestTarget(of socket: Int32) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: peekBytes) { buffer in
            let count = clws_peek(socket, buffer.baseAddress, peekBytes)
            guard count > 0 else { return nil }
            return requestTarget(in: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The request target of a request line's first bytes: between the
    /// method's space and the next space, printable ASCII only.
    static func requestTarget(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let methodEnd = bytes.firstIndex(of: UInt8(ascii: " ")), methodEnd > 0,
            bytes[..<methodEnd].allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        else { return nil }
        let start = methodEnd + 1
        guard let end = bytes[start...].firstIndex(of: UInt8(ascii: " ")), end > start,
            bytes[start..<end].allSatisfy({ $0 > 0x20 && $0 < 0x7f })
        else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}

/// libev's callback, on the loop thread: the owner is the `PendingAccepts`
/// (alive while any of its watchers is: `closeAll` stops them first).
private func pendingAcceptReady(_ owner: UnsafeMutableRawPointer?, _ socket: Int32, _ readable: Int32) {
    guard let owner else { return }
    Unmanaged<PendingAccepts>.fromOpaque(owner).takeUnretainedValue().ready(socket: socket, readable: readable != 0)
}
