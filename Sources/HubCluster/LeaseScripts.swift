/// The Lua scripts behind a room's lease and checkpoint. Each runs atomically
/// in Redis and touches only the room's keys (one `{room}` hash slot):
/// - `{room}:owner`: the lease, the owner's hub id, expiring after the lease's time to live;
/// - `{room}:epoch`: the lease's epoch, which grows on every change of owner (fencing);
/// - `{room}:frame`: the checkpoint, the owner's last published frame.
public enum LeaseScripts {
    /// KEYS: owner, epoch. ARGV: hub id, lease ms, the newest epoch the hub
    /// knows for the room. Takes the lease when it is free or ours and (re)sets
    /// its expiry. Returns the epoch (> 0) when the lease is ours, or minus the
    /// epoch (≤ 0) when another hub holds it. A takeover makes a new epoch,
    /// above any a hub has seen (so that a Redis that lost its data cannot
    /// hand out an old one again).
    public static let lease = """
        local v = redis.call('GET', KEYS[1])
        local e = tonumber(redis.call('GET', KEYS[2]) or '0')
        if v ~= false and v ~= ARGV[1] then return -e end
        local known = tonumber(ARGV[3])
        if v == false or e < known then e = math.max(e, known) + 1 end
        redis.call('SET', KEYS[2], e, 'PX', 86400000)
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        return e
        """

    /// KEYS: owner. ARGV: hub id. Deletes the lease if it is ours.
    public static let release = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// KEYS: frame, epoch. ARGV: the writer's epoch, the frame. Writes the
    /// checkpoint unless a newer epoch exists (an owner that lost its lease
    /// cannot overwrite its successor's). Returns 1 when written, 0 when refused.
    /// One line, so that a test can send it as an inline command.
    public static let checkpoint =
        "if tonumber(redis.call('GET', KEYS[2]) or '0') > tonumber(ARGV[1]) then return 0 end "
        + "redis.call('SET', KEYS[1], ARGV[2], 'PX', 86400000) return 1"
}
