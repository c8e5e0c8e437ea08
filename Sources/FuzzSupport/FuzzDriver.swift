import Glibc

/// What the fuzz targets share: libFuzzer's driver and a check that says why.
/// Built only with CAMHUB_FUZZ set (see Package.swift) and -sanitize=fuzzer.

/// One fuzz input: the bytes libFuzzer made (nil when empty) and their count.
public typealias FuzzBody = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: FuzzBody
) -> CInt

/// Hands the process to libFuzzer (its usual options apply) and exits with its status.
public func runFuzzer(_ body: FuzzBody) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(runFuzzerDriver(&argc, &argv, body))
}

/// Like `precondition`, but says why in release builds too (libFuzzer then saves the input).
public func require(_ ok: Bool, _ why: @autoclosure () -> String) {
    guard !ok else { return }
    let line = "fuzz check failed: \(why())\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}
