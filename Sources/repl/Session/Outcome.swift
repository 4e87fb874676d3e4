import Layout

/// What one command produced: its JSON result, its text output, the visibility transitions it
/// caused, and whether the session should end.
struct Outcome {
    var result: JSON = .null
    /// Text-mode output; empty prints nothing.
    var text: String = ""
    var events: [VisibilityTransition] = []
    var quit = false

    init(result: JSON = .null, text: String = "", events: [VisibilityTransition] = [], quit: Bool = false) {
        self.result = result
        self.text = text
        self.events = events
        self.quit = quit
    }
}
