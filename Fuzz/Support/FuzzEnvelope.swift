// Shared by the change-file and snapshot targets (Scripts/fuzz.sh compiles it into both).
import Foundation
@testable import PlainStore

/// A body inside the change-file envelope, its checksum filled in, as ChangeFileCodec writes it.
enum FuzzEnvelope {
  static func sealed(_ body: Data, under key: String) -> Data {
    let checksum = HybridLogicalClock.text(ChangeFileCodec.checksum(body))
    return Data(#"{"checksum":"\#(checksum)","\#(key)":"#.utf8) + body + Data("}\n".utf8)
  }
}
