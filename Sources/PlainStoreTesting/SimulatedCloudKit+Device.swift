import Foundation
import PlainStore

extension SimulatedCloudKit {
  /// One device's engine: its account, its events, its requests.
  public final class Device: Sendable {
    let cloud: SimulatedCloudKit
    let number: Int

    init(cloud: SimulatedCloudKit, number: Int) {
      self.cloud = cloud
      self.number = number
    }

    /// Signs in to `account` (after a sign-out).
    public func signIn(_ account: String) {
      cloud.withWorld { world in
        world.devices[number].account = account
        world.devices[number].events.append(.accountChange(.signIn(account)))
        world.devices[number].events += world.shares(acceptedBy: account)
      }
    }

    /// Signs out of iCloud.
    public func signOut() {
      cloud.withWorld { world in
        let previous = world.devices[number].account ?? ""
        world.devices[number].account = nil
        world.devices[number].events.append(.accountChange(.signOut(previous)))
      }
    }

    /// Signs in to another account, as a user does who signs out and in with another Apple ID
    /// while the app is not running.
    public func switchAccount(to account: String) {
      cloud.withWorld { world in
        let previous = world.devices[number].account ?? ""
        world.devices[number].account = account
        world.devices[number].events.append(.accountChange(.switchAccounts(from: previous, to: account)))
        world.devices[number].events += world.shares(acceptedBy: account)
      }
    }

    /// The pushes that have reached this device by now, taken: the app syncs once for them.
    public func takePushes() -> Int {
      cloud.withWorld { world in
        let now = world.now
        let due = world.devices[number].pushes.filter { $0 <= now }.count
        world.devices[number].pushes.removeAll { $0 <= now }
        return due
      }
    }

    /// Accepts `owner`'s share of its zone (`CKContainer.accept(_:)`), as this device's account:
    /// every device of the account sees the zone in its shared database, and the owner's devices
    /// hear who shares it now. The owner must have shared it with this account first
    /// (``SimulatedCloudKit/share(_:with:)``).
    public func acceptShare(from owner: String) {
      cloud.withWorld { world in
        guard let account = world.devices[number].account, world.zones[owner]?.invited.contains(account) == true else {
          preconditionFailure("acceptShare: \(owner) has not shared its zone with this device's account")
        }
        world.zones[owner]!.participants.insert(account)
        world.tell(account, .shareAccepted(owner: owner))
        world.tellParticipants(of: owner)
      }
    }

    /// Leaves `owner`'s share, as this device's account (a participant deleting the shared
    /// zone from its shared database): every device of the account hears it, and the owner's
    /// devices hear who shares the zone now.
    public func leaveShare(of owner: String) {
      cloud.withWorld { world in
        guard let account = world.devices[number].account, world.zones[owner]?.participants.contains(account) == true else { return }
        world.zones[owner]!.participants.remove(account)
        world.zones[owner]!.invited.remove(account)
        world.tell(account, .shareEnded(owner: owner, .left))
        world.tellParticipants(of: owner)
      }
    }

    /// Makes the account's status other than signed in or out (nil: back to signed in or out).
    package func setStatus(_ status: CloudAccount?) {
      cloud.withWorld { $0.devices[number].status = status }
    }
  }
}

extension SimulatedCloudKit.Device: CloudDatabase {
  package func account() -> CloudAccount {
    cloud.withWorld { world in
      if let status = world.devices[number].status { return status }
      return world.devices[number].account.map { .signedIn(id: $0) } ?? .signedOut
    }
  }

  package func takeEvents() -> [CloudEvent] {
    cloud.withWorld { world in
      defer { world.devices[number].events = [] }
      return world.devices[number].events
    }
  }

  package func createZone() throws {
    try cloud.withWorld { world in
      let account = try world.admit(.createZone, device: number)
      guard world.zones[account] == nil else { return }
      world.generations[account, default: 0] += 1
      world.zones[account] = SimulatedCloudKit.World.Zone(generation: world.generations[account]!)
    }
  }

