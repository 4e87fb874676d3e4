// Measures the `Document` storage on a flat document of N rows (fixed 20…200, everything else
// default: the workload of /work/shared/tools/peer_bench.py): RSS of the document, building it,
// lookups by id, the document-order walk, Document.layout(), and the cost of single edits
// (insert/remove/move/update/index(of:)) on the full document, plus a copy-on-write copy.
// Thread CPU time; bulk numbers are the best of REPS, edit numbers the mean of 2000 edits.
//   cd scripts/docstore-bench && swift run -c release docstore-bench 1000000 3
import Foundation
import Layout
#if canImport(Glibc)
import Glibc
#endif

func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func rssMB() -> Double {
    guard let f = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(f) }
    var size = 0, resident = 0
    withUnsafeMutablePointer(to: &size) { s in
        withUnsafeMutablePointer(to: &resident) { r in
            _ = withVaList([s, r]) { vfscanf(f, "%ld %ld", $0) }
        }
    }
    return Double(resident) * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func best(_ reps: Int, _ body: () -> Void) -> Double {
    var result = Double.infinity
    for _ in 0..<reps {
        let t0 = cpuNow()
        body()
        result = min(result, cpuNow() - t0)
    }
    return result
}

/// Mean time of one call over `count` calls.
func each(_ count: Int, _ body: (Int) throws -> Void) rethrows -> Double {
    let t0 = cpuNow()
    for i in 0..<count { try body(i) }
    return (cpuNow() - t0) / Double(count)
}

let args = CommandLine.arguments
let n = args.count > 1 ? Int(args[1]) ?? 1_000_000 : 1_000_000
let reps = args.count > 2 ? Int(args[2]) ?? 3 : 3
func height(_ i: Int) -> Double { Double(20 + (i &* 7919) % 181) }
func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
func us(_ s: Double) -> String { String(format: "%.2f µs", s * 1e6) }
func mb(_ m: Double) -> String { String(format: "%.0f MB", m) }

let ids = (0..<n).map { "r\($0)" }
let rss0 = rssMB()
var doc = Document(name: "bench")
var t0 = cpuNow()
doc.reserveCapacity(rows: n, rootRows: n)
for i in 0..<n {
    try! doc.appendRow(ids[i], config: RowConfig(size: .fixed(height(i))), parent: nil)
}
let build = cpuNow() - t0
let rss1 = rssMB()
print("rows \(n), thread CPU time (bulk: best of \(reps); edits: mean of 2000)")
print("  RSS of the document (after appendRow ×N with reserveCapacity)  \(mb(rss1 - rss0))  (process \(mb(rss1)))")
print("  build by appendRow                  \(ms(build))")

var doc2 = Document(name: "bench")
t0 = cpuNow()
for i in 0..<n {
    try! doc2.insertRow(ids[i], config: RowConfig(size: .fixed(height(i))), parent: nil, at: i)
}
print("  build by insertRow at the end       \(ms(cpuNow() - t0))")
doc2.name = doc.name
let equalOther = best(reps) { precondition(doc == doc2) }
print("  == (equal document, other storage)  \(ms(equalOther))")
doc2 = Document(name: "empty")

let lookups = best(reps) {
    var found = 0
    for id in ids where doc.contains(id) { found += 1 }
    precondition(found == n)
}
print("  contains() of every row (in order)  \(ms(lookups))")
var shuffled = ids
var g = SystemRandomNumberGenerator()
shuffled.shuffle(using: &g)
let randomLookups = best(reps) {
    var total = 0.0
    for id in shuffled.prefix(200_000) { total += doc.config(of: id)!.content.height }
    precondition(total == 0)
}
print("  config(of:) at random, per call     \(us(randomLookups / 200_000))")
let walk = best(reps) {
    var count = 0
    doc.forEachRow { _, _, _, _ in count += 1 }
    precondition(count == n)
}
print("  forEachRow (document order)         \(ms(walk))")
let childWalk = best(reps) {
    var count = 0
    doc.forEachChild(of: nil) { _, _, _ in count += 1 }
    precondition(count == n)
}
print("  forEachChild(of: nil)               \(ms(childWalk))")
let childArray = best(reps) { precondition(doc.children(of: nil).count == n) }
print("  children(of: nil) array             \(ms(childArray))")
var layout: DocumentLayout?
let layoutTime = best(reps) { layout = doc.layout() }
precondition(layout!.rows.count == n)
print("  Document.layout()                   \(ms(layoutTime))")
let equal = best(reps) { precondition(doc == doc) }
print("  == (same document)                  \(ms(equal))")
let hashing = best(1) { _ = doc.hashValue }
print("  hashValue                           \(ms(hashing))")

// Single edits on the full document (the document is unshared: no copy-on-write copies).
let edits = 2000
let config = RowConfig(size: .fixed(44))
let insertTop = try! each(edits) { i in try doc.insertRow("top\(i)", config: config, parent: nil, at: 0) }
let removeTop = try! each(edits) { i in try doc.removeRow("top\(i)") }
let insertMid = try! each(edits) { i in try doc.insertRow("mid\(i)", config: config, parent: nil, at: n / 2) }
let removeMid = try! each(edits) { i in try doc.removeRow("mid\(i)") }
let move = try! each(edits) { i in try doc.moveRow(ids[(i &* 7919) % n], to: nil, at: (i &* 104_729) % n) }
let update = try! each(edits) { i in
    try doc.updateRow(ids[(i &* 7919) % n], config: RowConfig(size: .fixed(Double(i % 100)), hidden: i % 2 == 0))
}
var sink = 0
let indexOf = each(edits) { i in sink &+= doc.index(of: shuffled[i])! }
let childAt = each(edits) { i in sink &+= doc.child(at: (i &* 7919) % n, of: nil)!.utf8.count }
let missing = each(edits) { i in sink &+= doc.contains("top\(i)") ? 1 : 0 }
let pairTop = try! each(edits) { _ in
    try doc.insertRow("pair", config: config, parent: nil, at: 0)
    try doc.removeRow("pair")
}
let pairEnd = try! each(edits) { _ in
    try doc.insertRow("pair", config: config, parent: nil, at: n)
    try doc.removeRow("pair")
}
print("  contains() of a missing id          \(us(missing))")
print("  insertRow at 0 + removeRow (pair)   \(us(pairTop))")
print("  insertRow at end + removeRow (pair) \(us(pairEnd))")
print("  insertRow at 0                      \(us(insertTop))")
print("  removeRow (was at 0)                \(us(removeTop))")
print("  insertRow at n/2                    \(us(insertMid))")
print("  removeRow (was at n/2)              \(us(removeMid))")
print("  moveRow to a random index           \(us(move))")
print("  updateRow (size + hidden)           \(us(update))")
print("  index(of:) random row               \(us(indexOf))")
print("  child(at:of:) random index          \(us(childAt))")

// Copy-on-write: an edit while a copy of the document is alive copies the touched arrays once.
var version = 0.0
let cow = best(reps) {
    let snapshot = doc
    version += 1
    try! doc.updateRow(ids[5], config: RowConfig(size: .fixed(1000 + version)))
    precondition(snapshot.config(of: ids[5]) != doc.config(of: ids[5]))
}
print("  edit while a copy is alive (CoW)    \(ms(cow))")
print("  RSS now                             \(mb(rssMB()))  (sink \(sink % 10))")
