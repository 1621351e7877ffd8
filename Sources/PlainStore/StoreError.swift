import Foundation

/// Why a store operation failed: what, where, and what to do.
///
/// The description reads as one sentence for a person, for example
/// `damaged at 'Notes.store/changes/3f2a9c1e/00000042-0001.json': truncated JSON — the store was left untouched; restore the file from a backup or move it aside.`
public struct StoreError: LocatedError, Equatable, Sendable {
  public enum Code: Equatable, Sendable {
    /// A file exists but cannot be read as what it should be.
    case damaged
    /// A file the store needs is not there.
    case missing
    /// The file was written by a newer format of PlainStore.
    case newerFormat(Int)
    /// The store was written with a newer schema than this program knows.
    case newerSchema(Int)
    /// A schema migration cannot run: the schema lists its migrations wrongly, or a step
    /// cannot transform a stored value. Nothing was written.
    case migration
    /// Another process holds the store's lock for longer than the timeout.
    case locked
    /// A symbolic link stands where a store file should be.
    case symbolicLink
    /// A save would break a reference (a missing target, or a deny delete rule).
    case reference
    /// The entity is not in the schema, or a value is invalid for it.
    case invalidObject
    /// An update or edit names an object that is not stored: never saved, or deleted by another
    /// context or process since it was read. The path names the entity and id.
    case notFound
    /// The requested history was pruned.
    case historyPruned
    /// The store was opened read-only (``StoreOptions/readOnly``), and this would write.
    case readOnly
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

  /// The code in words: "damaged", "newer format 3", "I/O error" (the system's reason, in words,
  /// is in the detail; its number stays in ``code`` for a program).
  public var kind: String {
    switch code {
    case .damaged: return "damaged"
    case .missing: return "missing"
    case .newerFormat(let version): return "newer format \(version)"
    case .newerSchema(let version): return "newer schema \(version)"
    case .migration: return "migration"
    case .locked: return "locked"
    case .symbolicLink: return "symbolic link"
    case .reference: return "reference"
    case .invalidObject: return "invalid object"
    case .notFound: return "not found"
    case .historyPruned: return "history pruned"
    case .readOnly: return "read-only"
    case .io: return "I/O error"
    }
  }
}
