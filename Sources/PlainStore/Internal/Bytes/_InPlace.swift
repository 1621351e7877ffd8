/// An array's elements read and reordered where they lie, never copied: the local log's
/// changes are large values (a change carries its object), sorted on every commit and read.
enum _InPlace {
  /// Elements lent for reading by index: `elements[i].id` reads the id alone, where an array's
  /// subscript copies the whole element first.
  struct Elements<Element> {
    fileprivate let base: UnsafeBufferPointer<Element>

    var count: Int { base.count }

    @inline(__always) subscript(position: Int) -> Element {
      unsafeAddress { base.baseAddress! + position }
    }
  }

  static func reading<Element, R>(_ array: [Element], _ body: (Elements<Element>) -> R) -> R {
    array.withUnsafeBufferPointer { body(Elements(base: $0)) }
  }

  /// Puts the element at `source[i]` at `i`, for every `i` (`source` a permutation of the
  /// indices). Each cycle of the permutation in turn: a swap puts one element in place and
  /// carries the cycle's first element on, until it reaches the position that takes it. The
  /// buffer's swap moves elements, where an array's copies them.
  static func permute<Element>(_ array: inout [Element], taking source: [Int]) {
    var source = source
    array.withUnsafeMutableBufferPointer { elements in
      for start in elements.indices where source[start] != start {
        var position = start
        while source[position] != start {
          let from = source[position]
          elements.swapAt(position, from)
          source[position] = position
          position = from
        }
        source[position] = position
      }
    }
  }
}
