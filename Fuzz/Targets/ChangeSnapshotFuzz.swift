// libFuzzer target: the snapshot decoder (Truth/ChangeFileCodec, ChangeSnapshot), read as a
// whole file and, sealed with its checksum, as a snapshot's body.
import Foundation
@testable import PlainStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChangeSnapshot(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let input = count == 0 ? Data() : Data(bytes: start!, count: count)
  _ = ChangeFileCodec.decodeSnapshot(input)
  _ = ChangeFileCodec.decodeSnapshot(FuzzEnvelope.sealed(input, under: "snapshot"))
  return 0
}
