#ifndef BOK_FUZZ_DRIVER_H
#define BOK_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). SwiftPM renames an executable's
/// `main`, so libFuzzer's own `main` is never used; bok-fuzz's main calls this instead.
/// Only referenced when bok-fuzz is built with -D FUZZING.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
