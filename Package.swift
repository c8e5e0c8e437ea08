// swift-tools-version:6.0
import PackageDescription

/// CameraHub: one authoritative map camera per room, synced to many clients.
///
/// Module boundaries (each arrow is "depends on"):
/// - `CameraCore`: camera model, limits, Web Mercator, viewport math. Pure: no I/O, no clock.
/// - `WebSocketTransport` → `CLWS`: the one small libwebsockets wrapper (server and
///   client, each on its own loop thread). Knows nothing about cameras or rooms.
/// - `CLWS`: system library module for libwebsockets 4.1 (Debian `libwebsockets-dev`)
///   plus a tiny header of static inline helpers for macro-only APIs.
let package = Package(
    name: "CameraHub",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CameraCore", targets: ["CameraCore"]),
        .library(name: "WebSocketTransport", targets: ["WebSocketTransport"]),
    ],
    targets: [
        .target(name: "CameraCore"),
        .testTarget(name: "CameraCoreTests", dependencies: ["CameraCore"]),
        .systemLibrary(
            name: "CLWS",
            path: "Sources/CLWS",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .target(name: "WebSocketTransport", dependencies: ["CLWS"]),
        .testTarget(name: "WebSocketTransportTests", dependencies: ["WebSocketTransport"]),
    ]
)
