// Test support: what a report.html page refers to outside itself, and whether each number it
// ties to the JSON (data-json) shows the document's value to the decimals it shows.
import Foundation
@testable import PushSimReport

package enum HTMLPageProbe {
    /// Every reference to something outside the page: an address, a src or href that is not a
    /// fragment, url(…), @import, <link>, a script loaded from a file.
    package static func externalReferences(_ html: String) -> [String] {
        let patterns = [#"https?:"#, #"(src|href)\s*=\s*["']?(?!#)"#, #"url\("#, #"@import"#, #"<link\b"#,
                        #"<script[^>]*\bsrc"#, #"["'(]//"#]
        return patterns.flatMap { pattern -> [String] in
            let regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
                let r = Range(match.range, in: html)!
                let from = html.index(r.lowerBound, offsetBy: -20, limitedBy: html.startIndex) ?? html.startIndex
                let to = html.index(r.upperBound, offsetBy: 30, limitedBy: html.endIndex) ?? html.endIndex
                return String(html[from..<to])
            }
        }
    }

    /// The marked numbers and texts that differ from the document, and how many were compared.
    package static func mismatches(_ html: String, document: JSONValue) -> (compared: Int, wrong: [String]) {
        let regex = try! NSRegularExpression(
            pattern: #"<span class="(n|t)" data-json="([^"]+)"(?: data-scale="([^"]+)" data-digits="([0-9]+)")?>([^<]*)</span>"#)
        var compared = 0, wrong: [String] = []
        for match in regex.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            func group(_ i: Int) -> String? { Range(match.range(at: i), in: html).map { String(html[$0]) } }
            guard let kind = group(1), let path = group(2), let shown = group(5) else { continue }
            compared += 1
            let value = lookup(document, path)
            if kind == "t" {
                if case .string(let s)? = value, escape(s) == shown { continue }
                wrong.append("\(path): shows \(shown), JSON \(String(describing: value))")
                continue
            }
            let want: Double?
            switch value {
            case .int(let n)?: want = Double(n)
            case .uint(let n)?: want = Double(n)
            case .double(let d)?: want = d
            default: want = nil
            }
            guard let want, let scale = Double(group(3) ?? ""), let digits = Int(group(4) ?? "") else {
                wrong.append("\(path): shows \(shown), JSON \(String(describing: value))"); continue
            }
            let parsed: Double, expected: Double, tolerance: Double
            if scale == 0 {  // simulated time, 4d17h21m5s
                var seconds = 0.0
                for (unit, size) in [("d", 86_400.0), ("h", 3_600), ("m", 60), ("s", 1)] {
                    if let r = shown.range(of: #"[0-9]+"# + unit, options: .regularExpression) {
                        seconds += (Double(shown[r].dropLast()) ?? 0) * size
                    }
                }
                (parsed, expected, tolerance) = (seconds, want, 0.5)
            } else {
                let digitsOnly = shown.filter { "0123456789.-eE+".contains($0) }
                parsed = Double(digitsOnly) ?? .nan
                expected = want * scale
                tolerance = 0.5 * pow(10, -Double(digits)) * (1 + 1e-9) + abs(expected) * 1e-12
            }
            if !(abs(parsed - expected) <= tolerance) { wrong.append("\(path): shows \(shown), JSON \(want)") }
        }
        return (compared, wrong)
    }

    static func lookup(_ document: JSONValue, _ path: String) -> JSONValue? {
        var node: JSONValue? = document
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch node {
            case .object(let members)?: node = members[String(part)]
            case .array(let items)?: node = Int(part).flatMap { items.indices.contains($0) ? items[$0] : nil }
            default: return nil
            }
        }
        return node
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
