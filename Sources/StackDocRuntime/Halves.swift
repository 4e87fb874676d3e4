import Dispatch

/// Work in two halves done at once, on the calling thread and one of the shared pool
/// (`DispatchQueue.concurrentPerform`), when it is big enough; else one after the other on the
/// calling thread. For passes that fill fresh columns index by index (each index written by
/// one half only, nothing shared written), so the result is the one-thread result whichever
/// thread did which half: building a big live layout faults in tens of megabytes of fresh
/// pages, and two threads fault in two pages at a time.
package enum Halves {
    /// Counts below this are done on the calling thread (the fork and join cost a few microseconds).
    package static let defaultMinimum = 1 << 16

    /// Calls `half(0)` and `half(1)`, both at once when `count >= minimum`, and returns when
    /// both are done.
    package static func both(count: Int, minimum: Int = defaultMinimum, _ half: @Sendable (Int) -> Void) {
        if count >= minimum {
            DispatchQueue.concurrentPerform(iterations: 2, execute: half)
        } else {
            half(0)
            half(1)
        }
    }

    /// Calls `body` once per half of `0..<count` (`0..<count/2` and `count/2..<count`), both
    /// at once when `count >= minimum`, and returns when both are done.
    package static func forEach(count: Int, minimum: Int = defaultMinimum, _ body: @Sendable (Range<Int>) -> Void) {
        both(count: count, minimum: minimum) { half in
            body(half == 0 ? 0..<count / 2 : count / 2..<count)
        }
    }
}

/// A buffer lent to the two halves of `Halves.forEach`, which write disjoint indexes of it.
package struct SharedBuffer<Element>: @unchecked Sendable {
    package let buffer: UnsafeMutableBufferPointer<Element>

    /// Lends `buffer` to the halves.
    package init(buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
