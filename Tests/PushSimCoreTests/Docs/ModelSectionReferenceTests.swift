// Every reference to a section of docs/model.md resolves: "§9", "§9, Unregistered", "section 9" and "model.md#unregistered", in README, docs/ and every source and test file.
import Foundation
import Testing
import PushSimTestSupport

/// docs/model.md's sections as a reader finds them: `<a id="…"></a>` on the line before each
/// `## N. Title`, and within a section the paragraphs' bold leads (`**Unregistered**`,
/// `4. **Feedback.**`), each with an anchor of its own.
struct ModelSections {
    struct Section {
        var number: Int
        var title: String
        var anchor: String?
        /// The section's title and its paragraphs' bold leads.
        var names: [String]
        var anchors: [String]
    }

    var sections: [Section] = []
    /// Every `<a id>` in the document, and the headings that have none before them.
    var anchors: [String] = []
    var headingsWithoutAnchor: [String] = []

    init(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var previous = ""
        for line in lines {
            let ids = Self.anchorIds(in: line)
            anchors += ids
            if let (number, title) = Self.heading(line) {
                let anchor = Self.anchorIds(in: previous).first
                if anchor == nil { headingsWithoutAnchor.append(line) }
                sections.append(Section(number: number, title: title, anchor: anchor, names: [title], anchors: anchor.map { [$0] } ?? []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].anchors += ids
                if let lead = Self.boldLead(line) { sections[sections.count - 1].names.append(lead) }
            }
            previous = line
        }
    }

    func section(_ number: Int) -> Section? { sections.first { $0.number == number } }

    /// `## 9. The provider's side of APNs` → (9, "The provider's side of APNs").
    static func heading(_ line: String) -> (Int, String)? {
        guard line.hasPrefix("## ") else { return nil }
        let rest = line.dropFirst(3)
        guard let dot = rest.firstIndex(of: "."), let number = Int(rest[..<dot]) else { return nil }
        return (number, rest[rest.index(after: dot)...].trimmingCharacters(in: .whitespaces))
    }

    static func anchorIds(in line: String) -> [String] {
        var ids: [String] = [], rest = Substring(line)
        while let open = rest.range(of: "<a id=\"") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "\"") else { break }
            ids.append(String(after[..<close]))
            rest = after[close...]
        }
        return ids
    }

    /// The bold words that open a paragraph or a list item, without a closing full stop.
    static func boldLead(_ line: String) -> String? {
        var rest = Substring(line)
        while rest.hasPrefix("<a id=\""), let end = rest.range(of: "</a>") { rest = rest[end.upperBound...] }
        if rest.hasPrefix("- ") { rest = rest.dropFirst(2) }
        if let dot = rest.firstIndex(of: "."), Int(rest[..<dot]) != nil, rest[rest.index(after: dot)...].hasPrefix(" ") {
            rest = rest[rest.index(dot, offsetBy: 2)...]
        }
        while rest.hasPrefix("<a id=\""), let end = rest.range(of: "</a>") { rest = rest[end.upperBound...] }
        guard rest.hasPrefix("**") else { return nil }
        let inner = rest.dropFirst(2)
        guard let close = inner.range(of: "**") else { return nil }
        var lead = String(inner[..<close.lowerBound])
        if lead.hasSuffix(".") { lead.removeLast() }
        return lead
    }

    /// Whether `name` (a section's title or lead) is what the reference's words `words` name:
    /// one is the other followed by more words ("Windows" names "Windows per device").
    static func names(_ name: String, _ words: String) -> Bool {
        let n = name.lowercased(), w = words.lowercased()
        func wordBoundary(_ longer: String, _ shorter: String) -> Bool {
            guard longer.hasPrefix(shorter) else { return false }
            guard let next = longer.dropFirst(shorter.count).first else { return true }
            return !next.isLetter && !next.isNumber
        }
        return wordBoundary(w, n) || wordBoundary(n, w)
    }
}

