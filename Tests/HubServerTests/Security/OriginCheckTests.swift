import Testing

@testable import HubServer

@Suite("Origin check")
struct OriginCheckTests {
    let check = OriginCheck(serverHost: "192.168.1.20", extra: ["https://maps.example.org"])

    @Test(arguments: [
        "http://localhost:8080", "http://LOCALHOST", "http://127.0.0.1:5173", "http://127.1.2.3",
        "http://[::1]:8080", "http://192.168.1.20:8080", "https://maps.example.org",
    ])
    func loopbackTheServersHostAndListedOriginsAreAllowed(_ origin: String) {
        #expect(check.allows(origin))
    }

    @Test(arguments: [
        "http://evil.example", "http://127.evil.example", "http://127.0.0.1.nip.io",
        "http://localhost.evil.example", "https://maps.example.org.evil.example", "http://maps.example.org",
        "http://192.168.1.200", "null", "",
    ])
    func otherOriginsAreRefused(_ origin: String) {
        #expect(!check.allows(origin))
    }
}
