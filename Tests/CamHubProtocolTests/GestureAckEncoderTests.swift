import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

/// The wire form of `gestureAck` (docs/PROTOCOL.md): the fields in that order,
/// `phase` null for an instantaneous gesture, `animation` only when one started.
@Suite("gestureAck on the wire")
struct GestureAckEncoderTests {
    @Test func aChangeIsAcknowledgedWithSeqKindPhaseTimeAndCamera() {
        let ack = GestureAck(
            seq: 42, kind: .pan, phase: .change, time: 1718000000123.5,
            camera: Camera(latitude: 48.5, longitude: 2.25, zoom: 12))
        #expect(
            text(HubMessage.gestureAck(ack))
                == #"{"type":"gestureAck","seq":42,"kind":"pan","phase":"change","time":1718000000123.5,"camera":{"lat":48.5,"lon":2.25,"zoom":12.0,"bearing":0.0,"tilt":0.0}}"#
        )
    }

    @Test func aScrollCarriesNullPhaseAndTheAnimationItStarted() {
        let ack = GestureAck(
            seq: 7, kind: .scroll, phase: nil, time: 5, camera: Camera(latitude: 1, longitude: 2, zoom: 3),
            animation: .init(id: "scroll", duration: 0.2, to: Camera(latitude: 1, longitude: 2, zoom: 3.25)))
        #expect(
            text(HubMessage.gestureAck(ack))
                == #"{"type":"gestureAck","seq":7,"kind":"scroll","phase":null,"time":5.0,"camera":{"lat":1.0,"lon":2.0,"zoom":3.0,"bearing":0.0,"tilt":0.0},"animation":{"id":"scroll","duration":0.2,"to":{"lat":1.0,"lon":2.0,"zoom":3.25,"bearing":0.0,"tilt":0.0}}}"#
        )
    }
}
