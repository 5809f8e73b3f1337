// The error of a command line that cannot be used: printed with the usage line, exit status 2.

/// Why a command line could not be used; printed with the command's usage line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
