// The CloudKit declarations that Sources/PlainStore/Internal/Apple/AppleCloudKitService.swift
// uses, and nothing else, as Apple's documentation declares them (the page beside each; iOS 17+
// for CKSyncEngine): async and throws where Apple's are, Sendable where Apple's are, optional
// where Apple's are. Linux has no CloudKit; Scripts/check-apple-stub.sh type-checks the Apple
// files against this file, and proves each declaration is used and is missing on Linux.
//
// Each declaration ends with `// uses: TEXT | probe: EXPRESSION`, as in AppleFoundation.swift.
// Bodies are never run: this file is only type-checked.
import Foundation

// https://developer.apple.com/documentation/cloudkit/ckcontainer
class CKContainer: NSObject, @unchecked Sendable {  // uses: CKContainer( | probe: CKContainer.self
  // https://developer.apple.com/documentation/cloudkit/ckcontainer/init(identifier:)
  convenience init(identifier containerIdentifier: String) { fatalError() }  // uses: CKContainer(identifier: | probe: CKContainer(identifier: "x")
  // https://developer.apple.com/documentation/cloudkit/ckcontainer/default()
  class func `default`() -> CKContainer { fatalError() }  // uses: CKContainer.default() | probe: CKContainer.default()
  // https://developer.apple.com/documentation/cloudkit/ckcontainer/privateclouddatabase
  var privateCloudDatabase: CKDatabase { fatalError() }  // uses: .privateCloudDatabase | probe: CKContainer.default().privateCloudDatabase
  // https://developer.apple.com/documentation/cloudkit/ckcontainer/sharedclouddatabase
  var sharedCloudDatabase: CKDatabase { fatalError() }  // uses: .sharedCloudDatabase | probe: CKContainer.default().sharedCloudDatabase
  // https://developer.apple.com/documentation/cloudkit/ckcontainer/accountstatus(completionhandler:) (its async form)
  func accountStatus() async throws -> CKAccountStatus { fatalError() }  // uses: .accountStatus() | probe: CKContainer.accountStatus
  // https://developer.apple.com/documentation/cloudkit/ckcontainer/fetchuserrecordid(completionhandler:) (its async form)
  func userRecordID() async throws -> CKRecord.ID { fatalError() }  // uses: .userRecordID() | probe: CKContainer.userRecordID
}

// https://developer.apple.com/documentation/cloudkit/ckaccountstatus
enum CKAccountStatus: Int, @unchecked Sendable {  // uses: .noAccount | probe: CKAccountStatus.self
  case couldNotDetermine = 0, available = 1, restricted = 2, noAccount = 3, temporarilyUnavailable = 4  // uses: .temporarilyUnavailable | probe: CKAccountStatus.temporarilyUnavailable
}

// https://developer.apple.com/documentation/cloudkit/ckdatabase
class CKDatabase: NSObject, @unchecked Sendable {  // uses: .privateCloudDatabase | probe: CKDatabase.self
  // https://developer.apple.com/documentation/cloudkit/ckdatabase/allrecordzones(completionhandler:) (its async form)
  func allRecordZones() async throws -> [CKRecordZone] { fatalError() }  // uses: .allRecordZones() | probe: CKDatabase.allRecordZones
  // https://developer.apple.com/documentation/cloudkit/ckdatabase/record(for:)
  func record(for recordID: CKRecord.ID) async throws -> CKRecord { fatalError() }  // uses: .record(for: | probe: CKDatabase.record(for:)
  // https://developer.apple.com/documentation/cloudkit/ckdatabase/recordzonechange/modification
  enum RecordZoneChange {  // uses: changes.modifications | probe: CKDatabase.RecordZoneChange.self
    struct Modification: Sendable {  // uses: $0.record | probe: CKDatabase.RecordZoneChange.Modification.self
      var record: CKRecord { fatalError() }  // uses: $0.record | probe: \CKDatabase.RecordZoneChange.Modification.record
    }
    // https://developer.apple.com/documentation/cloudkit/ckdatabase/recordzonechange/deletion
    struct Deletion: Sendable {  // uses: changes.deletions.map | probe: CKDatabase.RecordZoneChange.Deletion.self
      // https://developer.apple.com/documentation/cloudkit/ckdatabase/recordzonechange/deletion/recordid
      var recordID: CKRecord.ID { fatalError() }  // uses: $0.recordID.recordName | probe: \CKDatabase.RecordZoneChange.Deletion.recordID
    }
  }
}

