import Testing

@testable import CamHubBench

@Suite struct TickReadingTests {
    static func exposition(_ loops: [(loop: Int, buckets: [(String, Int)])]) -> String {
        var lines = ["# TYPE camhub_tick_duration_seconds histogram"]
        for (loop, buckets) in loops {
            for (le, count) in buckets { lines.append(#"camhub_tick_duration_seconds_bucket{loop="\#(loop)",le="\#(le)"} \#(count)"#) }
            lines.append(#"camhub_tick_duration_seconds_count{loop="\#(loop)"} \#(buckets.last?.1 ?? 0)"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func eachLoopsMedianTickOverTheWindowComesFromTheDifferenceOfItsBuckets() {
        let start = TickReading(
            exposition: Self.exposition([
                (0, [("0.001", 100), ("0.002", 100), ("0.004", 100), ("+Inf", 100)]),
                (1, [("0.001", 50), ("0.002", 50), ("0.004", 50), ("+Inf", 50)]),
            ]))
        // Over the window: loop 0 ticked 60 times, all between 2 and 4 ms; loop 1 60 times,
        // 30 of them under 1 ms and 30 between 1 and 2 ms.
        let end = TickReading(
            exposition: Self.exposition([
                (0, [("0.001", 100), ("0.002", 100), ("0.004", 160), ("+Inf", 160)]),
                (1, [("0.001", 80), ("0.002", 110), ("0.004", 110), ("+Inf", 110)]),
            ]))
        let medians = end.medianMilliseconds(since: start)
        #expect(medians.count == 2)
        #expect(abs((medians[0] ?? 0) - 3.0) < 1e-9, "halfway into the 2–4 ms bucket: \(medians)")
        #expect(abs((medians[1] ?? 0) - 1.0) < 1e-9, "the 30th of 60 ends the first bucket: \(medians)")
        #expect(end.meanCount - start.meanCount == 60, "ticks per loop, on average")
    }

    @Test func aLoopThatDidNotTickHasNoMedian() {
        let reading = TickReading(exposition: Self.exposition([(0, [("0.001", 5), ("+Inf", 5)])]))
        #expect(reading.medianMilliseconds(since: reading) == [nil])
    }
}
