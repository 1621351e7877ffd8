import BabyDashboard
import Foundation
import Testing

/// The same behaviour from every backend.
@Suite struct KeyValueStoreTests {
  @Test(arguments: KeyValueBackend.allCases)
  func aValueReadsBackAsItWasSet(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    #expect(try store.data(forKey: "a") == nil)
    try store.set(Data("1".utf8), forKey: "a")
    try store.set(Data("2".utf8), forKey: "b")
    #expect(try store.data(forKey: "a") == Data("1".utf8))
    try store.set(Data("3".utf8), forKey: "a")
    #expect(try store.data(forKey: "a") == Data("3".utf8))
    #expect(try store.allKeys() == ["a", "b"])
  }

  @Test(arguments: KeyValueBackend.allCases)
  func allValuesAreEveryKeyWithItsValue(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    #expect(try store.allValues() == [:])
    try store.set(Data("1".utf8), forKey: "a")
    try store.set(Data(#"{"x":2}"#.utf8), forKey: "b")
    #expect(try store.allValues() == ["a": Data("1".utf8), "b": Data(#"{"x":2}"#.utf8)])
  }

  @Test(arguments: KeyValueBackend.allCases)
  func removingAKeyLeavesTheOthers(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    try store.set(Data("1".utf8), forKey: "a")
    try store.set(Data("2".utf8), forKey: "b")
    try store.remove(forKey: "a")
    try store.remove(forKey: "never-set")
    #expect(try store.data(forKey: "a") == nil)
    #expect(try store.allKeys() == ["b"])
  }

  @Test(arguments: KeyValueBackend.allCases)
  func movingAValueReplacesTheTargetAndClearsTheSource(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    try store.set(Data("old".utf8), forKey: "from")
    try store.set(Data("other".utf8), forKey: "to")
    try store.moveValue(fromKey: "from", toKey: "to")
    #expect(try store.data(forKey: "from") == nil)
    #expect(try store.data(forKey: "to") == Data("old".utf8))
    try store.moveValue(fromKey: "missing", toKey: "to")
    #expect(try store.data(forKey: "to") == Data("old".utf8))
  }

  @Test(arguments: KeyValueBackend.allCases)
  func keysWithAPrefixAreSorted(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    for key in ["p.z", "q.a", "p.a", "p.m"] { try store.set(Data(), forKey: key) }
    #expect(try store.keys(withPrefix: "p.") == ["p.a", "p.m", "p.z"])
  }
}
