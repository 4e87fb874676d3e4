// libFuzzer's driver, called from the fuzz targets' main.swift (the targets link libFuzzer with
// -sanitize=fuzzer; SwiftPM gives every executable its own `main`, so libFuzzer's is not used).
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command line `argc`/`argv`, calling `test` for every input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
