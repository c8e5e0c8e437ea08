// swift-tools-version:6.0
import PackageDescription

/// CameraHub: one authoritative map camera per room, synced to many clients.
///
/// The hub is Linux only: the transport runs on epoll (through libev), io_uring (`CURing`) and
/// Linux perf events (`CPerfEvents`). The client library for apps, `CamHubKit`, is pure Swift
/// on swift-nio and builds for Apple platforms too: the `platforms` below are its minimums
/// (swift-websocket's, and `AsyncStream.makeStream`'s: macOS 14, iOS 17, tvOS 17, visionOS 1).
///
/// Module boundaries (each arrow is "depends on"):
/// - `CameraCore`: camera model, limits, Web Mercator, viewport math. Pure: no I/O, no clock.
/// - `CameraMotion` → CameraCore: animator manager, flights, tracking, camera events,
///   gestures. Pure: time is passed in (seconds as Double).
/// - `CamHubProtocol` → CameraCore, CameraMotion: protocol v1 in both directions (the message
///   types, the strict JSON reader and writer, typed decoding of client messages, hand-written
///   encoders of hub messages and their typed decoder `HubToClient`, binary frames). Pure.
/// - `HubCore` → CamHubProtocol, CameraCore, CameraMotion: rooms, sessions and per-client policy
///   (follower throttle, command rate limiter, roster, signed room tokens: HMAC from
///   swift-crypto). Pure: no sockets, no clock.
/// - `WebSocketTransport` → `CLWS`, `CURing`, `CTCPProgress`: the one small libwebsockets wrapper (server and
///   client, each on its own loop thread). Knows nothing about cameras or rooms.
/// - `CamHubClient` → HubCore, WebSocketTransport, CamHubKit: the command line's client side: presenter
///   scripts and the follower on CamHubKit rooms (`camhub present|follow`), and a hub connection on the
///   libwebsockets wrapper for `camhub replay`, `story import`, the bench's presenters and the tests.
/// - `CamHubBench` → CamHubClient, `CEpoll`, `CPerfEvents`: the load tester behind `camhub bench`
///   (epoll follower sockets, perf counters, latency histograms), apart so that users of the
///   client library do not carry it.
/// - `HubCluster` → HubCore, `CHiredis`: the Redis engine (`camhub serve --redis`): one room
///   across hubs; hiredis driven from a thread of its own (Debian `libhiredis-dev`).
/// - `HubServer` → HubCore, HubCluster, WebSocketTransport, TileServer, HubRecording: the hub on the
///   wire; `camhub` is the CLI.
/// - `TileServer` → Gzip, WebSocketTransport, GRDB: map serving (tile archives, the style, the map endpoints).
/// - `Gzip` → `CZlib`: gzip through zlib, the one wrapper (recordings, PMTiles directories, KMZ's zip).
/// - `StoryFormats` → CamHubProtocol, CameraCore, Gzip, HubRecording: storyboards from and to KML/KMZ tours,
///   Mapbox storytelling configs, the hub's steps and recordings.
/// - `CLWS`: system library module for libwebsockets 4.1 (Debian `libwebsockets-dev`) and
///   libev, the event loop lws runs on (`libev-dev`, `libwebsockets-evlib-ev`)
///   plus a tiny header of static inline helpers for macro-only APIs.
/// - `CURing`: a small C target over liburing (Debian `liburing-dev`): one io_uring
///   submission for many non-blocking sends (the server's batched frame fan-out).
/// - `CamHubKit` → CamHubProtocol, CameraCore, CameraMotion, swift-websocket's `WSClient` (swift-nio): the client
///   library for apps, on Apple platforms and Linux; nothing of the hub's C (libwebsockets,
///   liburing, hiredis) is in its build.
/// - `CTCPProgress`: a small C target reading Linux's TCP_INFO (what a peer acknowledged, what
///   waits for it), so the server can tell a client that stopped reading.
let package = Package(
    name: "CameraHub",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .visionOS(.v1)],
    products: [
        .library(name: "CameraCore", targets: ["CameraCore"]),
        .library(name: "CameraMotion", targets: ["CameraMotion"]),
        .library(name: "CamHubProtocol", targets: ["CamHubProtocol"]),
        .library(name: "HubCore", targets: ["HubCore"]),
        .library(name: "WebSocketTransport", targets: ["WebSocketTransport"]),
        .library(name: "CamHubClient", targets: ["CamHubClient"]),
        .library(name: "CamHubKit", targets: ["CamHubKit"]),
        .library(name: "CamHubBench", targets: ["CamHubBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        .target(name: "CameraCore"),
        .testTarget(name: "CameraCoreTests", dependencies: ["CameraCore"]),
        .target(name: "CameraMotion", dependencies: ["CameraCore"]),
        .testTarget(name: "CameraMotionTests", dependencies: ["CameraMotion"]),
        /// An immutable payload with headroom, shared by the hub's encoder and the transport.
        .target(name: "SharedBytes"),
        .target(name: "CamHubKit", dependencies: [
            "CamHubProtocol", "CameraCore", "CameraMotion", .product(name: "WSClient", package: "swift-websocket"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "CamHubKitTests", dependencies: ["CamHubKit", "CamHubProtocol", "CameraCore", "CameraMotion"]),
        .target(name: "CamHubProtocol", dependencies: ["CameraCore", "CameraMotion"]),
        .target(name: "HubCore", dependencies: [
            "CamHubProtocol", "CameraCore", "CameraMotion", "SharedBytes", .product(name: "HeapModule", package: "swift-collections"),
            .product(name: "DequeModule", package: "swift-collections"), .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "CamHubProtocolTests", dependencies: ["CamHubProtocol", "CameraCore", "CameraMotion"]),
        .testTarget(name: "HubCoreTests", dependencies: ["HubCore", "CamHubProtocol"]),
        .executableTarget(name: "camhub-microbench", dependencies: ["CameraCore", "CameraMotion", "CamHubProtocol", "HubCore"], path: "Sources/MicroBench"),
        .systemLibrary(
            name: "CLWS",
            path: "Sources/CLWS",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libev-dev", "libwebsockets-evlib-ev"])]
        ),
        .target(
            name: "WebSocketTransport",
            dependencies: [
                "CLWS", "CURing", "CTCPProgress", "SharedBytes", .product(name: "DequeModule", package: "swift-collections"),
            ]),
        /// liburing (Debian `liburing-dev`): the server's batched frame sends. A C target, not a
        /// system module: its header names no liburing type, so no second copy of the system
        /// headers meets libwebsockets' in the same Swift module.
        .target(name: "CURing", path: "Sources/CURing", linkerSettings: [.linkedLibrary("uring")]),
        /// A TCP peer's progress (Linux TCP_INFO: bytes acknowledged, bytes waiting) and SO_SNDBUF,
        /// for judging a client that stopped reading. A C target for the same reason as CURing.
        .target(name: "CTCPProgress", path: "Sources/CTCPProgress"),
        .testTarget(name: "WebSocketTransportTests", dependencies: ["WebSocketTransport", "SharedBytes", "SocketTestSupport"]),
        /// Test-only: keeps the suites that open real sockets from running at the same time.
        .target(name: "SocketTestSupport", dependencies: ["CamHubClient"], path: "Tests/Support"),
        /// hiredis 0.14 (Debian `libhiredis-dev`) and its libev adapter, for the Redis engine.
        .systemLibrary(name: "CHiredis", path: "Sources/CHiredis", providers: [.apt(["libhiredis-dev", "libev-dev"])]),
        /// The Redis engine: one room across many hubs (`camhub serve --redis`).
        .target(name: "HubCluster", dependencies: ["CHiredis", "CamHubProtocol", "HubCore", "CameraCore", "CameraMotion"]),
        .target(name: "HubServer", dependencies: [
            "CamHubProtocol", "HubCore", "HubCluster", "WebSocketTransport", "HubRecording", "TileServer", "StoryFormats",
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        /// Map serving: MBTiles (GRDB) and PMTiles archives, the map style and the map endpoints
        /// (`/tiles/…`, `/tiles.json`, `/map/…`) on the transport's HTTP handlers.
        .target(name: "TileServer", dependencies: [
            "Gzip", "WebSocketTransport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        /// gzip through zlib, the one wrapper: recordings written and read, PMTiles directories, KMZ (zip).
        .target(name: "Gzip", dependencies: ["CZlib"]),
        /// Storyboards from and to files: KML/KMZ tours, Mapbox storytelling configs, the hub's steps, recordings.
        .target(name: "StoryFormats", dependencies: ["CamHubProtocol", "CameraCore", "Gzip", "HubRecording"]),
        .testTarget(name: "StoryFormatsTests", dependencies: ["StoryFormats", "CamHubProtocol", "CameraCore", "Gzip", "HubRecording"]),
        /// zlib (Debian `zlib1g-dev`), under `Gzip`.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        /// `camhub serve --record` and `camhub replay`: gzip JSON-lines recordings of rooms.
        .target(name: "HubRecording", dependencies: ["CamHubProtocol", "HubCore", "CameraCore", "Gzip"]),
        .testTarget(name: "HubRecordingTests", dependencies: ["HubRecording", "Gzip", "CamHubProtocol", "HubCore", "CameraCore", "CameraMotion", "SocketTestSupport"]),
        .testTarget(name: "HubServerTests", dependencies: ["HubServer", "HubCluster", "HubRecording", "WebSocketTransport", "CamHubProtocol", "HubCore", "SocketTestSupport", "CamHubClient", "CamHubKit", "CamHubBench", "TileServer",
                                                          .product(name: "GRDB", package: "GRDB.swift")]),
        /// Linux perf events (`linux/perf_event.h`): `camhub bench` counts a local hub's send syscalls.
        .systemLibrary(name: "CPerfEvents", path: "Sources/CPerfEvents"),
        /// epoll and eventfd for the bench's follower sockets (header-only; Glibc's module leaves them out).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .target(name: "CamHubClient", dependencies: [
            "CameraCore", "CameraMotion", "CamHubProtocol", "HubCore", "WebSocketTransport", "CamHubKit",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
        .target(name: "CamHubBench", dependencies: [
            "CamHubClient", "CamHubKit", "CameraCore", "CamHubProtocol", "HubCore", "WebSocketTransport", "CPerfEvents", "CEpoll",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(
            name: "CamHubBenchTests",
            dependencies: ["CamHubBench", "CamHubClient", "HubServer", "SocketTestSupport", "WebSocketTransport"]),
        .testTarget(
            name: "CamHubClientTests",
            dependencies: [
                "CamHubClient", "CamHubKit", "CamHubBench", "CameraCore", "CamHubProtocol", "HubCore", "HubServer", "SocketTestSupport",
                "WebSocketTransport",
            ]),
        /// Runs the built `camhub` binary as a subprocess (start-up errors, CLI output).
        .testTarget(name: "CamHubCLITests", dependencies: ["Gzip", "HubServer", "CamHubProtocol", "HubCore", "HubRecording", "SocketTestSupport"]),
        .executableTarget(name: "camhub", dependencies: [
            "CameraCore", "CamHubProtocol", "HubCore", "HubServer", "HubCluster", "CamHubClient", "CamHubKit", "CamHubBench", "WebSocketTransport",
            "HubRecording", "TileServer",
            "StoryFormats",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
    ]
)

// libFuzzer targets (the protocol decoder; the hub logic fed message sequences),
// declared only when CAMHUB_FUZZ is set:
// it links against libFuzzer's driver (-sanitize=fuzzer), so a plain `swift build`
// could not link them. scripts/fuzz.sh builds and runs them.
if Context.environment["CAMHUB_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport", path: "Sources/FuzzSupport",
                                   swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]))
    // The decoder's fuzzer needs only the protocol module; the hub's needs the hub.
    for (name, path, uses) in [
        ("camhub-fuzz-decoder", "Sources/FuzzDecoder", ["CamHubProtocol"]),
        ("camhub-fuzz-hub", "Sources/FuzzHub", ["CamHubProtocol", "HubCore", "CameraCore"]),
    ] {
        package.targets.append(.executableTarget(
            name: name, dependencies: uses.map { .target(name: $0) } + ["FuzzSupport"], path: path,
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]))
    }
}
