// Every requirement of FoundationXML's XMLParserDelegate, inherited ones included, restated
// for @Delegate by `swift package restate-delegate XMLParserDelegate --target RestatedProtocolTests`.
// Re-run it when the dependency changes; `--check` fails when this falls out of step.
// Comments and attributes you add to a requirement (@Default, @Selector) are kept;
// policies are set in code, on the multicast, so nothing else here needs editing.
import DelegateProxy
import FoundationXML
import Foundation

@Delegate(for: XMLParserDelegate.self)
protocol XMLParserDelegates: XMLParserDelegate {
  func parserDidStartDocument(_ parser: XMLParser)
  func parserDidEndDocument(_ parser: XMLParser)
  func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?,
      systemID: String?)
  func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String,
      publicID: String?, systemID: String?, notationName: String?)
  func parser(_ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String,
      forElement elementName: String, type: String?, defaultValue: String?)
  func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String,
      model: String)
  func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String,
      value: String?)
  func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String,
      publicID: String?, systemID: String?)
  func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?, attributes attributeDict: [String : String])
  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?)
  func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String)
  func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String)
  func parser(_ parser: XMLParser, foundCharacters string: String)
  func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String)
  func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String,
      data: String?)
  func parser(_ parser: XMLParser, foundComment comment: String)
  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data)
  func parser(_ parser: XMLParser, resolveExternalEntityName name: String,
      systemID: String?) -> Data?
  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error)
  func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error)
}
