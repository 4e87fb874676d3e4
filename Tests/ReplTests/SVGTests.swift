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

@Suite(.offThePool) struct SVGTests {
    /// The elements of an SVG: each element's name and attributes, and the text of each `text`.
    final class Elements: NSObject, XMLParserDelegate {
        var all: [(name: String, attributes: [String: String])] = []
        var texts: [String] = []
        var groups: [String] = []
        /// The texts inside the group of this id.
        var textsInGroup: [String: [String]] = [:]
        private var text: String?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            all.append((name, attributes))
            if name == "g" { groups.append(attributes["id"] ?? "") }
            if name == "text" { text = "" }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text", let t = text {
                texts.append(t)
                for g in groups { textsInGroup[g, default: []].append(t) }
                text = nil
            }
            if name == "g" { groups.removeLast() }
        }
        func rect(_ a: [String: String]) -> Rect? {
            guard let x = a["x"].flatMap(Double.init), let y = a["y"].flatMap(Double.init),
                  let w = a["width"].flatMap(Double.init), let h = a["height"].flatMap(Double.init) else { return nil }
            return Rect(x: x, y: y, width: w, height: h)
        }
        func rects(where match: ([String: String]) -> Bool) -> [Rect] {
            all.filter { $0.name == "rect" && match($0.attributes) }.compactMap { rect($0.attributes) }
        }
        static func parse(_ svg: String) throws -> Elements {
            let parser = XMLParser(data: Data(svg.utf8))
            let elements = Elements()
            parser.delegate = elements
            #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
            return elements
        }
    }

    /// A scrolled document with nested rows, a hidden row, viewport insets and a keyboard: every
    /// visibility and every obscured edge.
    static func session(_ dir: String) throws -> Session {
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 200", "add a b fixed 60", "add s stack horizontal", "add s1 s2 content 40 20 in s",
                     "add h fixed 10 hidden", "add c d e fixed 60", "viewport insets 20 0 0 0", "keyboard 60", "scroll 100",
                     "export svg p.svg", "export svg v.svg --viewport"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        return session
    }

    /// Issue 13 item 12: each laid-out row's rectangle is its frame, in its visibility's class
    /// and colour; partial rows show their percentage; hidden rows are listed aside; the
    /// viewport, its obscured inset and the keyboard are where `layout` puts them; a legend
    /// names the colours.
    @Test func rowsAreColouredByVisibilityAndTheViewportIsWhereLayoutSays() throws {
        let dir = try Scratch.directory("svg")
        defer { Scratch.remove(dir) }
        let session = try Self.session(dir)
        let layout = try session.currentLayout()
        let svg = try Elements.parse(try String(contentsOfFile: dir + "/p.svg", encoding: .utf8))
        let laid = layout.rows.filter { $0.frame != nil }
        #expect(Set(laid.map(\.visibility)) == [.entire, .partial, .offscreen], "the document shows every visibility")
        let drawn = svg.all.filter { $0.name == "rect" && $0.attributes["data-row"] != nil }
        #expect(drawn.map { $0.attributes["data-row"] } == laid.map(\.id))
        for (element, row) in zip(drawn, laid) {
            #expect(element.attributes["class"] == "row \(row.visibility.rawValue)", "\(row.id)")
            #expect(svg.rect(element.attributes) == row.frame, "\(row.id)")
            #expect(element.attributes["stroke"] == SVGPicture.colour(row.visibility), "\(row.id)")
            if row.visibility == .partial {
                #expect(svg.texts.contains("\(row.id) \(Format.percent(row.percent))%"), "\(row.id): \(svg.texts)")
            }
        }
        #expect(svg.textsInGroup["hidden"] == ["hidden (1):", "h"])
        let o = layout.offset
        #expect(o == 100)
        #expect(svg.rects { $0["id"] == "viewport" } == [Rect(x: 0, y: o, width: 300, height: 200)])
        #expect(svg.rects { $0["class"] == "obscured" } == [Rect(x: 0, y: o, width: 300, height: 20)])
        #expect(svg.rects { $0["class"] == "keyboard" } == [Rect(x: 0, y: o + 140, width: 300, height: 60)])
        #expect(layout.unobscuredRect == Rect(x: 0, y: o + 20, width: 300, height: 120))
        for name in ["entire", "partial (its percentage)", "offscreen", "stack row", "obscured (insets)", "keyboard", "viewport"] {
            #expect(svg.textsInGroup["legend"]?.contains(name) == true, "legend: \(name)")
        }

        // --viewport: just what the viewport shows, at screen scale.
        let screen = try Elements.parse(try String(contentsOfFile: dir + "/v.svg", encoding: .utf8))
        let root = try #require(screen.all.first)
        #expect(root.attributes["width"] == "300" && root.attributes["height"] == "200")
        #expect(root.attributes["viewBox"] == "0 \(Format.number(o)) 300 200")
        #expect(screen.all.filter { $0.attributes["data-row"] != nil }.map { $0.attributes["data-row"] } == laid.filter { $0.visibility != .offscreen }.map(\.id))
        #expect(screen.rects { $0["id"] == "viewport" } == [Rect(x: 0, y: o, width: 300, height: 200)])
        #expect(!screen.groups.contains("legend") && screen.textsInGroup["legend"] == nil)
    }

    /// Issue 33 item 3: the safe area's bars are drawn where the safe area lies (over the
    /// obscured bands), with a legend entry; the first row starts below the top bar.
    @Test func theSafeAreaBarsAreMarked() throws {
        let dir = try Scratch.directory("svg-safe")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 200 safe-area 40 0 30 10", "add a b c fixed 60 insets 0", "scroll 50", "export svg p.svg"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let layout = try session.currentLayout()
        #expect(layout.rows.first { $0.id == "a" }?.frame == Rect(x: 0, y: 40, width: 300, height: 60))
        let svg = try Elements.parse(try String(contentsOfFile: dir + "/p.svg", encoding: .utf8))
        let o = layout.offset
        #expect(o == 50)
        #expect(svg.rects { $0["class"] == "safe-area" } == [Rect(x: 0, y: o, width: 300, height: 40),
                                                             Rect(x: 0, y: o + 170, width: 300, height: 30),
                                                             Rect(x: 290, y: o + 40, width: 10, height: 130)])
        #expect(svg.textsInGroup["legend"]?.contains("safe area (its bars)") == true)
    }

    /// Where headless Chromium, when installed, finds `/usr/bin/chromium` or `chromium` on the PATH.
    static var chromium: String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/chromium" }
        return (["/usr/bin/chromium"] + path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The boxes Chromium gives (`getBoundingClientRect`) to the viewport rectangle and each
    /// row's rectangle of an SVG shown at the page's top-left.
    static func chromiumBoxes(svg: String, dir: String) async throws -> [String: Rect] {
        let chromium = try #require(chromium)
        let page = """
        <!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0} svg{display:block}</style></head><body>
        \(svg)
        <pre id="out"></pre><script>
        const boxes = {};
        for (const e of document.querySelectorAll('#viewport, [data-row]')) {
          const r = e.getBoundingClientRect();
          boxes[e.id === 'viewport' ? '#viewport' : e.getAttribute('data-row')] = [r.x, r.y, r.width, r.height];
        }
        document.getElementById('out').textContent = 'BOXES' + JSON.stringify(boxes) + 'END';
        </script></body></html>
        """
        try page.write(toFile: dir + "/page.html", atomically: true, encoding: .utf8)
        let run = try await Binary.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=2000,3000",
                                            "--user-data-dir=\(dir)/profile", "--dump-dom", "file://\(dir)/page.html"], timeout: 240)
        let text = run.stdout
        guard let start = text.range(of: "BOXES"), let end = text.range(of: "END", range: start.upperBound..<text.endIndex) else {
            Issue.record("chromium printed no boxes: \(run.stderr.suffix(2000))")
            return [:]
        }
        let json = try JSONSerialization.jsonObject(with: Data(text[start.upperBound..<end.lowerBound].utf8)) as? [String: [Double]] ?? [:]
        return json.mapValues { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    /// Issue 13 item 12: Chromium loads the picture and draws the viewport rectangle, and each
    /// row, where `layout` says — in the whole picture at 1 px per point, and in the `--viewport`
    /// picture at the page's top-left at screen scale.
    @Test(.enabled(if: chromium != nil, "needs headless chromium"))
    func chromiumDrawsTheViewportWhereLayoutSays() async throws {
        let dir = try Scratch.directory("svg")
        defer { Scratch.remove(dir) }
        let session = try Self.session(dir)
        let layout = try session.currentLayout()
        let o = layout.offset
        let whole = try await Self.chromiumBoxes(svg: try String(contentsOfFile: dir + "/p.svg", encoding: .utf8), dir: dir)
        #expect(whole["#viewport"] == Rect(x: 0, y: o, width: 300, height: 200), "\(whole)")
        for row in layout.rows where row.frame != nil {
            #expect(whole[row.id] == row.frame, "\(row.id)")
        }
        let screen = try await Self.chromiumBoxes(svg: try String(contentsOfFile: dir + "/v.svg", encoding: .utf8), dir: dir)
        #expect(screen["#viewport"] == Rect(x: 0, y: 0, width: 300, height: 200), "\(screen)")
        for row in layout.rows where row.visibility == .entire || row.visibility == .partial {
            guard let f = row.frame else { continue }
            #expect(screen[row.id] == Rect(x: f.x, y: f.y - o, width: f.width, height: f.height), "\(row.id)")
        }
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
    /// Issue 32: a label wider than its box is clipped to the box; a box too small for a line
    /// of text has its label outside, just right of it; a label's colour is dark on light
    /// fills and light on dark ones.
    @Test func labelsAreClippedOrPlacedOutsideInAReadableColour() throws {
        let dir = try Scratch.directory("svg")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 200", "defaults insets 0", "add bar stack horizontal",
                     "add averyverylongidentifier fixed 40 content 0 30 in bar", "add thin fixed 4",
                     "add dark fixed 20 background #1A237E", "add light fixed 20 background #F2F2F7", "export svg p.svg"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let layout = try session.currentLayout()
        let svg = try Elements.parse(try String(contentsOfFile: dir + "/p.svg", encoding: .utf8))
        func text(_ label: String) throws -> [String: String] {
            let index = try #require(svg.texts.firstIndex(of: label), "\(label): \(svg.texts)")
            return svg.all.filter { $0.name == "text" }[index].attributes
        }
        // Clipped: its clip path is the row's frame.
        let long = try text("averyverylongidentifier")
        #expect(long["clip-path"] == "url(#label-clip-1)")
        let clipIndex = try #require(svg.all.firstIndex { $0.name == "clipPath" && $0.attributes["id"] == "label-clip-1" })
        #expect(svg.rect(svg.all[clipIndex + 1].attributes) == layout.rows.first { $0.id == "averyverylongidentifier" }?.frame)
        #expect(try text("bar")["clip-path"] == nil, "a label that fits is not clipped")
        // Outside: right of the 4-point box, centred on it.
        let thinFrame = try #require(layout.rows.first { $0.id == "thin" }?.frame)
        let thin = try text("thin")
        #expect(thin["class"] == "outside")
        #expect(thin["x"] == Format.number(thinFrame.maxX + 2) && thin["y"] == Format.number(thinFrame.minY + 2 + 3.5))
        #expect(try text("dark")["fill"] == "#FFFFFF")
        #expect(try text("light")["fill"] == "#000000")
        #expect(try text("bar")["fill"] == "#000000")
        #expect(SVGPicture.textColour(on: "#000000") == "#FFFFFF" && SVGPicture.textColour(on: "#FFFFFF") == "#000000")
        #expect(SVGPicture.textColour(on: "#E69500") == "#000000" && SVGPicture.textColour(on: "#2E7D32") == "#FFFFFF")
        #expect(SVGPicture.blend("#000000", opacity: 0.5, over: "#FFFFFF") == "#808080")
        // In a --viewport picture a full-width thin row has no room beside it: inside, clipped.
        _ = try session.run(try #require(try Parser.parse("export svg v.svg --viewport")))
        let screen = try Elements.parse(try String(contentsOfFile: dir + "/v.svg", encoding: .utf8))
        let index = try #require(screen.texts.firstIndex(of: "thin"))
        let onScreen = screen.all.filter { $0.name == "text" }[index].attributes
        #expect(onScreen["class"] == nil && onScreen["clip-path"]?.hasPrefix("url(#label-clip-") == true, "\(onScreen)")
    }

    /// Issue 32: a row wider than the viewport is drawn whole — the picture is as wide as it,
    /// the legend beside it — and the viewport keeps its outline.
    @Test func thePictureIsAsWideAsRowsOverflowingTheViewport() throws {
        let dir = try Scratch.directory("svg")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 200", "defaults insets 0", "add bar stack horizontal",
                     "add w1 w2 fixed 200 content 0 30 in bar", "export svg p.svg"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let layout = try session.currentLayout()
        #expect(layout.rows.first { $0.id == "w2" }?.frame == Rect(x: 200, y: 0, width: 200, height: 30))
        let svg = try Elements.parse(try String(contentsOfFile: dir + "/p.svg", encoding: .utf8))
        let root = try #require(svg.all.first)
        #expect(root.attributes["width"] == Format.number(400 + SVGPicture.legendWidth), "\(root.attributes)")
        #expect(svg.rects { $0["data-row"] == "w2" } == [Rect(x: 200, y: 0, width: 200, height: 30)])
        #expect(svg.rects { $0["id"] == "viewport" } == [Rect(x: 0, y: 0, width: 300, height: 200)])
        let legend = try #require(svg.all.first { $0.name == "text" && $0.attributes["font-weight"] == "bold" })
        #expect(legend.attributes["x"] == "420")
    }

    /// Issue 14: a text row's wrapped lines are bars as wide as their glyphs, an aspect row has
    /// its diagonal, a sticky row its leading edge (left in a horizontal stack); labels carry the
    /// kind's tag and the legend names the kinds present — and only those.
    @Test func rowKindsAreMarked() throws {
        let dir = try Scratch.directory("svg")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 400", "defaults insets 0 0 0 0", "export svg plain.svg", "add caption text 130",
                     "add photo aspect 3 1", "add bar stack horizontal", "add badge fixed 20 content 0 30 sticky in bar",
                     "export svg p.svg"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let svg = try Elements.parse(try String(contentsOfFile: dir + "/p.svg", encoding: .utf8))
        // 37 glyphs of 8 a line at 300 points: 296, 296, 296, then 19 × 8 = 152.
        #expect(svg.rects { $0["class"] == "text-line" } == [5.0, 25, 45, 65].enumerated().map {
            Rect(x: 0, y: $0.element, width: $0.offset == 3 ? 152 : 296, height: 10)
        })
        let diagonal = try #require(svg.all.first { $0.name == "line" && $0.attributes["class"] == "aspect" })
        #expect([diagonal.attributes["x1"], diagonal.attributes["y1"], diagonal.attributes["x2"], diagonal.attributes["y2"]]
                    == ["0", "180", "300", "80"])
        #expect(svg.rects { $0["class"] == "sticky" } == [Rect(x: 0, y: 180, width: 3, height: 30)])
        for label in ["caption [4 lines]", "photo [3:1]", "badge [sticky]"] {
            #expect(svg.texts.contains(label), "\(label): \(svg.texts)")
        }
        for name in ["text line (its glyphs)", "aspect ratio (diagonal)", "sticky row (leading edge)"] {
            #expect(svg.textsInGroup["legend"]?.contains(name) == true, "legend: \(name)")
        }
        let plain = try Elements.parse(try String(contentsOfFile: dir + "/plain.svg", encoding: .utf8))
        #expect(plain.textsInGroup["legend"]?.contains("text line (its glyphs)") == false)
    }
}
