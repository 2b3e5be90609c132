import Aggregator
import Foundation

/// `feeds add URL`: appends a line to the sources file.
enum AddCommand: Command {
    static let name = "add"
    static let summary = "add a source to the sources file"
    static let help = """
    usage: feeds add URL|PATH [--name NAME] [--tags a,b] [--every 30m]

    Appends one line to the sources file (see README for its format). The source is fetched by
    the next 'feeds update'.

    options:
      --name NAME     display name (default: the feed's own title)
      --tags a,b      comma-separated tags
      --every 30m     refresh interval (s, m, h, d, w); default: the feed's own hints
    """
    static let spec = Arguments.Spec(valued: ["--name", "--tags", "--every"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.count == 1 else {
            throw UsageError(args.positionals.isEmpty ? "no URL given" : "one URL at a time", command: name)
        }
        var line = SourcesFile.quoteIfNeededForURL(args.positionals[0])
        if let n = args.value("--name") { line += " name=" + SourcesFile.quoteIfNeeded(n) }
        if let t = args.value("--tags") { line += " tags=" + SourcesFile.quoteIfNeeded(t) }
        if let e = args.value("--every") {
            guard Interval.parse(e) != nil else { throw UsageError("--every \(e) is not an interval: write like 30m, 2h or 1d", command: name) }
            line += " every=" + e
        }
        // Parse the line as the file would, so add never writes what read would refuse.
        guard let entry = try SourcesFile.parse(line, path: "argument").first else { throw UsageError("no URL given", command: name) }
        let paths = try global.paths()
        if try SourcesFile.read(path: paths.sourcesFile).contains(where: { $0.url == entry.url }) {
            Diagnostics.error("\(entry.url) is already in \(paths.sourcesFile)")
            return .usage
        }
        try SourcesFile.append([entry], to: paths.sourcesFile)
        _ = try global.workspace()
        Output.standard.line("added \(entry.url) to \(paths.sourcesFile)")
        return .ok
    }
}
