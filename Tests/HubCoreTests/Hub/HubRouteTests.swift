import CameraCore
import Testing

@testable import HubCore

/// The route through `Hub.receive`: the room's route (set, appended,
/// cleared), `routeChanged` events, `welcome.route`, and a route tracking mode.
@Suite("Hub: route and route tracking (TomTom)")
struct HubRouteTests {
    static func points(_ count: Int, from start: Int = 0) -> String {
        (start..<(start + count)).map { #"{"lat":\#(52.0 + Double($0) * 1e-4),"lon":13.4}"# }.joined(separator: ",")
    }

    @Test func aRouteIsAnnouncedKeptForLateJoinersExtendedAndCleared() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"route","points":[{"lat":52.52,"lon":13.40},{"lat":52.52,"lon":13.41}]}"#, from: d.key)
        let changed = try #require(bench.events(f.key, "routeChanged").last, "followers get routeChanged by default")
        #expect(changed["by"]?.stringValue == d.client && changed["append"]?.boolValue == false && changed["total"]?.numberValue == 2)
        #expect(changed["points"]?.arrayValue?.count == 2 && changed["points"]?[1]?["lon"]?.numberValue == 13.41)
        bench.send(#"{"type":"route","points":[{"lat":52.53,"lon":13.41}],"append":true}"#, from: d.key)
        #expect(bench.events(f.key, "routeChanged").last?["total"]?.numberValue == 3)
        let late = bench.join(role: "follower")
        let route = try #require(bench.welcome(late.key)?["route"]?.arrayValue)
        #expect(route.map { $0["lat"]?.numberValue ?? 0 } == [52.52, 52.52, 52.53])
        bench.send(#"{"type":"route","points":[]}"#, from: d.key)
        #expect(bench.events(f.key, "routeChanged").last?["total"]?.numberValue == 0)
        #expect(bench.welcome(bench.join(role: "follower").key)?["route"]?.arrayValue?.isEmpty == true)
        bench.send(#"{"type":"route","points":[{"lat":1,"lon":1},{"lat":2,"lon":2}]}"#, from: f.key)
        #expect(bench.lastError(f.key)?["code"]?.stringValue == "forbidden")
        #expect(bench.errors(d.key).isEmpty)
    }

    @Test func aLongRouteIsSentInPiecesUpToTenThousandPoints() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"route","points":[\#(Self.points(200))]}"#, from: d.key)
        for chunk in 1..<50 {
            bench.send(#"{"type":"route","points":[\#(Self.points(200, from: chunk * 200))],"append":true}"#, from: d.key)
        }
        #expect(bench.errors(d.key).isEmpty)
        #expect(bench.events(d.key, "routeChanged").last?["total"]?.numberValue == 10_000)
        bench.send(#"{"type":"route","points":[{"lat":1,"lon":1}],"append":true}"#, from: d.key)
        #expect(bench.lastError(d.key)?["message"]?.stringValue == "points: a route has at most 10000 points (got 10001)")
        #expect(bench.events(d.key, "routeChanged").count == 50, "the refused piece announced nothing")
    }

    @Test func followRouteDirectionTurnsTheCameraAlongTheRoute() throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let f = bench.join(role: "follower")
        bench.send(#"{"type":"route","points":[{"lat":52.52,"lon":13.40},{"lat":52.52,"lon":13.41},{"lat":52.53,"lon":13.41}]}"#, from: d.key)
        bench.send(#"{"type":"track","mode":"followRouteDirection","location":{"lat":52.5201,"lon":13.405,"heading":0}}"#, from: d.key)
        #expect(bench.events(f.key, "trackingModeChanged").last?["mode"]?.stringValue == "followRouteDirection")
        bench.run(seconds: 1.5)
        let camera = try #require(bench.frames(f.key).last?.camera)
        #expect(abs((camera["bearing"]?.numberValue ?? 0) - 90) < 0.01 && camera["tilt"]?.numberValue == 45)
        #expect(abs((camera["lat"]?.numberValue ?? 0) - 52.52) < 1e-9, "the fix 11 m off the road is drawn on it")
        let late = bench.join(role: "follower")
        #expect(bench.welcome(late.key)?["tracking"]?["mode"]?.stringValue == "followRouteDirection")
        #expect(bench.errors(d.key).isEmpty)
    }
}
