import Foundation

/// Why a store operation failed: what, where, and what to do.
///
/// The description reads as one sentence for a person, for example
/// `damaged at 'Notes.store/changes/3f2a9c1e/00000042-0001.json': truncated JSON — the store was left untouched; restore the file from a backup or move it aside.`
public struct StoreError: Error, Equatable, CustomStringConvertible, Sendable {
  public enum Code: Equatable, Sendable {
    /// A file exists but cannot be read as what it should be.
    case damaged
    /// A file the store needs is not there.
    case missing
    /// The file was written by a newer format of PlainStore.
    case newerFormat(Int)
    /// The store was written with a newer schema than this program knows.
    case newerSchema(Int)
    /// Another process holds the store's lock for longer than the timeout.
    case locked
    /// A symbolic link stands where a store file should be.
    case symbolicLink
    /// A save would break a reference (a missing target, or a deny delete rule).
    case reference
    /// The entity is not in the schema, or a value is invalid for it.
    case invalidObject
    /// The requested history was pruned.
    case historyPruned
    /// The operating system refused a file operation.
    case io(Int32)
  }

  public var code: Code
  /// The file or object concerned, relative to the store's parent folder where there is one.
  public var path: String
  /// The reason and what to do.
  public var detail: String

  public init(_ code: Code, path: String, _ detail: String) {
    self.code = code
    self.path = path
    self.detail = detail
  }

  public var description: String {
    let name: String
    switch code {
    case .damaged: name = "damaged"
    case .missing: name = "missing"
    case .newerFormat(let version): name = "newer format \(version)"
    case .newerSchema(let version): name = "newer schema \(version)"
    case .locked: name = "locked"
    case .symbolicLink: name = "symbolic link"
    case .reference: name = "reference"
    case .invalidObject: name = "invalid object"
    case .historyPruned: name = "history pruned"
    case .io(let errno): name = "I/O error \(errno)"
    }
    return "\(name) at '\(path)': \(detail)"
  }
}
