import Foundation
import StackDocRuntime
import Testing
import StackDocTestSupport

/// `BackgroundTask` runs its body where its place says and hands back the result.
@Suite(.offThePool) struct BackgroundTaskTests {
    /// The calling thread's id.
    static func threadID() -> UInt { UInt(pthread_self()) }

    #if os(Linux)
    /// The whole of a file the kernel makes as it is read (its size says 0): read() until it
    /// ends. (`String(contentsOfFile:)` gave a truncated /proc/self/maps once the test process
    /// held the executors' threads, and the stack's line was in the part it dropped.)
    static func readWhole(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The size of the mapping of this process that holds `address` (/proc/self/maps).
    static func mappingSize(holding address: UInt) -> Int? {
        let maps = readWhole("/proc/self/maps")
        for line in maps.split(separator: "\n") {
            let range = line.prefix { $0 != " " }.split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else { continue }
            if start <= address, address < end { return Int(end - start) }
        }
        return nil
    }

    @Test func anOwnThreadHasTheStackAskedFor() throws {
        let caller = Self.threadID()
        for stackBytes in [1 << 20, 8 << 20] {
            let task = BackgroundTask(.ownThread(stackBytes: stackBytes)) { () -> (thread: UInt, stack: Int?) in
                var local = 0
                let address = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
                return (Self.threadID(), Self.mappingSize(holding: address))
            }
            let (thread, stack) = task.value
            #expect(thread != caller)
            let size = try #require(stack, "the thread's stack is mapped")
            // (glibc takes its guard page and the thread's descriptor out of the size asked.)
            #expect(abs(size - stackBytes) < 1 << 16, "a stack of \(size) bytes for \(stackBytes)")
        }
    }
    #endif

    @Test func theCallingThreadRunsItAtOnce() {
        let caller = Self.threadID()
        let ranHere = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        defer { ranHere.deallocate() }
        ranHere.pointee = false
        let pointer = Pointer(ranHere)
        let task = BackgroundTask(.callingThread) { () -> UInt in
            pointer.value.pointee = true
            return Self.threadID()
        }
        #expect(ranHere.pointee, "before `value` is asked")
        #expect(task.value == caller)
    }

    @Test func thePoolRunsItElsewhere() {
        let caller = Self.threadID()
        let task = BackgroundTask(.pool) { (Self.threadID(), (1...1000).reduce(0, +)) }
        #expect(task.value.0 != caller)
        #expect(task.value.1 == 500_500, "read twice: the same result")
    }

    @Test func detachedWorkRuns() {
        let done = DispatchSemaphore(value: 0)
        BackgroundTask<Void>.detached { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    /// A pointer handed to a task (the test reads it only after the task ran).
    struct Pointer: @unchecked Sendable {
        let value: UnsafeMutablePointer<Bool>
        init(_ value: UnsafeMutablePointer<Bool>) { self.value = value }
    }
}
