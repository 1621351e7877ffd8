import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A closed pipe is an error a write returns (EPIPE, see Output), not a signal that kills the
// tool before it can say how it ended.
signal(SIGPIPE, SIG_IGN)
exit(Babydash.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
