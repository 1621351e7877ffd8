#if canImport(Darwin)
  import Foundation

  /// iCloud Drive through Foundation: every call ``UbiquityTransport`` makes into the system,
  /// one Foundation call each, and nothing else. Linux type-checks this file against a stub of
  /// exactly these declarations (Scripts/check-apple-stub.sh); the rules it serves are tested
  /// through the simulated container.
  ///
  /// Folders are listed, with each item's download status, from the file system rather than
  /// from the metadata query's results: a listing is complete the moment it returns, where the
  /// query gathers in batches. The query is what tells of changes.
  struct AppleUbiquityService: UbiquityService {
    /// The container's identifier (`iCloud.com.example.app`); nil: the app's first one.
    let containerIdentifier: String?

    func containerURL() -> URL? {
      FileManager.default.url(forUbiquityContainerIdentifier: containerIdentifier)
    }

    func identity() -> UbiquityIdentity {
      // A nil token is "signed out" and "iCloud Drive off" alike: Foundation does not say which.
      guard let token = FileManager.default.ubiquityIdentityToken else { return .unavailable(.signedOutOrDriveOff) }
      // Archiving is Apple's way to keep a token for comparison. One that cannot be archived
      // stops the carrier: under a constant, every account would look the same.
      do {
        return .signedIn(try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true))
      } catch {
        return .unavailable(.accountUnreadable("iCloud's account token could not be archived: \(error.localizedDescription)"))
      }
    }

    func items(in folder: URL) -> [UbiquityItem] {
      let key = URLResourceKey.ubiquitousItemDownloadingStatusKey
      let urls = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [key], options: [])) ?? []
      return urls.map { UbiquityItem(name: $0.lastPathComponent, status: status(of: $0)) }
    }

    func status(of url: URL) -> UbiquityItem.Status {
      guard FileManager.default.fileExists(atPath: url.path) else { return .absent }
      let values = try? url.resourceValues(forKeys: [.ubiquitousItemDownloadingStatusKey])
      return values?.ubiquitousItemDownloadingStatus == .notDownloaded ? .notDownloaded : .downloaded
    }

    func startDownloading(_ url: URL) throws {
      try FileManager.default.startDownloadingUbiquitousItem(at: url)
    }

    func coordinateReading<T>(_ url: URL, _ body: (URL) throws -> T) throws -> T {
      var failure: NSError?
      var result: Result<T, any Error>?
      NSFileCoordinator(filePresenter: nil).coordinate(readingItemAt: url, options: [.withoutChanges], error: &failure) { url in
        result = Result { try body(url) }
      }
      if let failure { throw failure }
      return try result!.get()
    }

    func coordinateWriting<T>(_ url: URL, deleting: Bool, _ body: (URL) throws -> T) throws -> T {
      var failure: NSError?
      var result: Result<T, any Error>?
      NSFileCoordinator(filePresenter: nil).coordinate(writingItemAt: url, options: deleting ? [.forDeleting] : [], error: &failure) { url in
        result = Result { try body(url) }
      }
      if let failure { throw failure }
      return try result!.get()
    }

    func watch(_ container: URL, onChange: @escaping @Sendable () -> Void) -> UbiquityWatch {
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      let query = MetadataQuery()
      query.value.operationQueue = queue
      query.value.searchScopes = [NSMetadataQueryUbiquitousDataScope]
      query.value.predicate = NSPredicate(format: "%K LIKE %@", NSMetadataItemFSNameKey, "*")
      let center = NotificationCenter.default
      var observers = [NSNotification.Name.NSMetadataQueryDidFinishGathering, .NSMetadataQueryDidUpdate].map {
        center.addObserver(forName: $0, object: query.value, queue: queue) { _ in onChange() }
      }
      observers.append(center.addObserver(forName: .NSUbiquityIdentityDidChange, object: nil, queue: queue) { _ in onChange() })
      let tokens = observers.map(ObserverToken.init)
      queue.addOperation { _ = query.value.start() }  // a query starts and stops on its own queue
      return UbiquityWatch {
        for token in tokens { NotificationCenter.default.removeObserver(token.value) }
        queue.addOperation { query.value.stop() }
        queue.waitUntilAllOperationsAreFinished()
      }
    }

    /// The query, touched only on its operation queue (and set up before the queue runs).
    private final class MetadataQuery: @unchecked Sendable {
      let value = NSMetadataQuery()
    }

    /// An observer's token, only handed back to the notification center.
    private struct ObserverToken: @unchecked Sendable {
      let value: any NSObjectProtocol
    }
  }
#endif
