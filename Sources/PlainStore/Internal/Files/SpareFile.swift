import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An empty file made before a commit takes the store's lock, which the commit's change file is
/// written into and renamed from.
///
/// Creating a file is the dearest step of a commit after its flush: the file system looks for a
/// free inode, and ext4 without a journal (as on the machine the figures come from) passes over
/// every one freed in the last minutes. Made ahead, that search happens while the other
/// processes' commits hold the lock rather than while they wait for it.
///
/// Its name is a temporary one (`.spare.<pid>.<random>.tmp`), which readers ignore and the
/// first commit of each process removes as a leftover: a spare removed that way, or one that
/// cannot be renamed where the change file goes, is let go and the change file is created as
/// if there had been none. So a spare changes where the work happens, never what ends up on
/// disk.
final class SpareFile {
  let path: String
  private var fd: Int32

  /// A new empty file in `folder` (0600), or nil when one cannot be made there.
  init?(in folder: String) {
    guard MemoryMedium.holding(folder) == nil else { return nil }  // in memory a file costs nothing to make
    path = folder + "/.spare.\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    fd = FileSystem.createFile(atPath: path, flags: O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    fchmod(fd, 0o600)  // whatever the umask
  }

  /// Writes `data` into the spare and renames it to `target`, not flushed. Returns false, with
  /// nothing at `target`, when the spare cannot be used (it is let go); throws, letting it go,
  /// when writing fails. Used at most once.
  func place(_ data: Data, atPath target: String, displayPath: String) throws -> Bool {
    guard fd >= 0 else { return false }
    do {
      try FileSystem.writeAll(data, to: fd, displayPath: displayPath)
    } catch {
      discard()
      throw error
    }
    close(fd)
    fd = -1
    guard rename(path, target) == 0 else {
      unlink(path)
      return false
    }
    return true
  }

  /// Lets the spare go unused: closed and removed. Does nothing once it is placed or let go.
  func discard() {
    guard fd >= 0 else { return }
    close(fd)
    fd = -1
    unlink(path)
  }
}
