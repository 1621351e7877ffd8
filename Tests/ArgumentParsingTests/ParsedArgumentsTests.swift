import ArgumentParsing
import Testing

@Suite struct ParsedArgumentsTests {
  static let count = Option<Int>("--count", "N", help: "how many") { $0 >= 1 ? nil : "a whole number, at least 1" }
  static let name = Option<String>("--name", "NAME", help: "who")
  static let quick = Flag("--quick", help: "fewer runs")
  static let help = Flag("--help", help: "show help")
  static let options = [count.spec, name.spec, quick.spec, help.spec]

  @Test func optionsComeAnywhereInEitherSpellingAndConvertToTheirType() throws {
    let parsed = try ParsedArguments(["add", "--count", "3", "Mia", "--name=Leo", "-5", "--quick", "--", "--not-an-option"], options: Self.options)
    #expect(parsed.positionals == ["add", "Mia", "-5", "--not-an-option"])
    #expect(try parsed.value(Self.count) == 3)
    #expect(try parsed.value(Self.name) == "Leo")
    #expect(parsed.has(Self.quick))
    #expect(!parsed.has(Self.help))
    #expect(parsed.given == ["--count", "--name", "--quick"])
  }

  @Test func dashHIsHelp() throws {
    #expect(try ParsedArguments(["-h"], options: Self.options).has(Self.help))
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus'"),
    (["--count"], "option --count needs a value (N)"),
    (["--quick=yes"], "option --quick takes no value"),
  ])
  func badCommandLinesNameTheOption(arguments: [String], message: String) {
    #expect(throws: ArgumentError(message, positionals: [])) { try ParsedArguments(arguments, options: Self.options) }
  }

  @Test(arguments: [
    ("many", "bad value 'many' for --count: a whole number"),
    ("0", "bad value '0' for --count: a whole number, at least 1"),
  ])
  func badValuesSayWhatWasExpected(text: String, message: String) throws {
    let parsed = try ParsedArguments(["--count", text], options: Self.options)
    #expect(throws: ArgumentError(message)) { try parsed.value(Self.count) }
  }

  @Test func theErrorKeepsTheWordsReadBeforeIt() {
    #expect(throws: ArgumentError("unknown option '--bogus'", positionals: ["feed", "start"])) {
      try ParsedArguments(["feed", "start", "--bogus"], options: Self.options)
    }
  }

  @Test func helpIsATableOfTheDeclarations() {
    #expect(OptionSpec.table([Self.count.spec, Self.quick.spec]) == ["  --count N  how many", "  --quick    fewer runs"])
  }
}
