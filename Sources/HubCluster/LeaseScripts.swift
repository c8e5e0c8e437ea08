/// The Lua scripts behind a room's lease and checkpoint. Each runs atomically
/// in Redis and touches only the room's keys (one `{room}` hash slot):
/// - `{room}:owner`: the lease, the owner's hub id, expiring after the lease's time to live;
/// - `{room}:epoch`: the lease's epoch, which grows on every change of owner (fencing);
/// - `{room}:frame`: the checkpoint, the owner's last published frame.
public enum LeaseScripts {
    /// KEYS: owner and epoch of each room, in pairs. ARGV: hub id, lease ms,
    /// then the newest epoch the hub knows for each room. For each room, takes
    /// the lease when it is free or ours and (re)sets its expiry; returns one
    /// integer per room: the epoch (> 0) when the lease is ours, or minus the
    /// epoch (≤ 0) when another hub holds it. A takeover makes a new epoch,
    /// above any the hub has seen (so that a Redis that lost its data cannot
    /// hand out an old one again). One call renews every room of a hub (in
    /// batches), so idle rooms cost one round trip per batch, not per room.
    public static let lease = """
        local out = {}
        for i = 1, #KEYS / 2 do
          local owner, epoch = KEYS[2 * i - 1], KEYS[2 * i]
          local v = redis.call('GET', owner)
          local e = tonumber(redis.call('GET', epoch) or '0')
          if v ~= false and v ~= ARGV[1] then
            out[i] = -e
          else
            local known = tonumber(ARGV[2 + i])
            if v == false or e < known then e = math.max(e, known) + 1 end
            redis.call('SET', epoch, e, 'PX', 86400000)
            redis.call('SET', owner, ARGV[1], 'PX', ARGV[2])
            out[i] = e
          end
        end
        return out
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
