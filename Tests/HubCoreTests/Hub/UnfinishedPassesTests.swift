import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The queue of send passes a tick left unfinished: oldest first, each room
/// once, a room taken out of the middle never served from its old place.
@Suite("UnfinishedPasses: the order unfinished send passes go on in")
struct UnfinishedPassesTests {
    func room(_ name: String) -> RoomName { try! RoomName(validating: name) }

    func drained(_ passes: inout UnfinishedPasses) -> [String] {
        var names: [String] = []
        while let next = passes.first() {
            names.append(next.value)
            passes.removeFirst()
        }
        return names
    }

    @Test func passesGoOnOldestFirst() {
        var passes = UnfinishedPasses()
        for name in ["a", "b", "c"] { passes.append(room(name)) }
        #expect(passes.count == 3)
        #expect(drained(&passes) == ["a", "b", "c"])
        #expect(passes.isEmpty)
    }

    @Test func aRoomQueuedTwiceIsQueuedOnceInItsFirstPlace() {
        var passes = UnfinishedPasses()
        for name in ["a", "b", "a"] { passes.append(room(name)) }
        #expect(passes.count == 2)
        #expect(drained(&passes) == ["a", "b"])
    }

    @Test func aRoomTakenOutOfTheMiddleIsSkipped() {
        var passes = UnfinishedPasses()
        for name in ["a", "b", "c"] { passes.append(room(name)) }
        passes.remove(room("b"))
        #expect(passes.count == 2)
        #expect(drained(&passes) == ["a", "c"])
    }

    @Test func aRoomQueuedAgainAfterItsPassFinishedGoesBehindTheOthers() {
        var passes = UnfinishedPasses()
        for name in ["a", "b", "c"] { passes.append(room(name)) }
        passes.remove(room("a"))
        passes.append(room("a"))
        #expect(passes.count == 3)
        #expect(drained(&passes) == ["b", "c", "a"])
    }

    @Test func thousandsOfPassesAreQueuedAndTakenOutInOrder() {
        var passes = UnfinishedPasses()
        let names = (0..<5_000).map { room("r\($0)") }
        for name in names { passes.append(name) }
        for name in names where name.value.hasSuffix("7") { passes.remove(name) }
        let left = drained(&passes)
        #expect(left == names.map(\.value).filter { !$0.hasSuffix("7") })
    }
}
