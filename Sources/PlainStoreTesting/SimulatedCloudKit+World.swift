import Foundation
import PlainStore

extension SimulatedCloudKit {
  /// Everything the simulated cloud holds, behind one lock.
  struct World {
    struct Record: Codable, Equatable {
      var bytes: Data
      /// The change tag: the zone's change counter when it was saved.
      var tag: Int
    }

    struct Zone: Codable, Equatable {
      /// Which incarnation of the zone: a token of an older one has expired.
      var generation: Int
      var records: [String: Record] = [:]
      /// Names in the order they were saved or deleted (index + 1 is the change counter).
      var log: [String] = []
      /// The indexes of `log` that are deletions.
      var deletions: Set<Int> = []
      /// Accounts the owner shared the zone with (`CKShare(recordZoneID:)`), and those of them
      /// that accepted: a participant reaches the zone through its shared database.
      var invited: Set<String> = []
      var participants: Set<String> = []
      var bytes: Int { records.values.reduce(0) { $0 + $1.bytes.count } }
    }

    struct DeviceState {
      var account: String?
      /// The account status when it is other than signed in or out (`temporarilyUnavailable`…).
      var status: CloudAccount?
      var events: [CloudEvent] = []
      /// When each push on its way to this device arrives.
      var pushes: [Date] = []
    }

    var now: Date
    var zones: [String: Zone] = [:]
    var generations: [String: Int] = [:]
    var devices: [DeviceState] = []
    var throttledUntil: [String: Date] = [:]
    var quota: [String: Int] = [:]
    var deliveries: [Delivery] = []
    var faults: [Operation: [CloudError]] = [:]
    var saveRequestSizes: [Int] = []
    var deleteRequestSizes: [Int] = []
    var fetchedRecords = 0
    var fetchedBytes = 0
    var requestCount = 0
    /// How long a push takes to reach the other devices of the account; nil: pushes are lost.
    var pushDelay: TimeInterval? = 0

    /// The checks every request meets first: an injected fault, the account, the throttle.
    mutating func admit(_ operation: Operation, device: Int) throws -> String {
      requestCount += 1
      if var waiting = faults[operation], !waiting.isEmpty {
        let fault = waiting.removeFirst()
        faults[operation] = waiting
        throw fault
      }
      guard devices[device].status == nil, let account = devices[device].account else { throw CloudError(.notAuthenticated) }
      if let until = throttledUntil[account], now < until {
        throw CloudError(.requestRateLimited, retryAfter: until.timeIntervalSince(now))
      }
      return account
    }

    /// Whose zone `zone` is, for `account`: its own, or an owner's that shares it with
    /// `account` (else `zoneNotFound`, as the shared database has no such zone).
    func owner(of zone: CloudZone, for account: String) throws -> String {
      guard case .sharedBy(let owner) = zone else { return account }
      guard zones[owner]?.participants.contains(account) == true else { throw CloudError(.zoneNotFound) }
      return owner
    }

    /// The zone of `owner` changed: a push for every other device of the owner and of the
    /// accounts it shares the zone with, unless pushes are lost.
    mutating func push(from device: Int, owner: String) {
      guard let delay = pushDelay else { return }
      let accounts = (zones[owner]?.participants ?? []).union([owner])
      for other in devices.indices where other != device && devices[other].account.map(accounts.contains) == true {
        devices[other].pushes.append(now.addingTimeInterval(delay))
      }
    }

    /// Tells every device signed in to `account` of `event`.
    mutating func tell(_ account: String, _ event: CloudEvent) {
      for index in devices.indices where devices[index].account == account { devices[index].events.append(event) }
    }

    /// The shares `account` accepted, as a newly signed-in engine finds them in its shared
    /// database.
    func shares(acceptedBy account: String) -> [CloudEvent] {
      zones.filter { $0.value.participants.contains(account) }.keys.sorted().map { .shareAccepted(owner: $0) }
    }

    /// Tells the owner's devices who shares its zone now.
    mutating func tellParticipants(of owner: String) {
      tell(owner, .participantsChanged((zones[owner]?.participants ?? []).sorted()))
    }

    static func token(account: String, generation: Int, counter: Int) -> Data {
      Data("\(generation):\(counter):\(account)".utf8)
    }

    /// The zone (its owner's account), generation and counter a token holds, if it is a token.
    static func parse(_ token: Data) -> (account: String, generation: Int, counter: Int)? {
      let parts = String(decoding: token, as: UTF8.self).split(separator: ":", maxSplits: 2).map(String.init)
      guard parts.count == 3, let generation = Int(parts[0]), let counter = Int(parts[1]) else { return nil }
      return (parts[2], generation, counter)
    }
  }
}
