import CameraCore

/// The storyboard's hub messages: `storyStep`, `storyChanged` and
/// `welcome.story`, written and read back.
extension JSONWriter {
    /// `storyStep`'s fields after `time`: index, count, title, notes (null when none), camera, playing, by.
    mutating func storyStep(_ e: StoryStepEvent) {
        raw(",\"index\":")
        integer(UInt64(e.index))
        raw(",\"count\":")
        integer(UInt64(e.count))
        raw(",\"title\":")
        string(e.title)
        raw(",\"notes\":")
        string(e.notes)
        raw(",\"camera\":")
        camera(e.camera)
        raw(",\"playing\":")
        bool(e.playing)
        raw(",\"by\":")
        string(e.by)
    }

    /// `storyChanged`'s fields after `time`: op (null: only drivers changed), count, index, title, notes, playing, drivers, by.
    mutating func storyChange(_ c: StoryChange) {
        raw(",\"op\":")
        string(c.op)
        raw(",\"count\":")
        integer(UInt64(c.count))
        raw(",\"index\":")
        index(c.index)
        raw(",\"title\":")
        string(c.title)
        raw(",\"notes\":")
        string(c.notes)
        raw(",\"playing\":")
        bool(c.playing)
        raw(",\"drivers\":")
        bool(c.drivers)
        raw(",\"by\":")
        string(c.by)
    }

    /// `{"count","index","title","notes","playing","drivers"}` (`index`, `title` and `notes` null when none).
    mutating func storySummary(_ s: StorySummary) {
        raw("{\"count\":")
        integer(UInt64(s.count))
        raw(",\"index\":")
        index(s.index)
        raw(",\"title\":")
        string(s.title)
        raw(",\"notes\":")
        string(s.notes)
        raw(",\"playing\":")
        bool(s.playing)
        raw(",\"drivers\":")
        bool(s.drivers)
        raw("}")
    }

    private mutating func index(_ i: Int?) {
        if let i { integer(UInt64(i)) } else { null() }
    }
}

extension WireReader {
    /// `storyStep`'s fields.
    func storyStepEvent() throws(DecodingError) -> StoryStepEvent {
        StoryStepEvent(
            index: try requiredInt("index"), count: try requiredInt("count"), title: try string("title"), notes: try string("notes"),
            camera: try camera("camera"), playing: try requiredBool("playing"), by: try string("by"))
    }

    /// `storyChanged`'s fields.
    func storyChange() throws(DecodingError) -> StoryChange {
        StoryChange(
            op: try string("op"), count: try requiredInt("count"), index: try optionalInt("index"), title: try string("title"),
            notes: try string("notes"), playing: try requiredBool("playing"), drivers: try requiredBool("drivers"), by: try string("by"))
    }

    /// `welcome.story`.
    func storySummary() throws(DecodingError) -> StorySummary {
        StorySummary(
            count: try requiredInt("count"), index: try optionalInt("index"), title: try string("title"), notes: try string("notes"),
            playing: try requiredBool("playing"), drivers: try requiredBool("drivers"))
    }

    private func optionalInt(_ key: String) throws(DecodingError) -> Int? {
        value(key) == nil ? nil : try requiredInt(key)
    }
}

/// The `result` of `query` `story`: the storyboard whole.
extension JSONWriter {
    /// `,"steps":[…],"index":…,"playing":…,"drivers":…` (`index` null when on no step).
    mutating func storyResult(_ s: StoryState) {
        raw(",\"steps\":")
        steps(s.steps)
        raw(",\"index\":")
        if let i = s.index { integer(UInt64(i)) } else { null() }
        raw(",\"playing\":")
        bool(s.playing)
        raw(",\"drivers\":")
        bool(s.drivers)
    }
}

extension WireReader {
    /// The storyboard of a `story` `result`, read through the same validation as a client's steps.
    func storyResult() throws(DecodingError) -> StoryState {
        do { return try StoryState.decode(FieldReader(object, ref: nil)) } catch { throw DecodingError(field: "", message: error.message) }
    }
}
