import Foundation
import PlainStore

/// This device's place in a rollout: a number from 0 to 99, a stable hash of its device id.
///
/// A flag at 20 % is on for cohorts 0–19; as the percentage grows to 50 %, those devices stay in
/// and 20–49 join, so no phone flips back and forth. Beside the enabled devices sits a control
/// group of the same size, the cohorts just above (20–39 at 20 %), which runs without the change:
/// the telemetry of the two groups is compared. At 60 % the control group can only be 40 wide.
///
/// The id is the app's own (kept in the app group's key-value store under
/// ``keyValueStoreKey``), never sent anywhere: only the group is reported.
public struct DeviceCohort: Sendable, Hashable {
  /// Where this device's id is kept in the app group's ``KeyValueStore``.
  public static let keyValueStoreKey = "rolloutDeviceID"

  /// The device id the cohort was computed from.
  public let deviceID: String
  /// The cohort, 0–99.
  public let number: Int

  /// The cohort of `deviceID`: FNV-1a of its UTF-8 bytes, mixed (so that ids which differ in
  /// their last character spread over all cohorts), modulo 100.
  public init(deviceID: String) {
    self.deviceID = deviceID
    var hash = FNV1a.hash(Array(deviceID.utf8))
    // SplitMix64's finalizer: FNV-1a's low bits follow the last bytes too closely for a modulo.
    hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
    hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
    hash ^= hash >> 31
    number = Int(hash % 100)
  }

  /// Which group of a rollout a device is in.
  public enum Group: String, Sendable, Hashable, Codable {
    /// The flag is on for it.
    case enabled
    /// The flag is off for it, and it is counted as the comparison for the enabled group.
    case control
    /// Neither: the rollout has not reached it (or the flag is off or on for everyone).
    case outside
  }

  /// This device's group under `state`.
  public func group(under state: FlagState) -> Group {
    Self.group(of: number, under: state)
  }

  /// The group of cohort `number` under `state`.
  public static func group(of number: Int, under state: FlagState) -> Group {
    guard case .cohort(let percent) = state else { return state == .on ? .enabled : .outside }
    if number < percent { return .enabled }
    return number < percent + min(percent, 100 - percent) ? .control : .outside
  }

  /// The device id kept in `store`, or `nil` when none was taken yet.
  ///
  /// - Throws: ``KeyValueStoreError`` when the store cannot be read or the value is not a
  ///   JSON string.
  public static func storedDeviceID(in store: any KeyValueStore) throws -> String? {
    guard let data = try store.data(forKey: keyValueStoreKey) else { return nil }
    guard let id = try? JSONDecoder().decode(String.self, from: data), !id.isEmpty else {
      throw KeyValueStoreError(
        code: .damaged, path: keyValueStoreKey,
        detail: "a device id must be a JSON string, found \(String(decoding: data, as: UTF8.self).debugDescription); "
          + "remove it and the next launch takes a new one (this device may change cohort)")
    }
    return id
  }

  /// The device id kept in `store`, taking `newID()` (and keeping it) when there is none.
  public static func deviceID(in store: any KeyValueStore, newID: () -> String = { UUID().uuidString }) throws -> String {
    if let id = try storedDeviceID(in: store) { return id }
    let id = newID()
    try store.set(try JSONEncoder().encode(id), forKey: keyValueStoreKey)
    return id
  }
}
