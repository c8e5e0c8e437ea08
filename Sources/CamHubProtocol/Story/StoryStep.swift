import CameraCore
import CameraMotion

/// How a storyboard step takes the room's camera to its camera.
public enum StoryVia: String, Hashable, Sendable, CaseIterable {
    /// A flight (`fly`: zooms out and in; `duration`, else `speed`).
    case fly
    /// An eased move (`ease`: `duration`, `curve`).
    case ease
    /// At once (`set`).
    case jump
}

/// One step of a room's storyboard: where the camera goes, how, how long
/// autoplay stays there, and what the audience reads meanwhile.
public struct StoryStep: Hashable, Sendable {
    /// The step's camera: centre, zoom, bearing, tilt, roll, elevation and fov
    /// always; `anchor` and `padding` only when `writesPlacement` (else the
    /// room's stay as they are).
    public var camera: Camera
    /// Whether the step writes `camera.anchor` and `camera.padding` (the wire named them).
    public var writesPlacement = false
    public var via = StoryVia.fly
    /// Seconds the move takes (fly: nil derives it from `speed`; ease: nil is
    /// `EaseCommand.defaultDuration`; jump: always nil).
    public var duration: Double?
    /// fly only: screenfuls per second when `duration` is nil (nil: `FlyCommand.defaultSpeed`).
    public var speed: Double?
    /// ease only: the timing curve (nil: ease-in-out).
    public var curve: TimingCurve?
    /// Seconds autoplay stays on the step once its move ended, then goes on
    /// to the next; nil: autoplay stops at this step (the presenter goes on).
    public var hold: Double?
    /// Plain text, at most `StoryLimits.titleLength` characters, one line.
    public var title: String?
    /// Plain text, at most `StoryLimits.notesLength` characters; new lines allowed.
    public var notes: String?
    /// MapLibre's `essential`: shown moving even to clients that prefer reduced motion.
    public var essential = false

    public init(camera: Camera, via: StoryVia = .fly, duration: Double? = nil, hold: Double? = nil, title: String? = nil, notes: String? = nil) {
        self.camera = camera
        self.via = via
        self.duration = duration
        self.hold = hold
        self.title = title
        self.notes = notes
    }

    /// The camera update the step's move writes.
    public var update: CameraUpdate {
        var update = CameraUpdate(camera)
        if !writesPlacement {
            update.anchor = nil
            update.padding = nil
        }
        return update
    }
}

/// The bounds a storyboard is kept within (the hub refuses more, naming the field).
public enum StoryLimits {
    /// Steps in one storyboard.
    public static let steps = 100
    /// Unicode scalars in a step's title.
    public static let titleLength = 120
    /// Unicode scalars in a step's notes.
    public static let notesLength = 2000
    /// Seconds a step's move may take (as `fly` and `ease`).
    public static let duration: ClosedRange<Double> = 0...60
    /// Seconds a step may hold.
    public static let hold: ClosedRange<Double> = 0...3600
}

/// A room's storyboard and where the room is in it.
public struct StoryState: Hashable, Sendable {
    public var steps: [StoryStep]
    /// The step the room is on (the last one stepped to); nil before the first step.
    public var index: Int?
    /// Whether autoplay runs.
    public var playing = false
    /// Whether drivers may edit and step the storyboard (presenters always may).
    public var drivers = false

    public init(steps: [StoryStep] = [], index: Int? = nil, playing: Bool = false, drivers: Bool = false) {
        self.steps = steps
        self.index = index
        self.playing = playing
        self.drivers = drivers
    }

    /// The step the room is on, if any.
    public var current: StoryStep? { index.flatMap { steps.indices.contains($0) ? steps[$0] : nil } }

    /// What a joining client hears of it (`welcome.story`).
    public var summary: StorySummary {
        StorySummary(count: steps.count, index: index, title: current?.title, notes: current?.notes, playing: playing, drivers: drivers)
    }
}

