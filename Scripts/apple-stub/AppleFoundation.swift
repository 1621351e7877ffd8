// The Apple declarations that the Apple binding files (Sources/PlainStore/Internal/Apple/) use,
// and nothing else, as Apple's documentation declares them (the page beside each). Linux's
// swift-corelibs-foundation has none of them; Scripts/check-apple-stub.sh type-checks the Apple
// files against this file, and proves each declaration is used and is missing on Linux.
//
// Each declaration ends with `// uses: TEXT | probe: EXPRESSION`: TEXT must appear in the Apple
// files, and EXPRESSION must NOT compile against Linux's Foundation alone.
// Bodies are never run: this file is only type-checked.
import Foundation

// https://developer.apple.com/documentation/foundation/filemanager/url(forubiquitycontaineridentifier:)
// https://developer.apple.com/documentation/foundation/filemanager/ubiquityidentitytoken
// https://developer.apple.com/documentation/foundation/filemanager/startdownloadingubiquitousitem(at:)
extension FileManager {
  func url(forUbiquityContainerIdentifier containerIdentifier: String?) -> URL? { fatalError() }  // uses: url(forUbiquityContainerIdentifier: | probe: FileManager.default.url(forUbiquityContainerIdentifier: nil)
  var ubiquityIdentityToken: (any NSCoding & NSCopying & NSObjectProtocol)? { fatalError() }  // uses: ubiquityIdentityToken | probe: FileManager.default.ubiquityIdentityToken
  func startDownloadingUbiquitousItem(at url: URL) throws { fatalError() }  // uses: startDownloadingUbiquitousItem(at: | probe: try? FileManager.default.startDownloadingUbiquitousItem(at: URL(fileURLWithPath: "/"))
}

// https://developer.apple.com/documentation/foundation/urlubiquitousitemdownloadingstatus
struct URLUbiquitousItemDownloadingStatus: Hashable, RawRepresentable, Sendable {  // uses: .notDownloaded | probe: URLUbiquitousItemDownloadingStatus.self
  init(rawValue: String) { self.rawValue = rawValue }
  let rawValue: String
  // https://developer.apple.com/documentation/foundation/urlubiquitousitemdownloadingstatus/notdownloaded
  static let notDownloaded = URLUbiquitousItemDownloadingStatus(rawValue: "NSURLUbiquitousItemDownloadingStatusNotDownloaded")  // uses: .notDownloaded | probe: URLUbiquitousItemDownloadingStatus.notDownloaded
}

// https://developer.apple.com/documentation/foundation/urlresourcevalues/ubiquitousitemdownloadingstatus
extension URLResourceValues {
  var ubiquitousItemDownloadingStatus: URLUbiquitousItemDownloadingStatus? { fatalError() }  // uses: .ubiquitousItemDownloadingStatus | probe: URLResourceValues().ubiquitousItemDownloadingStatus
}

// https://developer.apple.com/documentation/foundation/nserrorpointer
// Apple: AutoreleasingUnsafeMutablePointer<NSError?>?, which only an Objective-C runtime has;
// `&error` passes to this one as to Apple's.
typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?  // uses: error: & | probe: NSErrorPointer.self

// https://developer.apple.com/documentation/foundation/nsfilepresenter
protocol NSFilePresenter: NSObjectProtocol {}  // uses: filePresenter: nil | probe: (any NSFilePresenter).self

// https://developer.apple.com/documentation/foundation/nsfilecoordinator
class NSFileCoordinator: NSObject {  // uses: NSFileCoordinator( | probe: NSFileCoordinator.self
  // https://developer.apple.com/documentation/foundation/nsfilecoordinator/init(filepresenter:)
  init(filePresenter filePresenterOrNil: (any NSFilePresenter)?) {}  // uses: NSFileCoordinator(filePresenter: | probe: NSFileCoordinator(filePresenter: nil)

  // https://developer.apple.com/documentation/foundation/nsfilecoordinator/readingoptions
  struct ReadingOptions: OptionSet, Sendable {  // uses: .withoutChanges | probe: NSFileCoordinator.ReadingOptions.self
    let rawValue: UInt
    init(rawValue: UInt) { self.rawValue = rawValue }
    // https://developer.apple.com/documentation/foundation/nsfilecoordinator/readingoptions/withoutchanges
    static var withoutChanges: NSFileCoordinator.ReadingOptions { ReadingOptions(rawValue: 1) }  // uses: .withoutChanges | probe: NSFileCoordinator.ReadingOptions.withoutChanges
  }

  // https://developer.apple.com/documentation/foundation/nsfilecoordinator/writingoptions
  struct WritingOptions: OptionSet, Sendable {  // uses: .forDeleting | probe: NSFileCoordinator.WritingOptions.self
    let rawValue: UInt
    init(rawValue: UInt) { self.rawValue = rawValue }
    // https://developer.apple.com/documentation/foundation/nsfilecoordinator/writingoptions/fordeleting
    static var forDeleting: NSFileCoordinator.WritingOptions { WritingOptions(rawValue: 1) }  // uses: .forDeleting | probe: NSFileCoordinator.WritingOptions.forDeleting
  }

