import DelegateProxy
import DelegateProxyCExpat
import Dispatch
import Foundation
#if canImport(FoundationXML)
  import FoundationXML
#endif
import MessageRuntime
import Synchronization
import Testing

/// README.md's Swift code blocks are compiled by this target (ReadmeExamples.swift holds
/// them verbatim) and the runnable ones run.
@Suite("README")
struct ReadmeTests {
  /// The repository root (two levels above this file's folder).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Lines without leading or trailing white space; blank lines and imports dropped (a
  /// block's imports stand at the top of the file that compiles it).
  static func normalized(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
  }

  @Test func everySwiftBlockOfTheReadmeIsCompiledHere() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let examples = try String(
      contentsOf: Self.root.appendingPathComponent("Tests/ReadmeTests/ReadmeExamples.swift"),
      encoding: .utf8)
    let source = Self.normalized(examples).joined(separator: "\n")
    let blocks = Self.swiftBlocks(readme)
    #expect(blocks.count >= 5)
    for block in blocks where !block.hasPrefix("// Package.swift") {
      let lines = Self.normalized(block).joined(separator: "\n")
      #expect(source.contains(lines), "README block not in ReadmeExamples.swift:\n\(block)")
    }
  }

  /// The file an article's blocks are taken from, when it says so
  /// (`<!-- Code from: PATH -->`, PATH from the repository root).
  static func codeSource(of markdown: String) -> String? {
    let marker = "<!-- Code from: "
    guard let start = markdown.range(of: marker),
      let end = markdown.range(of: " -->", range: start.upperBound..<markdown.endIndex)
    else { return nil }
    return String(markdown[start.upperBound..<end.lowerBound])
  }

  @Test("The recipes' code is their integration tests' code, and a block that is not fails")
  func recipesAreTheirTestsCode() throws {
    let catalog = Self.root.appendingPathComponent("Sources/DelegateProxy/DelegateProxy.docc")
    for article in ["ReplacingMultiplexLogHandler.md", "ReplacingMultiplexMetricsHandler.md"] {
      let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
      let path = try #require(Self.codeSource(of: text), "\(article) names no source")
      let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
      let compiled = Self.normalized(file).joined(separator: "\n")
      let blocks = Self.swiftBlocks(text)
      #expect(blocks.count >= 2, "\(article)")
      for block in blocks {
        #expect(compiled.contains(Self.normalized(block).joined(separator: "\n")), "\(article)")
      }
      // The check can fail: a block edited in the article alone is caught.
      let drifted = Self.normalized(blocks[0] + "\nlet drifted = 1").joined(separator: "\n")
      #expect(!compiled.contains(drifted))
    }
  }

  /// The ```swift blocks of a Markdown text.
  static func swiftBlocks(_ markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [String]? = nil
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.hasPrefix("```swift") {
        current = []
      } else if current != nil, line.hasPrefix("```") {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else if current != nil {
        current!.append(String(line))
      }
    }
    return blocks
  }

  @Test func everySwiftBlockOfTheDocCArticlesIsCompiledHere() throws {
    let examples = try String(
      contentsOf: Self.root.appendingPathComponent("Tests/ReadmeTests/DocCExamples.swift"),
      encoding: .utf8)
    let source = Self.normalized(examples).joined(separator: "\n")
    let sources = Self.root.appendingPathComponent("Sources")
    var checked = 0
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      let catalog = sources.appendingPathComponent(module).appendingPathComponent(
        "\(module).docc")
      guard let articles = try? FileManager.default.contentsOfDirectory(atPath: catalog.path)
      else { continue }
      for article in articles.sorted() where article.hasSuffix(".md") {
        let text = try String(
          contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
        // A recipe whose code is an integration test's names that file: its blocks stand
        // there, where CI runs them against the real package.
        var compiled = source
        var compiledName = "DocCExamples.swift"
        if let path = Self.codeSource(of: text) {
          let file = try String(
            contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
          compiled = Self.normalized(file).joined(separator: "\n")
          compiledName = path
        }
        for block in Self.swiftBlocks(text) {
          checked += 1
          // Each paragraph of a block (declarations, then statements) stands here whole:
          // a protocol declaration and the statements after it cannot share one scope.
          for paragraph in block.split(separator: "\n\n") {
            let lines = Self.normalized(String(paragraph)).joined(separator: "\n")
            if lines.isEmpty { continue }  // imports only: they stand at the top of the file
            #expect(
              compiled.contains(lines),
              "\(module).docc/\(article) block not in \(compiledName):\n\(paragraph)")
          }
        }
      }
    }
    #expect(checked >= 10)
  }

  @Test func theSwiftProtocolExampleRunsAsTheReadmeSays() throws {
    #expect(try readmeSwiftProtocolUsage() == false)  // "false: the recorder says no"
  }

  @Test func theErrorsAndAsyncExampleAnswersAsTheReadmeSays() async throws {
    let quota = Quota()
    let progress = Progress()
    let (errors, retry, finished) = try await readmeErrorsAndAsync(quota: quota, progress: progress)
    #expect(errors == 1)  // the quota's, after every delegate ran
    #expect(retry == true)
    #expect(finished == 2)
    withExtendedLifetime((quota, progress)) {}
  }

  @Test func theSwiftTypesExampleAnswersTheDeclaredDefaultAndFoldsTitles() throws {
    final class Log: ChatDelegate {
      var heard: [String] = []
      func chat(_ chat: ChatRoom, didReceive message: String, from sender: String?) {
        heard.append("\(sender ?? "someone"): \(message)")
      }
      func chat(_ chat: ChatRoom, titleFor row: Int) -> String? { "row \(row)" }
      func chatShouldConnect(_ chat: ChatRoom) -> Bool { false }
    }
    let log = Log()
    #expect(try readmeSwiftTypes(chatLog: log) == true)  // "true: no delegates, the declared default"
    #expect(log.heard == ["someone: hello"])
  }

  @Test func theInoutExampleSnapsThenClamps() throws {
    final class Snap: ScrollViewDelegate {
      func scrollViewWillEndDragging(
        _ view: ScrollView, velocity: Double, targetOffset: inout Double
      ) { targetOffset = (targetOffset / 100).rounded() * 100 }
    }
    final class Clamp: ScrollViewDelegate {
      func scrollViewWillEndDragging(
        _ view: ScrollView, velocity: Double, targetOffset: inout Double
      ) { targetOffset = min(targetOffset, 80) }
    }
    let snap = Snap()
    let clamp = Clamp()
    let scrolling = ScrollViewDelegateMulticast()
    scrolling.add(snap)
    scrolling.add(clamp)
    #expect(readmeInout(scrolling, ScrollView()) == 80)  // 120 → 100 → 80
  }

  @Test func theForeignProtocolExampleParsesForEveryDelegate() throws {
    final class Count: XMLParserDelegate {
      var elements = 0
      var ended = false
      func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String]
      ) { elements += 1 }
      func parserDidEndDocument(_ parser: XMLParser) { ended = true }
    }
    let (outline, counter, logger, owner) = (Count(), Count(), Count(), Count())
    let document = Data("<a><b/><b/></a>".utf8)
    let (events, logging) = try readmeForeignProtocol(
      outline: outline, counter: counter, logger: logger, owner: owner, document: document)
    #expect(outline.elements == 3 && counter.elements == 3 && counter.ended)
    #expect(events.count == 2)
    logging.remove()
    #expect(logger.elements == 0)  // the injected parser was not run
  }

  @Test func theCallbackAdapterExampleHearsExpat() throws {
    let start = Message<Void, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?>(
      "parserDidStartElement:attributes:")
    let names = Mutex<[String]>([])
    let handler = RuntimeObject()
    try handler.setMethod(start) { _, name, _ in
      names.withLock { $0.append(name.map { String(cString: $0) } ?? "") }
    }
    let proxy = try MulticastProxy(delegates: [handler])
    let parser = try #require(XML_ParserCreate(nil))
    defer { XML_ParserFree(parser) }
    let adapter = try readmeCallbackAdapter(proxy: proxy, parser: parser)
    #expect(adapter.path == .registers)
    #expect(XML_Parse(parser, "<a><b/></a>", 11, 1) == XML_STATUS_OK)
    #expect(names.withLock { $0 } == ["a", "b"])
  }

  @Test func theCallbackSignatureExampleBuildsBothAdaptersAndWrites() throws {
    let didUpdate = Message<Void, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64>(
      "database:didUpdate:table:row:")
    let write = Message<UInt, UnsafeMutablePointer<CChar>?, UInt, UInt>("write:size:count:")
    let rows = Mutex<[Int64]>([])
    let handler = RuntimeObject()
    try handler.setMethod(didUpdate) { _, _, _, _, row in rows.withLock { $0.append(row) } }
    let proxy = try MulticastProxy(delegates: [handler])
    let sink = RuntimeObject()
    try sink.setMethod(write) { _, _, size, count in size * count }
    let (updates, writes, function) = try readmeCallbackSignatures(
      proxy: proxy, sink: sink, curl: nil)
    #expect(updates.callback.encoding == "v^vi**q")
    #expect(writes.callback.encoding == "Q*QQ^v")
    var bytes: [CChar] = [1, 2, 3]
    #expect(function(&bytes, 1, 3, writes.context) == 3)  // the sink took 1 × 3 bytes
    typealias Update =
      @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64
      ) -> Void
    try updates.function(as: Update.self)(updates.context, 18, "main", "t", 42)
    #expect(rows.withLock { $0 } == [42])
    withExtendedLifetime(handler) {}
  }

  @Test func theMessageExampleAnswersThree() throws {
    let (n, _) = try readmeMessageDeclaredOnce()
    #expect(n == 3)
  }

  @Test func theMulticastProxyExampleAggregatesAndObserves() async throws {
    let didReceiveIQ = Message<Bool, RuntimeObject?, RuntimeObject?>("xmppStream:didReceiveIQ:")
    let didScroll = Message<Void, RuntimeObject?>("scrollViewDidScroll:")
    let handles = try RuntimeClass(name: "ReadmeIQHandler")
    try handles.addMethod(didReceiveIQ) { _, _, _ in true }
    let viewController = RuntimeObject()
    let dataSource = RuntimeObject()
    let logger = RuntimeObject(class: handles)
    let table = ReadmeTableView()
    let (proxy, handled, watching) = try await readmeOneSlotManyDelegates(
      viewController: viewController, dataSource: dataSource, tableView: table, logger: logger,
      loggingQueue: DispatchQueue(label: "logging"), didReceiveIQ: didReceiveIQ,
      stream: RuntimeObject(),
      iq: RuntimeObject(), didScroll: didScroll)
    #expect(handled)  // the logger, on its queue, handled the IQ
    #expect(table.dataSource === proxy)
    #expect(proxy.count == 3)
    #expect(watching.isActive)
    withExtendedLifetime((viewController, dataSource, logger)) {}
  }

  @Test func theValueMembersExampleKeepsCopiesApart() {
    let (audit, quiet) = doccValueMembers()
    #expect(audit.members(ofType: MemorySink.self).map(\.name) == ["a", "b"])
    #expect(audit.members(ofType: MemorySink.self).map(\.tag) == ["[db] ", "[db] "])
    #expect(quiet.members(ofType: MemorySink.self).map(\.name) == ["b"])
    #expect(quiet.first(ofType: MemorySink.self)?.tag == "")
  }

  @Test func thePackageLinesNameRealProducts() throws {
    let manifest = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    for product in ["DelegateProxy", "MessageRuntime"] {
      #expect(manifest.contains(".library(name: \"\(product)\""))
    }
  }
}
