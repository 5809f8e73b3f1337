// Reads an SVG as XML and collects what the chart tests look at.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects what a test wants to know about an SVG document while XMLParser reads it.
package final class SVGProbe: NSObject, XMLParserDelegate {
    package var root: String?
    package var series: [String] = []
    package var bands: [String] = []
    package var classedText: [String: String] = [:]
    package var title = ""
    package var circles = 0
    private var path: [String] = []
    private var currentClass: String?
    private var text = ""

    /// Parses `svg`; nil when it is not well-formed XML.
    package static func parse(_ svg: String) -> SVGProbe? { parseXML(svg, into: SVGProbe()) }

    package func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        if name == "g", attributes["class"] == "series", let s = attributes["data-series"] { series.append(s) }
        if name == "polygon", attributes["class"] == "band", let s = attributes["data-series"] { bands.append(s) }
        if name == "circle" { circles += 1 }
        currentClass = attributes["class"]
        path.append(name)
        text = ""
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "title" && path.count == 2 { title = text }
        if name == "text", let c = currentClass { classedText[c] = text }
        currentClass = nil
        path.removeLast()
    }
}
/// Runs `probe` over `svg`; nil when it is not well-formed XML.
package func parseXML<Probe: NSObject & XMLParserDelegate>(_ svg: String, into probe: Probe) -> Probe? {
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = probe
    return parser.parse() ? probe : nil
}
