import CameraCore
import Foundation
import Testing

@testable import CameraMotion

let presenter = Owner(client: "p1", rank: .presenter)
let driver = Owner(client: "d1", rank: .driver)
let driver2 = Owner(client: "d2", rank: .driver)

/// The committed test vectors (Tests/Vectors), shared with the web viewer's tests.
func vectorData(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors").appendingPathComponent(name)
    return try Data(contentsOf: url)
}

extension AnimatorManager {
    /// Animation reports in order, dropping other events.
    mutating func takeReports() -> [AnimationReport] {
        takeEvents().compactMap { if case .animation(let r) = $0 { r } else { nil } }
    }
}

extension Result {
    var failureValue: Failure? { if case .failure(let e) = self { e } else { nil } }
    var isSuccess: Bool { if case .success = self { true } else { false } }
}

func expectClose(_ a: Camera, _ b: Camera, _ tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(a.latitude - b.latitude) <= tolerance, "lat \(a.latitude) vs \(b.latitude)", sourceLocation: sourceLocation)
    #expect(abs(shortestTurn(from: a.longitude, to: b.longitude)) <= tolerance, "lon \(a.longitude) vs \(b.longitude)", sourceLocation: sourceLocation)
    #expect(abs(a.zoom - b.zoom) <= tolerance, "zoom \(a.zoom) vs \(b.zoom)", sourceLocation: sourceLocation)
    #expect(abs(shortestTurn(from: a.bearing, to: b.bearing)) <= tolerance, "bearing \(a.bearing) vs \(b.bearing)", sourceLocation: sourceLocation)
    #expect(abs(a.tilt - b.tilt) <= tolerance, "tilt \(a.tilt) vs \(b.tilt)", sourceLocation: sourceLocation)
}
