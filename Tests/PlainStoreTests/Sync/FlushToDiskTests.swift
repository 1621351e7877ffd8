import Foundation
import Testing

@testable import PlainStore

/// Settling the journal flushes its change files several at a time, on threads of their own.
/// Every file is flushed, and which failure is reported does not depend on which thread got
/// there first: the first failing file's, in the order given.
@Suite struct FlushToDiskTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreFlush-\(UUID().uuidString)")

  /// `count` files of a few bytes each, written without a flush.
  func files(_ count: Int) throws -> [URL] {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return try (0..<count).map { index in
      let url = folder.appendingPathComponent(String(format: "%012d.json", index))
      try Data("{\"n\":\(index)}".utf8).write(to: url)
      return url
    }
  }

  @Test(arguments: [0, 1, 2, FileSystem.maximumFlushesInFlight, 100])
  func everyFileIsFlushed(count: Int) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let urls = try files(count)
    try FileSystem.flushToDisk(paths: urls.map(\.path), folders: [folder], displayPath: "local/journal")
    // Every file is opened to be flushed, whichever lane it falls to: a symbolic link put in
    // its place, one place at a time, is met and refused.
    let link = folder.appendingPathComponent("link.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: urls.first ?? folder)
    for place in 0..<count {
      var paths = urls.map(\.path)
      paths[place] = link.path
      #expect(throws: StoreError.self, "the file at \(place) of \(count) was not flushed") {
        try FileSystem.flushToDisk(paths: paths, folders: [folder], displayPath: "local/journal")
      }
    }
  }

  @Test func theFirstFailingFileInOrderIsReported() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var urls = try files(100)
    // A symbolic link early, a missing file late: whichever thread meets its fault first, the
    // link is what is reported; swapped, the missing file is.
    let link = folder.appendingPathComponent("link.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: urls[0])
    let missing = folder.appendingPathComponent("missing.json")
    urls.insert(link, at: 5)
    urls.insert(missing, at: 90)
    for _ in 0..<20 {
      #expect(throws: StoreError.self) {
        do {
          try FileSystem.flushToDisk(paths: urls.map(\.path), folders: [folder], displayPath: "local/journal")
        } catch let error as StoreError {
          #expect(error.code == .symbolicLink, "\(error)")
          throw error
        }
      }
    }
    urls.swapAt(5, 90)
    for _ in 0..<20 {
      #expect(throws: StoreError.self) {
        do {
          try FileSystem.flushToDisk(paths: urls.map(\.path), folders: [folder], displayPath: "local/journal")
        } catch let error as StoreError {
          #expect(error.code == .io(ENOENT), "\(error)")
          #expect(error.path == "local/journal")
          throw error
        }
      }
    }
  }

  @Test func aMissingFolderIsReportedAfterTheFiles() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let urls = try files(20)
    let gone = folder.appendingPathComponent("gone")
    #expect(throws: StoreError.self) {
      try FileSystem.flushToDisk(paths: urls.map(\.path), folders: [gone], displayPath: "local/journal")
    }
  }
}
