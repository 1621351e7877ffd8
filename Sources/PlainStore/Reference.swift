import Foundation

/// A to-one reference from `Source` to another entity, by id, with a delete rule.
///
/// ```swift
/// Reference(\Note.notebookID, to: Notebook.self, onDelete: .nullify)
/// ```
/// The to-many side needs no declaration: it is a fetch on the key.
public struct Reference<Source: Entity>: Sendable {
  let key: WritableKeyPath<Source, UUID?> & Sendable
  let keyName: String
  let targetEntity: String
  let deleteRule: DeleteRule

  public init<Target: Entity>(
    _ key: WritableKeyPath<Source, UUID?> & Sendable, to target: Target.Type, onDelete deleteRule: DeleteRule
  ) {
    self.key = key
    // A key path with no name of its own is the entity schema's error (it resolves this one too).
    self.keyName = (try? CodableKeyNames.names(of: [key], in: Source.self, role: "references").get())?.first ?? displayName(of: key)
    self.targetEntity = Target.entityName
    self.deleteRule = deleteRule
  }
}
