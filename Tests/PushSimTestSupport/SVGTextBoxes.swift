// The boxes an SVG's texts will take, estimated from font size and string length, for tests that no two labels overlap.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A text's estimated box: 0.6 em a character (0.65 in bold, the charts' own estimate), from
/// 0.8 em above the baseline to 0.2 em below, placed by `text-anchor` and turned by a
/// `rotate(-90 …)` transform. Empty texts take no room.
package struct SVGTextBox: Equatable, CustomStringConvertible {
    package var text: String
    package var minX: Double, maxX: Double, minY: Double, maxY: Double

    /// Whether the two boxes share any area (touching edges do not count).
    package func intersects(_ other: SVGTextBox) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    package var description: String {
        "\"\(text)\" [\(Int(minX))…\(Int(maxX)) × \(Int(minY))…\(Int(maxY))]"
    }
}

/// Collects every `<text>` element's box while XMLParser reads the SVG.
package final class SVGTextBoxes: NSObject, XMLParserDelegate {
    package private(set) var boxes: [SVGTextBox] = []
    private var defaultSize = 12.0
    private var open: [String: String]?
    private var content = ""

    /// The boxes of `svg`'s texts; nil when it is not well-formed XML.
    package static func of(_ svg: String) -> [SVGTextBox]? { parseXML(svg, into: SVGTextBoxes())?.boxes }

    /// Every pair of texts whose boxes intersect.
    package static func overlaps(_ svg: String) -> [(SVGTextBox, SVGTextBox)]? {
        guard let boxes = of(svg) else { return nil }
        var out: [(SVGTextBox, SVGTextBox)] = []
        for i in boxes.indices {
            for j in boxes.indices where j > i && boxes[i].intersects(boxes[j]) { out.append((boxes[i], boxes[j])) }
        }
        return out
    }

    package func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
        if name == "svg", let size = attributes["font-size"].flatMap(Double.init) { defaultSize = size }
        if name == "text" { open = attributes; content = "" }
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) { if open != nil { content += string } }

    package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard name == "text", let attributes = open else { return }
        open = nil
        guard !content.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        let size = attributes["font-size"].flatMap(Double.init) ?? defaultSize
        let width = Double(content.count) * size * (attributes["font-weight"] == "bold" ? 0.65 : 0.6)
        let x = attributes["x"].flatMap(Double.init) ?? 0, y = attributes["y"].flatMap(Double.init) ?? 0
        let (start, end): (Double, Double)
        switch attributes["text-anchor"] {
        case "middle": (start, end) = (-width / 2, width / 2)
        case "end": (start, end) = (-width, 0)
        default: (start, end) = (0, width)
        }
        if let transform = attributes["transform"], transform.hasPrefix("rotate(-90") {
            // Turned a quarter anticlockwise about (x, y): the run of the text goes up the page.
            boxes.append(SVGTextBox(text: content, minX: x - 0.8 * size, maxX: x + 0.2 * size, minY: y - end, maxY: y - start))
        } else {
            boxes.append(SVGTextBox(text: content, minX: x + start, maxX: x + end, minY: y - 0.8 * size, maxY: y + 0.2 * size))
        }
    }
}
