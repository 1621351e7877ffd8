// Shared by the change-file and snapshot targets (Scripts/fuzz.sh compiles it into both).
import Foundation
@testable import PlainStore

/// A body inside the change-file envelope, its checksum filled in, as ChangeFileCodec writes it.
enum FuzzEnvelope {
  static func sealed(_ body: Data, under key: String) -> Data {
    let checksum = HybridLogicalClock.text(ChangeFileCodec.checksum(body))
    return Data(#"{"checksum":"\#(checksum)","\#(key)":"#.utf8) + body + Data("}\n".utf8)
  }

  /// Gives `decode` the fuzzer's input as a whole file (the envelope's checks), then sealed under
  /// `key` with its checksum, so that the fuzzer reaches the decoder rather than stopping at the
  /// checksum.
  static func decodeWholeAndSealed(_ start: UnsafePointer<UInt8>?, _ count: Int, under key: String, with decode: (Data) -> Void) {
    let input = count == 0 ? Data() : Data(bytes: start!, count: count)
    decode(input)
    decode(sealed(input, under: key))
  }
}
