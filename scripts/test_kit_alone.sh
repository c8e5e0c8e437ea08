#!/usr/bin/env bash
# Builds the CamHubKit library product alone, as an app would: a package of its
# own that depends on this one and uses only CamHubKit, built from a clean
# scratch folder with pkg-config pointed at nothing (so no system library the hub
# needs can be found that way). Then checks that nothing of the hub's C was
# built or linked: no libwebsockets, liburing, hiredis, libev or zlib module,
# no transport, hub or server module, and the app's binary links none of their
# libraries. Takes a few minutes (swift-nio and BoringSSL from scratch).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
app=.build/kit-alone
rm -rf "$app"
mkdir -p "$app/Sources/KitApp"
cat > "$app/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "KitApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "CameraHub", path: "$repo")],
    targets: [.executableTarget(name: "KitApp", dependencies: [.product(name: "CamHubKit", package: "CameraHub")])]
)
SWIFT
cat > "$app/Sources/KitApp/main.swift" <<'SWIFT'
import CamHubKit
import CameraCore

// Compiles against the library's API; run with a hub URL it joins and prints the camera.
if CommandLine.arguments.count > 1 {
    let room = try await CamHub.connect(url: CommandLine.arguments[1], room: "demo")
    print(await room.camera)
    await room.close()
}
SWIFT
PKG_CONFIG_PATH=/nonexistent PKG_CONFIG_LIBDIR=/nonexistent swift build --package-path "$app" --scratch-path "$app/.build" --product KitApp
built=$(swift build --package-path "$app" --scratch-path "$app/.build" --show-bin-path)
status=0
for module in CLWS CURing CHiredis CEpoll CPerfEvents CZlib CTCPProgress WebSocketTransport HubCore HubCluster HubServer CamHubClient; do
  # SwiftPM makes an empty folder for every target of the graph; a built one holds objects or a module.
  if compgen -G "$built/$module.build/*.o" > /dev/null || [ -e "$built/Modules/$module.swiftmodule" ]; then
    echo "kit alone: $module was built for an app that uses only CamHubKit" >&2; status=1
  fi
done
if ldd "$built/KitApp" | grep -E 'libwebsockets|liburing|libhiredis|libev\.|libz\.' >&2; then
  echo "kit alone: the app links a library of the hub's" >&2; status=1
fi
[ "$status" = 0 ] && echo "kit alone: CamHubKit builds and links without the hub's C (libwebsockets, liburing, hiredis, libev, zlib)"
exit "$status"
