import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

/// The hub's rooms by name: what goes in is found under its name until it is
/// removed, whichever rooms were removed before it.
@Suite("RoomTable: rooms by name")
struct RoomTableTests {
    func room(_ name: String, zoom: Double) -> Room {
        Room(name: try! RoomName(validating: name), camera: Camera(zoom: zoom), limits: CameraLimits(), listedFollowers: 10, now: 0)
    }

    func zoom(_ table: RoomTable, _ name: String) -> Double? {
        table.read(try! RoomName(validating: name)) { $0.manager.camera.zoom }
    }

    @Test func aRoomRemovedFromTheMiddleLeavesTheOthersUnderTheirNames() {
        var table = RoomTable()
        for (index, name) in ["a", "b", "c", "d"].enumerated() { table.insert(room(name, zoom: Double(index + 1))) }
        let removed = table.remove(try! RoomName(validating: "b"))
        #expect(removed?.name.value == "b")
        #expect(table.count == 3)
        #expect(zoom(table, "a") == 1)
        #expect(zoom(table, "b") == nil)
        #expect(zoom(table, "c") == 3)
        #expect(zoom(table, "d") == 4)
        #expect(Set(table.names.map(\.value)) == ["a", "c", "d"])
    }

    @Test func anUpdateAfterARemovalChangesTheRoomNamed() {
        var table = RoomTable()
        for name in ["a", "b", "c"] { table.insert(room(name, zoom: 1)) }
        table.remove(try! RoomName(validating: "a"))
        table.update(try! RoomName(validating: "c")) { $0.visitCount = 7 }
        #expect(table.read(try! RoomName(validating: "c")) { $0.visitCount } == 7)
        #expect(table.read(try! RoomName(validating: "b")) { $0.visitCount } == 0)
    }

    @Test func removingTheLastRoomAndARoomNeverThereLeaveTheRestAlone() {
        var table = RoomTable()
        for name in ["a", "b"] { table.insert(room(name, zoom: 2)) }
        #expect(table.remove(try! RoomName(validating: "b")) != nil)
        #expect(table.remove(try! RoomName(validating: "zz")) == nil)
        #expect(table.count == 1)
        #expect(zoom(table, "a") == 2)
    }
}
