import CamHubProtocol
import FuzzSupport

/// Fuzzes the protocol v1 decoder: every input must give a message or a
/// `ProtocolError` with a message, never a crash, a trap or a hang. Built with
/// `-sanitize=fuzzer,address` by scripts/fuzz.sh (the target exists
/// only when CAMHUB_FUZZ is set, see Package.swift); `runFuzzer` hands control
/// to libFuzzer's driver, so the usual libFuzzer options apply.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
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

/// libFuzzer's own `main` calls this where the build renamed ours (SwiftPM's debug
/// builds do, so that tests could link the executable); otherwise `runFuzzer` below runs.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzOne(data, size) }

runFuzzer(fuzzOne)
