import Aggregator
import FeedModel
import Foundation
import Markup
import Storage

/// `feeds sources`: each source with its state.
enum SourcesCommand: Command {
    static let name = "sources"
    static let summary = "list the sources with their state (last fetch, error, next due, cards)"
    static let help = """
    usage: feeds sources [--json] [--cards N] [--tag TAG]

    Lists the sources of the sources file in order, with the state of each: last fetch, last
    error, next due time (UTC), the number of saved cards (unread in parentheses), and for a
    source with skip= or keep= rules the cards they kept out (in the last fetch, and in all).

    options:
      --json       one JSON array of objects
      --cards N    also list the N newest saved cards of each source
      --tag TAG    only sources with this tag (case aside: tech finds Tech)
    """
    static let spec = Arguments.Spec(valued: ["--cards", "--tag"], flags: ["--json"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        ProcessMemory.tuneForShortListing()
        // By index: no copy of 5,000 stored sources into pairs (see `PairedSources`); read once
        // for both the sync and the listing.
        let (workspace, paired) = try global.listingWorkspace()
        // The command ends with the listing: its 5,000 sources are left to the exit.
        defer { ProcessMemory.keepUntilExit(paired) }
        let orphans = paired.orphans.map { paired.stored[$0] }
        var sources = paired.listed
        if let tag = args.value("--tag") { sources = sources.filter { TagMatch.matches(paired.entries[$0.entry].tags, tag) } }
        let out = Output.standard
        var cardsEach = 0
        if let text = args.value("--cards") {
            guard let n = Int(text), n >= 0 else { throw UsageError("--cards needs a number, got '\(text)'", command: name) }
            cardsEach = n
        }
        if args.flag("--json") {
            out.write("[")
            for (i, pair) in sources.enumerated() {
                if i > 0 { out.write(",") }
                var w = JSONObjectWriter()
                let (entry, st) = (paired.entries[pair.entry], paired.stored[pair.stored])
                w.text("url", entry.url)
                w.text("name", st.displayName)
                w.text("fetchURL", st.fetchURL)
                w.texts("tags", entry.tags)
                w.number("every", entry.everySeconds)
                w.date("lastAttempt", st.lastAttemptAt)
                w.date("lastSuccess", st.lastSuccessAt)
                w.text("lastError", st.lastError)
                w.text("degraded", st.degraded)
                w.number("failures", st.consecutiveFailures)
                w.date("nextDue", st.nextDueAt)
                w.text("disabled", st.disabledReason)
                w.text("isolated", st.isolatedReason)
                w.number("cards", st.cardCount)
                w.number("unread", st.unreadCount)
                w.number("skipped", st.skippedLastFetch)
                w.number("skippedTotal", st.skippedTotal)
                out.write("\n" + w.finish())
            }
            out.write("\n]\n")
            return .ok
        }
        defer {
            if !orphans.isEmpty {
                out.line("\(orphans.count) source\(orphans.count == 1 ? "" : "s") in the database but not in \(workspace.paths.sourcesFile) (not fetched; cards kept): "
                         + orphans.map { $0.configuration.url }.joined(separator: " ") + " — 'feeds remove URL' deletes them")
            }
        }
        if sources.isEmpty, let tag = args.value("--tag") {
            out.line("no source has the tag \(tag) (tags are on the lines of \(workspace.paths.sourcesFile))")
            return .ok
        }
        if sources.isEmpty {
            out.line("no sources yet: add one with 'feeds add URL' (sources file: \(workspace.paths.sourcesFile))")
            return .ok
        }
        for pair in sources {
            let (entry, st) = (paired.entries[pair.entry], paired.stored[pair.stored])
            // Three lines a source, written on bytes: with 5,000 sources their strings were a
            // third of the command's instructions. The name and URLs are neutralised as `line`
            // does; the state line is our own text (counts, dates, words).
            out.line { TerminalText.appendLine(st.displayName, to: &$0) }
            out.line { s in
                s.append(contentsOf: "  " as StaticString)
                TerminalText.appendLine(entry.url, to: &s)
                if let fetchURL = st.fetchURL {
                    s.append(contentsOf: " -> " as StaticString)
                    TerminalText.appendLine(fetchURL, to: &s)
                }
            }
            out.line { s in
                s.append(contentsOf: "  cards " as StaticString)
                s.appendDecimal(st.cardCount)
                s.append(contentsOf: " (" as StaticString)
                s.appendDecimal(st.unreadCount)
                s.append(contentsOf: " unread) · last fetch " as StaticString)
                Terminal.appendTime(st.lastAttemptAt, to: &s)
                if st.isDisabled {
                    s.append(contentsOf: " · DISABLED" as StaticString)
                } else {
                    s.append(contentsOf: " · next due " as StaticString)
                    if let due = st.nextDueAt { Terminal.appendTime(due, to: &s) } else { s.append(contentsOf: "now" as StaticString) }
                }
            }
            if !entry.rules.isEmpty || st.skippedTotal > 0 {
                let rules = entry.rules.map { "\($0.action.rawValue)=\($0.written)\($0.isGlobal ? " (global)" : "")" }.joined(separator: " ")
                out.line("  skipped \(st.skippedLastFetch) in the last fetch, \(st.skippedTotal) in all" + (rules.isEmpty ? "" : " · " + rules))
            }
            if let error = st.lastError {
                out.line("  error (\(st.consecutiveFailures)x): " + error)
            }
            if let why = st.isolatedReason {
                out.line("  fetched last and alone, in a process of its own: " + why)
            }
            if let degraded = st.degraded {
                out.line("  degraded (until a clean fetch): " + degraded)
            }
            if cardsEach > 0 {
                for c in try workspace.updateStore.cards(CardQuery(sourceID: st.id, limit: cardsEach), order: .default) {
                    out.line("    * " + Terminal.time(c.sortDate) + "  " + c.card.displayTitle(plainText: { HTMLText.plainText($0) }))
                }
            }
        }
        return .ok
    }
}
