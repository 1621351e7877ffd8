// libFuzzer target: the snapshot decoder (Truth/ChangeFileCodec, ChangeSnapshot), read as a
// whole file and, sealed with its checksum, as a snapshot's body.
import Foundation
@testable import PlainStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChangeSnapshot(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  FuzzEnvelope.decodeWholeAndSealed(start, count, under: "snapshot") { _ = ChangeFileCodec.decodeSnapshot($0) }
  return 0
}
