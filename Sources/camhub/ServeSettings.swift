/// The table of `camhub serve` settings: one entry per option of `Serve`
/// (but `--config` and the `--print-…` modes), in the order `--print-config`
/// prints them and the unknown-key error lists them. Each entry's key is its
/// TOML key and flag; its kind comes from the `Serve` property's type.
/// camhub.example.toml is made from it (`camhub serve --print-example-config`).
extension ServeSetting {
    static let all: [ServeSetting] = network + access + files + security + caps + operations

    private static let network: [ServeSetting] = [
        .value("host", \.host, about: "Address to listen on: an IP address (0.0.0.0 for every interface)."),
        .value("port", \.port, about: "TCP port; 0 picks a free one and prints it."),
        .value("tick", \.tick, about: "Room ticks per second, 1 to 240 (frames are sent at most this often)."),
        .value(
            "loops", \.loops, sample: 2,
            about:
                "Event loops sharing the port, each on its own thread, each running the rooms whose names hash to it (with redis, every room on loop 0). Default: one per CPU."
        ),
        .value("web", \.web, about: "Folder of the web viewer, relative to where the hub starts."),
    ]

    private static let access: [ServeSetting] = [
        .secret(
            "presenter_token", \.presenterToken, environment: "CAMHUB_PRESENTER_TOKEN", sample: "change-me",
            about: "Token a presenter must send in hello (unset: none needed)."),
        .secret(
            "driver_token", \.driverToken, environment: "CAMHUB_DRIVER_TOKEN", sample: "change-me-too",
            about: "Token a driver must send in hello; the presenter token works too."),
        .value("room_ttl", \.roomTTL, about: "Seconds an empty room is kept."),
        .value(
            "allow_origin", \.allowOrigin,
            about: "Browser origins allowed besides this host and localhost (the flag is repeatable)."),
        .value("echo", \.echo, about: "A WebSocket path /echo that echoes every message (RFC 6455 test suites)."),
        .secret(
            "metrics_token", \.metricsToken, environment: "CAMHUB_METRICS_TOKEN", sample: "scrape-me",
            about: "Token a scrape of /metrics must send as \"Authorization: Bearer <token>\"."),
        .optional(
            "api_key_file", \.apiKeyFile, unset: .meaning("the server API is off"), sample: "/etc/camhub/api-keys",
            about:
                "A file of server API keys, one per line: turns on /api/v1/ for backends (docs/openapi.yaml), each request with \"Authorization: Bearer <key>\"."
        ),
    ]

    private static let files: [ServeSetting] = [
        .optional(
            "data", \.data, unset: .meaning("rooms in memory only"), sample: ".camhub-data",
            about:
                "Folder where rooms (camera, limits, tracking mode, seq) are kept across restarts, in rooms.sqlite (SQLite, WAL). Unset: rooms live in memory only."
        ),
        .optional(
            "tiles", \.tiles, unset: .meaning("\(Serve.defaultTiles) when it exists"), sample: "my-region.mbtiles",
            about:
                "Vector tile archive (MBTiles, XYZ served at /tiles/{z}/{x}/{y}.pbf). Unset: \(Serve.defaultTiles) when it exists (scripts/make_tiles.py)."
        ),
        .optional(
            "terrain", \.terrain, unset: .meaning("no terrain"), sample: "my-region-dem.mbtiles",
            about:
                "Terrain: an MBTiles or PMTiles archive of raster-dem tiles (PNG or WebP) served at /terrain/{z}/{x}/{y}.png; the viewer draws it as MapLibre terrain and a driver's camera follows the ground (scripts/make_dem.py writes a small one). Unset: no terrain."
        ),
        .optional(
            "terrain_encoding", \.terrainEncoding, unset: .meaning("the archive's metadata \"encoding\""), sample: "terrarium",
            about: "How the terrain tiles encode heights: terrarium or mapbox. Unset: the archive's metadata \"encoding\"."),
        .optional(
            "style", \.style, unset: .meaning("the viewer's own style"), sample: "web/styles/openmaptiles.json",
            about:
                "The viewer's default map style: an http(s) URL, or a style JSON file the hub serves at /map/style.json. Unset: the viewer's own style."
        ),
    ]

    /// docs/SECURITY.md
    private static let security: [ServeSetting] = [
        .optional(
            "token_secret_file", \.tokenSecretFile, unset: .fallsBackTo(variable: "CAMHUB_TOKEN_SECRET"),
            sample: "/etc/camhub/token-secret",
            about:
                "Signed room tokens (docs/SECURITY.md): a file holding the HS256 secret (at least 32 bytes; `camhub token` makes tokens with it). With a secret every role needs a token. Unset: the secret comes from CAMHUB_TOKEN_SECRET, if set."
        ),
        .value("public_follow", \.publicFollow, about: "With a token secret: followers may join without a token."),
        .optional(
            "revoked_file", \.revokedFile, unset: .meaning("no token is revoked"), sample: "/etc/camhub/revoked",
            about:
                "A file of revoked signed-token ids (jti claims), one per line: their clients are closed with 4003, and the file is read again on SIGHUP."
        ),
        .optional(
            "tls_cert", \.tlsCert, unset: .meaning("plain http:// and ws://"), sample: "/etc/camhub/cert.pem",
            about:
                "TLS: a certificate chain (PEM), with tls_key: the hub then serves https:// and wss:// instead of http:// and ws://."
        ),
        .optional(
            "tls_key", \.tlsKey, unset: .meaning("no TLS"), sample: "/etc/camhub/key.pem",
            about: "The private key (PEM) of tls_cert: both or neither."),
    ]

