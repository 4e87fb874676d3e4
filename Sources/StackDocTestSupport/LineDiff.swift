/// A unified diff of two texts, line by line (LCS), with three lines of context: what a failing
/// golden script shows.
public enum LineDiff {
    public static func unified(expected: String, actual: String, name: String) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let n = a.count, m = b.count
        // lcs[i][j] = LCS length of a[i...] and b[j...]
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Op { case same(String), del(String), ins(String) }
        var ops: [Op] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                ops.append(.same(a[i])); i += 1; j += 1
            } else if i < n, j == m || lcs[i + 1][j] >= lcs[i][j + 1] {
                ops.append(.del(a[i])); i += 1
            } else {
                ops.append(.ins(b[j])); j += 1
            }
        }
        var out = ["--- \(name) (expected)", "+++ \(name) (actual)"]
        var k = 0
        var lastPrinted = -1
        while k < ops.count {
            if case .same = ops[k] { k += 1; continue }
            let start = max(lastPrinted + 1, k - 3)
            if start > lastPrinted + 1 { out.append("@@") }
            var e = k
            var sameRun = 0
            while e < ops.count {
                if case .same = ops[e] { sameRun += 1; if sameRun > 6 { break } } else { sameRun = 0 }
                e += 1
            }
            let end = min(ops.count, e - max(0, sameRun - 3))
            for x in start..<end {
                switch ops[x] {
                case .same(let s): out.append(" " + s)
                case .del(let s): out.append("-" + s)
                case .ins(let s): out.append("+" + s)
                }
            }
            lastPrinted = end - 1
            k = end
        }
        return out.joined(separator: "\n")
    }
}
