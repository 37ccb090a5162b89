import DelegateProxyMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

@Test func dump() throws {
  let source = """
    @Delegate
    public protocol SensorDelegate: AnyObject {
      func sensor(_ sensor: Sensor, didRead reading: Reading)
      func sensorShouldStart(_ sensor: Sensor) -> Bool
      @Optional func sensorDidStop(_ sensor: Sensor)
      @Selector("sensorFailed:code:") func sensor(_ sensor: Sensor, didFailWith code: Int32)
      @Optional func sensorThreshold(_ sensor: Sensor) -> Double
      func reset()
    }
    """
  let file = Parser.parse(source: source)
  let context = BasicMacroExpansionContext()
  let expanded = file.expand(
    macroSpecs: delegateMacroSpecs, contextGenerator: { _ in context }, indentationWidth: .spaces(2))
  print("=====\n\(expanded.description)\n=====")
  for d in context.diagnostics { print(d.debugDescription) }
}
