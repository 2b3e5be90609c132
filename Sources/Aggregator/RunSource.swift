import FeedModel
import Storage

/// A source as an update run works on it, from its request to its outcome: its line of the
/// sources file and its `RunState`.
typealias RunSource = (entry: SourceEntry, stored: RunState)

extension UpdateRunner {
    /// `source` as the run works on it.
    static func running(_ source: (entry: SourceEntry, stored: StoredSource)) -> RunSource {
        (source.entry, RunState(source.stored))
    }
}

/// What an update run holds of each chosen source for its whole length: where its line is in
/// the sources file's entries (which the workspace holds anyway) and its id; 16 bytes, where a
/// copy of its entry and its `RunState` were ~400 bytes and their strings (issue 21: 5,000
/// feeds held 2 MB of them to the end of the run).
struct RunSlot {
    /// The index of the source's line in `Workspace.entries`.
    let entry: Int
    let id: SourceID
}

/// Where a run finds each chosen source's `RunState` (by its position in the run) when its
/// request is made, and keeps it until the source's outcome is recorded (`take`).
/// Used on the run's one saving thread only.
final class RunStates {
    /// Read with the selection and held for the run (PostgreSQL, where a read per source would
    /// be a round trip each; a worker's batch is a hundred or so); nil: read from `store`.
    private let held: [RunState]?
    private let store: FeedStore?
    /// The recorded redirect targets by source URL (few), for `fetchURL` before a state is read.
    private let fetchURLs: [String: String]
    /// The states read for requests made and not yet taken (the transfers running, about).
    private var reading: [Int: RunState] = [:]

    init(held: [RunState]?, store: FeedStore?, fetchURLs: [String: String]) {
        (self.held, self.store, self.fetchURLs) = (held, store, fetchURLs)
    }

    /// How many states are read and not yet taken (tests: the run holds them only in flight).
    var readingCount: Int { reading.count }

    /// The state of the source at `position`, read when first asked for.
    func state(_ position: Int, _ slot: RunSlot, entry: SourceEntry) -> RunState {
        if let held { return held[position] }
        if let state = reading[position] { return state }
        // A source gone from the store since the run chose it (`feeds remove` does not wait for
        // the run): what the run knew of it without its row; its save fails and says so.
        let state = (try? store?.runState(of: slot.id)) ?? nil
            ?? RunState(id: slot.id, displayName: entry.name ?? entry.url, hasFeedTitle: false, refreshHintSeconds: nil,
                        fetchURL: nil, validators: CacheValidators(), degraded: nil, consecutiveFailures: 0)
        reading[position] = state
        return state
    }

    /// The state of the source at `position`, let go of here: its outcome is being recorded.
    func take(_ position: Int, _ slot: RunSlot, entry: SourceEntry) -> RunState {
        if let held { return held[position] }
        let state = state(position, slot, entry: entry)
        reading[position] = nil
        return state
    }

    /// Where the source at `position` is fetched after a permanent redirect, without reading its state.
    func fetchURL(_ position: Int, entry: SourceEntry) -> String? {
        if let held { return held[position].fetchURL }
        return reading[position]?.fetchURL ?? fetchURLs[entry.url]
    }
}
