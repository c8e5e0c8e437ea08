import CHiredis
import Foundation

/// The Redis I/O thread's state: the libev loop, both hiredis contexts, the
/// subscribed channels and the reconnect schedule. Created, used and
/// destroyed on that thread only (hiredis and libev are not thread-safe);
/// C callbacks find it through the contexts' `data` pointer.
final class RedisIO {
    let client: RedisClient
    let loop: OpaquePointer
    /// nil while that connection is down.
    var commands: UnsafeMutablePointer<redisAsyncContext>?
    var subscriber: UnsafeMutablePointer<redisAsyncContext>?
    /// With Sentinel: a connection to one sentinel, subscribed to `+switch-master`.
    var sentinelWatch: UnsafeMutablePointer<redisAsyncContext>?
    /// The next sentinel to watch from (round robin over the endpoint's).
    var nextSentinel = 0
    var commandsUp = false
    var subscriberUp = false
    var channels: Set<String> = []
    var reported: RedisLinkState?
    /// Seconds to wait before the next connection attempt, and when it may be made (ev_now).
    var backoff = 0.1
    var nextAttempt = 0.0
    var stopping = false
    private var wake: UnsafeMutablePointer<chiredis_io>?
    private var timer: UnsafeMutablePointer<chiredis_timer>?

    init(client: RedisClient) {
        self.client = client
        self.loop = chiredis_loop_new()
    }