// https://developer.apple.com/documentation/cloudkit/ckrecordzone
class CKRecordZone: NSObject, @unchecked Sendable {  // uses: CKRecordZone( | probe: CKRecordZone.self
  // https://developer.apple.com/documentation/cloudkit/ckrecordzone/init(zonename:)
  init(zoneName: String) {}  // uses: CKRecordZone(zoneName: | probe: CKRecordZone(zoneName: "x")
  // https://developer.apple.com/documentation/cloudkit/ckrecordzone/zoneid
  var zoneID: CKRecordZone.ID { fatalError() }  // uses: zone.zoneID | probe: CKRecordZone(zoneName: "x").zoneID
  // https://developer.apple.com/documentation/cloudkit/ckrecordzone/id
  class ID: NSObject, @unchecked Sendable {  // uses: -> CKRecordZone.ID | probe: CKRecordZone.ID.self
    // https://developer.apple.com/documentation/cloudkit/ckrecordzone/id/init(zonename:ownername:)
    init(zoneName: String = "_defaultZone", ownerName: String = "__defaultOwner__") {}  // uses: CKRecordZone.ID(zoneName: | probe: CKRecordZone.ID.init(zoneName:ownerName:)
    // https://developer.apple.com/documentation/cloudkit/ckrecordzone/id/zonename
    var zoneName: String { fatalError() }  // uses: .zoneName | probe: \CKRecordZone.ID.zoneName
    // https://developer.apple.com/documentation/cloudkit/ckrecordzone/id/ownername
    var ownerName: String { fatalError() }  // uses: .ownerName | probe: \CKRecordZone.ID.ownerName
  }
}

// https://developer.apple.com/documentation/cloudkit/ckrecord
class CKRecord: NSObject {  // uses: CKRecord( | probe: CKRecord.self
  typealias RecordType = String
  typealias FieldKey = String
  // https://developer.apple.com/documentation/cloudkit/ckrecord/init(recordtype:recordid:)
  init(recordType: CKRecord.RecordType, recordID: CKRecord.ID) {}  // uses: CKRecord(recordType: | probe: CKRecord.init(recordType:recordID:)
  // https://developer.apple.com/documentation/cloudkit/ckrecord/recordid
  var recordID: CKRecord.ID { fatalError() }  // uses: .recordID.recordName | probe: \CKRecord.recordID
  // https://developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues
  var encryptedValues: any CKRecordKeyValueSetting { fatalError() }  // uses: .encryptedValues["bytes"] | probe: \CKRecord.encryptedValues
  // https://developer.apple.com/documentation/cloudkit/ckrecord/subscript(_:)-51whk
  subscript<T: CKRecordValueProtocol>(key: CKRecord.FieldKey) -> T? { get { fatalError() } set {} }  // uses: ck["asset"] | probe: { (r: CKRecord) -> CKAsset? in r["a"] }

  // https://developer.apple.com/documentation/cloudkit/ckrecord/id
  class ID: NSObject, @unchecked Sendable {  // uses: CKRecord.ID( | probe: CKRecord.ID.self
    // https://developer.apple.com/documentation/cloudkit/ckrecord/id/init(recordname:zoneid:)
    init(recordName: String, zoneID: CKRecordZone.ID) {}  // uses: CKRecord.ID(recordName: | probe: CKRecord.ID.init(recordName:zoneID:)
    // https://developer.apple.com/documentation/cloudkit/ckrecord/id/recordname
    var recordName: String { fatalError() }  // uses: .recordName | probe: \CKRecord.ID.recordName
  }
}

// https://developer.apple.com/documentation/cloudkit/ckrecordnamezonewideshare
let CKRecordNameZoneWideShare: String = ""  // uses: CKRecordNameZoneWideShare | probe: CKRecordNameZoneWideShare

