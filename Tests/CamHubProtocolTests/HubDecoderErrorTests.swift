import CameraCore
import CameraMotion
import Foundation
import Testing

@testable import CamHubProtocol

/// Malformed hub messages are refused naming the field by its wire path;
/// what a newer hub may add (types, events, fields, names) is let through.
@Suite("Malformed and unknown hub messages")
struct HubDecoderErrorTests {
    static let frame = #"{"type":"frame","seq":1,"time":2.0,"camera":{"lat":1.0,"lon":2.0,"zoom":3.0,"bearing":0.0,"tilt":0.0},"moving":true,"by":"c1"}"#

    /// `text` with `old` replaced by `new` (which must be there).
    static func edited(_ text: String, _ old: String, _ new: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        #expect(text.contains(old), "no \(old) in \(text)", sourceLocation: sourceLocation)
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func aFieldOfTheWrongTypeIsNamed() {
        #expect(hubDecodeError(#"{"type":"pong","time":"now"}"#) == .init(field: "time", message: "must be a finite number (got a string)"))
        #expect(
            hubDecodeError(Self.edited(Self.frame, #""moving":true"#, #""moving":1"#))
                == .init(field: "moving", message: "must be true or false (got a number)"))
        #expect(hubDecodeError(Self.edited(Self.frame, #""by":"c1""#, #""by":7"#)) == .init(field: "by", message: "must be a string (got a number)"))
        #expect(hubDecodeError(#"{"type":"gestures","disabled":"pan"}"#) == .init(field: "disabled", message: "must be an array (got a string)"))
    }

    @Test func aMissingRequiredFieldIsNamed() {
        #expect(hubDecodeError(Self.edited(Self.frame, #","moving":true"#, "")) == .init(field: "moving", message: "missing"))
        #expect(hubDecodeError(#"{"type":"tokenExpiring"}"#) == .init(field: "exp", message: "missing"))
        #expect(hubDecodeError(#"{"type":"result","id":"q1","what":"fit"}"#) == .init(field: "camera", message: "missing"))
    }

    @Test func aNullWhereAValueIsDueIsNamed() {
        #expect(
            hubDecodeError(Self.edited(Self.frame, #""moving":true"#, #""moving":null"#)) == .init(field: "moving", message: "must be true or false (got null)")
        )
        #expect(hubDecodeError(Self.edited(Self.frame, #""seq":1"#, #""seq":null"#)) == .init(field: "seq", message: "must be a finite number (got null)"))
    }

    @Test func aNestedFieldIsNamedByItsPath() throws {
        #expect(hubDecodeError(Self.edited(Self.frame, #""lat":1.0,"#, "")) == .init(field: "camera.lat", message: "missing"))
        #expect(
            hubDecodeError(Self.edited(Self.frame, #""tilt":0.0}"#, #""tilt":0.0,"anchor":{"x":0.5}}"#))
                == .init(field: "camera.anchor.y", message: "missing"))
        let welcome = text(HubMessage.welcome(try HubDecoderTests.fullWelcome(), time: 1))
        #expect(
            hubDecodeError(Self.edited(welcome, #""name":"d","role":"driver""#, #""name":"d","role":"host""#))
                == .init(field: "roster[2].role", message: "unknown role 'host'"))
        #expect(
            hubDecodeError(Self.edited(welcome, #""id":"then","by":"c7","kind":"animate""#, #""id":"then","by":"c7","kind":"jump""#))
                == .init(field: "animations[2].kind", message: "unknown animation kind 'jump'"))
        #expect(
            hubDecodeError(Self.edited(welcome, #""maxTiltByZoom":[[4.0,30.0]"#, #""maxTiltByZoom":[[4.0,true]"#))
                == .init(field: "limits.maxTiltByZoom[0][1]", message: "must be a finite number (got a boolean)"))
        let ack = GestureAck(
            seq: 7, kind: .scroll, phase: nil, time: 5, camera: Camera(), animation: .init(id: "scroll", duration: 0.2, to: Camera(zoom: 3.25)))
        #expect(
            hubDecodeError(Self.edited(text(HubMessage.gestureAck(ack)), #""zoom":3.25"#, #""zoom":"3.25""#))
                == .init(field: "animation.to.zoom", message: "must be a finite number (got a string)"))
        #expect(
            hubDecodeError(#"{"type":"result","id":"q1","what":"project","points":[{"x":1},null]}"#)
                == .init(field: "points[0].y", message: "missing"))
    }

    @Test func limitsTheHubWouldNotHoldAreNamed() {
        let event = text(HubMessage.event(.limitsChanged(limits: CameraLimits(), by: nil), time: 1))
        #expect(
            hubDecodeError(Self.edited(event, #""minZoom":0.0"#, #""minZoom":23.0"#))
                == .init(field: "limits.minZoom", message: "must not exceed maxZoom (23.0 > 22.0)"))
    }

    @Test func aWholeNumberFieldRefusesFractionsAndNegatives() {
        #expect(
            hubDecodeError(Self.edited(Self.frame, #""seq":1"#, #""seq":1.5"#))
                == .init(field: "seq", message: "must be a whole number of at least 0 (got 1.5)"))
        #expect(
            hubDecodeError(Self.edited(Self.frame, #""seq":1"#, #""seq":-1"#))
                == .init(field: "seq", message: "must be a whole number of at least 0 (got -1.0)"))
        #expect(hubDecodeError(Self.edited(Self.frame, #""seq":1"#, #""seq":1e999"#)) == .init(field: "seq", message: "must be a finite number (got inf)"))
    }

    @Test func halfAPairIsNamedByTheHalfMissing() {
        let tap = text(HubMessage.event(.tap(by: "c1", at: GeoCoordinate(latitude: 1, longitude: 2), point: ViewPoint(x: 3, y: 4)), time: 1))
        #expect(hubDecodeError(Self.edited(tap, #","y":4.0"#, "")) == .init(field: "y", message: "missing (x is given)"))
    }

    @Test func anUnknownEnumeratedValueIsNamed() {
        #expect(hubDecodeError(#"{"type":"result","id":"q","what":"distance"}"#)?.field == "what")
    }

    @Test func anErrorWithACodeThisVersionDoesNotKnowDecodesAsAnUnknownError() throws {
        let message = try HubToClient.decode(#"{"type":"error","code":"teapot","message":"m","ref":null}"#)
        guard case .unknown(let type, let json) = message else {
            Issue.record("not unknown: \(message)")
            return
        }
        #expect(type == "error" && json["code"]?.stringValue == "teapot")
        #expect(hubDecodeError(#"{"type":"error","code":7,"message":"m","ref":null}"#)?.field == "code")
    }

    @Test func anUnknownTypeDecodesAsUnknown() throws {
        let text = #"{"type":"teleport","to":{"planet":"mars"}}"#
        #expect(try HubToClient.decode(text) == .unknown(type: "teleport", JSONParser.parse(text)))
        #expect(try HubToClient.decode(text).type == "teleport")
    }

    @Test func anUnknownEventDecodesAsUnknownEvent() throws {
        let text = #"{"type":"event","event":"weatherChanged","time":1.0,"rain":true}"#
        #expect(try HubToClient.decode(text) == .unknownEvent(name: "weatherChanged", JSONParser.parse(text)))
    }

    @Test func unknownFieldsAreIgnoredAtEveryLevel() throws {
        let extended = Self.edited(
            Self.edited(Self.frame, #""type":"frame","#, #""type":"frame","colour":"red","#), #""tilt":0.0}"#, #""tilt":0.0,"yaw":5}"#)
        #expect(try HubToClient.decode(extended) == HubToClient.decode(Self.frame))
    }

    @Test func namesThisVersionDoesNotKnowAreDroppedFromLists() throws {
        #expect(try HubToClient.decode(#"{"type":"gestures","disabled":["pan","swipe"]}"#) == .gestures(disabled: [.pan]))
        let report = #"{"type":"animation","id":"a","status":"finished","by":null,"lost":["zoom","yaw"],"clamped":[],"time":1.0}"#
        #expect(try HubToClient.decode(report) == .animation(AnimationMessage(id: "a", status: .finished, by: nil, lost: [.zoom]), time: 1))
        let welcome = text(HubMessage.welcome(try HubDecoderTests.fullWelcome(), time: 1))
        #expect(
            try HubToClient.decode(Self.edited(welcome, #""events":["steady""#, #""events":["weatherChanged","steady""#))
                == .welcome(try HubDecoderTests.fullWelcome(), time: 1))
    }

    @Test func aNullableFieldMayBeLeftOut() throws {
        #expect(
            try HubToClient.decode(Self.edited(Self.frame, #","by":"c1""#, "")) == HubToClient.decode(Self.edited(Self.frame, #""by":"c1""#, #""by":null"#)))
    }

    @Test func whatIsNoMessageIsRefusedAsAWhole() {
        #expect(hubDecodeError("[1]") == .init(field: "", message: "message must be a JSON object (got an array)"))
        #expect(hubDecodeError(#"{"type":"pong","#)?.message.hasPrefix("invalid JSON at byte") == true)
        #expect(throws: HubToClient.DecodingError(field: "", message: "message is not valid UTF-8")) {
            try HubToClient.decode([UInt8]([0x22, 0xFF, 0x22]))
        }
        #expect(hubDecodeError(#"{"time":1.0}"#) == .init(field: "type", message: "missing"))
        #expect(hubDecodeError(#"{"type":3}"#) == .init(field: "type", message: "must be a string (got a number)"))
    }

    @Test func anErrorDescribesItselfFieldFirst() {
        #expect(HubToClient.DecodingError(field: "camera.lat", message: "missing").description == "camera.lat: missing")
        #expect(HubToClient.DecodingError(field: "", message: "message is not valid UTF-8").description == "message is not valid UTF-8")
    }
}
