import Foundation

/// Where `BatchRunner` takes a script's lines from: the next line (waiting for it when it has
/// not come yet), or the next line only when it has already arrived. A group batch
/// (`BatchRunner`) gathers only lines that have arrived, so a line that waits for its reader (a
/// client sending one request and waiting for its reply) never holds back the replies before it.
protocol ScriptLineSource {
    /// The next line, waiting for it if need be; nil at the end.
    mutating func next() -> ScriptLine?
    /// The next line when it is already at hand without waiting; nil when it is not (yet), or at
    /// the end.
    mutating func nextIfArrived() -> ScriptLine?
}

/// The lines of a sequence, all of which have arrived (a file read whole, `-c` commands).
struct ArrivedLines<Base: IteratorProtocol>: ScriptLineSource where Base.Element == ScriptLine {
    var base: Base

    mutating func next() -> ScriptLine? { base.next() }
    mutating func nextIfArrived() -> ScriptLine? { base.next() }
}

/// Lines of standard input, read lazily as bytes (a script may be piped in slowly); a line that
/// is not UTF-8 is reported by the runner with its number.
struct StandardInputLines: ScriptLineSource {
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    private var first = true

    mutating func next() -> ScriptLine? {
        while true {
            if let line = bufferedLine() { return line }
            if ended { return nil }
            fflush(nil)  // replies held in the buffer (`Output.printHeld`) go out before we wait
            readChunk()
        }
    }

    mutating func nextIfArrived() -> ScriptLine? {
        if let line = bufferedLine() { return line }
        guard !ended else { return nil }
        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return nil }  // nothing more has arrived
        readChunk()  // readable: does not wait
        return bufferedLine()
    }

    /// The next whole line in the buffer (the rest at the end of input), else nil.
    private mutating func bufferedLine() -> ScriptLine? {
        if let newline = buffer[start...].firstIndex(of: 0x0A) {
            let line = Array(buffer[start..<newline])
            start = newline + 1
            return take(line)
        }
        guard ended, start < buffer.count else { return nil }
        let line = Array(buffer[start...])
        start = buffer.count
        return take(line)
    }

    /// Reads what standard input has (waiting until it has something, or ends).
    private mutating func readChunk() {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
            return
        }
    }

    private mutating func take(_ line: [UInt8]) -> ScriptLine {
        defer { first = false }
        return ScriptLine(bytes: first ? ScriptLine.droppingByteOrderMark(line) : line[...])
    }
}
