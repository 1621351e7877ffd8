import Foundation

/// The few calls the iCloud Drive carrier makes into the system: the seam between
/// ``UbiquityTransport``, which holds every rule (placeholders, downloads, create-once, waiting),
/// and the Apple binding (`AppleUbiquityService`, one short file that only Apple platforms
/// compile), or the simulated container that tests drive on Linux.
///
/// Nothing here decides anything: each requirement is one Foundation call or one coordinated
/// access, so that what cannot be tested on Linux stays a few lines long.
protocol UbiquityService: Sendable {
  /// The ubiquity container's folder, resolving it: slow (it may wait for iCloud), so never
  /// called on the main thread. Nil while iCloud Drive is off or the app has no container.
  func containerURL() -> URL?
  /// The signed-in iCloud account (`ubiquityIdentityToken`, archived to compare), or why there
  /// is none to carry files with, as far as the system tells.
  func identity() -> UbiquityIdentity
  /// A folder's items as the system lists them (`.NAME.icloud` placeholders included), each
  /// with whether its bytes are on this device. Empty when the folder is not there.
  func items(in folder: URL) -> [UbiquityItem]
  /// One item's state, without reading it.
  func status(of url: URL) -> UbiquityItem.Status
  /// Asks iCloud to download an item (`startDownloadingUbiquitousItem(at:)`); it arrives later.
  func startDownloading(_ url: URL) throws
  /// Runs `body` inside a coordinated read of `url` (`NSFileCoordinator`), with the URL to read.
  func coordinateReading<T>(_ url: URL, _ body: (URL) throws -> T) throws -> T
  /// Runs `body` inside a coordinated write (or, `deleting`, a coordinated deletion) of `url`.
  func coordinateWriting<T>(_ url: URL, deleting: Bool, _ body: (URL) throws -> T) throws -> T
  /// Starts telling of changes in the container `container` is in (a metadata query's updates,
  /// an account's change): `onChange` runs soon after, on no particular thread.
  func watch(_ container: URL, onChange: @escaping @Sendable () -> Void) -> UbiquityWatch
}

/// Who is signed in to iCloud, as the iCloud Drive carrier keeps it.
enum UbiquityIdentity: Equatable, Sendable {
  /// The account's identity token, as bytes to compare: the store records it, and carries
  /// nothing while another account is signed in.
  case signedIn(Data)
  /// No account to carry files with, and why.
  case unavailable(SyncStatus.UnavailableReason)
}

/// An item of a ubiquity container's folder.
struct UbiquityItem: Equatable, Sendable {
  enum Status: Equatable, Sendable {
    /// No item of that name.
    case absent
    /// Its bytes are here (current or not: a create-once file has one version).
    case downloaded
    /// It exists, whole, in iCloud; only its name is here (a dataless file, or a placeholder).
    case notDownloaded
  }
  var name: String
  var status: Status
}

/// A ``UbiquityService/watch(_:onChange:)`` until stopped.
final class UbiquityWatch: Sendable {
  private let end: @Sendable () -> Void
  init(stop: @escaping @Sendable () -> Void) { end = stop }
  /// Stops; returns once no call of the watch's callback is in progress.
  func stop() { end() }
}
