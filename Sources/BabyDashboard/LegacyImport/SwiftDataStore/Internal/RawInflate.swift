import CZlib
import Foundation

/// Inflates raw DEFLATE data (no zlib or gzip header), as Core Data stores `Z_MODELCACHE`.
///
/// Foundation's `NSData.decompressed(using: .zlib)` does this on Apple platforms but not on
/// Linux, so the system's zlib is called directly: `inflateInit2` with window bits −15.
enum RawInflate {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The inflated bytes; at most `limit` of them, so a hostile blob cannot exhaust memory.
  static func inflate(_ compressed: Data, limit: Int = 64 << 20) throws(Failure) -> Data {
    var stream = z_stream()
    guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw Failure(description: "zlib could not start inflating")
    }
    defer { inflateEnd(&stream) }
    var output = Data()
    var input = [UInt8](compressed)
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    var status: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { inputBytes in
      stream.next_in = inputBytes.baseAddress
      stream.avail_in = uInt(inputBytes.count)
      repeat {
        buffer.withUnsafeMutableBufferPointer { outputBytes in
          stream.next_out = outputBytes.baseAddress
          stream.avail_out = uInt(outputBytes.count)
          status = CZlib.inflate(&stream, Z_NO_FLUSH)
          output.append(outputBytes.baseAddress!, count: outputBytes.count - Int(stream.avail_out))
        }
      } while status == Z_OK && output.count <= limit && (stream.avail_in > 0 || stream.avail_out == 0)
    }
    guard output.count <= limit else { throw Failure(description: "it inflates to more than \(limit) bytes") }
    guard status == Z_STREAM_END else {
      let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
      throw Failure(description: "it is not raw DEFLATE data (\(reason))")
    }
    return output
  }
}
