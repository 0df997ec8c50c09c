// prof::TaskCounters (profiler/task_counters.hpp) on the fake PMU: each task's counts are what ran
// while it was current, every bucket together is the whole run, and a sampling interrupt taken at
// any step of the switch hook changes neither (issue 35).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fake_backend.hpp"
#include "hal/core/bus/irq.hpp"
#include "hal/core/bus/mock.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/model.hpp"
#include "profiler/dump/writer.hpp"
#include "profiler/emit.hpp"
#include "profiler/region.hpp"
#include "profiler/sampler.hpp"
#include "profiler/task_counters.hpp"

namespace {

using prof::kNoTask;
using P = fake::Pmu<32>;
constexpr std::uint32_t kInstr = 2;  // the fake's instructions event (slot 1 in the Rig)
constexpr std::uint64_t kPeriod = 64;

struct TaskRig {
  static inline fake::Rig<P>* rig = nullptr;
  static inline prof::TaskCounters<P, 4>* tasks = nullptr;
  static inline prof::TaskSampleRing<64>* ring = nullptr;
  static inline prof::Sampler<P, prof::TaskSampleRing<64>>* sampler = nullptr;
  static void take(void*) { sampler->on_pmu_interrupt(0x1000, 0x2000); }
  // The overflow interrupt: taken now, or when the CPU's mask (pmu::IrqGuard) lifts.
  static void irq() { pmu::host_irq::run_or_defer(&take, nullptr); }
};

std::uint64_t sum_all(prof::TaskCounters<P, 4>& t, unsigned i) {
  return t.value(0, i) + t.value(1, i) + t.value(2, i) + t.value(3, i) + t.value(kNoTask, i);
}

TEST(TaskCounters, EachTaskCountsOnlyWhatRanWhileItWasCurrentAndTheBucketsAddUpToTheRun) {
  pmu::host_irq::masked = 0;
  fake::Rig<P> r;
  prof::TaskCounters<P, 4> t{r.p};
  ASSERT_EQ(t.add_task(0, "a"), prof::Status::ok);
  ASSERT_EQ(t.add_task(1, "b"), prof::Status::ok);
  EXPECT_EQ(t.add_task(4, "out of the table"), prof::Status::bad_argument);
  t.begin();
  P::event(kInstr, 5);  // before the scheduler: no task
  t.on_switch(kNoTask, 0);
  P::event(kInstr, 100);
  t.on_switch(0, 1);
  P::event(kInstr, 40);
  t.on_switch(1, 0);
  P::event(kInstr, 7);
  t.on_switch(0, 1);
  P::event(kInstr, 3);  // task 1 still current: its running slice
  EXPECT_EQ(t.value(kNoTask, r.ins.index), 5u);
  EXPECT_EQ(t.value(0, r.ins.index), 107u);
  EXPECT_EQ(t.value(1, r.ins.index), 43u);
  EXPECT_EQ(sum_all(t, r.ins.index), r.p.read(r.ins));
  EXPECT_EQ(t.switches_in(0), 2u);
  EXPECT_EQ(t.switches_in(1), 2u);
  EXPECT_EQ(t.current(), 1u);
  EXPECT_EQ(t.mismatches(), 0u);
  EXPECT_EQ(t.unknown_ids(), 0u);
  // An id outside the table goes to the no-task bucket and is counted.
  t.on_switch(1, 9);
  P::event(kInstr, 11);
  t.on_switch(9, 0);
  EXPECT_EQ(t.value(kNoTask, r.ins.index), 16u);
  EXPECT_EQ(t.unknown_ids(), 2u);
  EXPECT_EQ(sum_all(t, r.ins.index), r.p.read(r.ins));
  // A `from` that is not the task switched in last is charged as given, and counted.
  t.on_switch(1, 0);
  EXPECT_EQ(t.mismatches(), 1u);
  EXPECT_EQ(sum_all(t, r.ins.index), r.p.read(r.ins));
}

// The sampling interrupt (the fake's overflow, through a Sampler re-arming by rewind) taken just
// before each backend access of on_switch, with events between every access: the hook masks
// interrupts, so the sample comes after it and is tagged with the task switched in; the buckets
// still add up to the counters exactly and the task switched out keeps only its own events.
TEST(TaskCounters, ASamplingInterruptAtEveryStepOfOnSwitchLeavesTheBucketsExactAndTagsTheNewTask) {
  // How many backend accesses one on_switch makes.
  unsigned accesses = 0;
  {
    pmu::host_irq::masked = 0;
    fake::Rig<P> r;
    prof::TaskCounters<P, 4> t{r.p};
    t.begin(0);
    const unsigned before = P::st.accesses;
    t.on_switch(0, 1);
    accesses = P::st.accesses - before;
  }
  ASSERT_GT(accesses, 2u);
  for (unsigned k = 1; k <= accesses; ++k) {
    SCOPED_TRACE(k);
    pmu::host_irq::masked = 0;
    pmu::host_irq::deferred = nullptr;
    fake::Rig<P> r;
    prof::TaskCounters<P, 4> t{r.p};
    prof::TaskSampleRing<64> ring;
    prof::Sampler<P, prof::TaskSampleRing<64>> sampler{r.p, ring};
    TaskRig::rig = &r;
    TaskRig::tasks = &t;
    TaskRig::ring = &ring;
    TaskRig::sampler = &sampler;
    ring.attach(t.current_word());
    ASSERT_EQ(sampler.arm(r.ins, kPeriod), prof::Status::ok);
    P::st.irq = &TaskRig::irq;
    t.begin(0);
    P::event(kInstr, 10);  // task 0's own
    // At access k of the hook: enough events for the sampled counter to overflow.
    P::st.hook = [] { P::event(kInstr, kPeriod); };
    P::st.hook_at = P::st.accesses + k;
    t.on_switch(0, 1);
    P::st.hook = nullptr;
    P::event(kInstr, 20);  // task 1's own
    const std::uint64_t whole = r.p.read(r.ins);
    EXPECT_EQ(whole, 10u + kPeriod + 20u);
    EXPECT_EQ(sum_all(t, r.ins.index), whole);
    // The hook's events land on one side of its read: task 0 has its 10 and maybe them, no more.
    const std::uint64_t a = t.value(0, r.ins.index);
    EXPECT_TRUE(a == 10u || a == 10u + kPeriod) << a;
    ASSERT_EQ(ring.size(), 1u);
    prof::Sample s;
    std::uint16_t task = 0;
    ASSERT_TRUE(ring.peek(0, s, task));
    EXPECT_EQ(task, 1u);
    P::st.irq = nullptr;
  }
}

// The same on the XScale driver and its behavioural model (XScale Core Developer's Manual 8.3:
// CCNT's overflow sets FLAG.C and, with INTEN.C, the interrupt): CCNT sampled by the Sampler
// (re-armed by rewind, Profiler::account_rearm), PMN0 counting instructions, CCNT's overflow landing
// after each model access of on_switch. The handler is taken where the model's harness takes it
// (masked accesses: when the hook's guard lifts), and the buckets match the model's own counts.
struct XsTaskTag;
using XsBus = pmu::MockBus<XsTaskTag>;
using Xs = pmu::xscale::Xsc2<XsBus>;
struct XsTaskRig {
  static inline pmu::xscale::Xsc2Model model{};
  static inline prof::Profiler<Xs> p{};
  static inline prof::TaskCounters<Xs, 2> tasks{p};
  static inline prof::TaskSampleRing<16> ring{};
  static inline prof::Sampler<Xs, prof::TaskSampleRing<16>> sampler{p, ring};
  static inline prof::Counter cyc{}, ins{};
  static void take(void*) { sampler.on_pmu_interrupt(0x100, 0x200); }
  static void overflow(void*) { model.cycles(0x40); }  // one period: CCNT passes its preset
  static void setup() {
    XsBus::reset();
    model = pmu::xscale::Xsc2Model{};
    XsBus::device = &model;
    pmu::host_irq::masked = 0;
    pmu::host_irq::deferred = nullptr;
    p.clear();
    ring.reset();
    ASSERT_EQ(p.add(pmu::Preset::cycles, cyc), prof::Status::ok);
    ASSERT_EQ(p.add(pmu::Preset::instructions, ins), prof::Status::ok);
    p.start();
    ASSERT_EQ(sampler.arm(cyc, 0x40), prof::Status::ok);
    model.on_interrupt(&take, nullptr);
    ring.attach(tasks.current_word());
    tasks.begin(0);
  }
};

TEST(TaskCounters, XscaleModelACcntSampleAfterEveryAccessOfOnSwitchKeepsTheBucketsExact) {
  XsTaskRig::setup();
  XsTaskRig::model.reset_access_count();
  XsTaskRig::tasks.on_switch(0, 1);
  const unsigned n = static_cast<unsigned>(XsTaskRig::model.accesses());
  ASSERT_GE(n, 3u);
  for (unsigned k = 1; k <= n; ++k) {
    SCOPED_TRACE(::testing::Message() << "overflow after access " << k << " of " << n);
    XsTaskRig::setup();
    auto& m = XsTaskRig::model;
    auto& t = XsTaskRig::tasks;
    m.cycles(0x10);
    m.event(pmu::xscale::event::INSTR, 7);
    m.after_access(k, &XsTaskRig::overflow, nullptr);
    t.on_switch(0, 1);
    m.after_access(1, nullptr, nullptr);
    m.cycles(0x08);
    m.event(pmu::xscale::event::INSTR, 5);
    Xs::stop(Xs::kAllSlots);  // frozen: the model's counts cannot move while we compare
    const auto c = XsTaskRig::cyc.index, i = XsTaskRig::ins.index;
    EXPECT_EQ(t.value(0, c) + t.value(1, c) + t.value(prof::kNoTask, c), XsTaskRig::p.read(XsTaskRig::cyc) - t.at_begin(c));
    EXPECT_EQ(XsTaskRig::p.read(XsTaskRig::cyc), 0x10u + 0x40u + 0x08u) << "CCNT's value across the re-arm";
    EXPECT_EQ(t.value(0, i), 7u);
    EXPECT_EQ(t.value(1, i), 5u);
    const std::uint64_t a = t.value(0, c);
    EXPECT_TRUE(a == 0x10u || a == 0x50u) << a;
    ASSERT_EQ(XsTaskRig::ring.size(), 1u);
    prof::Sample s;
    std::uint16_t task = 0;
    ASSERT_TRUE(XsTaskRig::ring.peek(0, s, task));
    EXPECT_EQ(task, 1u) << "the sample waits for the hook's guard: the task switched in";
  }
  XsBus::device = nullptr;
}

// A Region across a switch is not corrected: it counts it (RegionStats::switched).
TEST(TaskCounters, ARegionWithASwitchInsideCountsItInSwitched) {
  pmu::host_irq::masked = 0;
  fake::Rig<P> r;
  prof::TaskCounters<P, 4> t{r.p};
  prof::Regions<P> regions{r.p};
  prof::RegionStats<P> stats{"r"};
  t.begin(0);
  { prof::Region<P> g{regions, stats}; P::event(kInstr, 3); }
  EXPECT_EQ(stats.switched, 0u);
  {
    prof::Region<P> g{regions, stats};
    t.on_switch(0, 1);
    P::event(kInstr, 3);
    t.on_switch(1, 0);
  }
  EXPECT_EQ(stats.calls, 2u);
  EXPECT_EQ(stats.switched, 1u);
}

// The dump's 1.5 chunks, byte for byte as docs/dump-format.md lays them out: TASKS (the named
// tasks), a TASK_COUNTS per task and for the no-task time (summing to the counters' run since
// begin()), and SAMPLE_TAGS right after SAMPLES with one tag per sample, in its order.
struct Bytes {
  std::vector<std::uint8_t> b;
  static bool write(void* ctx, const std::uint8_t* d, std::size_t n) {
    static_cast<Bytes*>(ctx)->b.insert(static_cast<Bytes*>(ctx)->b.end(), d, d + n);
    return true;
  }
  template <class T>
  T at(std::size_t off) const {  // the host's (little-endian) byte order, as the writer's here
    T v;
    std::memcpy(&v, b.data() + off, sizeof v);
    return v;
  }
};

TEST(TaskCounters, TheDumpCarriesTasksTaskCountsAndSampleTagsAsDumpFormat15Says) {
  pmu::host_irq::masked = 0;
  fake::Rig<P> r;
  prof::TaskCounters<P, 4> t{r.p};
  prof::TaskSampleRing<8> ring;
  prof::Regions<P> regions{r.p};
  t.add_task(0, "a");
  t.add_task(2, "ccc");
  ring.attach(t.current_word());
  t.begin();
  P::event(kInstr, 3);
  ring.record(0x100, 0);  // no task
  t.on_switch(kNoTask, 0);
  P::event(kInstr, 10);
  ring.record(0x200, 0);  // task 0
  t.on_switch(0, 2);
  P::event(kInstr, 20);
  ring.record(0x300, 0);  // task 2
  r.p.stop();
  Bytes out;
  pmu::dump::Writer w{pmu::dump::Sink{&Bytes::write, &out}};
  const prof::DumpSamples source{pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, 1000};
  const prof::TaskDump td = prof::task_dump(t, &ring);
  prof::DumpExtras extras;
  extras.tasks = &td;
  prof::RegionStats<P>* const* none = nullptr;
  ASSERT_EQ(prof::write_dump(w, {"fake", 0}, r.p, regions, none, 0, &source, &ring, extras), pmu::dump::Status::ok);

  std::vector<std::uint16_t> order;
  std::uint64_t sums[2] = {0, 0};
  unsigned counts_chunks = 0, samples = 0;
  for (std::size_t off = 16; off + 8 <= out.b.size();) {
    const auto type = out.at<std::uint16_t>(off);
    const auto len = out.at<std::uint32_t>(off + 4);
    const std::size_t p = off + 8;
    order.push_back(type);
    if (type == 0x0005) samples = out.at<std::uint32_t>(p);
    if (type == 0x000D) {  // u16 n; n x (u16 id, str name)
      EXPECT_EQ(out.at<std::uint16_t>(p), 2u);
      EXPECT_EQ(out.at<std::uint16_t>(p + 2), 0u);
      EXPECT_EQ(out.b[p + 4], 1u);
      EXPECT_EQ(out.b[p + 5], 'a');
      EXPECT_EQ(out.at<std::uint16_t>(p + 6), 2u);
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(&out.b[p + 9]), out.b[p + 8]), "ccc");
      EXPECT_EQ(len, 2u + 3u + 1u + 3u + 3u);
    }
    if (type == 0x000F) {  // u16 task, u64 switches in, u8 n, n x u64
      ++counts_chunks;
      const auto task = out.at<std::uint16_t>(p);
      ASSERT_EQ(out.b[p + 10], 2u) << "n equal to COUNTERS' n";
      const auto ins = out.at<std::uint64_t>(p + 11 + 8);
      sums[1] += ins;
      const std::uint64_t expect = task == 0 ? 10u : task == 2 ? 20u : 3u;
      EXPECT_EQ(ins, expect) << "task " << task;
      EXPECT_EQ(out.at<std::uint64_t>(p + 2), task == 0xFFFF ? 0u : 1u) << "switches in, task " << task;
    }
    if (type == 0x000E) {  // u32 n, u8 flags, n x (u16 task, u8 core)
      ASSERT_EQ(order.size() >= 2 ? order[order.size() - 2] : 0, 0x0005) << "right after SAMPLES";
      ASSERT_EQ(out.at<std::uint32_t>(p), samples);
      EXPECT_EQ(out.b[p + 4], pmu::dump::kTagTask);
      EXPECT_EQ(out.at<std::uint16_t>(p + 5), 0xFFFFu);
      EXPECT_EQ(out.at<std::uint16_t>(p + 8), 0u);
      EXPECT_EQ(out.at<std::uint16_t>(p + 11), 2u);
      EXPECT_EQ(len, 4u + 1u + 3u * samples);
    }
    if (type == 0x00FF) break;
    off = p + len;
  }
  EXPECT_EQ(samples, 3u);
  EXPECT_EQ(counts_chunks, 3u) << "tasks 0 and 2, and the no-task time";
  EXPECT_EQ(sums[1], r.p.read(r.ins) - t.at_begin(r.ins.index));
  EXPECT_NE(std::find(order.begin(), order.end(), 0x000E), order.end());
}

// Samples before any TaskCounters is attached are tagged kNoTask.
TEST(TaskCounters, SamplesWithoutATaskAreTaggedNoTask) {
  prof::TaskSampleRing<4> ring;
  ASSERT_TRUE(ring.record(1, 2));
  prof::Sample s;
  std::uint16_t task = 0;
  ASSERT_TRUE(ring.peek(0, s, task));
  EXPECT_EQ(task, kNoTask);
  EXPECT_EQ(s.pc, 1u);
}

}  // namespace
