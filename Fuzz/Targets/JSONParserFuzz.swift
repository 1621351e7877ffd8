// libFuzzer target: the store's JSON parser (Internal/JSON/JSONParser), then the store's decoder
// over whatever parsed. Built by Scripts/fuzz.sh against the engine's own sources.
import Foundation
@testable import PlainStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  // A refusal is the expected outcome for most inputs: only a crash, a hang or a sanitizer
  // report is a finding.
  guard (try? JSONParser.parse(UnsafeBufferPointer(start: start, count: count))) != nil else { return 0 }
  let data = Data(bytes: start!, count: count)
  _ = Result { try StoreCoding.makeDecoder().decode([String: RawJSON].self, from: data) }
  _ = Result { try StoreCoding.makeDecoder().decode([RawJSON].self, from: data) }
  return 0
}