// https://developer.apple.com/documentation/cloudkit/ckshare
class CKShare: CKRecord, @unchecked Sendable {  // uses: as? CKShare | probe: CKShare.self
  // https://developer.apple.com/documentation/cloudkit/ckshare/participants
  var participants: [CKShare.Participant] { fatalError() }  // uses: .participants | probe: \CKShare.participants

  // https://developer.apple.com/documentation/cloudkit/ckshare/participant
  class Participant: NSObject, @unchecked Sendable {  // uses: .participants | probe: CKShare.Participant.self
    // https://developer.apple.com/documentation/cloudkit/ckshare/participant/role
    var role: CKShare.ParticipantRole { fatalError() }  // uses: $0.role | probe: \CKShare.Participant.role
    // https://developer.apple.com/documentation/cloudkit/ckshare/participant/acceptancestatus
    var acceptanceStatus: CKShare.ParticipantAcceptanceStatus { fatalError() }  // uses: $0.acceptanceStatus | probe: \CKShare.Participant.acceptanceStatus
    // https://developer.apple.com/documentation/cloudkit/ckshare/participant/useridentity
    var userIdentity: CKUserIdentity { fatalError() }  // uses: $0.userIdentity | probe: \CKShare.Participant.userIdentity
  }

  // https://developer.apple.com/documentation/cloudkit/ckshare/participantrole
  enum ParticipantRole: Int, @unchecked Sendable {  // uses: .owner | probe: CKShare.ParticipantRole.self
    case unknown = 0, owner = 1, administrator = 2, privateUser = 3, publicUser = 4  // uses: != .owner | probe: CKShare.ParticipantRole.owner
  }

  // https://developer.apple.com/documentation/cloudkit/ckshare/participantacceptancestatus
  enum ParticipantAcceptanceStatus: Int, @unchecked Sendable {  // uses: .accepted | probe: CKShare.ParticipantAcceptanceStatus.self
    case unknown = 0, pending = 1, accepted = 2, removed = 3  // uses: == .accepted | probe: CKShare.ParticipantAcceptanceStatus.accepted
  }
}

// https://developer.apple.com/documentation/cloudkit/ckuseridentity
class CKUserIdentity: NSObject, @unchecked Sendable {  // uses: .userIdentity | probe: CKUserIdentity.self
  // https://developer.apple.com/documentation/cloudkit/ckuseridentity/userrecordid
  var userRecordID: CKRecord.ID? { fatalError() }  // uses: .userRecordID?.recordName | probe: \CKUserIdentity.userRecordID
}

// https://developer.apple.com/documentation/cloudkit/ckrecordkeyvaluesetting
protocol CKRecordKeyValueSetting: NSObjectProtocol {}  // uses: encryptedValues | probe: (any CKRecordKeyValueSetting).self
extension CKRecordKeyValueSetting {
  // https://developer.apple.com/documentation/cloudkit/ckrecordkeyvaluesetting/subscript(_:)-9gjs1
  subscript<T: CKRecordValueProtocol>(key: CKRecord.FieldKey) -> T? { get { fatalError() } set {} }  // uses: encryptedValues["bytes"] = | probe: { (v: any CKRecordKeyValueSetting) -> Data? in v["a"] }
}

// https://developer.apple.com/documentation/cloudkit/ckrecordvalueprotocol
protocol CKRecordValueProtocol {}  // uses: encryptedValues["bytes"] | probe: (any CKRecordValueProtocol).self
extension Data: CKRecordValueProtocol {}  // uses: = record.bytes | probe: Data() as any CKRecordValueProtocol

// https://developer.apple.com/documentation/cloudkit/ckasset
class CKAsset: NSObject, CKRecordValueProtocol, @unchecked Sendable {  // uses: CKAsset( | probe: CKAsset.self
  // https://developer.apple.com/documentation/cloudkit/ckasset/init(fileurl:)
  init(fileURL: URL) {}  // uses: CKAsset(fileURL: | probe: CKAsset(fileURL: URL(fileURLWithPath: "/"))
  // https://developer.apple.com/documentation/cloudkit/ckasset/fileurl
  var fileURL: URL? { fatalError() }  // uses: asset?.fileURL | probe: \CKAsset.fileURL
}

