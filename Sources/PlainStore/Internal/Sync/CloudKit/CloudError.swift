import Foundation

/// An error of the engine, as `CKError` is: a code, and what the server added to it.
package struct CloudError: Error, Equatable, Sendable {
  /// `CKError.Code`, every case, with Apple's raw values (the binding maps by raw value).
  package enum Code: Int, CaseIterable, Sendable {
    case internalError = 1
    case partialFailure = 2
    case networkUnavailable = 3
    case networkFailure = 4
    case badContainer = 5
    case serviceUnavailable = 6
    case requestRateLimited = 7
    case missingEntitlement = 8
    case notAuthenticated = 9
    case permissionFailure = 10
    case unknownItem = 11
    case invalidArguments = 12
    case resultsTruncated = 13
    case serverRecordChanged = 14
    case serverRejectedRequest = 15
    case assetFileNotFound = 16
    case assetFileModified = 17
    case incompatibleVersion = 18
    case constraintViolation = 19
    case operationCancelled = 20
    case changeTokenExpired = 21
    case batchRequestFailed = 22
    case zoneBusy = 23
    case badDatabase = 24
    case quotaExceeded = 25
    case zoneNotFound = 26
    case limitExceeded = 27
    case userDeletedZone = 28
    case tooManyParticipants = 29
    case alreadyShared = 30
    case referenceViolation = 31
    case managedAccountRestricted = 32
    case participantMayNeedVerification = 33
    case serverResponseLost = 34
    case assetNotAvailable = 35
    case accountTemporarilyUnavailable = 36
    case participantAlreadyInvited = 37
  }

  package var code: Code
  /// Seconds the server asks to wait (`CKErrorRetryAfterKey`).
  package var retryAfter: Double?
  /// The server's record under the name, on `serverRecordChanged`.
  package var serverRecord: CloudRecord?
  /// Each failed record's own error, by name, on `partialFailure`.
  package var perRecord: [String: CloudError]

  package init(_ code: Code, retryAfter: Double? = nil, serverRecord: CloudRecord? = nil, perRecord: [String: CloudError] = [:]) {
    self.code = code
    self.retryAfter = retryAfter
    self.serverRecord = serverRecord
    self.perRecord = perRecord
  }
}
