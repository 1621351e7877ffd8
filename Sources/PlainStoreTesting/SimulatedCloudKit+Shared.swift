import Foundation
import PlainStore

extension SimulatedCloudKit {
  /// What processes that share one simulated cloud share (``SimulatedCloudKit/init(sharedAt:requestLimit:recordSizeLimit:fetchBatchSize:now:)``):
  /// the server side. Devices, their events and pushes, and the faults a test asks for stay with
  /// the process that made them, as a phone's engine stays on the phone.
  struct Shared: Codable, Equatable {
    var now: Date
    var zones: [String: World.Zone]
    var generations: [String: Int]
    var throttledUntil: [String: Date]
    var quota: [String: Int]
  }

  /// Runs `body` on the world. With a shared file, under an exclusive lock of the file: the
  /// server side is read from it first and, if `body` changed it, written back (whole, at once)
  /// before another process may read it. A shared file that cannot be locked, read or written
  /// stops the process: a simulation that loses its server is a broken test, said at once.
  func withWorld<T: Sendable, E: Error>(_ body: (inout World) throws(E) -> T) throws(E) -> T {
    guard let sharedFile else { return try world.withLock { world throws(E) in try body(&world) } }
    let lock = open(sharedFile.path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    guard lock >= 0, flock(lock, LOCK_EX) == 0 else { fatalError("the shared simulated cloud: cannot lock \(sharedFile.path).lock") }
    defer { close(lock) }  // lets the lock go
    return try world.withLock { world throws(E) in
      do {
        if let data = try? Data(contentsOf: sharedFile) { world.shared = try JSONDecoder().decode(Shared.self, from: data) }
      } catch {
        fatalError("the shared simulated cloud: \(sharedFile.path) does not read: \(error)")
      }
      let before = world.shared
      let result = try body(&world)
      if world.shared != before {
        do { try JSONEncoder().encode(world.shared).write(to: sharedFile, options: .atomic) } catch {
          fatalError("the shared simulated cloud: \(sharedFile.path) cannot be written: \(error)")
        }
      }
      return result
    }
  }
}

extension SimulatedCloudKit.World {
  var shared: SimulatedCloudKit.Shared {
    get { SimulatedCloudKit.Shared(now: now, zones: zones, generations: generations, throttledUntil: throttledUntil, quota: quota) }
    set { (now, zones, generations, throttledUntil, quota) = (newValue.now, newValue.zones, newValue.generations, newValue.throttledUntil, newValue.quota) }
  }
}
