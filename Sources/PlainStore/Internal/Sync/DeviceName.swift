import Foundation

/// A device's name, which its owner may change (a phone renamed, `BABYDASH_DEVICE_NAME` set
/// anew). `device.json` is created once and keeps the first; each later name is a create-once
/// `name-<number>.json` in the device's folder, `{"name":"…"}`, numbered after the last, and the
/// newest number is the name. Nothing is rewritten, so every carrier moves it as it moves a
/// change (see ``ChangeFormat`` for why `changes/` holds only files created once).
enum DeviceName {
  static let prefix = "name-"

  private struct Marker: Codable { var name: String }

  static func encode(_ name: String) throws -> Data { try StoreCoding.makeEncoder().encode(Marker(name: name)) }

  static func decode(_ data: Data) -> String? { try? StoreCoding.makeDecoder().decode(Marker.self, from: data).name }
}

extension ChangeFolder {
  /// The name a device goes by: its newest `name-<number>.json`'s, else its `device.json`'s;
  /// empty when it gave none.
  func deviceName(_ device: DeviceID) -> String {
    let newest = isCarrying ? newestRename(device) : nil
    return newest.flatMap { try? transport.read(atPath: filePath(device, $0.name), displayPath: display(device, $0.name)) }
      .flatMap(DeviceName.decode) ?? deviceInfo(device)?.name ?? ""
  }

  /// Says `name` as this device's name from now on, when it is another than the one it goes
  /// by; an empty name (the app gives none) changes nothing.
  func publishName(_ name: String, of device: DeviceID) throws {
    guard !name.isEmpty, FileSystem.isFolder(atPath: path + "/" + device.text), deviceName(device) != name else { return }
    let file = DeviceName.prefix + ChangeFileName.sequenceText((newestRename(device)?.number ?? 0) + 1) + ".json"
    _ = try transport.createOnce(try DeviceName.encode(name), atPath: filePath(device, file), displayPath: display(device, file))
  }

  private func newestRename(_ device: DeviceID) -> (name: String, number: Int)? {
    transport.list(path + "/" + device.text).arrived.compactMap { name -> (String, Int)? in
      guard case (.renamed(let number), false) = ChangeFileName.classify(name) else { return nil }
      return (name, number)
    }.max { $0.1 < $1.1 }
  }
}
