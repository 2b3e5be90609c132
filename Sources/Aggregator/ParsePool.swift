import FeedModel
import FeedParsing
import Foundation
import Markup
import Storage

/// Parses feed bodies on worker threads while the thread that owns the fetcher and the store
/// keeps downloading and writing: on two cores a cold update's parsing and sanitizing (about
/// half its work) overlaps with the SQLite writes instead of adding to them.
///
/// One writer stays: workers only turn bytes into cards (`FeedParser` holds no shared state);
/// the results come back to the owning thread, which saves each source in its own transaction.
/// Memory stays bounded: at most `capacity` bodies are handed over and not yet taken back
/// (`submit` returns false when full: take a result first).
final class ParsePool: @unchecked Sendable {
    /// One body to parse; `id` comes back with the outcome.
    struct Job: Sendable {
        var id: Int64
        var body: [UInt8]
        var options: ParseOptions
        /// Cards kept at most: the first ones in the document's order (`max-items=`).
        var maxItems = Int.max
        /// The source's `skip=`/`keep=` rules, applied to each card as it is parsed.
        var rules: [CardRule] = []
    }

    /// What a source's rules did to one document.
    struct RuleTally: Sendable {
        /// Cards the rules kept from being saved.
        var skipped = 0
        /// The rules' time budget ran out: the rest of the document's cards were saved unfiltered.
        var stopped = false
    }

    enum Outcome: Sendable {
        /// The feed (its `cards` empty: they are in `prepared`), the number of cards kept, those
        /// cards ready to save (search text included), and how many more the document had past
        /// the job's `maxItems` (parsed, checked, not kept).
        case parsed(ParsedFeed, cardCount: Int, prepared: PreparedCards, dropped: Int, rules: RuleTally = RuleTally())
        /// The parser's error message.
        case failed(String)
    }

    let capacity: Int
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var results: [(id: Int64, outcome: Outcome)] = []
    private var outstanding = 0
    private var outstandingBytes = 0
    private var bytesByID: [Int64: Int] = [:]
    private var closing = false
    private var threads: [Thread] = []
    private var running = 0
    /// Called (on a worker thread) after each result is ready, to wake the owning thread.
    private let onResult: @Sendable () -> Void

    /// `workers` threads; `capacity` bodies handed over at most (at least `workers`).
    init(workers: Int, capacity: Int, onResult: @escaping @Sendable () -> Void) {
        self.capacity = max(capacity, workers, 1)
        self.onResult = onResult
        for n in 0..<max(1, workers) {
            let thread = Thread { [self] in work() }
            thread.name = "feeds-parse-\(n)"
            // Parsing is recursive over the document's nesting (bounded by the parser's depth
            // limit); the libxml2 contexts want more than the default 512 KiB of a secondary thread.
            thread.stackSize = 8 << 20
            threads.append(thread)
        }
        running = threads.count
        for thread in threads { thread.start() }
    }

    /// Hands `job` to the workers; false (and nothing done) when `capacity` bodies are already
    /// out: take a result with `next` first.
    func submit(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        precondition(!closing, "ParsePool: submit after close")
        guard outstanding < capacity else { return false }
        outstanding += 1
        outstandingBytes += job.body.count
        bytesByID[job.id, default: 0] += job.body.count
        jobs.append(job)
        condition.broadcast()
        return true
    }

    /// Bodies handed over whose result has not been taken yet, and their bytes (what they,
    /// and then their cards, hold in memory, roughly).
    var pending: (count: Int, bytes: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (outstanding, outstandingBytes)
    }

    /// A finished result, in the order they finished; nil when none is ready (`wait: false`),
    /// or when nothing is outstanding at all.
    func next(wait: Bool) -> (id: Int64, outcome: Outcome)? {
        condition.lock()
        defer { condition.unlock() }
        while results.isEmpty {
            guard wait, outstanding > 0 else { return nil }
            condition.wait()
        }
        outstanding -= 1
        let result = results.removeFirst()
        outstandingBytes -= bytesByID.removeValue(forKey: result.id) ?? 0
        return result
    }

    /// Stops the workers once the jobs handed over are parsed, and waits for them to exit.
    /// Results not taken are dropped.
    func close() {
        condition.lock()
        closing = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        // Each thread's block holds the pool: letting go of the threads breaks that cycle, or
        // the pool and its buffers outlive the run (LeakSanitizer, `make test-sanitizers`).
        threads = []
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            if let job = jobs.first {
                jobs.removeFirst()
                condition.unlock()
                let outcome = Self.parse(job)
                condition.lock()
                results.append((job.id, outcome))
                condition.broadcast()
                onResult()
            } else if closing {
                break
            } else {
                condition.wait()
            }
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Parses a body and prepares its cards for saving (keys, hashes, search text): everything
    /// but the writing.
    static func parse(_ job: Job) -> Outcome {
        do {
            // Streamed, keeping the first `maxItems` cards only: a document of a million items
            // never holds a million cards (the parser itself keeps one item at a time).
            var cards: [Card] = []
            var dropped = 0
            let filter = CardRuleFilter(job.rules)
            let parser = FeedStreamParser(options: job.options) { card in
                // Rules first, so the cards kept fill max-items.
                if let filter, !filter.admits(card) { return }
                if cards.count < job.maxItems { cards.append(card) } else { dropped += 1 }
            }
            try parser.push(job.body)
            let summary = try parser.finish()
            let feed = ParsedFeed(feed: summary.feed, cards: [], format: summary.format, warnings: summary.warnings,
                                  degraded: summary.damage?.description)
            let prepared = PreparedCards(cards, descriptionText: Workspace.searchText)
            return .parsed(feed, cardCount: cards.count, prepared: prepared, dropped: dropped,
                           rules: RuleTally(skipped: filter?.skipped ?? 0, stopped: filter?.stopped ?? false))
        } catch {
            return .failed(error.localizedDescription)
        }
    }
}
