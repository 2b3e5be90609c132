import Fetching
import Foundation

// The entry point: everything else is in CLI.swift and one file per subcommand.
signal(SIGPIPE, SIG_IGN)
let status = CLI.runMain(CommandLine.arguments)
// `feeds update` loads libcurl on a thread of its own: exit handlers must not run beside it.
Fetcher.finishLoadingLibrary()
exit(status.rawValue)
