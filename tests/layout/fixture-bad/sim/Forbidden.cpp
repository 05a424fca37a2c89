// A deliberate layout violation: the simulator must never read the code generator.

#include "codegen/Pipeline.h"
