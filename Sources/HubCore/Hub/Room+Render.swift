import CamHubProtocol
import CameraCore
import CameraMotion

/// How a room member's frames are made, in one byte: its encoding
/// (`hello.encoding`, bit 0) and its render class (`hello.render`, bits 1…7:
/// 0 for a map that draws everything, else an index + 1 into the room's
/// `renderVariants`).
struct FrameFormat: Hashable, Sendable {
    let rawValue: UInt8

    /// The most render classes a room tells apart.
    static let maxRenderClasses = 127

    init(encoding: FrameEncoding, renderClass: UInt8) {
        precondition(Int(renderClass) <= Self.maxRenderClasses, "render class out of range")
        rawValue = renderClass << 1 | (encoding == .binary ? 1 : 0)
    }

    var encoding: FrameEncoding { rawValue & 1 == 1 ? .binary : .json }
    var renderClass: UInt8 { rawValue >> 1 }
}

/// One render class of a room: what its maps draw, and the room's frame as
/// they can show it, encoded at most once per tick and encoding and shared by
/// every member of the class.
struct RenderVariant {
    let render: RenderCapabilities
    var json: EncodedFrame?
    var binary: EncodedFrame?

    mutating func forgetFrames() {
        json = nil
        binary = nil
    }
}

extension Room {
    /// The render class of `render` in this room (0 for a map that draws
    /// everything), adding it if new; nil when the room already tells apart
    /// `FrameFormat.maxRenderClasses` others (see `takesRender`).
    mutating func renderClass(of render: RenderCapabilities) -> UInt8? {
        if render == .all { return 0 }
        if let i = renderVariants.firstIndex(where: { $0.render == render }) { return UInt8(i + 1) }
        guard renderVariants.count < FrameFormat.maxRenderClasses else { return nil }
        renderVariants.append(RenderVariant(render: render))
        return UInt8(renderVariants.count)
    }

    /// Whether a member that draws `render` can join: its class exists or there is room for one more.
    func takesRender(_ render: RenderCapabilities) -> Bool {
        render == .all || renderVariants.count < FrameFormat.maxRenderClasses || renderVariants.contains { $0.render == render }
    }

    /// `seq`'s frame for `member`, whose `renderClass` is not 0.
    mutating func limitedFrame(time: Double, headroom: Int, member: Member) -> EncodedFrame {
        let i = Int(member.renderClass) - 1
        let cached = member.encoding == .json ? renderVariants[i].json : renderVariants[i].binary
        if let cached, cached.seq == seq { return cached }
        let frame = encodeFrame(time: time, headroom: headroom, encoding: member.encoding, render: renderVariants[i].render)
        if member.encoding == .json { renderVariants[i].json = frame } else { renderVariants[i].binary = frame }
        return frame
    }
}

extension RenderCapabilities {
    /// `velocity` as a map with these capabilities sees the camera move at
    /// `camera`: no roll rate without roll, no tilt rate while the tilt is held at `maxTilt`.
    func showable(_ velocity: CameraVelocity, at camera: Camera) -> CameraVelocity {
        var out = velocity
        if !roll { out.roll = 0 }
        if camera.tilt >= Double(maxTilt) { out.tilt = 0 }
        return out
    }
}
