import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// I/O faults injected into `babydash` by an LD_PRELOAD shim (Scripts/fault-shim.c, built with
/// the toolchain's clang at run time): the Nth write, fsync, rename, unlink, open-for-writing or
/// mkdir under the app group fails with EIO or ENOSPC, one fault per run.
struct FaultInjection: Sendable {
  /// One call of a kind, as the shim counts them: the `nth` call of `operation`.
  struct Point: Sendable, Hashable {
    var operation: String
    var nth: Int
    var path: String
  }

  let shim: URL

  /// Builds the shim into `folder`; nil (with the reason) where it cannot be built or loaded.
  static func build(into folder: URL) throws -> Result<FaultInjection, SkipReason> {
    #if os(Linux)
      let source = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/fault-shim.c")
      let shim = folder.appendingPathComponent("fault-shim.so")
      let compilers = ["/usr/bin/clang", "/opt/swift/usr/bin/clang"] + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { "\($0)/clang" }
      guard let clang = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        return .failure(SkipReason("no clang on this machine to build the LD_PRELOAD shim"))
      }
      let result = try TimedProcess.run(
        URL(fileURLWithPath: clang), ["-shared", "-fPIC", "-O1", "-o", shim.path, source.path, "-ldl"], environment: [:],
        scratch: folder, timeout: 120)
      guard result.status == 0 else { return .failure(SkipReason("clang could not build the shim: \(result.stderr)")) }
      return .success(FaultInjection(shim: shim))
    #else
      return .failure(SkipReason("LD_PRELOAD shims are Linux-only"))
    #endif
  }

  struct SkipReason: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The file-system calls `babydash arguments` makes under `group`: every place a fault can go.
  func points(_ group: URL, _ arguments: [String], scratch: URL) throws -> [Point] {
    let log = scratch.appendingPathComponent("calls-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: log) }
    _ = try run(group, arguments, scratch: scratch, extra: ["FAULT_LOG": log.path])
    let lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n") ?? []
    var counts: [String: Int] = [:]
    return lines.map { line in
      let operation = String(line.prefix { $0 != " " })
      counts[operation, default: 0] += 1
      return Point(operation: operation, nth: counts[operation]!, path: String(line.dropFirst(operation.count + 1)))
    }
  }

  /// Runs `babydash arguments` on `group`; with `fault`, that call fails with `errno`.
  /// Returns the result and whether the fault was hit.
  func run(_ group: URL, _ arguments: [String], scratch: URL, fault: Point? = nil, errno code: Int32 = EIO, extra: [String: String] = [:])
    throws -> (TimedProcess.Result, Bool)
  {
    let hit = scratch.appendingPathComponent("hit-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: hit) }
    var environment = extra
    environment["LD_PRELOAD"] = shim.path
    environment["FAULT_ROOT"] = Self.realPath(group)
    environment["BABYDASH_APP_GROUP"] = group.path
    environment["BABYDASH_DEVICE_NAME"] = DamageMatrix.deviceName
    if let fault {
      environment["FAULT_OP"] = fault.operation
      environment["FAULT_NTH"] = String(fault.nth)
      environment["FAULT_ERRNO"] = String(code)
      environment["FAULT_HIT"] = hit.path
    }
    let result = try TimedProcess.run(
      BabydashProcess.executable, arguments, environment: environment, scratch: scratch, timeout: DamageMatrix.deadline)
    return (result, FileManager.default.fileExists(atPath: hit.path))
  }

  static func realPath(_ url: URL) -> String {
    guard let resolved = realpath(url.path, nil) else { return url.path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
