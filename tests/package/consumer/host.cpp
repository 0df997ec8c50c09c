// A user's host test: pmukit's XScale driver on its behavioural model, through the profiler.
#include <cstdio>

#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/model.hpp"
#include "profiler/profiler.hpp"

namespace {
struct Tag;
using Bus = pmu::MockBus<Tag>;
using Pmu = pmu::xscale::Xsc2<Bus>;
}  // namespace

int main() {
  pmu::xscale::Xsc2Model model;
  Bus::device = &model;
  prof::Profiler<Pmu> p;
  prof::Counter cycles;
  if (p.add(pmu::Preset::cycles, cycles) != pmu::Status::ok) {
    std::puts("consumer: cannot add cycles");
    return 1;
  }
  p.start();
  model.cycles(12345);
  const unsigned long long v = p.read(cycles);
  std::printf("consumer: %llu cycles counted on the XScale model (expected 12345)\n", v);
  return v == 12345 ? 0 : 1;
}
