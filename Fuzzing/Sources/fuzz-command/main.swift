import CLibFuzzer
import Foundation
import FuzzSupport

// libFuzzer target: the command parser (and the printer round trip), one command per input line.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    for line in FuzzInput.lines(data, size) { CommandHarness.check(line) }
    return 0
})
