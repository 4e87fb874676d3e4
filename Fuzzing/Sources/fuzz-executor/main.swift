import CLibFuzzer
import Foundation
import FuzzSupport

// libFuzzer target: each input is a script run by the REPL's session on an in-memory store.
let harness = ExecutorHarness()
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    harness.run(FuzzInput.lines(data, size))
    return 0
})