    var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ data: UnsafeMutableRawPointer?) -> RedisIO {
        Unmanaged<RedisIO>.fromOpaque(data!).takeUnretainedValue()
    }

    func run() {
        wake = chiredis_io_start(loop, client.wakeRead, { RedisIO.from($0).drain() }, me)
        timer = chiredis_timer_start(loop, 0.05, { RedisIO.from($0).reconnectIfDue() }, me)
        report(.connecting, nil)
        connect()
        chiredis_loop_run(loop)
        chiredis_loop_destroy(loop)
    }

    // MARK: Work from other threads

    /// The pipe first, then the queue: work queued after the take writes to
    /// the pipe again (`RedisClient.post` wakes this thread only for an empty queue).
    private func drain() {
        var byte = [UInt8](repeating: 0, count: 256)
        while read(client.wakeRead, &byte, byte.count) > 0 {}
        let work = client.inbox.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        for item in work {
            switch item {
            case .command(let args, let token): send(args, token: token)
            case .subscribe(let channel):
                if channels.insert(channel).inserted, let subscriber {
                    Self.issue(subscriber, ["SSUBSCRIBE", channel].map { Array($0.utf8) }, to: .subscriber, token: nil)
                }
            case .unsubscribe(let channel):
                if channels.remove(channel) != nil, let subscriber {
                    Self.issue(subscriber, ["SUNSUBSCRIBE", channel].map { Array($0.utf8) }, to: .subscriber, token: nil)
                }
            case .stop:
                stop()
                return
            }
        }
    }

    private func send(_ args: [[UInt8]], token: Int) {
        guard let commands, commandsUp else {
            client.answer(token, .disconnected)
            return
        }
        Self.issue(commands, args, to: .commands, token: token)
    }

    private func stop() {
        stopping = true
        if let wake { chiredis_io_stop(loop, wake) }
        if let timer { chiredis_timer_stop(loop, timer) }
        wake = nil
        timer = nil
        // The command connection closes once its replies are in (a lease given up
        // reaches Redis); the subscriber at once (in the mode it runs in, hiredis
        // would wait for a reply to every message forever). The loop then has no
        // watchers left and returns.
        if let commands { redisAsyncDisconnect(commands) }
        if let subscriber { redisAsyncFree(subscriber) }
        if let sentinelWatch { redisAsyncFree(sentinelWatch) }
    }

    /// The master moved (Sentinel said so, or it answered READONLY: it is a
    /// replica now): both connections go, and reconnect to the master Sentinel names.
    func reconnectToMaster(_ reason: String) {
        if let commands { redisAsyncDisconnect(commands) }
        if let subscriber {
            self.subscriber = nil
            subscriberUp = false
            redisAsyncFree(subscriber)
        }
        linkDown(reason)
        nextAttempt = 0
    }

    // MARK: Connections

    private func reconnectIfDue() {
        guard !stopping else { return }
        if sentinelWatch == nil, let sentinel = client.endpoint.sentinel { watch(sentinel) }
        guard commands == nil || subscriber == nil, ev_now(loop) >= nextAttempt else { return }
        connect()
    }

    /// Subscribes to `+switch-master` on one sentinel (the next one after a
    /// failure): a failover is heard at once, not only when the old master's
    /// connections break.
    private func watch(_ sentinel: RedisEndpoint.Sentinel) {
        let node = sentinel.nodes[nextSentinel % sentinel.nodes.count]
        nextSentinel += 1
        guard let ac = open(node, isLink: false) else { return }
        sentinelWatch = ac
        Self.issue(ac, ["SUBSCRIBE", "+switch-master"].map { Array($0.utf8) }, to: .sentinel, token: nil)
    }

    /// A `+switch-master` message: "NAME OLD-IP OLD-PORT NEW-IP NEW-PORT".
    func sentinelMessage(_ payload: [UInt8]) {
        let words = String(decoding: payload, as: UTF8.self).split(separator: " ")
        guard let sentinel = client.endpoint.sentinel, words.first.map(String.init) == sentinel.master else { return }
        reconnectToMaster("Sentinel switched master '\(sentinel.master)' to \(words.dropFirst(3).joined(separator: ":"))")
    }

    private func connect() {
        nextAttempt = ev_now(loop) + backoff
        backoff = min(backoff * 2, 2)
        var target = RedisEndpoint.Node(host: client.endpoint.host, port: client.endpoint.port)
        if let sentinel = client.endpoint.sentinel {
            switch SentinelLookup.master(sentinel) {
            case .success(let master): target = master
            case .failure(let error):
                linkDown(error.reason)
                return
            }
        }
        if commands == nil, let ac = open(target) {
            commands = ac
            if let password = client.endpoint.password { Self.issue(ac, ["AUTH", password].map { Array($0.utf8) }, to: .commands, token: nil) }
            if client.endpoint.database != 0 {
                Self.issue(ac, ["SELECT", "\(client.endpoint.database)"].map { Array($0.utf8) }, to: .commands, token: nil)
            }
        }
        if subscriber == nil, let ac = open(target) {
            subscriber = ac
            chiredis_route_all_replies(ac)
            if let password = client.endpoint.password { Self.issue(ac, ["AUTH", password].map { Array($0.utf8) }, to: .subscriber, token: nil) }
            for channel in channels { Self.issue(ac, ["SSUBSCRIBE", channel].map { Array($0.utf8) }, to: .subscriber, token: nil) }
        }
    }

    /// A non-blocking connect on this loop (nil: failed at once; retried later).
    /// `isLink`: one of the hub's two connections to the master (a failure there is the link's).
    private func open(_ target: RedisEndpoint.Node, isLink: Bool = true) -> UnsafeMutablePointer<redisAsyncContext>? {
        guard let ac = redisAsyncConnect(target.host, Int32(target.port)) else { return nil }
        if chiredis_err(ac) != 0 {
            if isLink { linkDown(String(cString: chiredis_errstr(ac))) }
            redisAsyncFree(ac)
            return nil
        }
        chiredis_set_data(ac, me)
        _ = chiredis_attach(loop, ac)
        redisAsyncSetConnectCallback(ac) { ac, status in
            guard let ac else { return }
            RedisIO.from(chiredis_data(ac)).connected(ac, ok: status == REDIS_OK)
        }
        redisAsyncSetDisconnectCallback(ac) { ac, _ in
            guard let ac else { return }
            RedisIO.from(chiredis_data(ac)).disconnected(ac)
        }
        return ac
    }

    private func connected(_ ac: UnsafePointer<redisAsyncContext>, ok: Bool) {
        if UnsafePointer(sentinelWatch) == ac {
            if !ok { sentinelWatch = nil }  // hiredis frees it; the next tick watches another sentinel
            return
        }
        guard ok else {
            // hiredis frees the context after this callback.
            let reason = String(cString: chiredis_errstr(ac))
            if UnsafePointer(commands) == ac {
                commands = nil
                commandsUp = false
            }
            if UnsafePointer(subscriber) == ac {
                subscriber = nil
                subscriberUp = false
            }
            linkDown(reason)
            return
        }
        if UnsafePointer(commands) == ac { commandsUp = true }
        if UnsafePointer(subscriber) == ac { subscriberUp = true }
        if commandsUp && subscriberUp {
            backoff = 0.1
            report(.up, nil)
        }
    }

    private func disconnected(_ ac: UnsafePointer<redisAsyncContext>) {
        if UnsafePointer(sentinelWatch) == ac {
            sentinelWatch = nil
            return
        }
        let reason = chiredis_err(ac) != 0 ? String(cString: chiredis_errstr(ac)) : "connection closed"
        if UnsafePointer(commands) == ac {
            commands = nil
            commandsUp = false
        }
        if UnsafePointer(subscriber) == ac {
            subscriber = nil
            subscriberUp = false
        }
        if !stopping { linkDown(reason) }
    }

    private func linkDown(_ reason: String) {
        report(.down, reason)
    }

    private func report(_ state: RedisLinkState, _ reason: String?) {
        guard reported != state else { return }
        reported = state
        client.handlers.state(state, reason)
    }

    // MARK: Commands and replies

    /// Sends `args` on `ac`; `token` (nil: none) rides along as the callback's private data.
    enum Connection { case commands, subscriber, sentinel }

    static func issue(
        _ ac: UnsafeMutablePointer<redisAsyncContext>, _ args: [[UInt8]], to connection: Connection,
        token: Int?
    ) {
        let privdata = token.map { UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: $0) &+ 1) } ?? nil
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        let buffers = args.map { arg -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(arg.count, 1))
            arg.withUnsafeBufferPointer { src in
                src.withMemoryRebound(to: CChar.self) { if let base = $0.baseAddress { p.initialize(from: base, count: arg.count) } }
            }
            return p
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        for (buffer, arg) in zip(buffers, args) {
            pointers.append(UnsafePointer(buffer))
            lengths.append(arg.count)
        }
        switch connection {
        case .commands: _ = redisAsyncCommandArgv(ac, commandReply, privdata, Int32(args.count), &pointers, &lengths)
        case .subscriber: _ = redisAsyncCommandArgv(ac, subscriberReply, privdata, Int32(args.count), &pointers, &lengths)
        case .sentinel: _ = redisAsyncCommandArgv(ac, sentinelReply, privdata, Int32(args.count), &pointers, &lengths)
        }
    }
}

