import Foundation
import Testing

@testable import PlainStore

/// A store's local log as the tests damage it: one transaction's record rewritten whole (its
/// header's length and checksum made to match), so that the damage is in what the record says.
struct LocalLogFile {
  let store: URL

  private var log: LocalLog { LocalLog(folder: store.appendingPathComponent("local/log"), displayName: "local/log") }

  /// The stream that holds `sequence`, as a path inside the store ("local/log/00000002.log").
  func path(holding sequence: Int) throws -> String {
    let record = try #require(try log.read(from: sequence, cursor: nil).records.first { $0.sequence == sequence })
    return "local/log/" + LocalLog.streamName(record.stream)
  }

  /// The JSON of transaction `sequence`'s record.
  func json(of sequence: Int) throws -> String {
    let record = try #require(try log.read(from: sequence, cursor: nil).records.first { $0.sequence == sequence })
    return String(decoding: record.bytes, as: UTF8.self)
  }

  /// Writes the stream holding `sequence` again with that record's JSON replaced.
  func replace(_ sequence: Int, with json: String) throws {
    let path = try path(holding: sequence)
    let first = try #require(LocalLog.streamFirst(String(path.dropFirst("local/log/".count))))
    var stream = Data()
    for record in try log.read(from: first, cursor: nil).records where record.stream == first {
      stream.append(LocalLog.frame(sequence: record.sequence, body: record.sequence == sequence ? Data(json.utf8) : record.bytes))
    }
    try stream.write(to: store.appendingPathComponent(path))
  }
}
