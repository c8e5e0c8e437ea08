import CHiredis
import Foundation
import Synchronization

/// A Redis client that never makes its caller wait: commands are queued from
/// any thread and run on a thread of its own (the "Redis I/O thread"), which
/// drives hiredis' async API on a libev loop of its own through hiredis'
/// libev adapter. Replies, sharded pub/sub messages and link changes come
/// back through `Handlers`, called on that thread (the hub hands them to its
/// loop thread).
///
/// Two connections: one for commands, one for `SSUBSCRIBE` (a subscribed
/// connection takes no other commands). Both reconnect with backoff
/// (0.1 s doubling to 2 s); channels are subscribed again after a reconnect.
/// A command issued while the command connection is down is answered
/// `.disconnected` at once: nothing is queued for later (callers retry on
/// their own clock, which keeps an outage from building a backlog).
public final class RedisClient: Sendable {
    public struct Handlers: Sendable {
        /// The reply to `command(_:token:)` with the caller's token.
        public var reply: @Sendable (_ token: Int, _ reply: RedisReply) -> Void
        /// A message published on a subscribed channel (`SPUBLISH`).
        public var message: @Sendable (_ channel: String, _ payload: [UInt8]) -> Void
        /// The link changed (the string says why it is down).
        public var state: @Sendable (_ state: RedisLinkState, _ reason: String?) -> Void
        public init(
            reply: @escaping @Sendable (Int, RedisReply) -> Void,
            message: @escaping @Sendable (String, [UInt8]) -> Void,
            state: @escaping @Sendable (RedisLinkState, String?) -> Void
        ) {
            self.reply = reply
            self.message = message
            self.state = state
        }
    }

    enum Work: Sendable {
        case command([[UInt8]], token: Int)
        case subscribe(String)
        case unsubscribe(String)
        case stop
    }

    public let endpoint: RedisEndpoint
    let handlers: Handlers
    /// Commands queued or sent and not yet answered, at most `sheddingFrom` of
    /// them before sheddable ones are dropped (any thread).
    private let inFlight = Atomic<Int>(0)
    private let shedCount = Atomic<Int>(0)
    /// Commands in flight from which `sheddable` commands are dropped instead of queued.
    public let sheddingFrom: Int
    /// Work for the I/O thread, in order; a byte on the wake pipe says there is some.
    let inbox = Mutex<[Work]>([])
    let wakeRead: Int32
    let wakeWrite: Int32
    /// Signalled when the I/O thread has ended.
    let finished = DispatchSemaphore(value: 0)
    private let started = Mutex(false)

    /// `sheddingFrom`: commands in flight (queued, or sent and not answered)
    /// from which a command marked `sheddable` is dropped instead of queued.
    public init(endpoint: RedisEndpoint, handlers: Handlers, sheddingFrom: Int = 10_000) throws {
        self.sheddingFrom = sheddingFrom
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0, fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0, fcntl(fds[1], F_SETFL, O_NONBLOCK) == 0 else {
            throw RedisURLError("cannot make the Redis thread's wake pipe: errno \(errno)")
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        self.endpoint = endpoint
        self.handlers = handlers
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the I/O thread, which connects (and keeps reconnecting).
    public func start() {
        guard
            started.withLock({
                let first = !$0
                $0 = true
                return first
            })
        else { return }
        let thread = Thread { [self] in
            let io = RedisIO(client: self)
            io.run()
            finished.signal()
        }
        thread.name = "camhub-redis"
        thread.start()
    }

    /// Queues a command (`args[0]` is its name); its reply comes to `Handlers.reply` with `token`.
    public func command(_ args: [String], token: Int) {
        post(.command(args.map { Array($0.utf8) }, token: token))
    }

    /// Queues a command whose arguments are bytes. A `sheddable` one (a moving
    /// frame: the next supersedes it) is dropped and counted instead when
    /// `sheddingFrom` commands are in flight, so a slow Redis sheds frames
    /// before anything else and the queue stays bounded by what is not
    /// sheddable; its reply never comes. Returns false when it was shed.
    @discardableResult
    public func command(bytes args: [[UInt8]], token: Int, sheddable: Bool = false) -> Bool {
        if sheddable && inFlight.load(ordering: .relaxed) >= sheddingFrom {
            shedCount.add(1, ordering: .relaxed)
            return false
        }
        post(.command(args, token: token))
        return true
    }

    /// Commands queued or sent and not answered yet (any thread).
    public var commandsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// Sheddable commands dropped so far because `sheddingFrom` were in flight (any thread).
    public var shed: Int { shedCount.load(ordering: .relaxed) }

    /// I/O thread: a command's answer (a reply, or `.disconnected`); it is no longer in flight.
    func answer(_ token: Int, _ reply: RedisReply) {
        inFlight.subtract(1, ordering: .relaxed)
        handlers.reply(token, reply)
    }

    /// Subscribes to a sharded channel (and again after every reconnect).
    public func subscribe(_ channel: String) { post(.subscribe(channel)) }
    public func unsubscribe(_ channel: String) { post(.unsubscribe(channel)) }

    /// Sends what is queued, closes both connections and ends the thread
    /// (waiting at most `timeout` for the commands in flight). Idempotent.
    public func stop(timeout: Duration = .seconds(1)) {
        guard started.withLock({ $0 }) else { return }
        post(.stop)
        let nanos = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        _ = finished.wait(timeout: .now() + .nanoseconds(Int(nanos)))
        finished.signal()  // a second stop does not wait again
    }

    /// Queues `work` and wakes the Redis thread when the queue was empty: that
    /// thread empties the pipe before it takes the queue whole (`RedisIO.drain`),
    /// so work queued behind other work is taken with it, and a moving room's
    /// frames cost no system call each.
    private func post(_ work: Work) {
        if case .command = work { inFlight.add(1, ordering: .relaxed) }
        let wasEmpty = inbox.withLock { queue in
            defer { queue.append(work) }
            return queue.isEmpty
        }
        guard wasEmpty else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already says "wake up"
    }
}
