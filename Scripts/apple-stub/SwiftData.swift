// The SwiftData declarations that the domain's Apple files (Sources/BabyDashboard/Apple/) use,
// and nothing else, as Apple's documentation declares them (the page beside each). Linux has no
// SwiftData; Scripts/check-apple-stub.sh compiles this file as the module SwiftData, type-checks
// the Apple files against it, and proves each declaration is used and is missing on Linux.
//
// Each declaration ends with `// uses: TEXT | probe: EXPRESSION`: TEXT must appear in the Apple
// files, and EXPRESSION must NOT compile against Linux's Foundation alone.
// Bodies are never run: this file is only type-checked.
import Foundation
import Observation

// https://developer.apple.com/documentation/swiftdata/persistentmodel
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable {}  // uses: PersistentModel | probe: (any PersistentModel).self

// https://developer.apple.com/documentation/swiftdata/fetchdescriptor
// https://developer.apple.com/documentation/swiftdata/fetchdescriptor/init(predicate:sortby:)
public struct FetchDescriptor<T> where T: PersistentModel {  // uses: SwiftData.FetchDescriptor< | probe: { (m: any PersistentModel) in func f<T: PersistentModel>(_: T) -> Any { SwiftData.FetchDescriptor<T>.self }; return f(m) }
  public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) { fatalError() }  // uses: FetchDescriptor<Model>() | probe: { (m: any PersistentModel) in func f<T: PersistentModel>(_: T) -> Any { SwiftData.FetchDescriptor<T>() }; return f(m) }
}

// https://developer.apple.com/documentation/swiftdata/modelcontext
public class ModelContext {  // uses: ModelContext | probe: ModelContext.self
  // https://developer.apple.com/documentation/swiftdata/modelcontext/fetch(_:)
  public func fetch<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T: PersistentModel { fatalError() }  // uses: context.fetch( | probe: { (m: any PersistentModel, c: ModelContext) throws in func f<T: PersistentModel>(_: T) throws -> [T] { try c.fetch(SwiftData.FetchDescriptor<T>()) }; return try f(m) }
  // https://developer.apple.com/documentation/swiftdata/modelcontext/insert(_:)
  public func insert<T>(_ model: T) where T: PersistentModel { fatalError() }  // uses: context.insert( | probe: { (m: any PersistentModel, c: ModelContext) in c.insert(m) }
  // https://developer.apple.com/documentation/swiftdata/modelcontext/delete(_:)
  public func delete<T>(_ model: T) where T: PersistentModel { fatalError() }  // uses: context.delete( | probe: { (m: any PersistentModel, c: ModelContext) in c.delete(m) }
  // https://developer.apple.com/documentation/swiftdata/modelcontext/save()
  public func save() throws { fatalError() }  // uses: context.save() | probe: { (c: ModelContext) throws in try c.save() }
  // https://developer.apple.com/documentation/swiftdata/modelcontext/rollback()
  public func rollback() { fatalError() }  // uses: context.rollback() | probe: { (c: ModelContext) in c.rollback() }
}
