// The tool behind `swift package restate-delegate` (Plugins/DelegateProxyRestatePlugin):
// the plugin hands it the symbol graphs; it writes, rewrites or checks the restatement.
import DelegateProxyRestateCore
import Foundation

let status: RestateCommand.Status
do {
  let options = try RestateOptions.parse(Array(CommandLine.arguments.dropFirst()))
  status = RestateCommand(options: options) { print($0) }.run()
} catch {
  print("error: \(error)")
  status = .failure
}
exit(status.rawValue)