    private static let caps: [ServeSetting] = [
        .value("max_connections", \.maxConnections, about: "Open WebSocket connections on the whole hub; more get HTTP 503."),
        .value("max_connections_per_ip", \.maxConnectionsPerIp, about: "Open WebSocket connections from one IP address."),
        .value(
            "max_connection_rate_per_ip", \.maxConnectionRatePerIp,
            about: "New WebSocket connections one IP address may open per second (and in a burst)."),
        .value(
            "limit_loopback", \.limitLoopback,
            about:
                "Apply the per-IP limits to loopback clients too (by default a local load test or a reverse proxy on this machine is exempt)."
        ),
        .value(
            "max_rooms", \.maxRooms,
            about: "Rooms the hub holds (empty ones count until room_ttl); one more gets error full and close 1013."),
        .value("max_clients_per_room", \.maxClientsPerRoom, about: "Clients in one room; one more gets error full and close 1013."),
        .value(
            "slow_client_timeout", \.slowClientTimeout,
            about:
                "Seconds a client may stop reading (acknowledge none of the bytes waiting for it, or leave its socket undrained) before close 1008 \"too slow\"; 0: never."
        ),
        .value(
            "drain_spread", \.drainSpread,
            about:
                "Shutdown (SIGTERM: close 1012, SIGINT: 1001): /healthz answers 503 \"draining\", and each loop closes its clients evenly over this many seconds, so they do not all reconnect at once."
        ),
        .value(
            "drain_timeout", \.drainTimeout,
            about: "Shutdown: the most seconds the hub waits for its clients' closes to be acknowledged."),
        .value("echo_max_message", \.echoMaxMessage, about: "Largest message /echo accepts, in bytes (/hub keeps 8 KiB)."),
        .value(
            "loop_queue", \.loopQueue,
            about:
                "Frame batches from one loop's hub that may wait for another loop while it is busy; more are merged (the newest frame per follower, messages kept in order; a client owed more messages than its lane holds is closed 1013)."
        ),
        .value(
            "hub_queue", \.hubQueue,
            about:
                "Client messages one loop may have waiting for other loops' hubs while they are busy; the client whose message finds the queue full is closed 1013 (try again later), so nothing it sent is lost silently."
        ),
        .value(
            "redis_queue", \.redisQueue,
            about:
                "With redis: Redis commands in flight (queued or unanswered; per loop, each loop has its own link) from which this hub's moving frames are shed instead of queued (counted in camhub_redis_frames_shed_total); resting frames and every other command still go."
        ),
        .value(
            "redis_inbox", \.redisInbox,
            about:
                "With redis: replies and other hubs' messages waiting for a loop's hub (per loop) from which other hubs' moving frames are shed (counted in camhub_redis_inbox_frames_shed_total; the owner's next frame supersedes one); resting frames and everything else still go."
        ),
        .value(
            "redis_lease", \.redisLease,
            about:
                "With redis: how long this hub's leases on its rooms last unrenewed, in milliseconds (renewed every third of it); a hub that stalls longer loses its rooms to another, and a longer lease makes a dead hub's rooms wait longer for a new owner."
        ),
    ]

    private static let operations: [ServeSetting] = [
        .optional(
            "record", \.record, unset: .meaning("nothing recorded"), sample: "recordings",
            about:
                "Folder where every room's accepted commands and animation ends are recorded, DIR/<room>/<start>-<part>.jsonl.gz (docs/RECORDING.md); `camhub replay` plays one back. Unset: nothing is recorded."
        ),
        .value(
            "record_max_bytes", \.recordMaxBytes,
            about: "A recording file is rotated (its next part begins) once it holds this many compressed bytes (at least 1024)."),
        .value(
            "record_queue", \.recordQueue,
            about:
                "Recording entries that may wait for the disk; more are dropped whole and counted (camhub_recording_dropped_total), so a stalled or full disk never stalls the hub."
        ),
        .optional(
            "redis", \.redis, unset: .meaning("the in-memory engine: one hub alone"), hidden: .whenItHoldsAPassword,
            environment: "CAMHUB_REDIS", sample: "redis://127.0.0.1:6379/0",
            about:
                "Join the cluster of hubs sharing this Redis (7.0+): one room across hubs, each room's camera run by one of them. Unset: this hub alone, in memory. redis+sentinel://HOST:PORT[,HOST:PORT...]/MASTER finds the master through Redis Sentinel and follows its failovers."
        ),
        .value(
            "log_level", \.logLevel,
            about: "trace, debug, info, notice, warning, error or critical; debug and trace add libwebsockets' own lines."),
        .value("log_format", \.logFormat, about: "Log lines on standard error: \"text\", or \"json\" (one JSON object per line)."),
    ]
}
