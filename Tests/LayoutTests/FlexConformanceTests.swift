import Foundation
import Testing
import Layout
import StackDocTestSupport

/// Lays out the 230 fixtures of `Fixtures/flex-fixtures.json` under max-content available
/// space and compares every node's frame with headless Chromium's within 0.1: one test case per
/// fixture, named by its id (`swift test --filter` with the id runs one).
@Suite("Flex conformance (Chromium fixtures)", .offThePool)
struct FlexConformanceTests {
    static let tolerance = 0.1

    /// The fixtures by id (empty when the file cannot be loaded: `allFixturesAreThere` fails then).
    static let fixtures: [String: FlexFixture] = {
        let all = (try? FlexFixture.loadAll()) ?? []
        return Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The fixture ids in file order: the test cases.
    static let fixtureIDs: [String] = ((try? FlexFixture.loadAll()) ?? []).map(\.id)

    @Test func allFixturesAreThere() throws {
        let loaded = try FlexFixture.loadAll()
        #expect(loaded.count == 230)
        #expect(Set(loaded.map(\.id)).count == loaded.count, "fixture ids are unique (they name the test cases)")
        #expect(Self.fixtureIDs.count == 230)
    }

    @Test(arguments: fixtureIDs)
    func fixtureMatchesChromium(_ id: String) throws {
        let fixture = try #require(Self.fixtures[id])
        let (passed, failures) = check([fixture])
        #expect(passed == 1 && failures.isEmpty, "\(id) fails:\n\(failures.joined(separator: "\n"))")
    }

    /// Random trees (scripts/flex-oracle/random_trees.py, with min sizes, negative margins,
    /// fractional sizes and factors) laid out by Chromium 156 with scripts/flex-oracle/oracle.py.
    @Test func randomTreesMatchChromium() throws {
        let fixtures = try FlexFixture.loadAll("flex-random-fixtures")
        #expect(fixtures.count >= 300)
        let (passed, failures) = check(fixtures)
        print("flex random conformance: \(passed)/\(fixtures.count) trees pass")
        #expect(failures.isEmpty, "\(fixtures.count - passed) trees fail:\n\(failures.joined(separator: "\n"))")
    }

    /// Extra fixture files named in `FLEX_FIXTURES` (colon-separated paths, e.g. the output of
    /// scripts/flex-oracle/oracle.py); skipped when unset.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FLEX_FIXTURES"] != nil))
    func fixturesFromEnvironmentMatchChromium() throws {
        let paths = (ProcessInfo.processInfo.environment["FLEX_FIXTURES"] ?? "").split(separator: ":")
        for path in paths {
            let data = try Data(contentsOf: URL(fileURLWithPath: String(path)))
            let fixtures = try JSONDecoder().decode([FlexFixture].self, from: data)
            let (passed, failures) = check(fixtures)
            print("flex conformance (\(path)): \(passed)/\(fixtures.count) pass")
            #expect(failures.isEmpty, "\(path): \(fixtures.count - passed) fail:\n\(failures.prefix(200).joined(separator: "\n"))")
        }
    }

    private func check(_ fixtures: [FlexFixture]) -> (passed: Int, failures: [String]) {
        var failures: [String] = []
        var passed = 0
        for fixture in fixtures {
            var (tree, expected) = fixture.buildTree()
            tree.computeLayout(root: 0, availableWidth: nil, availableHeight: nil)
            var ok = true
            for (id, path, chrome) in expected {
                let got = tree.frame(of: id)
                let close = abs(got.x - chrome.x) <= Self.tolerance && abs(got.y - chrome.y) <= Self.tolerance
                    && abs(got.width - chrome.width) <= Self.tolerance && abs(got.height - chrome.height) <= Self.tolerance
                if !close {
                    ok = false
                    failures.append("\(fixture.id) \(path): got \(describe(got)), chrome \(describe(chrome))")
                }
            }
            if ok { passed += 1 }
        }
        return (passed, failures)
    }

    private func describe(_ r: Rect) -> String {
        "(\(fmt(r.x)), \(fmt(r.y)), \(fmt(r.width)), \(fmt(r.height)))"
    }

    private func fmt(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.4f", v)
    }
}