  // https://developer.apple.com/documentation/foundation/nsfilecoordinator/coordinate(readingitemat:options:error:byaccessor:)
  func coordinate(readingItemAt url: URL, options: NSFileCoordinator.ReadingOptions = [], error outError: NSErrorPointer, byAccessor reader: (URL) -> Void) {}  // uses: coordinate(readingItemAt: | probe: NSFileCoordinator.coordinate(readingItemAt:options:error:byAccessor:)
  // https://developer.apple.com/documentation/foundation/nsfilecoordinator/coordinate(writingitemat:options:error:byaccessor:)
  func coordinate(writingItemAt url: URL, options: NSFileCoordinator.WritingOptions = [], error outError: NSErrorPointer, byAccessor writer: (URL) -> Void) {}  // uses: coordinate(writingItemAt: | probe: NSFileCoordinator.coordinate(writingItemAt:options:error:byAccessor:)
}

// https://developer.apple.com/documentation/foundation/nsmetadataquery
class NSMetadataQuery: NSObject {  // uses: NSMetadataQuery() | probe: NSMetadataQuery.self
  override init() {}
  // https://developer.apple.com/documentation/foundation/nsmetadataquery/operationqueue
  var operationQueue: OperationQueue?  // uses: .operationQueue = | probe: NSMetadataQuery().operationQueue
  // https://developer.apple.com/documentation/foundation/nsmetadataquery/searchscopes
  var searchScopes: [Any] = []  // uses: .searchScopes = | probe: NSMetadataQuery().searchScopes
  // https://developer.apple.com/documentation/foundation/nsmetadataquery/predicate
  var predicate: NSPredicate?  // uses: .predicate = | probe: NSMetadataQuery().predicate
  // https://developer.apple.com/documentation/foundation/nsmetadataquery/start()
  func start() -> Bool { fatalError() }  // uses: .start() | probe: NSMetadataQuery().start()
  // https://developer.apple.com/documentation/foundation/nsmetadataquery/stop()
  func stop() {}  // uses: .stop() | probe: NSMetadataQuery().stop()
}

// https://developer.apple.com/documentation/foundation/nsmetadataqueryubiquitousdatascope
let NSMetadataQueryUbiquitousDataScope: String = ""  // uses: NSMetadataQueryUbiquitousDataScope | probe: NSMetadataQueryUbiquitousDataScope
// https://developer.apple.com/documentation/foundation/nsmetadataitemfsnamekey
let NSMetadataItemFSNameKey: String = ""  // uses: NSMetadataItemFSNameKey | probe: NSMetadataItemFSNameKey

// https://developer.apple.com/documentation/foundation/nspredicate/init(format:_:)
extension NSPredicate {
  convenience init(format predicateFormat: String, _ args: any CVarArg...) { fatalError() }  // uses: NSPredicate(format: | probe: NSPredicate(format: "%K", "a")
}

extension NSNotification.Name {
  // https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsmetadataquerydidfinishgathering
  static let NSMetadataQueryDidFinishGathering = NSNotification.Name("NSMetadataQueryDidFinishGatheringNotification")  // uses: .NSMetadataQueryDidFinishGathering | probe: NSNotification.Name.NSMetadataQueryDidFinishGathering
  // https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsmetadataquerydidupdate
  static let NSMetadataQueryDidUpdate = NSNotification.Name("NSMetadataQueryDidUpdateNotification")  // uses: .NSMetadataQueryDidUpdate | probe: NSNotification.Name.NSMetadataQueryDidUpdate
  // https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsubiquityidentitydidchange
  static let NSUbiquityIdentityDidChange = NSNotification.Name("NSUbiquityIdentityDidChangeNotification")  // uses: .NSUbiquityIdentityDidChange | probe: NSNotification.Name.NSUbiquityIdentityDidChange
}

// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
extension ProcessInfo {
  func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}  // uses: performExpiringActivity(withReason: | probe: ProcessInfo.processInfo.performExpiringActivity(withReason: "x") { _ in }
}

// The Darwin and Dispatch declarations of AppleFileCalls.swift (Darwin's headers; Linux's Glibc
// and Dispatch lack them).
// https://developer.apple.com/documentation/kernel/1429993-fcntl_values (sys/fcntl.h: #define F_FULLFSYNC 51)
let F_FULLFSYNC: Int32 = 51  // uses: F_FULLFSYNC | probe: F_FULLFSYNC
// sys/fcntl.h: #define O_EVTONLY 0x00008000, "descriptor requested for event notifications only"
let O_EVTONLY: Int32 = 0x0000_8000  // uses: O_EVTONLY | probe: O_EVTONLY
// sys/stat.h: struct stat's st_mtimespec, the last data modification time
extension stat {
  var st_mtimespec: timespec { fatalError() }  // uses: .st_mtimespec | probe: stat().st_mtimespec
}
// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject
protocol DispatchSourceFileSystemObject: DispatchSourceProtocol {}  // uses: any DispatchSourceFileSystemObject | probe: (any DispatchSourceFileSystemObject).self
// https://developer.apple.com/documentation/dispatch/dispatchsource/makefilesystemobjectsource(filedescriptor:eventmask:queue:)
extension DispatchSource {
  class func makeFileSystemObjectSource(
    fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent, queue: DispatchQueue? = nil
  ) -> any DispatchSourceFileSystemObject { fatalError() }  // uses: DispatchSource.makeFileSystemObjectSource( | probe: DispatchSource.makeFileSystemObjectSource(fileDescriptor: 0, eventMask: .write)
}