/// `welcome.story`: the storyboard's length and the step the room is on.
public struct StorySummary: Hashable, Sendable {
    public var count: Int
    public var index: Int?
    public var title: String?
    public var notes: String?
    public var playing: Bool
    public var drivers: Bool

    public init(count: Int, index: Int?, title: String? = nil, notes: String? = nil, playing: Bool = false, drivers: Bool = false) {
        self.count = count
        self.index = index
        self.title = title
        self.notes = notes
        self.playing = playing
        self.drivers = drivers
    }
}

/// `story`: a change to the room's storyboard.
public struct StoryCommand: Hashable, Sendable {
    public enum Op: Hashable, Sendable {
        /// Replaces every step (the room is then on no step, autoplay stops).
        case set([StoryStep])
        /// Puts `steps` before step `at` (nil: at the end).
        case insert([StoryStep], at: Int?)
        /// Replaces step `index`.
        case update(StoryStep, at: Int)
        /// Moves step `from` to position `to`.
        case move(from: Int, to: Int)
        /// Takes step `index` out.
        case remove(at: Int)

        public var name: String {
            switch self {
            case .set: "set"
            case .insert: "insert"
            case .update: "update"
            case .move: "move"
            case .remove: "remove"
            }
        }
    }

    /// nil: only `drivers` changes.
    public var op: Op?
    /// Presenters only: whether drivers may edit and step (nil: unchanged).
    public var drivers: Bool?

    public init(op: Op?, drivers: Bool? = nil) {
        self.op = op
        self.drivers = drivers
    }
}

/// `step`: where the room goes in its storyboard.
public enum StepTarget: Hashable, Sendable {
    case next
    case previous
    /// Step `index` (from 0).
    case index(Int)
    /// Autoplay on (from the current step; the first when on none).
    case play
    /// Autoplay off (the move under way goes on).
    case pause

    /// The wire's `to`.
    public var name: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .index(let i): String(i)
        case .play: "play"
        case .pause: "pause"
        }
    }
}

/// `step` with the id its move's animation reports under (nil: `#<serial>`).
public struct StepCommand: Hashable, Sendable {
    public var to: StepTarget
    public var id: String?
    public init(to: StepTarget, id: String? = nil) {
        self.to = to
        self.id = id
    }
}

/// `storyStep`: the room went to step `index` (its move starts now), or
/// autoplay started or stopped on it (`playing`).
public struct StoryStepEvent: Hashable, Sendable {
    public var index: Int
    public var count: Int
    public var title: String?
    public var notes: String?
    /// The step's camera (where its move ends, before the room's limits).
    public var camera: Camera
    public var playing: Bool
    /// Who stepped (or started or stopped autoplay); nil: autoplay stopped on its own.
    public var by: String?

    public init(index: Int, count: Int, title: String?, notes: String?, camera: Camera, playing: Bool, by: String?) {
        self.index = index
        self.count = count
        self.title = title
        self.notes = notes
        self.camera = camera
        self.playing = playing
        self.by = by
    }

    /// The event for step `index` of `story`.
    public init(_ story: StoryState, index: Int, by: String?) {
        let step = story.steps[index]
        self.init(
            index: index, count: story.steps.count, title: step.title, notes: step.notes, camera: step.camera, playing: story.playing, by: by)
    }
}

/// `storyChanged`: the storyboard was edited (`op`) or who may step it changed.
public struct StoryChange: Hashable, Sendable {
    /// The edit (`set`, `insert`, `update`, `move`, `remove`); nil: only `drivers` changed.
    public var op: String?
    public var count: Int
    /// The step the room is on after the edit (nil: none), and its title and notes.
    public var index: Int?
    public var title: String?
    public var notes: String?
    public var playing: Bool
    public var drivers: Bool
    public var by: String?

    public init(
        op: String?, count: Int, index: Int?, title: String? = nil, notes: String? = nil, playing: Bool, drivers: Bool, by: String?
    ) {
        self.op = op
        self.count = count
        self.index = index
        self.title = title
        self.notes = notes
        self.playing = playing
        self.drivers = drivers
        self.by = by
    }
}
