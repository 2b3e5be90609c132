import Aggregator
import FeedModel
import Foundation
import ImageCache

/// `feeds cache stats|prune|clear`: the image cache.
enum CacheCommand: Command {
    static let name = "cache"
    static let summary = "show, prune or clear the image cache"
    static let help = """
    usage: feeds cache stats|prune|clear

    The image cache keeps the pictures of cards for 'feeds html' under the cache folder
    (DIR/cache/images with --home DIR), with its metadata in the database (the home's, or
    the PostgreSQL one of --database: run it on the machine that writes the HTML site, whose
    cache folder holds the files).

      stats   images, bytes, expired images, failed URLs and how many are backing off
      prune   delete expired images, old failures, and least recently used images beyond
              the total cap
      clear   delete every cached image and every remembered failure
    """
    static let spec = Arguments.Spec()

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.count == 1, let action = args.positionals.first else {
            throw UsageError("cache needs one of stats, prune, clear", command: name)
        }
        let now = UpdateRunner.systemClock()
        let workspace = try global.workspace()
        let cache = try workspace.imageCache()
        switch action {
        case "stats":
            let s = try cache.stats(now: now)
            Output.standard.line("images: \(s.images) (\(s.bytes) bytes, \(s.expired) expired)")
            Output.standard.line("failed URLs: \(s.failures) (\(s.backingOff) backing off)")
            if s.leftOut > 0 { Output.standard.line("left out, cache full: \(s.leftOut) (fetched again once they fit)") }
            Output.standard.line("folder: \(cache.directory)")
        case "prune":
            Output.standard.line("pruned \(try cache.evict(now: now, expired: true)) entries")
        case "clear":
            Output.standard.line("cleared \(try cache.clear()) entries")
        default:
            throw UsageError("unknown cache action '\(action)': use stats, prune or clear", command: name)
        }
        return .ok
    }
}
