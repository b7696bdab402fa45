// The declaration in include/fuzz_driver.h is all this target is; a C target needs one source file.
#include "fuzz_driver.h"
