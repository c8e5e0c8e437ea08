// swift-tools-version:6.0
import PackageDescription

/// CameraHub: one authoritative map camera per room, synced to many clients.
///
/// Module boundaries (each arrow is "depends on"):
/// - `CameraCore`: camera model, limits, Web Mercator, viewport math. Pure: no I/O, no clock.
/// - `CameraMotion` → CameraCore: animator manager, flights, tracking, camera events,
///   gestures. Pure: time is passed in (seconds as Double).
let package = Package(
    name: "CameraHub",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CameraCore", targets: ["CameraCore"]),
        .library(name: "CameraMotion", targets: ["CameraMotion"]),
    ],
    targets: [
        .target(name: "CameraCore"),
        .testTarget(name: "CameraCoreTests", dependencies: ["CameraCore"]),
        .target(name: "CameraMotion", dependencies: ["CameraCore"]),
        .testTarget(name: "CameraMotionTests", dependencies: ["CameraMotion"]),
        .executableTarget(name: "camhub-microbench", dependencies: ["CameraCore", "CameraMotion"], path: "Sources/MicroBench"),
    ]
)
