import Foundation

// The entry point: everything else is in CLI.swift and one file per subcommand.
signal(SIGPIPE, SIG_IGN)
exit(CLI.runMain(CommandLine.arguments).rawValue)
