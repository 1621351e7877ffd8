import Foundation

/// The file-system changes one process made under a folder, in order, as the recording shim
/// (Scripts/fault-shim.c with FAULT_RECORD) wrote them, and what it printed between them.
struct FileOperationLog: Sendable {
  enum Operation: Sendable, Equatable {
    case write(inode: UInt64, offset: Int, bytes: Data)
    case truncate(inode: UInt64, size: Int)
    /// fsync or fdatasync of a file or a folder.
    case sync(inode: UInt64)
    case create(parent: UInt64, isFolder: Bool, inode: UInt64, name: String)
    case unlink(parent: UInt64, name: String)
    case rename(fromParent: UInt64, toParent: UInt64, fromName: String, toName: String)
    /// Bytes written to standard output: the process says a save returned.
    case output(String)
  }

  var operations: [Operation]

  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  init(operations: [Operation]) { self.operations = operations }

  /// Parses the shim's record: header lines, a write's or an output's bytes right after its line.
  init(parsing data: Data) throws {
    let bytes = [UInt8](data)
    var position = 0
    var operations: [Operation] = []
    while position < bytes.count {
      guard let newline = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else {
        throw Malformed(description: "an unfinished line at byte \(position)")
      }
      let header = String(decoding: bytes[position..<newline], as: UTF8.self)
      position = newline + 1
      let fields = header.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
      func number(_ index: Int) throws -> UInt64 {
        guard index < fields.count, let value = UInt64(fields[index]) else { throw Malformed(description: "bad line '\(header)'") }
        return value
      }
      func payload(_ count: Int) throws -> Data {
        guard position + count <= bytes.count else { throw Malformed(description: "'\(header)' lacks its bytes") }
        defer { position += count }
        return Data(bytes[position..<(position + count)])
      }
      switch fields.first {
      case "W":
        let count = Int(try number(3))
        operations.append(.write(inode: try number(1), offset: Int(try number(2)), bytes: try payload(count)))
      case "M":
        operations.append(.output(String(decoding: try payload(Int(try number(1))), as: UTF8.self)))
      case "T": operations.append(.truncate(inode: try number(1), size: Int(try number(2))))
      case "S": operations.append(.sync(inode: try number(1)))
      case "C":
        guard fields.count == 5 else { throw Malformed(description: "bad line '\(header)'") }
        operations.append(.create(parent: try number(1), isFolder: fields[2] == "d", inode: try number(3), name: fields[4]))
      case "U":
        let parts = header.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count == 3, let parent = UInt64(parts[1]) else { throw Malformed(description: "bad line '\(header)'") }
        operations.append(.unlink(parent: parent, name: parts[2]))
      case "R":
        let parts = header.split(separator: " ", maxSplits: 3).map(String.init)
        let names = parts.count == 4 ? parts[3].split(separator: "/", maxSplits: 1).map(String.init) : []
        guard names.count == 2, let from = UInt64(parts[1]), let to = UInt64(parts[2]) else {
          throw Malformed(description: "bad line '\(header)'")
        }
        operations.append(.rename(fromParent: from, toParent: to, fromName: names[0], toName: names[1]))
      default:
        throw Malformed(description: "unknown line '\(header)'")
      }
    }
    self.operations = operations
  }

  /// How many operations of each kind: for the report.
  var summary: String {
    var counts: [String: Int] = [:]
    for operation in operations {
      let kind: String
      switch operation {
      case .write: kind = "write"
      case .truncate: kind = "truncate"
      case .sync: kind = "sync"
      case .create: kind = "create"
      case .unlink: kind = "unlink"
      case .rename: kind = "rename"
      case .output: kind = "output"
      }
      counts[kind, default: 0] += 1
    }
    return counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
  }
}
