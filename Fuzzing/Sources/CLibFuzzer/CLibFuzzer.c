// Declarations only (CLibFuzzer.h): libFuzzer itself is linked by the fuzz targets.
#include "CLibFuzzer.h"
