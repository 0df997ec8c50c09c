// Binds the C API to the idealised test PMU, as a firmware binds it to its real one.
#include "fake_backend.hpp"
using pmukit_backend = fake::Pmu<32>;
#include "profiler/c_api_impl.hpp"
