import CLWS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server could not listen on its address: "cannot listen on
/// 127.0.0.1:8080: address already in use".
public struct ListenError: Error, CustomStringConvertible, Sendable, Equatable {
    public let host: String
    public let port: Int
    /// The errno of bind(2) (EADDRINUSE, EACCES, EADDRNOTAVAIL, …).
    public let code: Int32

    public init(host: String, port: Int, code: Int32) {
        self.host = host
        self.port = port
        self.code = code
    }

    /// Another socket listens on the port already.
    public var isAddressInUse: Bool { code == EADDRINUSE }

    /// "127.0.0.1:8080" or "[::1]:8080".
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// strerror's words, lower-cased: "address already in use".
    public var reason: String {
        var text = String(cString: strerror(code))
        if let first = text.first, text.dropFirst().first?.isLowercase ?? true {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }

    public var description: String { "cannot listen on \(address): \(reason)" }

    /// Why lws could not listen on `host:port`: binds a socket there the way lws
    /// does (SO_REUSEADDR) and reports bind's errno. Nil when the bind works
    /// now (then the failure was something else) or `host` is no IP literal.
    static func probe(host: String, port: Int) -> ListenError? {
        guard (0...65535).contains(port) else { return nil }
        var storage = sockaddr_storage()
        let length: socklen_t
        let family: Int32
        if host.contains(":") {
            var addr = sockaddr_in6()
            guard inet_pton(AF_INET6, host, &addr.sin6_addr) == 1 else { return nil }
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeBytes(of: addr) { src in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: src) }
            }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            family = AF_INET6
        } else {
            var addr = sockaddr_in()
            guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { return nil }
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeBytes(of: addr) { src in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: src) }
            }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            family = AF_INET
        }
        #if canImport(Glibc)
            let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        return rc == 0 ? nil : ListenError(host: host, port: port, code: errno)
    }
}