/// A command's reply: to the caller's token (none for AUTH/SELECT, whose errors are logged as a link problem).
private func commandReply(
    _ ac: UnsafeMutablePointer<redisAsyncContext>?, _ reply: UnsafeMutableRawPointer?,
    _ privdata: UnsafeMutableRawPointer?
) {
    guard let ac else { return }
    let io = RedisIO.from(chiredis_data(ac))
    let value = reply.map { RedisReply($0.assumingMemoryBound(to: redisReply.self)) } ?? .disconnected
    if case .error(let message) = value, message.hasPrefix("READONLY"), io.client.endpoint.sentinel != nil {
        io.reconnectToMaster("the master turned replica (\(message))")
    }
    guard let privdata else {
        if case .error(let message) = value { io.client.handlers.state(.down, message) }
        return
    }
    io.client.answer(Int(bitPattern: UInt(bitPattern: privdata) &- 1), value)
}

/// Every reply on the subscriber connection: `smessage` pushes become messages; the rest
/// (subscription confirmations) is dropped.
private func subscriberReply(
    _ ac: UnsafeMutablePointer<redisAsyncContext>?, _ reply: UnsafeMutableRawPointer?,
    _ privdata: UnsafeMutableRawPointer?
) {
    guard let ac, let reply else { return }
    let io = RedisIO.from(chiredis_data(ac))
    let r = reply.assumingMemoryBound(to: redisReply.self)
    guard r.pointee.type == REDIS_REPLY_ARRAY, r.pointee.elements == 3 else {
        if case .error(let message) = RedisReply(r) { io.client.handlers.state(.down, message) }
        return
    }
    guard let elements = r.pointee.element, let kindReply = elements[0], let channelReply = elements[1], let payloadReply = elements[2],
        case .data(let name) = RedisReply(kindReply), name == Array("smessage".utf8),
        case .data(let channel) = RedisReply(channelReply),
        case .data(let payload) = RedisReply(payloadReply)
    else { return }
    io.client.handlers.message(String(decoding: channel, as: UTF8.self), payload)
}

/// The sentinel connection's pushes: `message` on `+switch-master` (the rest, the subscription's confirmation, is dropped).
private func sentinelReply(
    _ ac: UnsafeMutablePointer<redisAsyncContext>?, _ reply: UnsafeMutableRawPointer?,
    _ privdata: UnsafeMutableRawPointer?
) {
    guard let ac, let reply else { return }
    let io = RedisIO.from(chiredis_data(ac))
    guard case .array(let parts) = RedisReply(reply.assumingMemoryBound(to: redisReply.self)), parts.count == 3,
        parts[0].bytes == Array("message".utf8), let payload = parts[2].bytes
    else { return }
    io.sentinelMessage(payload)
}
