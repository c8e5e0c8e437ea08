/// The Lua scripts behind the hub's lease, the rooms it owns and their
/// checkpoints. Each runs atomically in Redis:
/// - `hub:{id}:alive`: the hub's lease, expiring after the lease's time to
///   live unless the hub renews it (`alive`, one command per renewal whatever
///   the number of rooms);
/// - `{room}:owner`: the id of the hub that owns the room; the room is that
///   hub's while the hub's lease lives (a day's expiry, refreshed by the owner,
///   cleans up after rooms nobody joins again);
/// - `{room}:epoch`: grows on every change of owner (fencing), from Redis's
///   clock in µs when the room has none;
/// - `{room}:frame`, `{room}:route`: the checkpoint and the route, written
///   (and published, with the owner's events) only by the owner of the
///   room's epoch, in the same script that checks it.
///
/// The lease script reads the hub key named by a room's owner key, a key it
/// is not given: the engine targets one Redis (or the master Sentinel
/// names), not a Redis Cluster.
public enum LeaseScripts {
    /// How long a room's keys live without their owner refreshing them, in ms.
    public static let roomKeyMilliseconds = 86_400_000

    /// The key of hub `id`'s lease.
    public static func aliveKey(of hub: String) -> String { "hub:{\(hub)}:alive" }

    /// KEYS: the hub's lease key. ARGV: lease ms. Renews it; returns 1 when it
    /// was still there, 0 when it had expired (or Redis lost it): the hub may
    /// have lost any room meanwhile, and has each confirmed again.
    public static let alive = """
        local was = redis.call('EXISTS', KEYS[1])
        redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
        return was
        """

    /// KEYS: owner, epoch, frame and route of each room, in fours. ARGV: hub
    /// id, room keys' ms, then the newest epoch the hub knows for each room.
    ///
    /// Returns nothing (an empty array) when the hub's own lease has expired:
    /// it may claim nothing until it renewed it (`alive`). Otherwise, for each
    /// room, two values: the epoch and the owner's hub id. A room is this
    /// hub's (epoch > 0) when its owner key names this hub, names no hub, or
    /// names a hub whose lease has expired; the owner key is then (re)written
    /// and the room's keys refreshed. Otherwise the epoch comes back negated
    /// (≤ 0), with the owner.
    ///
    /// A takeover makes a new epoch: one more than the room's, and above any
    /// the hub has seen. A room without an epoch key (new, or a Redis that lost
    /// its data) starts from Redis's clock in microseconds: every epoch handed
    /// out before was at most the clock when it was (takeovers are rarer than
    /// one a microsecond), so none can be handed out again, even to a hub that
    /// never saw the newest, and even when the data went (a `FLUSHALL`, an
    /// evicted key) within the millisecond of the claim before. The clock in µs
    /// (~1.8 × 10¹⁵) is exact in Lua's doubles and in JSON numbers (< 2⁵³).
    public static let lease = """
        if redis.call('EXISTS', 'hub:{' .. ARGV[1] .. '}:alive') == 0 then return {} end
        local out = {}
        for i = 1, #KEYS / 4 do
          local owner, epoch = KEYS[4 * i - 3], KEYS[4 * i - 2]
          local v = redis.call('GET', owner)
          local stored = redis.call('GET', epoch)
          local e = tonumber(stored or '0')
          if v ~= false and v ~= ARGV[1] and redis.call('EXISTS', 'hub:{' .. v .. '}:alive') == 1 then
            out[2 * i - 1], out[2 * i] = -e, v
          else
            local known = tonumber(ARGV[2 + i])
            if stored == false then
              local t = redis.call('TIME')
              e = math.max(known + 1, tonumber(t[1]) * 1000000 + tonumber(t[2]))
            elseif v ~= ARGV[1] or e < known then
              e = math.max(e, known) + 1
            end
            redis.call('SET', epoch, e, 'PX', ARGV[2])
            redis.call('SET', owner, ARGV[1], 'PX', ARGV[2])
            redis.call('PEXPIRE', KEYS[4 * i - 1], ARGV[2])
            redis.call('PEXPIRE', KEYS[4 * i], ARGV[2])
            out[2 * i - 1], out[2 * i] = e, ARGV[1]
          end
        end
        return out
        """

    /// KEYS: owner. ARGV: hub id. Deletes the owner key if it names this hub.
    public static let release = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// KEYS: frame (or route), epoch. ARGV: the writer's epoch, the bytes, the
    /// room's channel. Writes the checkpoint and publishes the bytes on the
    /// channel, in one step, only while the writer's epoch is the room's: an
    /// owner that lost its lease (a newer epoch exists) cannot overwrite its
    /// successor's checkpoint or reach a follower, and neither can one whose
    /// room has no epoch key (Redis lost its data: a `FLUSHALL`, an eviction),
    /// which must lease again (it learns from the 0). Returns 1 when written
    /// and published, 0 when refused. One line, so that a test can send it as an inline command.
    public static let checkpoint =
        "local e = redis.call('GET', KEYS[2]) "
        + "if e == false or tonumber(e) ~= tonumber(ARGV[1]) then return 0 end "
        + "redis.call('SET', KEYS[1], ARGV[2], 'PX', 86400000) redis.call('SPUBLISH', ARGV[3], ARGV[2]) return 1"

    /// KEYS: epoch. ARGV: the sender's epoch, the channel, the bytes. Publishes
    /// the bytes only while the sender's epoch is the room's (as `checkpoint`):
    /// the owner's relayed events. Returns 1 when published, 0 when refused.
    public static let fencedPublish =
        "local e = redis.call('GET', KEYS[1]) "
        + "if e == false or tonumber(e) ~= tonumber(ARGV[1]) then return 0 end "
        + "redis.call('SPUBLISH', ARGV[2], ARGV[3]) return 1"
}
