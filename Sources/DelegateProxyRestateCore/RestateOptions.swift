/// The command line of `swift package restate-delegate` (the plugin adds the options it
/// knows: the symbol graph directories, the target's directory and module).
public struct RestateOptions: Sendable, Equatable {
  /// The protocol to restate: `XMLParserDelegate`, `Tracing.Span` (the first named).
  public var protocolName = ""
  /// Every protocol named, in order: each is restated (or checked) in its own file, from
  /// symbol graphs read once.
  public var protocolNames: [String] = []
  /// Directories of `*.symbols.json` files to look in.
  public var symbolGraphDirectories: [String] = []
  /// The file to write or check; nil: the file of the target directory that restates the
  /// protocol already, or `<Name>.swift` there.
  public var output: String?
  /// The directory of the target's sources.
  public var targetDirectory: String?
  /// The target's module, which the file does not import.
  public var module: String?
  /// The restating protocol's name for a new file.
  public var name: String?
  /// `value` or `reference`.
  public var semantics: String?
  /// `--bind Span=Spans`.
  public var bindings: [String] = []
  /// `--default GenPoint=GenPoint(x: 0, y: 0)`: the `@Default` written on each
  /// value-returning requirement whose result type is spelled `GenPoint`, by type.
  public var defaults: [String: String] = [:]
  /// `--check`: compare, write nothing, exit 1 on drift.
  public var check = false
  /// `--help`.
  public var help = false
  /// The toolchain's `swift-symbolgraph-extract`, for protocols of toolchain modules.
  public var symbolGraphExtract: String?
  /// Toolchain modules to look in when the graphs given do not declare the protocol.
  public var toolchainModules = [
    "FoundationEssentials", "Foundation", "FoundationXML", "FoundationNetworking",
  ]
  /// The target triple for `swift-symbolgraph-extract`.
  public var triple: String?
  /// The command as the user typed it, for the file's header.
  public var commandLine: String?

  /// Default options.
  public init() {}

  /// What `--help` prints.
  public static let help = """
    OVERVIEW: Write (or update, or check) the @Delegate(for: P.self) protocol that restates
    every requirement of a protocol you don't own, read from its module's symbol graph.

    USAGE: swift package --allow-writing-to-package-directory restate-delegate <protocol>... --target <target> [options]
           swift package --allow-writing-to-package-directory restate-delegate <protocol> --target <target> --check

    ARGUMENTS:
      <protocol>            The protocol: in the target, a dependency or a toolchain module
                            (Foundation, FoundationXML, FoundationNetworking); qualify an
                            ambiguous name with its module (Tracing.Span). Name several to
                            restate (or check) each in its own file in one run.

    OPTIONS:
      --target <target>     The target the restatement belongs to (required).
      --output <file>       The file to write; default: the target's file that restates the
                            protocol already, else <Sources/target>/<name>.swift.
      --name <name>         The restating protocol's name in a new file (default: the
                            protocol's plural: XMLParserDelegates, MetricsFactories).
      --semantics <value|reference>
                            The multicast's semantics in a new file (default: value for a
                            protocol that is not class-bound, else a class).
      --bind <A=B>          Bind associated type A to the @Delegate protocol B (where A: B).
                            Each associated type needs one: without it the file is still
                            written, each is named with the macro's reason, and the command
                            exits 5.
      --default <TYPE=EXPRESSION>
                            Write @Default(EXPRESSION) on every requirement (method, property,
                            subscript) whose result type is spelled TYPE, as in the protocol
                            (--default 'GenPoint=GenPoint(x: 0, y: 0)', --default 'Decision=.deny').
                            Repeatable. A result with no undisputed empty value (anything but
                            optionals, Bool, numbers, strings, arrays, sets, dictionaries) needs
                            one: without it the file is still written, each such requirement is
                            named with the option to pass, and the command exits 4.
      --check               Write nothing; exit 1 naming each requirement not forwarded, each
                            restated signature that no longer matches, each requirement
                            without the @Default it needs (with the --default to pass) and
                            each associated type not bound (SwiftPM still wants
                            --allow-writing-to-package-directory).
      --help                Show this help (SwiftPM wants the permission flag here too).

    Re-running updates the file in place: members whose signature still matches are kept as
    written, with their comments and attributes (@Default, @Selector); policies are set in
    code, so nothing else in the file needs keeping.
    """

  /// Parses the arguments (without the program's name).
  public static func parse(_ arguments: [String]) throws -> RestateOptions {
    var options = RestateOptions()
    var index = 0
    func value(_ flag: String) throws -> String {
      index += 1
      guard index < arguments.count, !arguments[index].hasPrefix("--") else {
        throw RestateError.usage("\(flag) needs a value; see --help")
      }
      return arguments[index]
    }
    var explicitToolchainModules: [String] = []
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": options.help = true
      case "--check": options.check = true
      case "--symbol-graph-dir": options.symbolGraphDirectories.append(try value(argument))
      case "--output": options.output = try value(argument)
      case "--target-directory": options.targetDirectory = try value(argument)
      case "--module": options.module = try value(argument)
      case "--name": options.name = try value(argument)
      case "--semantics":
        let semantics = try value(argument)
        guard semantics == "value" || semantics == "reference" else {
          throw RestateError.usage("--semantics takes 'value' or 'reference', not '\(semantics)'")
        }
        options.semantics = semantics
      case "--bind":
        let binding = try value(argument)
        guard binding.split(separator: "=").count == 2 else {
          throw RestateError.usage("--bind takes AssociatedType=Protocol, not '\(binding)'")
        }
        options.bindings.append(binding)
      case "--default":
        let pair = try value(argument)
        guard let equals = pair.firstIndex(of: "="),
          !pair[..<equals].trimmingCharacters(in: .whitespaces).isEmpty,
          !pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces).isEmpty
        else {
          throw RestateError.usage(
            "--default takes TYPE=EXPRESSION (--default 'GenPoint=GenPoint(x: 0, y: 0)'), not '\(pair)'"
          )
        }
        let type = pair[..<equals].trimmingCharacters(in: .whitespaces)
        options.defaults[type] = pair[pair.index(after: equals)...].trimmingCharacters(
          in: .whitespaces)
      case "--symbolgraph-extract": options.symbolGraphExtract = try value(argument)
      case "--toolchain-module": explicitToolchainModules.append(try value(argument))
      case "--triple": options.triple = try value(argument)
      case "--command-line": options.commandLine = try value(argument)
      default:
        if argument.hasPrefix("-") {
          throw RestateError.usage("unknown option '\(argument)'; see --help")
        }
        if options.protocolName.isEmpty { options.protocolName = argument }
        options.protocolNames.append(argument)
      }
      index += 1
    }
    if options.protocolNames.count > 1 && (options.output != nil || options.name != nil) {
      throw RestateError.usage(
        "--output and --name name one file: give one protocol with them, not \(options.protocolNames.count); see --help"
      )
    }
    if !explicitToolchainModules.isEmpty { options.toolchainModules = explicitToolchainModules }
    if !options.help && options.protocolName.isEmpty {
      throw RestateError.usage("name the protocol to restate; see --help")
    }
    return options
  }
}
