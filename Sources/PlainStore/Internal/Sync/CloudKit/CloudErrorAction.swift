import Foundation

/// What the CloudKit carrier does about an engine error: THE table, one case per `CKError.Code`,
/// and no code is dropped — each either is dealt with in the sync that met it, or ends that sync
/// keeping every file and saying why (PlainStore.docc/CloudKit.md lists it with each code's test).
package enum CloudErrorAction: Equatable, Sendable {
  /// Some records failed: each one's own error decides.
  case perRecord
  /// The request held too many records or bytes: send it again in halves.
  case splitBatch
  /// The record failed only because another of its batch did, or its asset went missing before
  /// the upload: build it again from its file and send it again.
  case resend
  /// The server holds the name already: the same bytes are success (a create-once file sent
  /// twice); other bytes are a second copy, which the fold reads as a conflict copy.
  case compareWithServer
  /// The zone is gone: create it again, fetch from no token, and send every file held.
  case recreateZoneAndResend
  /// The change token is too old: fetch again from no token (create-once makes it harmless).
  case restartFromNoToken
  /// Nothing more to do for this record (on a delete only): `unknownItem` says it is gone
  /// already, as the delete asked (a delete sent twice, after a kill before the state was saved);
  /// `serverRecordChanged` says the server holds another record under the name, which is left
  /// there (a record left costs a joining phone time, never data).
  case settled
  /// Keep every file, end this sync and say why; the next sync tries again, no sooner than the
  /// server's retry-after.
  case wait(CloudCondition)

  /// The table for a delete request: the save's, but for the two codes that answer a delete
  /// otherwise (a delete holds no asset and no bytes to compare).
  package static func actionOnDelete(for code: CloudError.Code) -> CloudErrorAction {
    code == .unknownItem || code == .serverRecordChanged ? .settled : action(for: code)
  }

  /// The table.
  package static func action(for code: CloudError.Code) -> CloudErrorAction {
    switch code {
    case .partialFailure: .perRecord
    case .limitExceeded: .splitBatch
    case .batchRequestFailed, .unknownItem, .assetFileNotFound, .assetFileModified: .resend
    case .serverRecordChanged: .compareWithServer
    case .zoneNotFound: .recreateZoneAndResend
    case .changeTokenExpired: .restartFromNoToken
    case .networkUnavailable, .networkFailure, .serverResponseLost: .wait(.offline)
    case .serviceUnavailable, .requestRateLimited, .zoneBusy: .wait(.busy)
    case .resultsTruncated: .wait(.incomplete)
    case .assetNotAvailable: .wait(.assetNotReady)
    case .operationCancelled: .wait(.cancelled)
    case .quotaExceeded: .wait(.storageFull)
    case .notAuthenticated: .wait(.signedOut)
    case .accountTemporarilyUnavailable: .wait(.accountUnavailable)
    case .managedAccountRestricted, .permissionFailure: .wait(.restricted)
    case .userDeletedZone: .wait(.zonePurged)
    case .badContainer, .missingEntitlement, .badDatabase: .wait(.misconfigured)
    case .internalError, .invalidArguments, .serverRejectedRequest, .constraintViolation, .referenceViolation, .incompatibleVersion:
      .wait(.refused)
    case .tooManyParticipants, .alreadyShared, .participantMayNeedVerification, .participantAlreadyInvited: .wait(.sharing)
    }
  }
}

/// Why the CloudKit carrier's last sync stopped short, in a parent's words.
package enum CloudCondition: String, Codable, Equatable, Sendable, CaseIterable {
  case offline, busy, incomplete, assetNotReady, cancelled, storageFull, signedOut, accountUnavailable, restricted
  case zonePurged, misconfigured, refused, sharing

  /// What happened and what happens next; every one keeps this device's data.
  package var words: String {
    switch self {
    case .offline: "iCloud could not be reached (no network); the next sync tries again"
    case .busy: "iCloud asked to wait; the next sync tries again after the time it asked"
    case .incomplete: "iCloud sent part of the changes; the rest come at the next sync"
    case .assetNotReady: "a file iCloud holds could not be downloaded yet; the next sync asks again"
    case .cancelled: "the sync was interrupted; the next sync goes on where it stopped"
    case .storageFull: "iCloud storage is full: changes wait on this device until space is freed or bought"
    case .signedOut: "this device is signed out of iCloud: changes wait on this device until it signs in"
    case .accountUnavailable: "the iCloud account needs attention (Settings, your name); changes wait on this device"
    case .restricted: "iCloud is restricted on this device (Screen Time or device management); changes wait on this device"
    case .zonePurged: "this app's data was deleted from iCloud (Settings): nothing is sent; this device keeps its data"
    case .misconfigured: "this app cannot use its iCloud container (an app build problem); changes wait on this device"
    case .refused: "iCloud refused a request (a program error, reported); changes wait on this device and go again at the next sync"
    case .sharing: "sharing with the other parent failed; this device's own sync is unaffected"
    }
  }
}
