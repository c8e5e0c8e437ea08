import CamHubProtocol
import Testing

@Test func aHubURLNamesTheRoomItsHelloJoinsUnlessItNamesOneAlready() {
    #expect(HubProtocol.naming(room: "demo", in: "ws://h:1/hub") == "ws://h:1/hub?room=demo")
    #expect(HubProtocol.naming(room: "demo", in: "/hub?lag=100") == "/hub?lag=100&room=demo")
    #expect(HubProtocol.naming(room: "demo", in: "wss://h/hub?room=other") == "wss://h/hub?room=other")
    #expect(HubProtocol.naming(room: "", in: "/hub") == "/hub")
}
