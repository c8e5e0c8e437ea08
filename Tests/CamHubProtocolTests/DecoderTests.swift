import CameraCore
import CameraMotion
import Testing

@testable import CamHubProtocol

@Suite("Decoding the envelope")
struct EnvelopeTests {
    @Test(
        "non-JSON, non-objects and bad types are bad_message with no ref",
        arguments: ["", "hello", "{", "[1,2]", "42", "\"set\"", "null", "{\"type\":\"set\",}", "{'type':'ping'}"])
    func malformed(text: String) {
        let e = decodeError(text)
        #expect(e?.code == .badMessage)
        #expect(e?.ref == nil)
    }

    @Test("missing or mistyped type is bad_message naming type")
    func missingType() {
        #expect(decodeError("{}")?.message == "type: missing")
        #expect(decodeError("{}")?.code == .badMessage)
        let e = decodeError(#"{"type":3}"#)
        #expect(e?.code == .badMessage)
        #expect(e?.message == "type: must be a string (got a number)")
    }

    @Test("an unknown type is unknown_type with the type as ref")
    func unknownType() {
        let e = decodeError(#"{"type":"jump","camera":{"zoom":3}}"#)
        #expect(e == ProtocolError(.unknownType, "type: unknown type 'jump'", ref: "jump"))
    }

    @Test("ref is the message id when it has one, else its type")
    func ref() {
        #expect(decodeError(#"{"type":"ease","id":"e7","camera":{"zoom":"3"}}"#)?.ref == "e7")
        #expect(decodeError(#"{"type":"set","camera":{"zoom":"3"}}"#)?.ref == "set")
        #expect(decodeError(#"{"type":"query","id":"q1","what":"nope"}"#)?.ref == "q1")
    }

    @Test("unknown top-level keys are ignored")
    func unknownTopLevelKeys() {
        #expect(decoded(#"{"type":"ping","t":5,"future":{"x":[1,2]},"v":2}"#) == .ping(t: 5))
    }

    @Test("oversized messages close with 1009, invalid UTF-8 with 1007")
    func closeCodes() {
        let big = "{\"type\":\"ping\",\"pad\":\"" + String(repeating: "x", count: 9000) + "\"}"
        let e = decodeError(big)
        #expect(e?.code == .badMessage)
        #expect(e?.close == .messageTooBig)
        let bad: [UInt8] = Array(#"{"type":"hello","name":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: ProtocolError(.badMessage, "message is not valid UTF-8", close: .invalidPayload)) {
            try ClientMessage.decode(bad)
        }
    }

    @Test("huge exponents are not finite; numeric strings like NaN are not numbers")
    func notFinite() {
        #expect(decodeError(#"{"type":"set","camera":{"zoom":1e999}}"#)?.message == "camera.zoom: must be a finite number (got inf)")
        #expect(decodeError(#"{"type":"set","camera":{"zoom":-1e999}}"#)?.message == "camera.zoom: must be a finite number (got -inf)")
        #expect(decodeError(#"{"type":"set","camera":{"zoom":"NaN"}}"#)?.message == "camera.zoom: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"set","camera":{"zoom":"3"}}"#)?.message == "camera.zoom: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"set","camera":{"zoom":true}}"#)?.message == "camera.zoom: must be a finite number (got a boolean)")
        #expect(decodeError(#"{"type":"set","camera":{"zoom":null}}"#)?.message == "camera.zoom: must be a finite number (got null)")
        #expect(decodeError(#"{"type":"ping","t":NaN}"#)?.code == .badMessage)
        #expect(decodeError(#"{"type":"ping","t":Infinity}"#)?.code == .badMessage)
    }

    @Test("route: points of lat/lon, append, at most 10,000 points, at least 2 unless clearing or appending")
    func route() {
        #expect(
            decoded(#"{"type":"route","points":[{"lat":1,"lon":2},{"lat":3,"lon":190}]}"#)
                == .route(RouteMessage(points: [GeoCoordinate(latitude: 1, longitude: 2), GeoCoordinate(latitude: 3, longitude: 190)])))
        #expect(decoded(#"{"type":"route","points":[]}"#) == .route(RouteMessage(points: [])))
        #expect(
            decoded(#"{"type":"route","points":[{"lat":1,"lon":2}],"append":true}"#)
                == .route(RouteMessage(points: [GeoCoordinate(latitude: 1, longitude: 2)], append: true)))
        #expect(decodeError(#"{"type":"route"}"#)?.message == "points: missing (a list of {lat, lon}; [] clears the route)")
        #expect(decodeError(#"{"type":"route","points":[{"lat":1,"lon":2}]}"#)?.message == "points: a route needs at least 2 points (got 1); [] clears it")
        #expect(decodeError(#"{"type":"route","points":[],"append":true}"#)?.message == "points: must not be empty when appending")
        #expect(
            decodeError(#"{"type":"route","points":[{"lat":1,"lon":2},{"lat":95,"lon":2}]}"#)?.message
                == "points[1].lat: must be within -90…90 degrees (got 95.0)")
        #expect(decodeError(#"{"type":"route","points":[{"lat":1,"lng":2},{"lat":5,"lon":2}]}"#)?.message.hasPrefix("points[0].lng: unknown field") == true)
        // One message holds a few hundred points (8 KiB); longer routes are sent with append (see HubRouteTests).
    }

    @Test("every known type decodes from its documented example")
    func examples() {
        let examples = [
            #"{"type":"hello","room":"demo","role":"presenter","name":"ana","token":"s3cret","rate":30,"viewport":{"width":1280,"height":720}}"#,
            #"{"type":"set","camera":{"lat":48.8566,"lon":2.3522,"zoom":12}}"#,
            #"{"type":"ease","id":"e1","camera":{"zoom":14,"bearing":90},"duration":1.5,"curve":"easeInOut","around":{"x":400,"y":300}}"#,
            #"{"type":"fly","id":"f1","camera":{"lat":40.7128,"lon":-74.006,"zoom":11},"speed":1.2,"curve":1.42,"minZoom":3}"#,
            #"{"type":"animate","id":"a1","to":{"bearing":180,"tilt":45},"duration":4,"curve":[0.25,0.1,0.25,1],"delay":1,"after":"a0"}"#,
            #"{"type":"cancel","id":"a1"}"#,
            #"{"type":"gesture","kind":"pan","phase":"change","x":640,"y":360,"t":1718000000123.5}"#,
            #"{"type":"gestures","disable":["doubleTap"],"enable":["pan"]}"#,
            #"{"type":"viewport","width":800,"height":600}"#,
            #"{"type":"limits","minZoom":2,"maxZoom":null,"maxTiltByZoom":[[10,30],[14,60]],"bounds":{"south":40,"west":-10,"north":60,"east":20}}"#,
            #"{"type":"track","mode":"followDirection","location":{"lat":52.52,"lon":13.405,"heading":370}}"#,
            #"{"type":"query","id":"q1","what":"project","points":[{"lat":0,"lon":0}]}"#,
            #"{"type":"ping","t":12.5}"#,
            #"{"type":"subscribe","events":["steady","joined","left","significantChange"]}"#,
            #"{"type":"route","points":[{"lat":52.52,"lon":13.405},{"lat":52.53,"lon":13.41}]}"#,
            #"{"type":"follow","state":"exploring"}"#,
            #"{"type":"summon","id":"back"}"#,
            #"{"type":"followPolicy","explore":false}"#,
            #"{"type":"fit","mode":"cover"}"#,
            #"{"type":"pointer","lat":48.8584,"lon":2.2945}"#,
            #"{"type":"refresh","token":"eyJhbGciOiJIUzI1NiJ9.e30.c2ln"}"#,
            #"{"type":"projection","projection":"globe"}"#,
            #"{"type":"story","op":"insert","index":1,"steps":[{"camera":{"lat":40.4168,"lon":-3.7038,"zoom":10},"via":"jump","title":"Madrid"}]}"#,
            #"{"type":"step","to":"next"}"#,
            #"{"type":"looking","region":[[2.3,48.9],[2.4,48.9],[2.4,48.8],[2.3,48.8]]}"#,
        ]
        #expect(examples.count == ClientMessage.types.count)
        var seen: Set<String> = []
        for text in examples {
            if let message = decoded(text) { seen.insert(message.type) }
        }
        #expect(seen == Set(ClientMessage.types))
    }
}

@Suite("Decoding hello")
struct HelloDecodingTests {
    @Test("full hello")
    func full() {
        let m = decoded(#"{"type":"hello","room":"demo","role":"presenter","name":"ana","token":"s3cret","rate":30,"viewport":{"width":1280,"height":720}}"#)
        guard case .hello(let h)? = m else {
            Issue.record("not hello")
            return
        }
        #expect(h.room.value == "demo")
        #expect(h.role == .presenter)
        #expect(h.name == "ana")
        #expect(h.token == "s3cret")
        #expect(h.rate(tick: 60) == 30)
        #expect(h.viewport == Viewport(width: 1280, height: 720))
    }

    @Test("defaults: no name, no token, rate min(30, tick), 1280×720")
    func defaults() {
        guard case .hello(let h)? = decoded(#"{"type":"hello","room":"a","role":"follower"}"#, tick: 60) else {
            Issue.record()
            return
        }
        #expect(h.name == nil && h.token == nil)
        #expect(h.rate == nil && h.rate(tick: 60) == 30)
        #expect(h.viewport == Viewport(width: 1280, height: 720))
        guard case .hello(let slow)? = decoded(#"{"type":"hello","room":"a","role":"follower"}"#, tick: 20) else {
            Issue.record()
            return
        }
        #expect(slow.rate(tick: 20) == 20)
    }

    @Test(
        "room names",
        arguments: [
            ("demo", true), ("A-b_9", true), (String(repeating: "x", count: 64), true),
            ("", false), (String(repeating: "x", count: 65), false), ("has space", false), ("é", false), ("a/b", false),
        ])
    func roomNames(room: String, ok: Bool) {
        let e = decodeError(#"{"type":"hello","room":"\#(room)","role":"driver"}"#)
        #expect((e == nil) == ok)
        if let e { #expect(e.message.hasPrefix("room: ")) }
    }

    @Test("bad fields are named")
    func badFields() {
        #expect(decodeError(#"{"type":"hello","role":"driver"}"#)?.message == "room: missing")
        #expect(decodeError(#"{"type":"hello","room":"r"}"#)?.message == "role: missing")
        #expect(decodeError(#"{"type":"hello","room":"r","role":"boss"}"#)?.message == "role: unknown role 'boss' (known: presenter, driver, follower)")
        #expect(decodeError(#"{"type":"hello","room":"r","role":"driver","rate":0}"#)?.message == "rate: must be within 1…30 frames per second (got 0.0)")
        #expect(decodeError(#"{"type":"hello","room":"r","role":"driver","rate":61}"#, tick: 60)?.message.hasPrefix("rate: must be within 1…60") == true)
        #expect(decodeError(#"{"type":"hello","room":"r","role":"driver","name":""}"#)?.message == "name: must not be empty")
        #expect(decodeError(#"{"type":"hello","room":"r","role":"driver","name":"a\u0007b"}"#)?.message == "name: must not contain control characters")
        #expect(
            decodeError(#"{"type":"hello","room":"r","role":"driver","name":"\#(String(repeating: "ñ", count: 65))"}"#)?.message
                == "name: must be at most 64 characters")
        #expect(decodeError(#"{"type":"hello","room":"r","role":"driver","token":5}"#)?.message == "token: must be a string (got a number)")
        #expect(
            decodeError(#"{"type":"hello","room":"r","role":"driver","viewport":{"width":0,"height":720}}"#)?.message.hasPrefix(
                "viewport.width: must be between 1 and 16384 px") == true)
        #expect(decodeError(#"{"type":"hello","room":"r","role":"driver","viewport":{"width":10}}"#)?.message == "viewport.height: missing")
        #expect(
            decodeError(#"{"type":"hello","room":"r","role":"driver","viewport":{"width":10,"height":10,"dpr":2}}"#)?.message.hasPrefix(
                "viewport.dpr: unknown field") == true)
        #expect(decodeError(#"{"type":"hello","room":"r","role":"driver","viewport":[1,2]}"#)?.message == "viewport: must be an object (got an array)")
    }

    @Test("a 64-character name of multi-byte characters is fine")
    func unicodeName() {
        guard case .hello(let h)? = decoded(#"{"type":"hello","room":"r","role":"driver","name":"\#(String(repeating: "ñ", count: 64))"}"#) else {
            Issue.record()
            return
        }
        #expect(h.name?.unicodeScalars.count == 64)
    }
}

@Suite("Decoding camera commands")
struct CameraCommandDecodingTests {
    @Test("set → CameraUpdate with only the named fields")
    func set() {
        let m = decoded(#"{"type":"set","camera":{"lat":10,"lon":200,"zoom":3.5,"bearing":-90,"tilt":30,"anchor":{"x":0.5,"y":0.8}}}"#)
        #expect(m == .set(CameraUpdate(latitude: 10, longitude: 200, zoom: 3.5, tilt: 30, bearing: -90, anchor: Anchor(x: 0.5, y: 0.8))))
        #expect(decoded(#"{"type":"set","camera":{"zoom":4}}"#) == .set(CameraUpdate(zoom: 4)))
    }

    @Test("camera validation errors name camera.<field>")
    func cameraErrors() {
        #expect(decodeError(#"{"type":"set","camera":{"lat":91}}"#)?.message == "camera.lat: must be within -90…90 degrees (got 91.0)")
        #expect(
            decodeError(#"{"type":"set","camera":{}}"#)?.message
                == "camera: must name at least one of lat, lon, zoom, bearing, tilt, anchor, padding, roll, elevation, fov")
        #expect(decodeError(#"{"type":"set"}"#)?.message == "camera: missing")
        #expect(decodeError(#"{"type":"set","camera":5}"#)?.message == "camera: must be an object (got a number)")
        #expect(
            decodeError(#"{"type":"set","camera":{"zoom":3,"lng":5}}"#)?.message
                == "camera.lng: unknown field in camera (known: lat, lon, zoom, bearing, tilt, anchor, padding, roll, elevation, fov)")
        #expect(
            decodeError(#"{"type":"set","camera":{"zoom":3,"lng":5,"pitch":1}}"#)?.message
                == "camera: unknown fields 'lng', 'pitch' (known: lat, lon, zoom, bearing, tilt, anchor, padding, roll, elevation, fov)")
        #expect(decodeError(#"{"type":"set","camera":{"anchor":{"x":0.5}}}"#)?.message == "camera.anchor.y: missing")
        #expect(decodeError(#"{"type":"set","camera":{"anchor":{"x":0.5,"y":"1"}}}"#)?.message == "camera.anchor.y: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"animate","to":{"tilt":1e400},"duration":1}"#)?.message == "to.tilt: must be a finite number (got inf)")
    }

    @Test("camera padding: any of top, left, bottom, right in px, not negative; the sides given replace the camera's")
    func cameraPadding() {
        #expect(
            decoded(#"{"type":"set","camera":{"padding":{"top":10,"right":200}}}"#)
                == .set(CameraUpdate(padding: PaddingUpdate(top: 10, right: 200))))
        #expect(decodeError(#"{"type":"set","camera":{"padding":{"top":-1}}}"#)?.message == "camera.padding.top: must not be negative (got -1.0)")
        #expect(
            decodeError(#"{"type":"ease","camera":{"padding":{"up":1}}}"#)?.message
                == "camera.padding.up: unknown field in camera.padding (known: top, left, bottom, right)")
        #expect(decodeError(#"{"type":"set","camera":{"padding":{}}}"#)?.message == "camera.padding: must name at least one of top, left, bottom, right")
        #expect(decodeError(#"{"type":"set","camera":{"padding":20}}"#)?.message == "camera.padding: must be an object (got a number)")
        #expect(
            decodeError(#"{"type":"animate","from":{"padding":{"left":0}},"to":{"zoom":2},"duration":1}"#)?.message
                == "from.padding: is not animated (to has no padding)")
        let padded = PaddingUpdate(top: 0, left: 50).applied(to: EdgeInsets(top: 10, left: 20, bottom: 30, right: 40))
        #expect(padded == EdgeInsets(top: 0, left: 50, bottom: 30, right: 40))
    }

    @Test("ease: defaults, curve names and Béziers, around")
    func ease() {
        #expect(decoded(#"{"type":"ease","camera":{"zoom":5}}"#) == .ease(EaseCommand(camera: CameraUpdate(zoom: 5))))
        #expect(
            decoded(#"{"type":"ease","id":"e1","camera":{"zoom":5},"duration":0,"curve":"linear","around":{"x":1,"y":2}}"#)
                == .ease(EaseCommand(id: "e1", camera: CameraUpdate(zoom: 5), duration: 0, curve: .linear, around: ViewPoint(x: 1, y: 2))))
        #expect(
            decoded(#"{"type":"ease","camera":{"zoom":5},"curve":[0.25,0.1,0.25,1]}"#)
                == .ease(EaseCommand(camera: CameraUpdate(zoom: 5), curve: .cubicBezier(0.25, 0.1, 0.25, 1))))
    }

    @Test("ease errors")
    func easeErrors() {
        #expect(
            decodeError(#"{"type":"ease","camera":{"lat":1,"zoom":5},"around":{"x":1,"y":2}}"#)?.message.hasPrefix("around: cannot be combined with camera.lat")
                == true)
        #expect(decodeError(#"{"type":"ease","camera":{"zoom":5},"duration":61}"#)?.message == "duration: must be within 0…60 seconds (got 61.0)")
        #expect(decodeError(#"{"type":"ease","camera":{"zoom":5},"duration":-1}"#)?.message == "duration: must be within 0…60 seconds (got -1.0)")
        #expect(
            decodeError(#"{"type":"ease","camera":{"zoom":5},"curve":"bouncy"}"#)?.message
                == "curve: unknown curve 'bouncy' (known: linear, easeIn, easeOut, easeInOut, or [x1, y1, x2, y2])")
        #expect(decodeError(#"{"type":"ease","camera":{"zoom":5},"curve":[0,1,2]}"#)?.message == "curve: must have 4 numbers [x1, y1, x2, y2] (got 3)")
        #expect(decodeError(#"{"type":"ease","camera":{"zoom":5},"curve":[0,1,2,1]}"#)?.message == "curve[2]: x2 must be within 0…1 (got 2.0)")
        #expect(decodeError(#"{"type":"ease","camera":{"zoom":5},"curve":[0,"a",0,1]}"#)?.message == "curve[1]: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"ease","camera":{"zoom":5},"curve":1.42}"#)?.message == "curve: must be a curve name or [x1, y1, x2, y2] (got a number)")
        #expect(decodeError(#"{"type":"ease","id":"","camera":{"zoom":5}}"#)?.message == "id: must not be empty")
        #expect(
            decodeError(#"{"type":"ease","id":"\#(String(repeating: "i", count: 65))","camera":{"zoom":5}}"#)?.message == "id: must be at most 64 characters")
        #expect(decodeError(#"{"type":"ease","camera":{"zoom":5},"around":{"x":1}}"#)?.message == "around.y: missing")
    }

    @Test("fly: defaults and ranges")
    func fly() {
        #expect(decoded(#"{"type":"fly","camera":{"lat":1,"lon":2}}"#) == .fly(FlyCommand(camera: CameraUpdate(latitude: 1, longitude: 2))))
        #expect(
            decoded(#"{"type":"fly","id":"f1","camera":{"zoom":2},"duration":3,"speed":2,"curve":2,"minZoom":1}"#)
                == .fly(FlyCommand(id: "f1", camera: CameraUpdate(zoom: 2), duration: 3, speed: 2, curve: 2, minZoom: 1)))
        #expect(decodeError(#"{"type":"fly","camera":{"zoom":2},"speed":0}"#)?.message == "speed: must be greater than 0 and at most 100 (got 0.0)")
        #expect(decodeError(#"{"type":"fly","camera":{"zoom":2},"speed":101}"#)?.message == "speed: must be greater than 0 and at most 100 (got 101.0)")
        #expect(decodeError(#"{"type":"fly","camera":{"zoom":2},"curve":11}"#)?.message == "curve: must be greater than 0 and at most 10 (got 11.0)")
        #expect(decodeError(#"{"type":"fly","camera":{"zoom":2},"curve":"easeIn"}"#)?.message == "curve: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"fly","camera":{"zoom":2},"minZoom":25}"#)?.message == "minZoom: must be within 0…24 (got 25.0)")
        #expect(decodeError(#"{"type":"fly","camera":{"zoom":2},"duration":60.5}"#)?.message == "duration: must be within 0…60 seconds (got 60.5)")
    }

    @Test("animate: duration required, delay, after")
    func animate() {
        #expect(decoded(#"{"type":"animate","to":{"bearing":90},"duration":4}"#) == .animate(AnimateCommand(to: CameraUpdate(bearing: 90), duration: 4)))
        #expect(
            decoded(#"{"type":"animate","id":"a1","to":{"bearing":90},"duration":4,"curve":"easeOut","delay":1,"after":"a0"}"#)
                == .animate(AnimateCommand(id: "a1", to: CameraUpdate(bearing: 90), duration: 4, curve: .easeOut, delay: 1, after: "a0")))
        #expect(decodeError(#"{"type":"animate","to":{"bearing":90}}"#) == ProtocolError(.badMessage, "duration: missing", ref: "animate"))
        #expect(
            decodeError(#"{"type":"animate","to":{"bearing":90},"duration":1,"delay":3601}"#)?.message == "delay: must be within 0…3600 seconds (got 3601.0)")
        #expect(
            decodeError(#"{"type":"animate","id":"a","to":{"bearing":90},"duration":1,"after":"a"}"#)?.message == "after: an animation cannot wait for itself")
        #expect(
            decoded(#"{"type":"animate","from":{"bearing":10,"lat":1},"to":{"bearing":20,"lat":2,"lon":3},"duration":1}"#)
                == .animate(
                    AnimateCommand(
                        to: CameraUpdate(latitude: 2, longitude: 3, bearing: 20), duration: 1,
                        from: CameraUpdate(latitude: 1, bearing: 10))))
        #expect(
            decodeError(#"{"type":"animate","from":{"zoom":1},"to":{"bearing":20},"duration":1}"#)?.message
                == "from.zoom: is not animated (to has no zoom)")
        #expect(decodeError(#"{"type":"animate","camera":{"bearing":90},"duration":1}"#)?.message == "to: missing")
    }

    @Test("cancel forms")
    func cancel() {
        #expect(decoded(#"{"type":"cancel","id":"a1"}"#) == .cancel(.id("a1")))
        #expect(decoded(#"{"type":"cancel"}"#) == .cancel(.own))
        #expect(decoded(#"{"type":"cancel","all":false}"#) == .cancel(.own))
        #expect(decoded(#"{"type":"cancel","all":true}"#) == .cancel(.all))
        #expect(decodeError(#"{"type":"cancel","all":1}"#)?.message == "all: must be true or false (got a number)")
        #expect(decodeError(#"{"type":"cancel","id":"a","all":true}"#)?.message == "all: cannot be combined with id")
        #expect(decodeError(#"{"type":"cancel","id":7}"#)?.message == "id: must be a string (got a number)")
    }
}

@Suite("Decoding gestures")
struct GestureDecodingTests {
    @Test(
        "each kind with its fields",
        arguments: [
            #"{"type":"gesture","kind":"pan","phase":"begin","x":1,"y":2}"#,
            #"{"type":"gesture","kind":"pinch","phase":"change","x":1,"y":2,"scale":1.5,"rotation":10}"#,
            #"{"type":"gesture","kind":"tilt","phase":"change","dy":-20}"#,
            #"{"type":"gesture","kind":"rotate","phase":"change","rotation":15,"x":3,"y":4}"#,
            #"{"type":"gesture","kind":"doubleTap","x":1,"y":2}"#,
            #"{"type":"gesture","kind":"twoFingerTap"}"#,
            #"{"type":"gesture","kind":"scroll","x":1,"y":2,"delta":-120}"#,
            #"{"type":"gesture","kind":"tap","x":1,"y":2,"t":5}"#,
            #"{"type":"gesture","kind":"longPress","phase":"begin","x":1,"y":2}"#,
            #"{"type":"gesture","kind":"pan","phase":"end"}"#,
            #"{"type":"gesture","kind":"pinch","phase":"cancel"}"#,
        ])
    func accepted(text: String) {
        #expect(decoded(text) != nil)
    }

    @Test("decoded values")
    func values() {
        #expect(
            decoded(#"{"type":"gesture","kind":"pinch","phase":"change","x":1,"y":2,"scale":1.5,"rotation":10,"t":99}"#)
                == .gesture(GestureMessage(kind: .pinch, phase: .change, x: 1, y: 2, t: 99, scale: 1.5, rotation: 10)))
    }

    @Test(
        "missing and bad fields",
        arguments: [
            (#"{"type":"gesture","kind":"pan","x":1,"y":2}"#, "phase: missing (required for pan)"),
            (#"{"type":"gesture","kind":"pan","phase":"begin"}"#, "x: missing (required for pan begin)"),
            (#"{"type":"gesture","kind":"pan","phase":"begin","x":1}"#, "y: missing (x and y come together)"),
            (#"{"type":"gesture","kind":"pinch","phase":"change","x":1,"y":2}"#, "scale: missing (required for pinch change)"),
            (#"{"type":"gesture","kind":"pinch","phase":"change","x":1,"y":2,"scale":0}"#, "scale: must be greater than 0 (got 0.0)"),
            (#"{"type":"gesture","kind":"tilt","phase":"change"}"#, "dy: missing (required for tilt change)"),
            (#"{"type":"gesture","kind":"rotate","phase":"begin"}"#, "rotation: missing (required for rotate begin)"),
            (#"{"type":"gesture","kind":"scroll","x":1,"y":2}"#, "delta: missing (required for scroll)"),
            (#"{"type":"gesture","kind":"tap"}"#, "x: missing (required for tap)"),
            (
                #"{"type":"gesture","kind":"swipe","x":1,"y":2}"#,
                "kind: unknown gesture kind 'swipe' (known: pan, pinch, tilt, rotate, doubleTap, twoFingerTap, scroll, tap, longPress)"
            ),
            (#"{"type":"gesture","kind":"pan","phase":"move","x":1,"y":2}"#, "phase: unknown phase 'move' (known: begin, change, end, cancel)"),
            (#"{"type":"gesture","phase":"begin","x":1,"y":2}"#, "kind: missing"),
            (#"{"type":"gesture","kind":"pan","phase":"change","x":1,"y":2,"t":"now"}"#, "t: must be a finite number (got a string)"),
            (#"{"type":"gesture","kind":"pan","phase":"end","x":1e309,"y":2}"#, "x: must be a finite number (got inf)"),
        ])
    func errors(text: String, message: String) {
        #expect(decodeError(text) == ProtocolError(.badMessage, message, ref: "gesture"))
    }

    @Test("gestures toggle")
    func toggle() {
        #expect(decoded(#"{"type":"gestures","disable":["doubleTap","tilt"]}"#) == .gestures(GestureToggle(disable: [.doubleTap, .tilt])))
        #expect(decoded(#"{"type":"gestures","enable":["pan"]}"#) == .gestures(GestureToggle(enable: [.pan])))
        #expect(decodeError(#"{"type":"gestures","disable":["doubleTap","swipe"]}"#)?.message.hasPrefix("disable[1]: unknown gesture kind 'swipe'") == true)
        #expect(decodeError(#"{"type":"gestures","disable":["pan"],"enable":["pan"]}"#)?.message == "enable: 'pan' is also in disable")
        #expect(decodeError(#"{"type":"gestures"}"#)?.message == "disable: missing (give disable and/or enable)")
        #expect(decodeError(#"{"type":"gestures","enable":"pan"}"#)?.message == "enable: must be an array (got a string)")
        #expect(GestureToggle(disable: [.tap], enable: [.pan]).applied(to: [.pan, .scroll]) == [.tap, .scroll])
    }
}

@Suite("Decoding viewport, limits, track, query, ping")
struct OtherDecodingTests {
    @Test("viewport")
    func viewport() {
        #expect(decoded(#"{"type":"viewport","width":800,"height":600}"#) == .viewport(Viewport(width: 800, height: 600)))
        #expect(decodeError(#"{"type":"viewport","width":800}"#)?.message == "height: missing")
        #expect(decodeError(#"{"type":"viewport","width":800,"height":1e5}"#)?.message == "height: must be between 1 and 16384 px (got 100000.0)")
    }

    @Test("limits: absent keeps, null resets, value sets")
    func limits() {
        guard
            case .limits(let c)? = decoded(
                #"{"type":"limits","minZoom":2,"maxZoom":null,"maxTilt":45,"maxTiltByZoom":[[14,60],[10,30]],"bounds":{"south":40,"west":170,"north":60,"east":-170}}"#
            )
        else {
            Issue.record()
            return
        }
        #expect(c.minZoom == .set(2))
        #expect(c.maxZoom == .reset)
        #expect(c.minTilt == .keep)
        #expect(c.maxTilt == .set(45))
        #expect(c.maxTiltByZoom == .set([.init(zoom: 14, tilt: 60), .init(zoom: 10, tilt: 30)]))
        #expect(c.bounds == .set(GeoBounds(south: 40, west: 170, north: 60, east: -170)))
        let applied = try? CameraLimits().applying(c)
        #expect(applied?.maxTiltByZoom.first?.zoom == 10)

        guard case .limits(let r)? = decoded(#"{"type":"limits","maxTiltByZoom":null,"bounds":null}"#) else {
            Issue.record()
            return
        }
        #expect(r.maxTiltByZoom == .reset && r.bounds == .reset && r.minZoom == .keep)
    }

    @Test("limits: structure and finiteness here, ranges left to CameraLimits.applying")
    func limitsErrors() {
        #expect(decodeError(#"{"type":"limits","minZoom":"2"}"#)?.message == "minZoom: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"limits","maxTilt":1e999}"#)?.message == "maxTilt: must be a finite number (got inf)")
        #expect(decodeError(#"{"type":"limits","maxTiltByZoom":[[1,2,3]]}"#)?.message == "maxTiltByZoom[0]: must be a pair [zoom, tilt]")
        #expect(decodeError(#"{"type":"limits","maxTiltByZoom":[[1,"x"]]}"#)?.message == "maxTiltByZoom[0][1]: must be a finite number (got a string)")
        #expect(
            decodeError(#"{"type":"limits","maxTiltByZoom":{}}"#)?.message == "maxTiltByZoom: must be an array of [zoom, tilt] pairs or null (got an object)")
        #expect(decodeError(#"{"type":"limits","bounds":{"south":1,"west":2,"north":3}}"#)?.message == "bounds.east: missing")
        #expect(
            decodeError(#"{"type":"limits","bounds":{"south":1,"west":2,"north":3,"east":4,"up":1}}"#)?.message.hasPrefix("bounds.up: unknown field") == true)
        #expect(decodeError(#"{"type":"limits"}"#)?.message.hasPrefix("limits: must name at least one of") == true)
        // Ranges are not the decoder's job:
        guard case .limits(let c)? = decoded(#"{"type":"limits","minZoom":99}"#) else {
            Issue.record()
            return
        }
        #expect(throws: CameraInputError.self) { try CameraLimits().applying(c) }
    }

    @Test("track")
    func track() {
        #expect(decoded(#"{"type":"track","mode":"followNorthUp"}"#) == .track(TrackMessage(mode: .followNorthUp)))
        #expect(decoded(#"{"type":"track","mode":"none"}"#) == .track(TrackMessage(mode: TrackMessage.Mode.none)))
        #expect(
            decoded(#"{"type":"track","location":{"lat":1,"lon":2,"heading":-90}}"#)
                == .track(TrackMessage(location: .init(latitude: 1, longitude: 2, heading: 270))))
        #expect(
            decoded(#"{"type":"track","mode":"followDirection","location":{"lat":1,"lon":2,"heading":360}}"#)
                == .track(TrackMessage(mode: .followDirection, location: .init(latitude: 1, longitude: 2, heading: 0))))
        #expect(
            decodeError(#"{"type":"track","mode":"orbit"}"#)?.message
                == "mode: unknown tracking mode 'orbit' (known: none, followNorthUp, followDirection, followRouteDirection, followRouteNorthUp, routeOverview)")
        #expect(decodeError(#"{"type":"track","location":{"lat":95,"lon":2}}"#)?.message == "location.lat: must be within -90…90 degrees (got 95.0)")
        #expect(decodeError(#"{"type":"track","location":{"lat":5}}"#)?.message == "location.lon: missing")
        #expect(
            decodeError(#"{"type":"track","location":{"lat":5,"lon":1,"heading":"N"}}"#)?.message == "location.heading: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"track"}"#)?.message == "mode: missing (give mode and/or location)")
    }

    @Test("query kinds")
    func query() {
        #expect(
            decoded(#"{"type":"query","id":"q1","what":"project","points":[{"lat":1,"lon":2},{"lat":-3,"lon":400}]}"#)
                == .query(QueryCommand(id: "q1", what: .project([GeoCoordinate(latitude: 1, longitude: 2), GeoCoordinate(latitude: -3, longitude: 400)]))))
        #expect(
            decoded(#"{"type":"query","id":"q2","what":"unproject","points":[{"x":1,"y":2}]}"#)
                == .query(QueryCommand(id: "q2", what: .unproject([ViewPoint(x: 1, y: 2)]))))
        #expect(decoded(#"{"type":"query","id":"q3","what":"bounds"}"#) == .query(QueryCommand(id: "q3", what: .bounds)))
        #expect(
            decoded(#"{"type":"query","id":"q4","what":"fit","bounds":{"south":1,"west":2,"north":3,"east":4},"padding":10}"#)
                == .query(QueryCommand(id: "q4", what: .fit(GeoBounds(south: 1, west: 2, north: 3, east: 4), padding: EdgeInsets(all: 10)))))
        #expect(
            decoded(#"{"type":"query","id":"q5","what":"fit","bounds":{"south":1,"west":2,"north":3,"east":4},"padding":{"top":5,"right":7}}"#)
                == .query(QueryCommand(id: "q5", what: .fit(GeoBounds(south: 1, west: 2, north: 3, east: 4), padding: EdgeInsets(top: 5, right: 7)))))
    }

    @Test("query errors")
    func queryErrors() {
        #expect(decodeError(#"{"type":"query","what":"bounds"}"#) == ProtocolError(.badMessage, "id: missing", ref: "query"))
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"where"}"#)?.message == "what: unknown query 'where' (known: project, unproject, bounds, fit, story)")
        #expect(decodeError(#"{"type":"query","id":"q","what":"project"}"#)?.message == "points: missing")
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"project","points":[{"lat":1,"lng":2}]}"#)?.message.hasPrefix(
                "points[0].lng: unknown field in points[0]") == true)
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"project","points":[{"lat":1,"lon":2},{"lat":99,"lon":2}]}"#)?.message
                == "points[1].lat: must be within -90…90 degrees (got 99.0)")
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"unproject","points":[{"x":1,"y":"2"}]}"#)?.message
                == "points[0].y: must be a finite number (got a string)")
        #expect(decodeError(#"{"type":"query","id":"q","what":"unproject","points":[5]}"#)?.message == "points[0]: must be an object (got a number)")
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"fit","bounds":{"south":10,"west":2,"north":3,"east":4}}"#)?.message
                == "bounds.south: must not be north of north (10.0 > 3.0)")
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"fit","bounds":{"south":1,"west":2,"north":3,"east":4},"padding":-1}"#)?.message
                == "padding: must not be negative (got -1.0)")
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"fit","bounds":{"south":1,"west":2,"north":3,"east":4},"padding":{"left":-2}}"#)?.message
                == "padding.left: must not be negative (got -2.0)")
        #expect(
            decodeError(#"{"type":"query","id":"q","what":"fit","bounds":{"south":1,"west":2,"north":3,"east":4},"padding":"5"}"#)?.message
                == "padding: must be a number or {top, left, bottom, right} (got a string)")
        // 1001 points do not fit in 8 KiB; check the count limit below the size limit.
        let many = "[" + Array(repeating: "{\"x\":1,\"y\":1}", count: 1001).joined(separator: ",") + "]"
        #expect(decodeError("{\"type\":\"query\",\"id\":\"q\",\"what\":\"unproject\",\"points\":\(many)}")?.close == .messageTooBig)
        let json = try? JSONParser.parse("{\"id\":\"q\",\"what\":\"unproject\",\"points\":\(many)}")
        guard case .object(let object)? = json else {
            Issue.record()
            return
        }
        #expect(throws: ProtocolError(.badMessage, "points: at most 1000 points per query (got 1001)", ref: "q")) {
            try ClientMessage.decodeQuery(FieldReader(object, ref: "q"))
        }
    }

    @Test("ping")
    func ping() {
        #expect(decoded(#"{"type":"ping"}"#) == .ping(t: nil))
        #expect(decoded(#"{"type":"ping","t":1718000000123.25}"#) == .ping(t: 1718000000123.25))
        #expect(decodeError(#"{"type":"ping","t":"x"}"#)?.message == "t: must be a finite number (got a string)")
    }

    @Test("permissions: followers may only look")
    func permissions() throws {
        let look = [
            "{\"type\":\"ping\"}", "{\"type\":\"viewport\",\"width\":5,\"height\":5}", "{\"type\":\"query\",\"id\":\"q\",\"what\":\"bounds\"}",
            "{\"type\":\"gestures\",\"disable\":[\"tap\"]}",
        ]
        let drive = [
            "{\"type\":\"set\",\"camera\":{\"zoom\":1}}", "{\"type\":\"cancel\"}", "{\"type\":\"track\",\"mode\":\"none\"}",
            "{\"type\":\"gesture\",\"kind\":\"tap\",\"x\":1,\"y\":1}",
        ]
        let present = ["{\"type\":\"limits\",\"minZoom\":1}", "{\"type\":\"cancel\",\"all\":true}"]
        for text in look {
            let m = try ClientMessage.decode(text)
            #expect(Role.follower.may(m))
        }
        for text in drive {
            let m = try ClientMessage.decode(text)
            #expect(!Role.follower.may(m))
            #expect(Role.driver.may(m) && Role.presenter.may(m))
            #expect(throws: ProtocolError.self) { try m.authorize(.follower) }
        }
        for text in present {
            let m = try ClientMessage.decode(text)
            #expect(!Role.follower.may(m) && !Role.driver.may(m) && Role.presenter.may(m))
            #expect(throws: ProtocolError.self) { try m.authorize(.driver) }
        }
        let e = #expect(throws: ProtocolError.self) { try ClientMessage.cancel(.id("a9")).authorize(.follower) }
        #expect(e?.code == .forbidden)
        #expect(e?.ref == "a9")
    }
}
