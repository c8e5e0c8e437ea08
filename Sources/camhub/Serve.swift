import ArgumentParser
import CamHubClient
import CamHubProtocol
import CameraCore
import Dispatch
import Foundation
import HubCluster
import HubCore
import HubRecording
import HubServer
import Logging
import Metrics
import TileServer
import WebSocketTransport

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the hub: WebSocket endpoint /hub, the web viewer, /healthz and /metrics on one port.",
        discussion: """
            Examples:
              camhub serve                                  # http://127.0.0.1:8080/
              camhub serve --port 0                         # a free port, printed on start
              camhub serve --host 0.0.0.0 --allow-origin https://maps.example.org
              camhub serve --presenter-token s3cret         # presenters need the token
              camhub serve --token-secret-file secret --public-follow   # signed room tokens (camhub token)
              camhub serve --host 0.0.0.0 --port 8443 --tls-cert cert.pem --tls-key key.pem   # https:// and wss://

            Stops cleanly on SIGINT (clients get close 1001 "going away") or SIGTERM (close
            1012 "service restart": clients such as the viewer and camhub follow reconnect),
            exit status 0; with --data the rooms are saved last.
            A start-up failure (port taken, address not on this machine) is one line on
            standard error and exit status 1.

            Logs go to standard error (--log-level, --log-format text|json); at debug and
            trace they include libwebsockets' own lines. Otherwise those are hidden, unless
            CAMHUB_LWS_LOG=error|warn|notice|info|debug shows them ("lws E: …").
            GET /metrics answers in the Prometheus text format; --config reads every option
            from a TOML file (see camhub.example.toml); --data DIR keeps rooms across restarts;
            --record DIR records every room (camhub replay plays a recording into a room).
            Frames go out in io_uring batches where the kernel allows it (plain ws:// only);
            CAMHUB_IO_URING=off sends them one write each. The first line says which.
            """
    )

    @Option(help: "Address to listen on (an IP address).")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free port and prints it.")
    var port = 8080

    @Option(help: "Room ticks per second (frames are sent at most this often).")
    var tick = HubProtocol.defaultTick

    @Option(help: "Event loops sharing the port, each on its own thread and running the rooms whose names hash to it; default: one per CPU.")
    var loops = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Folder of the web viewer.", valueName: "dir"))
    var web = "web"

    @Option(help: "Token a presenter must send in hello (default: none needed).")
    var presenterToken: String?

    @Option(help: "Token a driver must send in hello (default: none needed).")
    var driverToken: String?

    @Option(help: "Seconds an empty room is kept.")
    var roomTTL = 600.0

    @Option(parsing: .singleValue, help: "A browser origin allowed besides this host and localhost (repeatable).")
    var allowOrigin: [String] = []

    @Flag(help: "Add a WebSocket path /echo that echoes every message (for RFC 6455 test suites).")
    var echo = false

    // MARK: Security options (docs/SECURITY.md): kept together in this block.

    @Option(
        help: ArgumentHelp(
            "File holding the secret of signed room tokens (HS256 JWTs, see `camhub token`); default: $CAMHUB_TOKEN_SECRET. With a secret every role needs a token.",
            valueName: "file"))
    var tokenSecretFile: String?

    @Flag(help: "With a token secret: followers may join without a token.")
    var publicFollow = false

    @Option(
        help: ArgumentHelp(
            "File listing revoked signed-token ids (jti), one per line (# comments): clients holding one are closed with 4003. Read again on SIGHUP.",
            valueName: "file"))
    var revokedFile: String?

    @Option(help: ArgumentHelp("TLS certificate chain (PEM): serve https:// and wss:// instead of http:// and ws:// (with --tls-key).", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("Private key (PEM) of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    /// Checks the security options that need no I/O beyond existence.
    func validateSecurity() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        for (flag, file) in [("--tls-cert", tlsCert), ("--tls-key", tlsKey)] {
            if let file, !FileManager.default.isReadableFile(atPath: file) { throw ValidationError("\(flag) \(file): no such readable file") }
        }
    }

    @Option(help: "Open WebSocket connections on the whole hub; more get HTTP 503.")
    var maxConnections = ConnectionLimits().maxConnections

    @Option(help: "Open WebSocket connections from one IP address (loopback exempt unless --limit-loopback).")
    var maxConnectionsPerIp = ConnectionLimits().maxConnectionsPerAddress

    @Option(help: "New WebSocket connections one IP address may open per second, and in a burst (loopback exempt unless --limit-loopback).")
    var maxConnectionRatePerIp = ConnectionLimits().newConnectionsPerSecondPerAddress

    @Flag(help: "Apply the per-IP limits to loopback clients too (by default a local load test or reverse proxy is exempt).")
    var limitLoopback = false

    @Option(help: "Rooms the hub holds (empty ones count until --room-ttl); a hello creating one more gets error full and close 1013.")
    var maxRooms = HubConfiguration().maxRooms

    @Option(help: "Clients in one room; one more gets error full and close 1013.")
    var maxClientsPerRoom = HubConfiguration().maxClientsPerRoom

    @Option(
        help:
            "Seconds a client may stop reading (acknowledge none of the bytes waiting for it, or leave its socket undrained) before it is closed with 1008 \"too slow\"; 0: never."
    )
    var slowClientTimeout = 10.0

    @Option(help: "On SIGTERM/SIGINT: seconds over which each loop closes its clients (1012/1001), so they do not all reconnect at once; 0: all at once.")
    var drainSpread = HubServerConfiguration().drainSpread

    @Option(help: "On SIGTERM/SIGINT: the most seconds the hub waits for its clients' closes to be written and acknowledged before it exits.")
    var drainTimeout = HubServerConfiguration().drainTimeout

    @Option(help: ArgumentHelp("Largest message /echo accepts, in bytes (/hub keeps 8 KiB).", valueName: "bytes"))
    var echoMaxMessage = HubServerConfiguration().echoMaxMessage

    @Option(
        help: ArgumentHelp(
            "Frame batches for another loop that may wait while it is busy; more are merged (the newest frame per follower, messages kept in order).",
            valueName: "batches"))
    var loopQueue = HubServerConfiguration().loopQueue

    @Option(
        help: ArgumentHelp(
            "Client messages one loop may have waiting for other loops' hubs; the client whose message finds it full is closed 1013 (try again later).",
            valueName: "messages"))
    var hubQueue = HubServerConfiguration().hubQueue

    @Option(
        help: ArgumentHelp(
            "With --redis: Redis commands in flight (per loop: each loop has its own link) from which moving frames are shed instead of queued (camhub_redis_frames_shed_total); resting frames and other commands still go.",
            valueName: "commands"))
    var redisQueue = HubServerConfiguration().redisQueue

    @Option(
        help: ArgumentHelp(
            "With --redis: events waiting for a loop's hub (per loop) from which other hubs' moving frames are shed (camhub_redis_inbox_frames_shed_total); resting frames and everything else still go.",
            valueName: "events"))
    var redisInbox = HubServerConfiguration().redisInbox

    @Option(
        help: ArgumentHelp(
            "With --redis: how long this hub's leases on its rooms last unrenewed, in milliseconds (renewed every third of it); a hub that stalls longer loses its rooms to another, and a longer lease makes a dead hub's rooms wait longer for a new owner.",
            valueName: "ms"))
    var redisLease = HubServerConfiguration().leaseMilliseconds

    func validateCaps() throws {
        guard (1...(1 << 30)).contains(echoMaxMessage) else { throw ValidationError("--echo-max-message must be 1…1073741824 bytes (got \(echoMaxMessage))") }
        guard drainSpread.isFinite, drainSpread >= 0, drainTimeout.isFinite, drainTimeout > drainSpread else {
            throw ValidationError(
                "--drain-spread must be ≥ 0 and --drain-timeout longer than it, in seconds (got \(drainSpread) and \(drainTimeout))")
        }
        guard slowClientTimeout.isFinite, slowClientTimeout >= 0 else {
            throw ValidationError("--slow-client-timeout must be a number of seconds ≥ 0 (got \(slowClientTimeout))")
        }
        for (flag, value) in [
            ("--max-connections", maxConnections), ("--max-connections-per-ip", maxConnectionsPerIp),
            ("--max-rooms", maxRooms), ("--max-clients-per-room", maxClientsPerRoom),
            ("--loop-queue", loopQueue), ("--hub-queue", hubQueue), ("--redis-queue", redisQueue),
            ("--redis-inbox", redisInbox),
        ] where value < 1 {
            throw ValidationError("\(flag) must be at least 1 (got \(value))")
        }
        guard (300...60_000).contains(redisLease) else { throw ValidationError("--redis-lease must be 300…60000 ms (got \(redisLease))") }
        guard maxConnectionRatePerIp.isFinite, maxConnectionRatePerIp >= 1 else {
            throw ValidationError("--max-connection-rate-per-ip must be at least 1 per second (got \(maxConnectionRatePerIp))")
        }
    }

    /// The caps as the transport and the hub take them.
    func applyCaps(to configuration: inout HubServerConfiguration) {
        configuration.limits = ConnectionLimits(
            maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerIp,
            newConnectionsPerSecondPerAddress: maxConnectionRatePerIp, exemptLoopback: !limitLoopback)
        configuration.slowClientTimeout = slowClientTimeout
        configuration.drainSpread = drainSpread
        configuration.drainTimeout = drainTimeout
        configuration.echoMaxMessage = echoMaxMessage
        configuration.loopQueue = loopQueue
        configuration.hubQueue = hubQueue
        configuration.redisQueue = redisQueue
        configuration.redisInbox = redisInbox
        configuration.leaseMilliseconds = redisLease
        configuration.hub.maxRooms = maxRooms
        configuration.hub.maxClientsPerRoom = maxClientsPerRoom
    }

    var serverTLS: ServerTLS? {
        guard let tlsCert, let tlsKey else { return nil }
        return ServerTLS(certificateFile: tlsCert, privateKeyFile: tlsKey)
    }

    /// The security options, checked and turned into the hub's settings.
    func security() throws -> TokenPolicy {
        let secret = try loadTokenSecret(file: tokenSecretFile)
        if publicFollow && secret == nil {
            throw ValidationError(
                "--public-follow needs a token secret (--token-secret-file or CAMHUB_TOKEN_SECRET); without one followers need no token anyway")
        }
        var policy = TokenPolicy(roleTokens: RoleTokens(presenter: presenterToken, driver: driverToken), secret: secret, publicFollow: publicFollow)
        if let revokedFile {
            do { policy.revoked = try RevokedTokens.load(revokedFile) } catch { throw ValidationError("--revoked-file: \(error)") }
        }
        return policy
    }

    // MARK: End of the security options.

    // Operations: metrics, logs, data, config file.
    @Option(
        help: ArgumentHelp(
            "Token a scrape of /metrics must send as 'Authorization: Bearer <token>' (default: none needed).",
            valueName: "token"))
    var metricsToken: String?

    @Option(
        help: ArgumentHelp(
            "File of server API keys, one per line: turns on /api/v1/ (docs/openapi.yaml), each request with 'Authorization: Bearer <key>'.",
            valueName: "file"))
    var apiKeyFile: String?

    @Option(
        help: ArgumentHelp(
            "Log level: trace, debug, info, notice, warning, error or critical (debug and trace add libwebsockets' own lines).",
            valueName: "level"))
    var logLevel: Logger.Level = .info

    @Option(help: ArgumentHelp("Log lines on standard error: text, or json (one JSON object per line).", valueName: "format"))
    var logFormat: LogFormat = .text

    @Option(
        help: ArgumentHelp(
            "Folder where rooms (camera, limits, seq) are kept across restarts, in rooms.sqlite (default: memory only).",
            valueName: "dir"))
    var data: String?

    @Option(
        help: ArgumentHelp(
            "Folder where every room's accepted commands and animation ends are recorded as gzip JSON lines, DIR/<room>/<start>-<part>.jsonl.gz (docs/RECORDING.md; play with camhub replay).",
            valueName: "dir"))
    var record: String?

    @Option(help: ArgumentHelp("A recording file is rotated (the next part begins) once it holds this many compressed bytes.", valueName: "bytes"))
    var recordMaxBytes = Recorder.defaultMaxBytes

    @Option(
        help: ArgumentHelp(
            "Recording entries that may wait for the disk; more are dropped and counted (camhub_recording_dropped_total), so a stalled disk never stalls the hub.",
            valueName: "entries"))
    var recordQueue = Recorder.defaultQueueLimit
    @Option(
        help: ArgumentHelp(
            "Join the cluster of hubs sharing this Redis (7.0 or later): one room across hubs, each room's camera run by one of them (default: this hub alone, in memory). redis+sentinel://HOST:PORT[,HOST:PORT…]/MASTER finds the master through Redis Sentinel and follows its failovers. Also $CAMHUB_REDIS.",
            valueName: "redis://[:password@]host:port[/db]"))
    var redis: String?

    @Option(
        help: ArgumentHelp(
            "A TOML file setting any of these options (flags override it; see camhub.example.toml).",
            valueName: "file"))
    var config: String?

    @Flag(help: "Print the effective settings (file, environment and flags merged; secrets not shown) as TOML and exit.")
    var printConfig = false

    @Flag(help: "Print camhub.example.toml: every setting with its built-in default, as TOML with comments, and exit.")
    var printExampleConfig = false

    /// This command with `--config` and the `CAMHUB_*` secrets applied under the flags given.
    func effective() throws -> Serve {
        try ServeConfig.effective(
            self, arguments: Array(CommandLine.arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment)
    }

    // The map: tiles and style.
    @Option(
        help: ArgumentHelp(
            "Vector tile archive (MBTiles) served at /tiles/{z}/{x}/{y}.pbf (default: \(Serve.defaultTiles) when it exists, built by scripts/make_tiles.py).",
            valueName: "file"))
    var tiles: String?

    @Option(
        help: ArgumentHelp(
            "Terrain: an MBTiles or PMTiles archive of raster-dem tiles (PNG or WebP, Terrarium or Mapbox encoding) served at /terrain/{z}/{x}/{y}.png; the viewer draws it as MapLibre terrain.",
            valueName: "file"))
    var terrain: String?

    @Option(
        help: ArgumentHelp(
            "How the --terrain tiles encode heights, terrarium or mapbox (default: the archive's metadata \"encoding\").",
            valueName: "encoding"))
    var terrainEncoding: String?

    @Option(
        help: ArgumentHelp(
            "The viewer's default map style: an http(s) URL the page loads, or a style JSON file the hub serves (a page's ?style= overrides it).",
            valueName: "url|file"))
    var style: String?

    static let defaultTiles = ".build-tiles/basemap.mbtiles"

    /// The archive to serve: --tiles, else the built basemap when it is there.
    var tilesInEffect: String? {
        tiles ?? (FileManager.default.fileExists(atPath: Self.defaultTiles) ? Self.defaultTiles : nil)
    }

    func validate() throws {
        if printExampleConfig { return try ExampleConfig.checkAlone(Array(CommandLine.arguments.dropFirst())) }
        try effective().check()
    }

    func check() throws {
        guard Self.isIPLiteral(host) else {
            throw ValidationError("--host must be an IP address such as 127.0.0.1, 0.0.0.0 or ::1 (got \(host))")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535 (got \(port))") }
        guard (1...64).contains(loops) else { throw ValidationError("--loops must be 1…64 (got \(loops))") }
        guard tick.isFinite, (1...240).contains(tick) else { throw ValidationError("--tick must be 1…240 Hz (got \(tick))") }
        try validateSecurity()
        try validateCaps()
        guard recordMaxBytes >= 1024 else { throw ValidationError("--record-max-bytes must be at least 1024 (got \(recordMaxBytes))") }
        guard recordQueue >= 1 else { throw ValidationError("--record-queue must be at least 1 (got \(recordQueue))") }
        guard roomTTL.isFinite, roomTTL >= 0 else { throw ValidationError("--room-ttl must be a number of seconds ≥ 0") }
        if let terrainEncoding, DEMEncoding(rawValue: terrainEncoding) == nil {
            throw ValidationError("--terrain-encoding must be terrarium or mapbox (got \(terrainEncoding))")
        }
        if let redis {
            do { _ = try RedisEndpoint(url: redis) } catch { throw ValidationError(error.description) }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: web, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("--web \(web): no such folder (run from the repository root, or pass --web DIR)")
        }
    }

    /// What the hub serves beside the viewer, found next to its folder (the
    /// repository's layout, and an install's: `share/camhub/{web,clients/js,examples/embed}`).
    static let besideWeb = [("/clients/js/", "clients/js"), ("/examples/embed/", "examples/embed")]

    static func mountsBeside(web: String) -> [StaticMount] {
        let parent = URL(fileURLWithPath: web).standardizedFileURL.deletingLastPathComponent()
        return besideWeb.compactMap { prefix, folder in
            let path = parent.appendingPathComponent(folder).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            return StaticMount(prefix: prefix, directory: path)
        }
    }

    func run() throws {
        if printExampleConfig { return say(ExampleConfig.text(defaults: self)) }
        let settings = try effective()
        if printConfig {
            say(ServeConfig.text(settings, environment: ProcessInfo.processInfo.environment))
            return
        }
        try settings.start()
    }

    /// Runs the hub with these (effective) settings until SIGINT or SIGTERM has
    /// closed it. A start-up failure is one line on standard error (or one JSON log
    /// line) and exit status 1.
    func start() throws {
        let logger = LogSetup.bootstrap(level: logLevel, format: logFormat)
        let configuration = try serverConfiguration(logger: logger)
        let (server, bound) = try startServer(configuration, logger: logger)
        // Before the listening line: a script may send SIGHUP as soon as it reads it.
        let hangUp = revokedFile.map { rereadRevokedTokensOnHangUp($0, server: server, logger: logger) }
        announce(server, port: bound, configuration: configuration)
        // Blocks this thread; the handler runs on a dispatch queue.
        waitForSignal { signal in
            say("camhub: \(signal == SIGINT ? "SIGINT" : "SIGTERM"), closing clients")
            server.shutdown(restarting: signal == SIGTERM)
        }
        withExtendedLifetime(hangUp) {}
        logger.notice("stopped")
    }

    /// The server's configuration from these settings. Reads the token secret, the
    /// --api-key-file and the --style file; a problem with one is exit status 1.
    func serverConfiguration(logger: Logger) throws -> HubServerConfiguration {
        var configuration = HubServerConfiguration()
        configuration.logger = logger
        configuration.host = host
        configuration.port = port
        configuration.webRoot = web
        configuration.staticMounts = Self.mountsBeside(web: web)
        configuration.allowedOrigins = allowOrigin
        configuration.echo = echo
        configuration.tls = serverTLS
        applyCaps(to: &configuration)
        configuration.hub.tick = tick
        configuration.loops = loops
        configuration.hub.roomTTL = roomTTL
        do { configuration.hub.tokens = try security() } catch let error as SecretError {
            printErr("camhub: \(error)")
            throw ExitCode(1)
        }
        configuration.metricsToken = metricsToken
        if let apiKeyFile { configuration.apiKeys = try apiKeys(in: apiKeyFile, logger: logger) }
        configuration.dataDirectory = data
        configuration.tiles = tilesInEffect
        configuration.terrain = terrain
        configuration.terrainEncoding = terrainEncoding
        do { configuration.style = try style.map(MapStyle.load) } catch {
            LogSetup.startFailed("\(error)", format: logFormat, logger: logger)
            throw ExitCode(1)
        }
        configuration.recordDirectory = record
        configuration.recordMaxBytes = recordMaxBytes
        configuration.recordQueue = recordQueue
        configuration.redis = try redis.map { try RedisEndpoint(url: $0) }
        return configuration
    }

    /// The keys listed in `file` (--api-key-file); a file that cannot be read or
    /// holds no key is exit status 1.
    func apiKeys(in file: String, logger: Logger) throws -> [String] {
        let keys: [String]
        do {
            keys = APIKeyFile.keys(in: try String(contentsOfFile: file, encoding: .utf8))
        } catch {
            LogSetup.startFailed("--api-key-file \(file): \(error.localizedDescription)", format: logFormat, logger: logger)
            throw ExitCode(1)
        }
        guard !keys.isEmpty else {
            LogSetup.startFailed("--api-key-file \(file): no key in it (one per line)", format: logFormat, logger: logger)
            throw ExitCode(1)
        }
        return keys
    }

    /// Makes the server, starts its event loops and metrics, and returns it with the
    /// port it listens on (the one picked when --port is 0). Any failure is exit status 1.
    func startServer(_ configuration: HubServerConfiguration, logger: Logger) throws -> (server: HubServer, port: Int) {
        do {
            let server = try HubServer(configuration: configuration)
            let bound = try server.start()
            MetricsSystem.bootstrap(server.metricsFactory)
            return (server, bound)
        } catch let error as ListenError {
            LogSetup.startFailed("\(error)\(Self.hint(for: error))", format: logFormat, logger: logger)
            throw ExitCode(1)
        } catch let error as TileArchiveError {
            LogSetup.startFailed("\(error)", format: logFormat, logger: logger)
            throw ExitCode(1)
        } catch {
            LogSetup.startFailed("cannot start the hub: \(error)", format: logFormat, logger: logger)
            throw ExitCode(1)
        }
    }

    /// Reads `file` (--revoked-file) again on each SIGHUP, on a dispatch queue, while
    /// the returned source lives; a file that cannot be read keeps the list as it was.
    func rereadRevokedTokensOnHangUp(_ file: String, server: HubServer, logger: Logger) -> DispatchSourceSignal {
        whenHangUp {
            do {
                server.revokeTokens(try RevokedTokens.load(file))
            } catch {
                logger.error("revoked tokens not read again", metadata: ["file": "\(file)", "problem": "\(error)"])
            }
        }
    }

    /// The listening line (scripts wait for it and read the port from it), then a note
    /// for each part of the viewer that is missing.
    func announce(_ server: HubServer, port bound: Int, configuration: HubServerConfiguration) {
        let shown = host.contains(":") ? "[\(host)]" : host
        let (http, ws) = serverTLS == nil ? ("http", "ws") : ("https", "wss")
        say(
            "camhub: listening on \(http)://\(shown):\(bound)/ (WebSocket \(ws)://\(shown):\(bound)/hub, tick \(JSONWriter.plain(tick)) Hz, event loop \(server.eventLoop), sends: \(server.sendPath), libwebsockets \(WebSocketTransportSettings.libraryVersion))"
        )
        if let endpoint = configuration.redis, let id = server.clusterHubIDs.first {
            let loops = server.clusterHubIDs.count > 1 ? " (one member per loop: \(server.clusterHubIDs.joined(separator: ", ")))" : ""
            say("camhub: engine redis (\(endpoint)), hub \(id)\(loops): rooms are shared with every hub on that Redis")
        }
        if FileManager.default.fileExists(atPath: web + "/vendor/maplibre/maplibre-gl.js") == false {
            say("camhub: note: \(web)/vendor/maplibre is missing; run scripts/install_web_vendor.sh for the map")
        }
        if !configuration.staticMounts.contains(where: { $0.prefix == "/clients/js/" }) {
            say("camhub: note: no clients/js beside \(web); the viewer imports the client library from /clients/js/ and will not start")
        }
        if configuration.tiles == nil {
            say("camhub: note: no tile archive (\(Self.defaultTiles)); run scripts/make_tiles.py for the detailed offline map")
        }
    }
}

extension Serve {
    static func isIPLiteral(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// What to try when the address cannot be listened on.
    static func hint(for error: ListenError) -> String {
        switch error.code {
        case EADDRINUSE: " (try --port 0)"
        case EACCES: " (ports below 1024 need root; try --port 0)"
        case EADDRNOTAVAIL: " (--host must be an address of this machine, e.g. 127.0.0.1 or 0.0.0.0)"
        default: ""
        }
    }
}

/// Blocks until SIGINT or SIGTERM, runs `stop`, then returns.
func waitForSignal(_ stop: @escaping @Sendable (Int32) -> Void) {
    let done = DispatchSemaphore(value: 0)
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler {
            stop(sig)
            done.signal()
        }
        source.resume()
        sources.append(source)
    }
    done.wait()
    withExtendedLifetime(sources) {}
}

/// Runs `body` on each SIGHUP (on a dispatch queue) while the returned source lives.
func whenHangUp(_ body: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
    signal(SIGHUP, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
    source.setEventHandler(handler: body)
    source.resume()
    return source
}

/// Writes a line to standard output at once (no buffering: scripts read it).
func say(_ line: String) {
    writeStdout(line + "\n")
}
