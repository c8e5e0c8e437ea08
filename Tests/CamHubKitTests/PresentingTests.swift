import CamHubKit
import CamHubProtocol
import CameraCore
import Foundation
import Testing

/// The presenter's API against a real hub: the storyboard (a large one split to
/// fit the hub's messages, edits, stepping) kept as `room.story`, explorers'
/// regions as `room.viewports`, and calling one client back.
@Suite("CamHubKit presenting", .serialized)
struct PresentingTests {
    /// `count` steps with notes long enough that the storyboard needs several messages.
    static func steps(_ count: Int) -> [StoryStep] {
        (0..<count).map { i in
            StoryStep(
                camera: Camera(latitude: 40 + Double(i) / 10, longitude: -8 + Double(i) / 10, zoom: 6), via: .jump, title: "Step \(i)",
                notes: String(repeating: "n", count: 300))
        }
    }

    @Test func aStoryboardLargerThanAMessageIsSplitIntoASetAndInsertsEachWithinTheLimit() throws {
        let steps = Self.steps(60)
        let commands = try StorySplit.commands(steps, drivers: true)
        #expect(commands.count > 1)
        #expect(commands.allSatisfy { ClientMessage.story($0).encoded.count <= HubProtocol.maxMessageBytes })
        guard case .set(let first)? = commands.first?.op else {
            Issue.record("the first is not a set: \(String(describing: commands.first))")
            return
        }
        #expect(commands.first?.drivers == true && commands.dropFirst().allSatisfy { $0.drivers == nil })
        let inserted = commands.dropFirst().flatMap { command -> [StoryStep] in
            if case .insert(let more, nil)? = command.op { more } else { [] }
        }
        #expect(first + inserted == steps, "every step once, in order")
        #expect(try StorySplit.commands(Self.steps(2)).count == 1, "a small one is one set")
    }

    @Test func aStepLargerThanAMessageIsRefusedBeforeAnythingIsSent() {
        var huge = Self.steps(2)
        huge[1].notes = String(repeating: "x", count: HubProtocol.maxMessageBytes)
        #expect(throws: CamHubError.self) { try StorySplit.commands(huge) }
        #expect((try? StorySplit.commands(huge)) == nil)
        do { _ = try StorySplit.commands(huge) } catch { #expect(error.kind == .badArgument && error.message.hasPrefix("steps[1]:")) }
    }

    @Test func aLargeStoryboardSetInPiecesIsTheRoomsWholeStory() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        try await presenter.setStory(Self.steps(60))
        #expect(await presenter.story?.count == 60, "the last insert's storyChanged came before the hub answered")
        let late = try await CamHub.connect(url: hub.url, room: "kit")
        #expect(await late.story?.count == 60, "a client joining later hears it in its welcome")
        await late.close()
        await presenter.close()
    }

    @Test func steppingReturnsTheMovesReportAndEveryoneHearsTheStep() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        let follower = try await CamHub.connect(url: hub.url, room: "kit")
        var steps = Self.steps(3)
        steps[1].via = .ease
        steps[1].duration = 0.2
        try await presenter.setStory(steps)
        try await presenter.step(to: .index(0))
        let report = try await presenter.step(to: .next)
        #expect(report?.status == .finished && report?.camera?.latitude == steps[1].camera.latitude, "\(String(describing: report))")
        let story = await presenter.story
        #expect(story?.index == 1 && story?.title == "Step 1" && story?.count == 3)
        let heard = await first(follower.events, within: 10) { if case .storyStep(let e) = $0 { e.index == 1 } else { false } }
        #expect(heard != nil)
        #expect(await follower.story?.index == 1)
        await follower.close()
        await presenter.close()
    }

    @Test func editsChangeTheRoomsStoryAndAStepOutsideItIsTheHubsError() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let room = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        let steps = Self.steps(3)
        try await room.setStory(steps)
        try await room.insertSteps([steps[0]], at: 0)
        #expect(await room.story?.count == 4)
        try await room.removeStep(at: 0)
        try await room.moveStep(from: 2, to: 0)
        try await room.step(to: .index(0))
        #expect(await room.story?.title == "Step 2", "the moved step is first")
        var renamed = steps[2]
        renamed.title = "Start"
        try await room.updateStep(renamed, at: 0)
        #expect(await room.story?.title == "Start")
        try await room.allowStoryDrivers(true)
        #expect(await room.story?.drivers == true)
        await #expect(throws: CamHubError.self) { try await room.step(to: .index(9)) }
        try await room.setStory([])
        let cleared = await room.story
        #expect(cleared?.count == 0 && cleared?.index == nil && cleared?.drivers == true, "cleared, drivers still allowed")
        try await room.allowStoryDrivers(false)
        #expect(await room.story == nil, "nothing left to say: no storyboard")
        await room.close()
    }

    @Test func anExplorersRegionReachesThePresentersViewportsAndOneClientIsSummoned() async throws {
        let hub = try LocalHub()
        defer { hub.stop() }
        let presenter = try await CamHub.connect(url: hub.url, room: "kit", role: .presenter)
        let explorer = try await CamHub.connect(url: hub.url, room: "kit", name: "ex")
        let other = try await CamHub.connect(url: hub.url, room: "kit", name: "other")
        let explorerID = await explorer.client
        try await explorer.follow(.exploring)
        try await other.follow(.exploring)
        let region = [
            GeoCoordinate(latitude: 39, longitude: -10), GeoCoordinate(latitude: 39, longitude: -8),
            GeoCoordinate(latitude: 38, longitude: -8), GeoCoordinate(latitude: 38, longitude: -10),
        ]
        try await explorer.looking(region: region)
        let heard = await first(presenter.events, within: 10) {
            if case .viewports(let v) = $0 { v.clients.contains { $0.client == explorerID } } else { false }
        }
        #expect(heard != nil, "the presenter heard where the explorer looks")
        let looked = await presenter.viewports.clients.first { $0.client == explorerID }
        #expect(looked?.name == "ex" && looked?.region == region && looked?.state == .exploring)
        await #expect(throws: CamHubError.self) { try await explorer.looking(region: Array(region.prefix(3))) }
        #expect(try await presenter.summon(client: explorerID) == 1, "only the one client")
        await other.close()
        await explorer.close()
        await presenter.close()
    }
}
