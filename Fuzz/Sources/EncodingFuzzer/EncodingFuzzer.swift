// libFuzzer entry: every input is parsed as one type encoding, as a method type list and
// as a method signature (layouts, libffi types, the prepared call). The properties
// checked are those a caller relies on: nothing traps or hangs, every rejection is a
// typed error whose position lies inside the input, every accepted encoding
// round-trips through its canonical string, and no accepted signature's frame exceeds
// MethodSignature.maximumFrameSize (a larger one is refused with an error naming its size).

@_spi(Validation) import MessageRuntime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let length = input.count

  func checkPosition(_ error: TypeEncodingError) {
    precondition(
      error.position >= 0 && error.position <= max(length, error.encoding.count),
      "error position \(error.position) outside input of length \(length): \(error)")
    precondition(!error.description.isEmpty)
  }

  do {
    let type = try TypeEncoding(parsing: input)
    let canonical = type.canonicalString
    let again = try TypeEncoding(parsing: canonical)
    precondition(again.canonicalString == canonical, "canonical form is not stable: \(canonical)")
    do { _ = try type.layout() } catch { checkPosition(error) }
  } catch {
    checkPosition(error)
  }

  do {
    _ = try TypeEncoding.parseMethodTypes(input)
  } catch {
    checkPosition(error)
  }

  do {
    let signature = try MethodSignature.makeUninterned(input)
    precondition(signature.numberOfArguments >= 2)
    precondition(signature.frameLength >= signature.argumentLayouts.map(\.size).reduce(0, +))
    precondition(signature.returnBufferLength >= signature.returnLayout.size)
    precondition(
      signature.frameLength <= (MethodSignature.maximumFrameSize + 15) & ~15,
      "accepted a frame of \(signature.frameLength) bytes")
  } catch {
    switch error {
    case .invalidEncoding(let e): checkPosition(e)
    case .invalidSignature(_, let reason): precondition(!reason.isEmpty)
    case .ffiPreparationFailed: break
    case .frameTooLarge(_, let size, let limit):
      precondition(limit == MethodSignature.maximumFrameSize && size > limit, "\(error)")
    default: preconditionFailure("unexpected error kind from the signature builder: \(error)")
    }
  }
  return 0
}

// SwiftPM names an executable's entry `<module>_main` and aliases `main` to it, so
// libFuzzer's own `main` is not linked; start libFuzzer's driver from here instead.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("EncodingFuzzer_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { fuzzOne($0, $1) }
}