  package func save(_ records: [CloudRecord], in target: CloudZone) throws {
    try cloud.withWorld { world in
      let account = try world.owner(of: target, for: world.admit(.save, device: number))
      guard records.count <= cloud.requestLimit else { throw CloudError(.limitExceeded) }
      guard var zone = world.zones[account] else { throw CloudError(.zoneNotFound) }
      if let quota = world.quota[account], zone.bytes + records.reduce(0, { $0 + $1.bytes.count }) > quota {
        throw CloudError(.quotaExceeded)
      }
      var failed: [String: CloudError] = [:]
      for record in records {
        if let held = zone.records[record.name] {
          failed[record.name] = CloudError(.serverRecordChanged, serverRecord: CloudRecord(name: record.name, bytes: held.bytes))
        } else if !record.isAsset && record.bytes.count > cloud.recordSizeLimit {
          failed[record.name] = CloudError(.limitExceeded)
        }
      }
      guard failed.isEmpty else {
        // The zone's batches are atomic: one record's failure fails the others.
        for record in records where failed[record.name] == nil { failed[record.name] = CloudError(.batchRequestFailed) }
        throw CloudError(.partialFailure, perRecord: failed)
      }
      for record in records {
        zone.log.append(record.name)
        zone.records[record.name] = SimulatedCloudKit.World.Record(bytes: record.bytes, tag: zone.log.count)
      }
      world.zones[account] = zone
      world.saveRequestSizes.append(records.count)
      world.push(from: number, owner: account)
    }
  }

  package func delete(_ names: [String], in target: CloudZone) throws {
    try cloud.withWorld { world in
      let account = try world.owner(of: target, for: world.admit(.delete, device: number))
      guard names.count <= cloud.requestLimit else { throw CloudError(.limitExceeded) }
      guard var zone = world.zones[account] else { throw CloudError(.zoneNotFound) }
      let missing = names.filter { zone.records[$0] == nil }
      guard missing.isEmpty else {
        // The zone's batches are atomic: one record's failure fails the others.
        var failed = Dictionary(uniqueKeysWithValues: names.map { ($0, CloudError(.batchRequestFailed)) })
        for name in missing { failed[name] = CloudError(.unknownItem) }
        throw CloudError(.partialFailure, perRecord: failed)
      }
      for name in names {
        zone.records[name] = nil
        zone.log.append(name)
        zone.deletions.insert(zone.log.count - 1)
      }
      world.zones[account] = zone
      world.deleteRequestSizes.append(names.count)
      world.push(from: number, owner: account)
    }
  }

  package func fetchChanges(in target: CloudZone, since state: Data?) throws -> CloudFetch {
    try cloud.withWorld { world in
      let account = try world.owner(of: target, for: world.admit(.fetch, device: number))
      guard let zone = world.zones[account] else { throw CloudError(.zoneNotFound) }
      // The engine's state holds a token per zone. One with none for this zone (a state of the
      // account's own zone, handed to the owner's shared one) fetches it whole, as no state does;
      // one of an older incarnation of this zone has expired.
      var counter = 0
      var since = state
      if let state {
        guard let token = SimulatedCloudKit.World.parse(state) else { throw CloudError(.changeTokenExpired) }
        if token.account == account {
          guard token.generation == zone.generation, token.counter <= zone.log.count else { throw CloudError(.changeTokenExpired) }
          counter = token.counter
        } else {
          since = nil
        }
      }
      let delivery = world.deliveries.isEmpty ? nil : world.deliveries.removeFirst()
      if delivery == .late { return CloudFetch(records: [], state: state ?? SimulatedCloudKit.World.token(account: account, generation: zone.generation, counter: 0), moreComing: false) }
      if delivery == .dropped { throw CloudError(.networkFailure) }
      let end = min(zone.log.count, counter + cloud.fetchBatchSize)
      // A record saved again under one name appears once, at its latest save; a deleted one not
      // at all, and its deletion only to a device that fetched before (it may hold the record).
      let names = zone.log[counter..<end].enumerated().filter { offset, name in zone.records[name]?.tag == counter + offset + 1 }.map(\.element)
      let deleted = since == nil ? [] : (counter..<end).filter { zone.deletions.contains($0) }.map { zone.log[$0] }
      var records = names.map { CloudRecord(name: $0, bytes: zone.records[$0]!.bytes) }
      if delivery == .twice { records += records }
      if delivery == .outOfOrder { records.reverse() }
      world.fetchedRecords += records.count
      world.fetchedBytes += records.reduce(0) { $0 + $1.bytes.count }
      return CloudFetch(
        records: records, deletedNames: deleted, state: SimulatedCloudKit.World.token(account: account, generation: zone.generation, counter: end), moreComing: end < zone.log.count)
    }
  }
}
