import Glibc
import HubCore

/// Fuzzes the protocol v1 decoder: every input must give a message or a
/// `ProtocolError` with a message, never a crash, a trap or a hang. Built with
/// `-sanitize=fuzzer,address` by scripts/fuzz_decoder.sh (the target exists
/// only when CAMHUB_FUZZ is set, see Package.swift); `main` here hands control
/// to libFuzzer's driver, so the usual libFuzzer options apply.
/// Like `precondition`, but says why in release builds too (libFuzzer then saves the input).
func require(_ ok: Bool, _ why: @autoclosure () -> String) {
    guard !ok else { return }
    let line = "fuzz check failed: \(why())\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}

let fuzzOne: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    guard let data else { return 0 }
    do {
        _ = try ClientMessage.decode(UnsafeBufferPointer(start: data, count: size), tick: 60)
    } catch let error as ProtocolError {
        require(!error.message.isEmpty, "a rejection that names nothing")
    } catch {
        require(false, "decode threw something other than a ProtocolError: \(error)")
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
