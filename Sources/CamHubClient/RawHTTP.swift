import Foundation

/// A minimal HTTP/1.1 client over a raw TCP socket to an IPv4 address (no
/// TLS, no redirects, no normalization of the request path, bounded by a 5 s
/// deadline): `camhub bench` reads a local hub's `/healthz` with it, and the
/// tests use it to send requests a browser would not.
public enum RawHTTP {
    public struct Response: Sendable {
        /// The whole first line, e.g. "HTTP/1.1 404 Not Found".
        public let statusLine: String
        public let status: Int
        public let headers: [String: String]
        public let body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public static func request(
        host: String = "127.0.0.1", port: Int, path: String, method: String = "GET",
        extraHeaders: [String] = [], body: [UInt8] = [], timeoutSeconds: Int = 5
    ) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect failed") }
        let lines =
            ["\(method) \(path) HTTP/1.1", "Host: \(host):\(port)", "Connection: close"]
            + extraHeaders + (body.isEmpty ? [] : ["Content-Length: \(body.count)"]) + ["", ""]
        let request = Array(lines.joined(separator: "\r\n").utf8) + body
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw Failure(description: "send failed")
        }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while ContinuousClock.now < deadline {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: chunk[0..<n])
            if let parsed = parse(data, head: method == "HEAD"), parsed.complete { break }
        }
        guard let parsed = parse(data, head: method == "HEAD") else {
            throw Failure(description: "no HTTP response (\(data.count) bytes)")
        }
        return parsed.response
    }

    private static func parse(_ data: [UInt8], head: Bool) -> (response: Response, complete: Bool)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == separator })
        else { return nil }
        let headText = String(decoding: data[0..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let firstLine = lines.removeFirst()
        let statusLine = firstLine.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let body = Array(data[(end + 4)...])
        let length = headers["content-length"].flatMap { Int($0) }
        let complete = head || (length.map { body.count >= $0 } ?? false)
        return (Response(statusLine: firstLine, status: status, headers: headers, body: body), complete)
    }
}
