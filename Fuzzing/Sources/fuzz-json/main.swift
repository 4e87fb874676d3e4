import CLibFuzzer
import Foundation
import FuzzSupport

// libFuzzer target: the `stackdoc/1` JSON importer.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    JSONHarness.check(FuzzInput.bytes(data, size))
    return 0
})
