import CamHubProtocol
import HubCluster
import HubCore
import HubRecording
import Logging
import TileServer
import WebSocketTransport

/// Everything `camhub serve` can set.
public struct HubServerConfiguration: Sendable {
    /// Address to listen on (an IP literal; default loopback only).
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (read it from `HubServer.start()`).
    public var port = 8080
    /// Folder served over HTTP (the web viewer); nil serves no files.
    public var webRoot: String?
    /// More folders served under URL prefixes: the JavaScript client library
    /// at `/clients/js/` (the viewer imports it), the embed example.
    public var staticMounts: [StaticMount] = []
    /// Browser origins allowed besides the server's own host and localhost.
    public var allowedOrigins: [String] = []
    /// Adds the `/echo` WebSocket path (for RFC 6455 test suites).
    public var echo = false
    /// Seconds of silence before a client is pinged, and before an unanswered one is closed.
    public var pingAfter: UInt16 = 30
    public var hangupAfter: UInt16 = 60
    public var hub = HubConfiguration()
    /// Event loops sharing the port (`HubLoops`), each with its sockets and a
    /// hub running the rooms whose names hash to it (`RoomPlacement`; with
    /// `redis`, each loop's hub is a member of the cluster). 1 keeps everything on one thread.
    public var loops = 1
    /// Certificate and key (PEM): serve https:// and wss:// instead of http:// and ws://.
    public var tls: ServerTLS?
    /// The viewer's Content-Security-Policy, sent with every static file: its
    /// own scripts, styles, images and fonts only, MapLibre's workers from
    /// blob: URLs, WebSockets to this host, no plugins, frames or inline script.
    public var contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; worker-src 'self' blob:; child-src 'self' blob:; "
        + "img-src 'self' data: blob:; style-src 'self'; font-src 'self'; connect-src 'self'; object-src 'none'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    /// Largest message `/echo` accepts (`/hub` keeps `HubProtocol.maxMessageBytes`).
    public var echoMaxMessage = 16 << 20
    /// Seconds a client's socket may stay undrained before close 1008 "too slow" (0: never).
    public var slowClientTimeout: Double = 10
    /// Shutdown: seconds over which each loop closes its clients (so that an
    /// audience does not reconnect elsewhere at once), and the most it waits
    /// for their closes to be written and acknowledged.
    public var drainSpread: Double = 2
    public var drainTimeout: Double = 10
    /// Caps on open and new WebSocket connections (whole hub, per address).
    public var limits = ConnectionLimits()
    /// When set, `GET /metrics` needs `Authorization: Bearer <token>`.
    public var metricsToken: String?
    /// The server API's keys (`--api-key-file`); empty: the API is off (`/api/v1/` answers 404).
    public var apiKeys: [String] = []
    /// Where rooms are kept across restarts (`RoomStore`); nil keeps them in memory only.
    public var dataDirectory: String?
    /// Vector tile archive (MBTiles) served at /tiles/{z}/{x}/{y}.pbf and /tiles.json; nil serves none.
    public var tiles: String?
    /// Terrain archive (MBTiles or PMTiles of raster-dem PNG or WebP tiles) served at
    /// /terrain/{z}/{x}/{y}.png and /terrain.json for the viewer's MapLibre terrain; nil serves none.
    public var terrain: String?
    /// The terrain tiles' encoding, "terrarium" or "mapbox" (`--terrain-encoding`); nil: the archive's metadata says.
    public var terrainEncoding: String?
    /// The viewer's default map style (`--style`); nil: the viewer's own style.
    public var style: MapStyle?
    /// Where rooms are recorded (`camhub serve --record DIR`, docs/RECORDING.md); nil records nothing.
    public var recordDirectory: String?
    /// A recording file is rotated once it holds this many compressed bytes.
    public var recordMaxBytes = Recorder.defaultMaxBytes
    /// Recording entries that may wait for the writer; more are dropped and
    /// counted (`camhub_recording_dropped_total`), so a stalled disk never stalls the hub.
    public var recordQueue = Recorder.defaultQueueLimit
    /// Frame batches from one loop's hub that may wait for another loop before
    /// they are merged (newest frame per follower, messages kept in order).
    public var loopQueue = ServerConfiguration().maxQueuedBatches
    /// Client messages one loop may have waiting for other loops' hubs; the
    /// client whose message finds the queue full is closed 1013 instead.
    public var hubQueue = 65_536
    /// Redis commands in flight (queued or unanswered) from which the owner's
    /// moving frames are shed instead of queued (the next frame supersedes one;
    /// a resting frame and every other command still go).
    public var redisQueue = 10_000
    /// Events from the Redis thread (replies, other hubs' messages) waiting for
    /// the hub's loop from which other hubs' moving frames are shed (`RedisInbox`).
    public var redisInbox = 10_000
    /// Joins the cluster of hubs sharing this Redis (`--redis`); nil: the in-memory engine, one hub alone.
    public var redis: RedisEndpoint?
    /// The Redis engine's lease on a room, in milliseconds (renewed every third of it).
    public var leaseMilliseconds = 1500
    /// Where the hub logs start, connections, refusals and shutdown (default: nowhere).
    public var logger = Logger(label: "camhub", factory: { _ in SwiftLogNoOpLogHandler() })

    public init() {}
}
