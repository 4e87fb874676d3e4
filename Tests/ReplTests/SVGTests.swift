import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

@Suite struct SVGTests {
    /// `export svg` of a nested, scrolled document is well-formed XML with one rectangle per
    /// laid-out row, one per content frame of a leaf, one per separator, and the viewport.
    @Test func exportIsWellFormedAndComplete() throws {
        let dir = try Scratch.directory("svg")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 200", "add a b fixed 60", "add s stack horizontal", "add s1 s2 content 40 20 in s",
                     "add h fixed 10 hidden", "scroll 30", "export svg p.svg"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let svg = try String(contentsOfFile: dir + "/p.svg", encoding: .utf8)
        let parser = XMLParser(data: Data(svg.utf8))
        final class Counter: NSObject, XMLParserDelegate {
            var rects = 0, texts = 0
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                if name == "rect" { rects += 1 }
                if name == "text" { texts += 1 }
            }
        }
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        let layout = try session.currentLayout()
        let laid = layout.rows.filter { $0.frame != nil }
        let leaves = laid.filter { $0.id != "s" }
        let separators = laid.filter { $0.separator != nil }
        // background + frames + leaf content frames + separators + viewport
        #expect(counter.rects == 1 + laid.count + leaves.count + separators.count + 1)
        #expect(counter.texts == laid.count)
        #expect(layout.offset == 30)   // content 236 (s is 20 + 2 × 24 tall) − viewport 200 = 36
        #expect(svg.contains("<rect x=\"0\" y=\"30\" width=\"300\" height=\"200\" fill=\"none\" stroke=\"#E02020\""))
    }

    /// Issue 14: a row's background fills its frame, switching to its highlight on mouseover.
    @Test func rowColoursArePainted() throws {
        let dir = try Scratch.directory("svg")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 200", "add a fixed 20 background #f2f2f7 highlight #D1D1D6", "add b fixed 20 highlight #FF8800",
                     "add c fixed 20 background #000000", "export svg p.svg"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let svg = try String(contentsOfFile: dir + "/p.svg", encoding: .utf8)
        #expect(svg.contains(##"<rect x="0" y="0" width="300" height="44" fill="#F2F2F7" pointer-events="all"><set attributeName="fill" to="#D1D1D6" begin="mouseover" end="mouseout"/></rect>"##))
        #expect(svg.contains(##"<rect x="0" y="44" width="300" height="44" fill="none" pointer-events="all"><set attributeName="fill" to="#FF8800" begin="mouseover" end="mouseout"/></rect>"##))
        #expect(svg.contains(##"<rect x="0" y="88" width="300" height="44" fill="#000000"/>"##))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }
}
