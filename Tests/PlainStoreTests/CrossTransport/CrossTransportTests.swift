import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// The same saves, carried by a plain folder, by iCloud Drive and by CloudKit (each simulated,
/// each through the engine's own carrier), end in byte-identical exports: after every full
/// exchange, what `babydash export` prints is the same on both phones and on every carrier. The
/// transport only carries files; the fold alone decides what the phones show.
///
/// `CROSS_TRANSPORT_SEEDS=3000 swift test --filter CrossTransportTests` runs more seeds.
@Suite struct CrossTransportTests {
  static let seedCount = ProcessInfo.processInfo.environment["CROSS_TRANSPORT_SEEDS"].flatMap(Int.init) ?? 300

  /// Four parts, each on a thread of its own: blocking runs must not hold the cooperative pool
  /// that live-query tests wait on.
  @Test(arguments: 0..<4)
  func theSameSavesEndInTheSameExportOnEveryCarrier(part: Int) async throws {
    let outcomes = try await onOwnThread(computing: true) {
      try stride(from: part, to: Self.seedCount, by: 4).map { try Self.run(seed: UInt64($0)) }
    }
    let failures = outcomes.compactMap(\.failure)
    #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
    // A run that ends with nothing to carry proves nothing of the carriers.
    #expect(outcomes.filter { $0.objects >= 4 }.count >= outcomes.count / 2, "too few runs ended with babies, feeds and diapers")
  }

  /// What one seed did on every carrier: what differs, in words (nil: every export alike), and
  /// how many objects the last export holds.
  struct Outcome: Sendable {
    var failure: String?
    var objects = 0
  }

  static func run(seed: UInt64) throws -> Outcome {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    var results: [(CrossTransportCarrier, [Data])] = []
    for carrier in CrossTransportCarrier.allCases {
      var run = CrossTransportRun(seed: seed, carrier: carrier)
      do {
        results.append((carrier, try run.run(in: scratch.url.appendingPathComponent(carrier.rawValue))))
      } catch {
        return Outcome(failure: "seed \(seed): \(error)")
      }
    }
    let (first, expected) = results[0]
    for (carrier, exports) in results.dropFirst() where exports != expected {
      let at = zip(exports, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(exports.count, expected.count)
      return Outcome(failure: "seed \(seed): \(carrier) differs from \(first) at exchange \(at + 1) of \(expected.count)")
    }
    let last = String(decoding: expected.last ?? Data(), as: UTF8.self)
    return Outcome(objects: ["\"id\"", "\"uuid\""].map { last.components(separatedBy: $0).count - 1 }.reduce(0, +))
  }
}
