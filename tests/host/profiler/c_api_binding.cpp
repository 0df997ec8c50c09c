// Binds the C API to the idealised test PMU, as a firmware binds it to its real one.
#include "fake_backend.hpp"
using pmukit_backend = fake::Pmu<32>;
#define PMUKIT_DUMP_BUFFER_BYTES 4096  // small, so the test can overflow it
#define PMUKIT_STACK_RING 4u            // the user's sizes (c_api.h): a stack ring of 4 samples
#define PMUKIT_STACK_BYTES 32u
#include "profiler/c_api_impl.hpp"
