// libFuzzer target: the SwiftData importer's binary property-list reader
// (BabyDashboard/LegacyImport/SwiftDataStore/Internal/BinaryPropertyList.swift), compiled with
// this file into one module by Scripts/fuzz.sh, as the reader needs nothing else of the domain.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPropertyList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let input = count == 0 ? Data() : Data(bytes: start!, count: count)
  _ = Result { () throws(BinaryPropertyList.Failure) in try BinaryPropertyList.parse(input) }
  return 0
}
