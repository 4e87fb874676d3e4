// Times Document.layout() of a flat document of N rows (fixed 20…200 + default insets, the
// workload of /work/shared/tools/peer_bench.py) and its parts, in thread CPU time (steadier than
// wall time on a shared machine): a lookup of every row in the Document (the floor set by the
// Document's storage), the bare engine on the same tree, building the [RowLayout] output alone,
// and the whole layout(). Best of REPS.
import Layout
#if canImport(Glibc)
import Glibc
#endif

func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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

let args = CommandLine.arguments
let n = args.count > 1 ? Int(args[1]) ?? 1_000_000 : 1_000_000
let reps = args.count > 2 ? Int(args[2]) ?? 5 : 5
func height(_ i: Int) -> Double { Double(20 + (i &* 7919) % 181) }

var doc = Document(name: "bench")
for i in 0..<n {
    try! doc.insertRow("r\(i)", config: RowConfig(size: .fixed(height(i))), parent: nil, at: i)
}
let ids = doc.children(of: nil)

let lookups = best(reps) {
    var found = 0
    for id in ids where doc.contains(id) { found += 1 }
    precondition(found == n)
}
let engine = best(reps) {
    var tree = FlexTree(capacity: n + 1)
    var rootStyle = FlexStyle()
    rootStyle.direction = .column
    rootStyle.width = .points(390)
    let root = tree.addNode(rootStyle, parent: nil)
    var row = FlexStyle()
    row.flexShrink = 0
    row.padding = Edges(top: 12, left: 15, bottom: 12, right: 15)
    for i in 0..<n {
        row.height = .points(height(i) + 24)
        tree.addNode(row, parent: root)
    }
    tree.computeLayout(root: root, availableWidth: 390, availableHeight: nil)
}
let output = best(reps) {
    var rows: [RowLayout] = []
    rows.reserveCapacity(n)
    for i in 0..<n {
        let f = Rect(x: 0, y: Double(i), width: 390, height: 44)
        rows.append(RowLayout(id: ids[i], parent: nil, index: i, type: "view", hidden: false, frame: f,
                              content: f, separator: f, visibility: .entire, percent: 100))
    }
    precondition(rows.count == n)
}
var last: DocumentLayout?
let layout = best(reps) { last = doc.layout() }
let transitions = best(reps) { precondition(last!.transitions(from: last!).isEmpty) }
let scroll = best(1) { _ = try! last!.scrollOffset(to: "r\(n / 2)", .middle) }
let rescroll = best(reps) { precondition(last!.atOffset(12_345).offset == 12_345) }
let hit = best(reps) { _ = last!.hitTest(x: 100, y: last!.contentSize.height / 2) }

func ms(_ s: Double) -> String { String(Int((s * 1000).rounded())) + " ms" }
print("rows \(n), best of \(reps), thread CPU time")
print("  Document lookup of every row  \(ms(lookups))")
print("  bare engine build + compute   \(ms(engine))")
print("  [RowLayout] output alone      \(ms(output))")
print("  Document.layout()             \(ms(layout))")
print("  transitions(from: same)       \(ms(transitions))")
print("  first scrollOffset(to:)       \(ms(scroll))")
print("  atOffset(_:)                  \(ms(rescroll))")
print("  hitTest                       \(ms(hit))")
