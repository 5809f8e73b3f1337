// One subcommand of `pushsim` declared as data: its operands, options, prose and examples.

/// One subcommand of `pushsim`. Its options are declared once (``CommandOption``); the parser,
/// `--help` and the usage line of an error are derived from this value.
package struct CommandSpec: Sendable {
    package var name: String
    /// One line for `pushsim help`.
    package var summary: String
    /// What comes before the options in the synopsis: `FILE`, `PART…`, `(FILE | --all [DIR])`.
    /// An option named here is not repeated among the synopsis's bracketed options.
    var operands: String
    /// Operands explained in the options' column (`PART  a partial result …`).
    var operandHelp: [(name: String, help: String)] = []
    /// What the command does, printed between the synopsis and the options.
    var about: String = ""
    var options: [CommandOption]
    /// Lines printed after the options (notes that belong to several options at once).
    var notes: String = ""
    var examples: [String]
    var run: @Sendable (Arguments, Console) throws -> Int32

    init(name: String, summary: String, operands: String, operandHelp: [(name: String, help: String)] = [],
         about: String = "", options: [CommandOption], notes: String = "", examples: [String],
         run: @escaping @Sendable (Arguments, Console) throws -> Int32) {
        self.name = name; self.summary = summary; self.operands = operands; self.operandHelp = operandHelp
        self.about = about; self.options = options; self.notes = notes; self.examples = examples; self.run = run
    }

    /// The option declared under `name`, if any.
    func option(_ name: String) -> CommandOption? { options.first { $0.name == name } }
}
