import CHiredis
import Foundation

/// Asks Redis Sentinel where a master is: each sentinel in turn, on a short
/// blocking connection (`SENTINEL get-master-addr-by-name`). Runs on the Redis
/// I/O thread only, before it connects (a connection attempt waits at most
/// `timeout` per sentinel).
enum SentinelLookup {
    static let timeout = timeval(tv_sec: 0, tv_usec: 300_000)

    /// The master's address, or why none was found.
    static func master(_ sentinel: RedisEndpoint.Sentinel) -> Result<RedisEndpoint.Node, LookupError> {
        var answers: [String] = []
        for node in sentinel.nodes {
            switch ask(node, about: sentinel.master) {
            case .success(let master): return .success(master)
            case .failure(let error): answers.append("\(node): \(error.reason)")
            }
        }
        return .failure(LookupError(reason: "no sentinel knows master '\(sentinel.master)' (\(answers.joined(separator: "; ")))"))
    }

    struct LookupError: Error {
        var reason: String
    }

    private static func ask(_ node: RedisEndpoint.Node, about master: String) -> Result<RedisEndpoint.Node, LookupError> {
        guard let c = redisConnectWithTimeout(node.host, Int32(node.port), timeout) else { return .failure(LookupError(reason: "no memory")) }
        defer { redisFree(c) }
        guard c.pointee.err == 0 else { return .failure(LookupError(reason: errorText(c))) }
        _ = redisSetTimeout(c, timeout)
        let args = ["SENTINEL", "get-master-addr-by-name", master]
        var pointers: [UnsafePointer<CChar>?] = []
        let buffers = args.map { strdup($0)! }
        defer { for buffer in buffers { free(buffer) } }
        for buffer in buffers { pointers.append(UnsafePointer(buffer)) }
        var lengths = args.map { $0.utf8.count }
        guard let raw = redisCommandArgv(c, Int32(args.count), &pointers, &lengths) else { return .failure(LookupError(reason: errorText(c))) }
        defer { freeReplyObject(raw) }
        let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self))
        guard case .array(let parts) = reply, parts.count == 2, let host = parts[0].bytes, let portText = parts[1].bytes,
            let port = Int(String(decoding: portText, as: UTF8.self))
        else { return .failure(LookupError(reason: "does not know it (\(reply))")) }
        return .success(RedisEndpoint.Node(host: String(decoding: host, as: UTF8.self), port: port))
    }

    private static func errorText(_ c: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: c.pointee.errstr) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
