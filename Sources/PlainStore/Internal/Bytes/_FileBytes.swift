import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The buffers of the POSIX file layer's system calls — `read`, `pread`, `write`, a folder
/// entry's name, an inotify event's fields — in one place, so that the file layer itself holds
/// no pointer. Each call is one system call or one field: retrying on `EINTR`, and saying what
/// a failure means, stay with the callers. Not named `read` and `write`, which would hide the C
/// library's here, as the file layer's own `read` hides them there.
enum _FileBytes {
  /// Reads at the descriptor's position into `buffer` from `offset` to its end; the count
  /// `read` returns (-1 with `errno` set).
  static func readSome(_ fd: Int32, into buffer: inout Data, from offset: Int) -> Int {
    buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
  }

  /// Reads at the descriptor's position into the whole of `buffer`.
  static func readSome(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
    buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
  }

  /// Reads `buffer.count` bytes at `offset` in the file (`pread`), leaving the position alone.
  static func readSome(_ fd: Int32, into buffer: inout [UInt8], atOffset offset: Int) -> Int {
    buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(offset)) }
  }

  /// Writes `data` from `offset` to its end at the descriptor's position; the count `write`
  /// returns (-1 with `errno` set).
  static func writeSome(_ fd: Int32, _ data: Data, from offset: Int) -> Int {
    data.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
  }

  /// The name of a folder entry `readdir` returned.
  static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
    withUnsafePointer(to: &entry.pointee.d_name) {
      String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
    }
  }

  /// A 32-bit field of a kernel record in the machine's byte order, wherever it lies in `bytes`
  /// (an inotify event's watch descriptor, its name's length).
  static func nativeUInt32(in bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
    bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: UInt32.self) }
  }
}
