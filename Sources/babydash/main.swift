import Foundation

exit(Babydash.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
