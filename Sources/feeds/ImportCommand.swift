import Aggregator
import FeedModel
import Foundation

/// `feeds import FILE.opml`.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "add the feeds of an OPML file to the sources file"
    static let help = """
    usage: feeds import [--allow-local] FILE.opml

    Adds every feed of the OPML file (outlines with xmlUrl) that the sources file does not list
    yet, with its title as name= and its folders and categories as tags=. A file with a DOCTYPE
    or entity declarations is refused.

    Only http:// and https:// feeds are imported: a local path or file:// URL in someone
    else's OPML would publish that file's contents in your digest. Each one skipped is named on
    standard error.

    options:
      --allow-local   import local paths and file:// URLs too (your own OPML file)
    """
    static let spec = Arguments.Spec(flags: ["--allow-local"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.count == 1 else { throw UsageError("give one OPML file", command: name) }
        let file = args.positionals[0]
        guard let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file) else {
            throw AggregatorError.cannotRead(path: file, reason: "no such file or not readable")
        }
        let imported = try OPML.parse(String(decoding: data, as: UTF8.self))
        let paths = try global.paths()
        let known = Set(try SourcesFile.read(path: paths.sourcesFile).map(\.url))
        let allowLocal = args.flag("--allow-local")
        var local = 0
        let fresh = imported.filter { entry in
            guard !known.contains(entry.url) && SourcesFile.isAcceptable(entry.url) else { return false }
            if entry.isFile && !allowLocal {
                Diagnostics.warning("skipped \(JSONText.quoted(entry.url)): a local file, not an http(s) feed (--allow-local imports it)")
                local += 1
                return false
            }
            return true
        }
        try SourcesFile.append(fresh, to: paths.sourcesFile)
        _ = try global.workspace()
        let skipped = local > 0 ? "\(local) local file\(local == 1 ? "" : "s") skipped, " : ""
        Output.standard.line("imported \(fresh.count) source\(fresh.count == 1 ? "" : "s") (\(skipped)\(imported.count - fresh.count - local) already listed or unusable) into \(paths.sourcesFile)")
        return .ok
    }
}
