/// The sources file as read: the lines that read, and why each other line does not. A bad line
/// is skipped, not fatal: every command reports it (file:line and why), `update` still fetches
/// the other sources and exits 1, and the reading commands go on.
public struct SourcesListing: Sendable, Equatable {
    /// One line that does not read.
    public struct Problem: Sendable, Equatable {
        /// `.sourcesFile(path, line, reason)`.
        public var error: AggregatorError
        /// The URL (or search identity) the line starts with, when it has one: that source's
        /// cards are not orphans, only its line is broken.
        public var identity: String?
    }

    /// Whether the file is there at all (a missing file is no sources, and says so).
    public var exists: Bool
    public var entries: [SourceEntry] = []
    public var problems: [Problem] = []

    public init(exists: Bool, entries: [SourceEntry] = [], problems: [Problem] = []) {
        self.exists = exists
        self.entries = entries
        self.problems = problems
    }
}
