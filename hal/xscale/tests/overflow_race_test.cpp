// Overflows that land in the middle of the profiler's fold (read flags, stop, clear, restart) on
// the XScale driver, after every single register access of it: no overflow may be lost, none
// reported twice, none invented.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"

namespace {

using namespace pmu;
using namespace pmu::xscale;
using xs_test::Fixture;
using xs_test::Xsc1Case;
using xs_test::Xsc2Case;

template <class C>
class xscaleOverflowRace : public Fixture<C> {
 protected:
  using typename Fixture<C>::Pmu;
  using typename Fixture<C>::Bus;
  using Model = typename C::Model;

  struct Outcome {
    std::uint32_t reported = 0;   // flags the sequence handed to its handler
    std::uint32_t remaining = 0;  // flags still set afterwards
    std::uint32_t wrapped = 0;    // counters that really overflowed (model's record)
    bool running = false;
    unsigned accesses = 0;        // register accesses of the sequence itself
  };

  // The overflow to inject: one cycle and one INSTR event, with CCNT and PMN0 one short of
  // wrapping, so it wraps them only if the counters are running at that moment.
  static void inject(void* ctx) {
    auto* m = static_cast<Model*>(ctx);
    m->cycles(1);
    m->event(event::INSTR, 1);
  }

  // Arms: running, PMN0 counts INSTR, an overflow already pending on the last slot, CCNT and PMN0
  // at 0xFFFFFFFF. `at` = 0: no injection; otherwise after access number `at` of `sequence`.
  // Every slot in use: CCNT counts cycles, the PMNs count INSTR.
  static inline prof::Profiler<Pmu> profiler{};
  template <class Seq>
  Outcome run(unsigned at, Seq sequence) {
    this->attach({});
    profiler.clear();
    prof::Counter c;
    EXPECT_EQ(profiler.add(pmu::Preset::cycles, c), Status::ok);
    for (unsigned s = 1; s < C::kSlots; ++s) EXPECT_EQ(profiler.add_on(s, {event::INSTR}, c), Status::ok);
    profiler.start();
    Pmu::write(0, 0xFFFFFFFF);
    Pmu::write(1, 0xFFFFFFFF);
    this->model.raise_flag(C::kSlots - 1);
    this->model.reset_access_count();
    if (at != 0) this->model.after_access(at, &inject, &this->model);
    Outcome o;
    o.reported = sequence();
    o.accesses = this->model.accesses();
    o.remaining = Pmu::overflow_status();
    for (unsigned s = 0; s < C::kSlots; ++s)
      if (this->model.overflows(s) != 0) o.wrapped |= 1u << s;
    o.wrapped |= 1u << (C::kSlots - 1);  // the pending one
    o.running = this->model.enabled();
    return o;
  }

  // No flag lost, none reported twice, none that did not happen.
  static ::testing::AssertionResult sound(const Outcome& o) {
    if ((o.reported | o.remaining) != o.wrapped)
      return ::testing::AssertionFailure()
             << "lost or invented: reported " << o.reported << " remaining " << o.remaining
             << " wrapped " << o.wrapped;
    if (o.reported & o.remaining)
      return ::testing::AssertionFailure() << "reported and still set: " << (o.reported & o.remaining);
    return ::testing::AssertionSuccess();
  }
};
using Cases = ::testing::Types<Xsc2Case, Xsc1Case>;
TYPED_TEST_SUITE(xscaleOverflowRace, Cases);

TYPED_TEST(xscaleOverflowRace, NoOverflowLostAtAnyPoint) {
  auto seq = [this] { return this->profiler.fold(); };
  // Length of the sequence, then an injection after each of its accesses.
  const unsigned n = this->run(0, seq).accesses;
  ASSERT_GE(n, 4u);
  unsigned before_stop = 0;
  for (unsigned at = 0; at <= n; ++at) {
    SCOPED_TRACE(::testing::Message() << "overflow after access " << at << " of " << n);
    const auto o = this->run(at, seq);
    EXPECT_TRUE(this->sound(o));
    EXPECT_TRUE(o.running) << "restarted";
    if (o.wrapped & 0b11) ++before_stop;
  }
  // The injection must have hit the running window at least once (after the first PMNC read), or
  // this test would prove nothing.
  EXPECT_GE(before_stop, 1u);
}

// Control: a sequence that reads the flags while running and then clears them all loses an
// overflow that lands between the read and the clear. The checker must see it.
TYPED_TEST(xscaleOverflowRace, CheckerCatchesANaiveSequence) {
  using Pmu = typename TestFixture::Pmu;
  auto naive = [] {
    const std::uint32_t f = Pmu::overflow_status();
    Pmu::clear_overflow(TestFixture::kAll);  // clears what it did not read
    return f;
  };
  const unsigned n = this->run(0, naive).accesses;
  bool caught = false;
  for (unsigned at = 1; at <= n; ++at) caught = caught || !this->sound(this->run(at, naive));
  EXPECT_TRUE(caught);
}

// The sampler's sink runs with the counters frozen, so what it reads is what overflowed.
template <class Pmu, class Model>
struct FrozenProbeSink {
  static inline Model* m = nullptr;
  static inline std::uint32_t a = 0, b = 0;
  bool record(std::uint32_t, std::uint32_t) {
    a = static_cast<std::uint32_t>(Pmu::read(1));
    m->event(event::INSTR, 50);
    m->cycles(50);
    b = static_cast<std::uint32_t>(Pmu::read(1));
    return true;
  }
};

TYPED_TEST(xscaleOverflowRace, SamplerSinkSeesFrozenCounters) {
  using Pmu = typename TestFixture::Pmu;
  using Sink = FrozenProbeSink<Pmu, typename TypeParam::Model>;
  Sink::m = &this->model;
  Sink sink;
  auto& p = TestFixture::profiler;
  prof::Sampler<Pmu, Sink> sampler{p, sink};
  (void)this->run(0, [] { return 0u; });
  prof::Counter pmn0{1};  // add() order: cycles, then PMN0
  ASSERT_EQ(p.slot_of(pmn0), 1u);
  ASSERT_EQ(sampler.arm(pmn0, 1), Status::ok);  // preset 0xFFFFFFFF: the next event samples
  this->model.event(event::INSTR, 1);
  sampler.on_pmu_interrupt(0x1000, 0x2000);
  EXPECT_EQ(Sink::a, Sink::b);
  EXPECT_EQ(sampler.interrupts(), 1u);
}

}  // namespace
