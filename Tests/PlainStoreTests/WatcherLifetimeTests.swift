import Foundation
import Testing

@testable import PlainStore

/// A container that watches its folder lets its store go with it: the store's memory is freed
/// on the thread that lets the container go, when it does, not later on the watcher's thread
/// beside whatever the app does next.
@Suite struct WatcherLifetimeTests {
  @Test func aWatchingContainersStoreGoesWhenTheContainerGoes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreWatcher-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    weak var store: StoreCoordinator?
    do {
      let container = try StoreContainer.file(at: folder.appendingPathComponent("Family.store"), schema: TestSchema.v1, options: Sample.options)
      store = container.coordinator
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
      #expect(store != nil)
    }
    #expect(store == nil, "the watcher's thread held the store after its container was let go")
  }
}
