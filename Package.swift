// swift-tools-version:6.0
import PackageDescription

/// CameraHub: one authoritative map camera per room, synced to many clients.
///
/// Module boundaries (each arrow is "depends on"):
/// - `CameraCore`: camera model, limits, Web Mercator, viewport math. Pure: no I/O, no clock.
let package = Package(
    name: "CameraHub",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CameraCore", targets: ["CameraCore"]),
    ],
    targets: [
        .target(name: "CameraCore"),
        .testTarget(name: "CameraCoreTests", dependencies: ["CameraCore"]),
    ]
)