// https://developer.apple.com/documentation/cloudkit/ckerror
struct CKError: Error, Hashable {  // uses: as? CKError | probe: CKError.self
  // https://developer.apple.com/documentation/cloudkit/ckerror/code-swift.enum
  enum Code: Int, @unchecked Sendable, Equatable {  // uses: ck.code.rawValue | probe: CKError.Code.self
    case internalError = 1
  }
  var code: CKError.Code { fatalError() }  // uses: ck.code | probe: \CKError.code
  // https://developer.apple.com/documentation/cloudkit/ckerror/retryafterseconds
  var retryAfterSeconds: Double? { fatalError() }  // uses: .retryAfterSeconds | probe: \CKError.retryAfterSeconds
  // https://developer.apple.com/documentation/cloudkit/ckerror/serverrecord
  var serverRecord: CKRecord? { fatalError() }  // uses: .serverRecord | probe: \CKError.serverRecord
}

// https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5
final class CKSyncEngine: Sendable {  // uses: CKSyncEngine( | probe: CKSyncEngine.self
  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/init(_:)
  init(_ configuration: CKSyncEngine.Configuration) {}  // uses: CKSyncEngine(configuration) | probe: CKSyncEngine.init(_:)
  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/state-swift.property
  var state: CKSyncEngine.State { fatalError() }  // uses: .state.add( | probe: \CKSyncEngine.state
  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/fetchchanges(_:)
  func fetchChanges(_ options: CKSyncEngine.FetchChangesOptions = FetchChangesOptions()) async throws {}  // uses: engine.fetchChanges() | probe: CKSyncEngine.fetchChanges
  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/sendchanges(_:)
  func sendChanges(_ options: CKSyncEngine.SendChangesOptions = SendChangesOptions()) async throws {}  // uses: engine.sendChanges() | probe: CKSyncEngine.sendChanges

