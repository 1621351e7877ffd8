// libFuzzer target: the change-file decoder (Truth/ChangeFileCodec, ChangeFile). The input is
// read as a whole file (the envelope's checks) and, sealed with its checksum, as a change's body,
// so that the fuzzer reaches the decoder rather than stopping at the checksum.
import Foundation
@testable import PlainStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChangeFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  FuzzEnvelope.decodeWholeAndSealed(start, count, under: "change") { _ = ChangeFileCodec.decode($0) }
  return 0
}
