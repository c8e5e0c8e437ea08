import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Command rate limiter")
struct CommandRateLimiterTests {
    @Test("a burst of 240 passes, the excess is dropped with one report")
    func burst() {
        var limiter = CommandRateLimiter()
        for _ in 0..<240 { #expect(admit(&limiter, now: 0) == .accept) }
        #expect(admit(&limiter, now: 0) == .dropAndReport)
        for _ in 0..<100 { #expect(admit(&limiter, now: 0.001) == .drop) }
        #expect(admit(&limiter, now: 0.001 + 0.5 / 240) == .drop, "half a token back is not a message")
    }

    @Test("240 messages per second sustained are never dropped")
    func sustained() {
        var limiter = CommandRateLimiter()
        for i in 0..<(240 * 60) { #expect(admit(&limiter, now: Double(i) / 240) == .accept) }
    }

    @Test("a flood is cut to 240/s plus the burst, with at most one report per second")
    func flood() {
        var limiter = CommandRateLimiter()
        var accepted = 0
        var reports: [Double] = []
        for i in 0..<(1000 * 10) {
            let now = Double(i) / 1000
            switch limiter.admit(now: now) {
            case .accept: accepted += 1
            case .dropAndReport: reports.append(now)
            case .drop: break
            }
        }
        #expect(accepted >= 240 * 10 && accepted <= 240 * 10 + 240 + 1)
        #expect(reports.count >= 9 && reports.count <= 10)
        for (a, b) in zip(reports, reports.dropFirst()) { #expect(b - a >= 1 - 1e-9) }
    }

    @Test("tokens refill with time, capped at the burst; a clock stepping back refills nothing")
    func refill() {
        let policy = CommandRateLimiter.Policy(rate: 10, burst: 5)
        var limiter = CommandRateLimiter()
        for _ in 0..<5 { #expect(admit(&limiter, now: 100, policy: policy) == .accept) }
        #expect(admit(&limiter, now: 100, policy: policy) == .dropAndReport)
        #expect(admit(&limiter, now: 50, policy: policy) == .drop)
        #expect(admit(&limiter, now: 100.1, policy: policy) == .accept)  // one token back after 0.1 s
        #expect(admit(&limiter, now: 100.1, policy: policy) == .drop)
        for _ in 0..<5 { #expect(admit(&limiter, now: 1000, policy: policy) == .accept) }  // capped at 5
        #expect(admit(&limiter, now: 1000, policy: policy) == .dropAndReport)
    }
}

@Suite("Roster, roles and tokens")
struct RosterTests {
    func hello(_ role: Role, name: String? = nil, token: String? = nil) -> Hello {
        Hello(room: try! RoomName(validating: "demo"), role: role, name: name, token: token)
    }

    @Test("client ids are c1, c2, …")
    func ids() {
        var ids = ClientIDAllocator()
        #expect((0..<3).map { _ in ids.next() } == ["c1", "c2", "c3"])
    }

    @Test("join and leave; name defaults to the client id; roster in join order")
    func joinLeave() throws {
        var roster = Roster()
        _ = try roster.join(client: "c1", hello: hello(.driver, name: "ana"), tokens: RoleTokens())
        _ = try roster.join(client: "c2", hello: hello(.follower), tokens: RoleTokens())
        #expect(roster.entries == [RosterEntry(client: "c1", name: "ana", role: .driver), RosterEntry(client: "c2", name: "c2", role: .follower)])
        #expect(roster.presenter == nil)
        let left = roster.leave(client: "c1")
        #expect(left?.entry.name == "ana")
        #expect(left?.presenterChange == nil)
        #expect(roster.leave(client: "c1") == nil)
        #expect(roster.count == 1)
    }

    @Test("a second hello with the same client id is a conflict")
    func duplicate() throws {
        var roster = Roster()
        _ = try roster.join(client: "c1", name: nil, role: .driver)
        #expect(throws: ProtocolError(.conflict, "client: c1 already joined", ref: "hello")) {
            try roster.join(client: "c1", name: nil, role: .follower)
        }
    }

    @Test("one presenter per room: a new presenter takes over and the old one becomes a driver")
    func presenterTakeover() throws {
        var roster = Roster()
        let first = try roster.join(client: "c1", name: nil, role: .presenter)
        #expect(first.presenterChange == PresenterChange(previous: nil, current: "c1", demoted: nil))
        let second = try roster.join(client: "c2", name: nil, role: .presenter)
        #expect(second.presenterChange == PresenterChange(previous: "c1", current: "c2", demoted: "c1"))
        #expect(roster.presenter == "c2")
        #expect(roster.entry(for: "c1")?.role == .driver)
        #expect(roster.entries.filter { $0.role == .presenter }.map(\.client) == ["c2"])
        // The presenter leaving leaves the room without one.
        let gone = roster.leave(client: "c2")
        #expect(gone?.presenterChange == PresenterChange(previous: "c2", current: nil, demoted: nil))
        #expect(roster.presenter == nil)
        #expect(roster.entry(for: "c1")?.role == .driver)
    }

    @Test("without tokens anyone may take any role")
    func open() throws {
        let tokens = RoleTokens()
        for role in Role.allCases {
            #expect(throws: Never.self) { try tokens.authorize(role: role, token: nil) }
            #expect(throws: Never.self) { try tokens.authorize(role: role, token: "whatever") }
        }
        #expect(RoleTokens(presenter: "", driver: "") == RoleTokens())
    }

    @Test("a role whose token is set needs it; wrong or missing → forbidden, then close 1008")
    func tokens() throws {
        let tokens = RoleTokens(presenter: "p-secret", driver: "d-secret")
        #expect(throws: Never.self) { try tokens.authorize(role: .presenter, token: "p-secret") }
        #expect(throws: Never.self) { try tokens.authorize(role: .driver, token: "d-secret") }
        #expect(throws: Never.self) { try tokens.authorize(role: .driver, token: "p-secret") }  // presenter token grants driver
        #expect(throws: Never.self) { try tokens.authorize(role: .follower, token: nil) }
        #expect(throws: ProtocolError(.forbidden, "token: wrong token for role presenter", ref: "hello", close: .policyViolation)) {
            try tokens.authorize(role: .presenter, token: "d-secret")
        }
        #expect(throws: ProtocolError(.forbidden, "token: missing token for role driver", ref: "hello", close: .policyViolation)) {
            try tokens.authorize(role: .driver, token: nil)
        }
        #expect(throws: ProtocolError.self) { try tokens.authorize(role: .presenter, token: "p-secre") }
        #expect(throws: ProtocolError.self) { try tokens.authorize(role: .presenter, token: "p-secretX") }

        // Only the presenter token set: drivers are free.
        let presenterOnly = RoleTokens(presenter: "p")
        #expect(throws: Never.self) { try presenterOnly.authorize(role: .driver, token: nil) }
        #expect(throws: ProtocolError.self) { try presenterOnly.authorize(role: .presenter, token: nil) }

        // A rejected hello does not join.
        var roster = Roster()
        #expect(throws: ProtocolError.self) { try roster.join(client: "c1", hello: hello(.presenter, token: "nope"), tokens: tokens) }
        #expect(roster.isEmpty)
        _ = try roster.join(client: "c1", hello: hello(.presenter, token: "p-secret"), tokens: tokens)
        #expect(roster.presenter == "c1")
    }

    @Test("token comparison")
    func constantTime() {
        #expect(RoleTokens.constantTimeEqual("abc", "abc"))
        #expect(!RoleTokens.constantTimeEqual("abc", "abd"))
        #expect(!RoleTokens.constantTimeEqual("abc", "ab"))
        #expect(!RoleTokens.constantTimeEqual("", "a"))
        #expect(RoleTokens.constantTimeEqual("", ""))
        #expect(!RoleTokens.constantTimeEqual(String(repeating: "a", count: 256), String(repeating: "a", count: 512)))
    }

    @Test("roles map to ranks")
    func ranks() {
        #expect(Role.presenter.rank == .presenter && Role.driver.rank == .driver && Role.follower.rank == .follower)
    }
}

@Suite("Roster: listed and counted members")
struct RosterListingTests {
    @Test func followersBeyondTheLimitAreCountedNotListed() throws {
        var roster = Roster(listedFollowerLimit: 2)
        _ = try roster.join(client: "p", name: nil, role: .presenter)
        let joins = try (1...4).map { try roster.join(client: "f\($0)", name: nil, role: .follower) }
        #expect(joins.map(\.isListed) == [true, true, false, false])
        #expect(roster.entries.map(\.client) == ["p", "f1", "f2"])
        #expect(roster.audience == Audience(clients: 5, followers: 4))
        #expect(roster.leave(client: "f4") == nil, "a counted follower is not stored")
        roster.leaveCounted()
        #expect(roster.leave(client: "f1")?.entry.client == "f1")
        let next = try roster.join(client: "f5", name: nil, role: .follower)
        #expect(next.isListed, "a listed follower's place is free again")
        #expect(roster.entries.map(\.client) == ["p", "f2", "f5"])
        #expect(roster.audience == Audience(clients: 4, followers: 3))
    }

    @Test func theRosterIsWhereARoleIsKept() throws {
        var roster = Roster()
        _ = try roster.join(client: "a", name: nil, role: .presenter)
        _ = try roster.join(client: "b", name: nil, role: .presenter)
        #expect(roster.role(of: "a") == .driver && roster.role(of: "b") == .presenter)
        #expect(roster.entries.map(\.role) == [.driver, .presenter])
        #expect(roster.role(of: "nobody") == nil)
    }
}
