// What the numbers were measured on: CPU model, cores, kernel, Swift version.

import Foundation

struct Machine {
  var cpu: String
  var logicalCores: Int
  var kernel: String
  var swift: String
  var hostArchitecture: String

  static func current(swiftVersion: String?) -> Machine {
    Machine(
      cpu: cpuModel(), logicalCores: ProcessInfo.processInfo.activeProcessorCount, kernel: kernel(),
      swift: swiftVersion ?? Machine.swiftVersion(), hostArchitecture: architecture())
  }

  /// /proc/cpuinfo's model name, with family/model/stepping and MHz when the name is
  /// generic (VMs often report just "AMD EPYC").
  static func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      if fields[key] == nil { fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
    }
    let name = fields["model name"] ?? fields["Hardware"] ?? fields["cpu model"] ?? fields["Processor"] ?? "unknown"
    var details: [String] = []
    if let f = fields["cpu family"], let m = fields["model"] {
      details.append("family \(f) model \(m)" + (fields["stepping"].map { " stepping \($0)" } ?? ""))
    }
    if let mhz = fields["cpu MHz"], let value = Double(mhz) { details.append("\(Int(value.rounded())) MHz") }
    return details.isEmpty ? name : "\(name) (\(details.joined(separator: ", ")))"
  }

  static func kernel() -> String {
    var u = utsname()
    uname(&u)
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return "\(field(u.sysname)) \(field(u.release))"
  }

  static func architecture() -> String {
    #if arch(x86_64)
      "x86_64"
    #elseif arch(arm64)
      "arm64"
    #else
      "other"
    #endif
  }

  /// `swift --version`'s first line, or the compiler version this was built with.
  static func swiftVersion() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "--version"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    if (try? process.run()) != nil {
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      if let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first(where: { $0.contains("Swift version") }) {
        return String(line)
      }
    }
    #if compiler(>=6.3)
      return "Swift 6.3 or later (compiler of this build)"
    #else
      return "Swift before 6.3 (compiler of this build)"
    #endif
  }
}
