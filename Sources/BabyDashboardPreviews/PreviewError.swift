/// Why the catalog, a rendering, or the preview files could not be used.
public struct PreviewError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, where, and what to do.
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