  struct FetchChangesOptions: Sendable { init() {} }
  struct SendChangesOptions: Sendable { init() {} }

  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/configuration
  struct Configuration: Sendable {  // uses: CKSyncEngine.Configuration( | probe: CKSyncEngine.Configuration.self
    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/configuration/init(database:stateserialization:delegate:)
    init(database: CKDatabase, stateSerialization: CKSyncEngine.State.Serialization?, delegate: any CKSyncEngineDelegate) {}  // uses: Configuration(database: | probe: CKSyncEngine.Configuration.init(database:stateSerialization:delegate:)
    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/configuration/automaticallysync
    var automaticallySync: Bool = true  // uses: .automaticallySync = false | probe: \CKSyncEngine.Configuration.automaticallySync
  }

  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/state-swift.class
  final class State: Sendable {  // uses: .state.add( | probe: CKSyncEngine.State.self
    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/state-swift.class/add(pendingrecordzonechanges:)
    func add(pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange]) {}  // uses: add(pendingRecordZoneChanges: | probe: CKSyncEngine.State.add(pendingRecordZoneChanges:)
    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/state-swift.class/add(pendingdatabasechanges:)
    func add(pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange]) {}  // uses: add(pendingDatabaseChanges: | probe: CKSyncEngine.State.add(pendingDatabaseChanges:)
    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/state-swift.class/pendingrecordzonechanges
    var pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange] { fatalError() }  // uses: state.pendingRecordZoneChanges | probe: \CKSyncEngine.State.pendingRecordZoneChanges

    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/state-swift.class/serialization
    struct Serialization: Codable, Sendable {}  // uses: State.Serialization | probe: CKSyncEngine.State.Serialization.self
  }

  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/pendingrecordzonechange
  enum PendingRecordZoneChange: Hashable, Sendable {  // uses: .saveRecord( | probe: CKSyncEngine.PendingRecordZoneChange.self
    case saveRecord(CKRecord.ID)  // uses: .saveRecord( | probe: CKSyncEngine.PendingRecordZoneChange.saveRecord
    case deleteRecord(CKRecord.ID)  // uses: .deleteRecord( | probe: CKSyncEngine.PendingRecordZoneChange.deleteRecord
  }

  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/pendingdatabasechange
  enum PendingDatabaseChange: Hashable, Sendable {  // uses: .saveZone( | probe: CKSyncEngine.PendingDatabaseChange.self
    case saveZone(CKRecordZone)  // uses: .saveZone( | probe: CKSyncEngine.PendingDatabaseChange.saveZone
    case deleteZone(CKRecordZone.ID)
  }

  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/sendchangescontext
  struct SendChangesContext: Sendable {}  // uses: CKSyncEngine.SendChangesContext | probe: CKSyncEngine.SendChangesContext.self

  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/recordzonechangebatch
  struct RecordZoneChangeBatch: Sendable {  // uses: CKSyncEngine.RecordZoneChangeBatch | probe: CKSyncEngine.RecordZoneChangeBatch.self
    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/recordzonechangebatch/init(pendingchanges:recordprovider:)
    init?(pendingChanges: [CKSyncEngine.PendingRecordZoneChange], recordProvider: (CKRecord.ID) async -> CKRecord?) async {}  // uses: RecordZoneChangeBatch(pendingChanges: | probe: CKSyncEngine.RecordZoneChangeBatch.init(pendingChanges:recordProvider:)
  }

  // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event
  enum Event: Sendable {  // uses: CKSyncEngine.Event | probe: CKSyncEngine.Event.self
    case stateUpdate(CKSyncEngine.Event.StateUpdate)  // uses: .stateUpdate( | probe: CKSyncEngine.Event.stateUpdate
    case accountChange(CKSyncEngine.Event.AccountChange)  // uses: .accountChange(let | probe: CKSyncEngine.Event.accountChange
    case fetchedDatabaseChanges(CKSyncEngine.Event.FetchedDatabaseChanges)  // uses: .fetchedDatabaseChanges( | probe: CKSyncEngine.Event.fetchedDatabaseChanges
    case fetchedRecordZoneChanges(CKSyncEngine.Event.FetchedRecordZoneChanges)  // uses: .fetchedRecordZoneChanges( | probe: CKSyncEngine.Event.fetchedRecordZoneChanges
    case sentRecordZoneChanges(CKSyncEngine.Event.SentRecordZoneChanges)  // uses: .sentRecordZoneChanges( | probe: CKSyncEngine.Event.sentRecordZoneChanges
    case didFetchChanges

    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/stateupdate
    struct StateUpdate: Sendable {  // uses: .stateUpdate(let update) | probe: CKSyncEngine.Event.StateUpdate.self
      var stateSerialization: CKSyncEngine.State.Serialization { fatalError() }  // uses: update.stateSerialization | probe: \CKSyncEngine.Event.StateUpdate.stateSerialization
    }

    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/accountchange
    struct AccountChange: Sendable {  // uses: .accountChange(let change) | probe: CKSyncEngine.Event.AccountChange.self
      var changeType: CKSyncEngine.Event.AccountChange.ChangeType { fatalError() }  // uses: change.changeType | probe: \CKSyncEngine.Event.AccountChange.changeType
      // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/accountchange/changetype-swift.enum
      enum ChangeType: Sendable {  // uses: switch change.changeType | probe: CKSyncEngine.Event.AccountChange.ChangeType.self
        case signIn(currentUser: CKRecord.ID)  // uses: .signIn(let user) | probe: CKSyncEngine.Event.AccountChange.ChangeType.signIn(currentUser:)
        case signOut(previousUser: CKRecord.ID)  // uses: .signOut(let user) | probe: CKSyncEngine.Event.AccountChange.ChangeType.signOut(previousUser:)
        case switchAccounts(previousUser: CKRecord.ID, currentUser: CKRecord.ID)  // uses: .switchAccounts(let previous | probe: CKSyncEngine.Event.AccountChange.ChangeType.switchAccounts(previousUser:currentUser:)
      }
    }

    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/fetcheddatabasechanges
    struct FetchedDatabaseChanges: Sendable {  // uses: .fetchedDatabaseChanges(let changes) | probe: CKSyncEngine.Event.FetchedDatabaseChanges.self
      var deletions: [CKSyncEngine.Event.FetchedDatabaseChanges.Deletion] { fatalError() }  // uses: changes.deletions | probe: \CKSyncEngine.Event.FetchedDatabaseChanges.deletions
      // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/fetcheddatabasechanges/deletion
      struct Deletion: Sendable {  // uses: deletion -> CloudEvent | probe: CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.self
        var zoneID: CKRecordZone.ID { fatalError() }  // uses: $0.zoneID.zoneName == | probe: \CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.zoneID
        var reason: CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.Reason { fatalError() }  // uses: deletion.reason | probe: \CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.reason
        // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/fetcheddatabasechanges/deletion/reason-swift.enum
        enum Reason: Sendable {  // uses: switch deletion.reason | probe: CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.Reason.self
          case deleted, purged, encryptedDataReset  // uses: case .encryptedDataReset: | probe: CKSyncEngine.Event.FetchedDatabaseChanges.Deletion.Reason.encryptedDataReset
        }
      }
    }

    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/fetchedrecordzonechanges
    struct FetchedRecordZoneChanges: Sendable {  // uses: .fetchedRecordZoneChanges(let changes) | probe: CKSyncEngine.Event.FetchedRecordZoneChanges.self
      var modifications: [CKDatabase.RecordZoneChange.Modification] { fatalError() }  // uses: changes.modifications | probe: \CKSyncEngine.Event.FetchedRecordZoneChanges.modifications
      var deletions: [CKDatabase.RecordZoneChange.Deletion] { fatalError() }  // uses: changes.deletions.map | probe: \CKSyncEngine.Event.FetchedRecordZoneChanges.deletions
    }

    // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/sentrecordzonechanges
    struct SentRecordZoneChanges: Sendable {  // uses: .sentRecordZoneChanges(let sent) | probe: CKSyncEngine.Event.SentRecordZoneChanges.self
      var savedRecords: [CKRecord] { fatalError() }  // uses: sent.savedRecords | probe: \CKSyncEngine.Event.SentRecordZoneChanges.savedRecords
      var failedRecordSaves: [CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave] { fatalError() }  // uses: sent.failedRecordSaves | probe: \CKSyncEngine.Event.SentRecordZoneChanges.failedRecordSaves
      // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/sentrecordzonechanges/failedrecorddeletes
      var failedRecordDeletes: [CKRecord.ID: CKError] { fatalError() }  // uses: sent.failedRecordDeletes | probe: \CKSyncEngine.Event.SentRecordZoneChanges.failedRecordDeletes
      // https://developer.apple.com/documentation/cloudkit/cksyncengine-5sie5/event/sentrecordzonechanges/failedrecordsave
      struct FailedRecordSave: Sendable {  // uses: failedRecordSaves.map | probe: CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave.self
        var record: CKRecord { fatalError() }  // uses: $0.record.recordID | probe: \CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave.record
        var error: CKError { fatalError() }  // uses: $0.error | probe: \CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave.error
      }
    }
  }
}

// https://developer.apple.com/documentation/cloudkit/cksyncenginedelegate-1q7g8
protocol CKSyncEngineDelegate: AnyObject, Sendable {  // uses: CKSyncEngineDelegate | probe: (any CKSyncEngineDelegate).self
  // https://developer.apple.com/documentation/cloudkit/cksyncenginedelegate-1q7g8/handleevent(_:syncengine:)
  func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async  // uses: func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async | probe: (any CKSyncEngineDelegate).handleEvent
  // https://developer.apple.com/documentation/cloudkit/cksyncenginedelegate-1q7g8/nextrecordzonechangebatch(_:syncengine:)
  func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch?  // uses: func nextRecordZoneChangeBatch( | probe: (any CKSyncEngineDelegate).nextRecordZoneChangeBatch
}