/// One reference found in a text.
struct ModelSectionReference: CustomStringConvertible {
    var file: String
    var line: Int
    var number: Int?
    var title: String?
    var anchor: String?
    var description: String {
        "\(file):\(line): " + (anchor.map { "#\($0)" } ?? "§\(number ?? 0)" + (title.map { ", \($0)" } ?? ""))
    }

    /// The references to docs/model.md in `text`: from any file, those that name model.md
    /// (`model.md §9`, `[model.md](model.md) §9, Unregistered`, `model.md, section 2`, and the
    /// `§` that follow in the same list: `model.md §9, §10`); in model.md itself also its own
    /// `§N` and `section N`, except those of another document (`docs/scenarios.md §2a`).
    static func find(in text: String, file: String) throws -> [ModelSectionReference] {
        let own = file == "docs/model.md"
        // Comment markers at a line's start join a comment's lines into one text.
        let joined = text.replacingOccurrences(of: #"\n[ \t]*(///?|\*)?[ \t]*"#, with: " ", options: .regularExpression)
        let lineOf = try lineNumbers(original: text, joined: joined)
        var found: [ModelSectionReference] = []
        let ns = joined as NSString
        func add(_ location: Int, number: Int?, title: String?, anchor: String?) {
            found.append(ModelSectionReference(file: file, line: lineOf(location), number: number, title: title, anchor: anchor))
        }
        // model.md#anchor (links), and in model.md itself (#anchor).
        let anchorPattern = own ? #"(?:model\.md|\]\()#([a-z0-9-]+)"# : #"model\.md#([a-z0-9-]+)"#
        for m in try regex(anchorPattern).matches(in: joined, range: NSRange(location: 0, length: ns.length)) {
            add(m.range.location, number: nil, title: nil, anchor: ns.substring(with: m.range(at: 1)))
        }
        let named = #"model\.md(?:\]\([^)]*\))?,? (?:§|section )(\d+)"#
        let pattern = own ? #"(?<![\w.]\.md |[\w.]\.md\]\([^)]{0,40}\) |contract )(?:§|[Ss]ection )(\d+)(?![0-9a-z]|\.[0-9])"# : named
        for m in try regex(pattern).matches(in: joined, range: NSRange(location: 0, length: ns.length)) {
            guard let number = Int(ns.substring(with: m.range(at: 1))) else { continue }
            var end = m.range.location + m.range.length
            add(m.range.location, number: number, title: title(in: ns, from: end), anchor: nil)
            // Chained: "§9, §10", "§9 and §11".
            let chain = try regex(#"^(?:, | and |, and )§(\d+)"#)
            while let next = chain.firstMatch(in: joined, range: NSRange(location: end, length: ns.length - end)) {
                guard let chained = Int(ns.substring(with: next.range(at: 1))) else { break }
                end = next.range.location + next.range.length
                add(next.range.location, number: chained, title: title(in: ns, from: end), anchor: nil)
            }
        }
        return found
    }

    /// The words after `§N, ` when they name a part of the section (they start with a capital
    /// letter: "§9, Unregistered"), up to the punctuation that ends them.
    static func title(in text: NSString, from location: Int) -> String? {
        let rest = text.substring(from: location)
        guard rest.hasPrefix(", ") else { return nil }
        var words = Substring(rest.dropFirst(2).prefix(60))
        guard let first = words.first, first.isUppercase || first == "\"" else { return nil }
        if words.hasPrefix("\"") { words = words.dropFirst() }
        for stop in [")", ";", ":", "]", "\"", " — ", ". ", " (", "`", ", ", " and ", "§"] {
            if let r = words.range(of: stop) { words = words[..<r.lowerBound] }
        }
        if words.hasSuffix(".") { words = words.dropLast() }
        return words.trimmingCharacters(in: .whitespaces)
    }

    static func regex(_ pattern: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: pattern)
    }

    /// Maps a location in the joined text back to a line of the original.
    static func lineNumbers(original: String, joined: String) throws -> (Int) -> Int {
        // Joining removes each newline and the markers after it: count the newlines of the
        // original whose joined position is at or before the location.
        var starts: [Int] = []
        let ns = original as NSString
        var removed = 0
        let joiner = try regex(#"\n[ \t]*(///?|\*)?[ \t]*"#)
        for m in joiner.matches(in: original, range: NSRange(location: 0, length: ns.length)) {
            starts.append(m.range.location - removed)
            removed += m.range.length - 1
        }
        return { location in 1 + starts.prefix { $0 < location }.count }
    }
}

@Suite struct ModelSectionReferenceTests {
    static let root = FuzzCorpus.repositoryRoot
    static let model = ModelSections((try? String(contentsOfFile: root + "/docs/model.md", encoding: .utf8)) ?? "")

    /// Every section has an anchor on the line before its heading, and no anchor is used twice.
    @Test func everySectionHasAStableAnchor() {
        let model = Self.model
        #expect(model.sections.count >= 12)
        #expect(model.headingsWithoutAnchor.isEmpty, "headings without <a id> before them: \(model.headingsWithoutAnchor)")
        expectEqual(Set(model.anchors).count, model.anchors.count, "anchors used twice: \(model.anchors)")
        expectEqual(model.sections.map(\.number), Array(1...model.sections.count), "sections are numbered 1, 2, 3, … in order")
    }

    /// Every reference in README, docs/ and the sources names a section that exists, with the
    /// title or a paragraph lead of that section when it gives one, or an anchor that exists.
    @Test func everyReferenceToModelMdResolves() throws {
        let model = Self.model
        var references: [ModelSectionReference] = []
        for (file, text) in SourceReferenceTests.texts where !file.hasSuffix("ModelSectionReferenceTests.swift") {
            references += try ModelSectionReference.find(in: text, file: file)
        }
        #expect(references.count > 150, "the scan found \(references.count) references: its patterns no longer match")
        var dead: [String] = []
        for reference in references {
            if let anchor = reference.anchor {
                if !model.anchors.contains(anchor) { dead.append("\(reference): no such anchor") }
                continue
            }
            guard let number = reference.number, let section = model.section(number) else {
                dead.append("\(reference): no such section"); continue
            }
            if let title = reference.title, !section.names.contains(where: { ModelSections.names($0, title) }) {
                dead.append("\(reference): §\(number) is \"\(section.title)\", with parts \(section.names.dropFirst())")
            }
        }
        #expect(dead.isEmpty, "\(dead.count) references to docs/model.md do not resolve:\n\(dead.joined(separator: "\n"))")
    }

    /// The scanner itself, on made-up text: each form is found, and a wrong one is caught.
    @Test func theScannerFindsEachForm() throws {
        let text = """
            // See docs/model.md §9, Unregistered, and docs/model.md §9, §10 for the
            // rest; [model.md](model.md) §12; docs/model.md, section 2; docs/scenarios.md §2a.
            // A link: docs/model.md#unregistered. (docs/model.md §8,
            // App reinstall): continued.
            """
        let found = try ModelSectionReference.find(in: text, file: "notes.txt")
        #expect(found.map(\.description) == [
            "notes.txt:3: #unregistered", "notes.txt:1: §9, Unregistered", "notes.txt:1: §9", "notes.txt:1: §10",
            "notes.txt:2: §12", "notes.txt:2: §2", "notes.txt:3: §8, App reinstall",
        ])
        let own = try ModelSectionReference.find(in: "as in §9 and section 5 (docs/scenarios.md §2a, domain.md §6)", file: "docs/model.md")
        expectEqual(own.map(\.description), ["docs/model.md:1: §9", "docs/model.md:1: §5"])
        #expect(ModelSections.names("Windows per device", "Windows") && ModelSections.names("Unregistered", "Unregistered"))
        #expect(!ModelSections.names("Unregistered", "Unreg") && !ModelSections.names("Retries", "Payload too large"))
    }
}
