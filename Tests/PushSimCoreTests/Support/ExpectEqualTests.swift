// The equality expectation the tests use instead of `#expect(a == b)`: silent when equal, an issue naming both values otherwise.
import Testing
import PushSimTestSupport

@Suite struct ExpectEqualTests {
    @Test func equalValuesRecordNothing() {
        var commentsBuilt = 0
        func comment() -> Comment { commentsBuilt += 1; return "built" }
        expectEqual([1, 2], [1, 2], comment())
        expectEqual(Optional(3), 3)
        expectEqual("a", "a")
        #expect(commentsBuilt == 0, "the comment is built only for a failure")
    }

    @Test func differentValuesRecordAnIssueNamingBothAndTheComment() {
        withKnownIssue {
            expectEqual([1, 2], [2, 1], "the order matters")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("[1, 2]") && text.contains("[2, 1]") && text.contains("the order matters")
        }
        withKnownIssue {
            expectEqual("seen", "expected")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("\"seen\"") && text.contains("\"expected\"")
        }
    }

    @Test func theIssueIsAtTheCallersLine() {
        let line = #_sourceLocation.line + 2
        withKnownIssue {
            expectEqual(1, 2)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "ExpectEqualTests.swift"
        }
    }
}
