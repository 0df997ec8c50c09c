// The CM counters' ownership when two VPs want them at once (issue 35, item 4): the driver's
// claim()/release() contract (driver.hpp, "Ownership"; the counters are one set per cluster, MIPS
// CPS Training, "Performance Registers (GCR)"). VP 1's claim, configure() and probe() are injected
// after every bus access of VP 0's whole sequence (claim, configure, reset-and-start, read, stop,
// release), the EBase read inside VP 0's own claim included: exactly one VP holds the counters at
// any time, the other gets busy and writes no GCR register, and the release lets the other claim.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace {

using namespace pmu;
using namespace pmu::mips_cps;
struct Tag;
using mips_cmOwnershipRace = mipscmtest::Fixture<Tag>;
using D = mips_cmOwnershipRace::D;
using Bus = mips_cmOwnershipRace::Bus;

// Forwards every access to the model and runs a hook once, right after the n-th access of any kind
// (the model's own after_access counts only PMU accesses, not the EBase read a claim starts with).
struct Interleaver final : MockDevice {
  Model* model = nullptr;
  unsigned at = 0, seen = 0;
  void (*hook)() = nullptr;
  MockResult read(std::uint32_t key, std::uint64_t& v) override { return step(model->read(key, v)); }
  MockResult write(std::uint32_t key, std::uint64_t v) override { return step(model->write(key, v)); }
  MockResult step(MockResult r) {
    if (++seen == at && hook) {
      auto* h = hook;
      hook = nullptr;  // once; the hook's own accesses come through here too
      h();
    }
    return r;
  }
};

Interleaver inter;
Model* the_model = nullptr;

// What VP 1 did when it cut in.
struct Cut {
  bool ran = false;
  Status claim = Status::ok, configure = Status::ok, probe = Status::ok;
  std::size_t gcr_writes = 0;
  int owner_seen = -2;
};
Cut cut;
enum class Try { claim, probe };
Try what = Try::claim;

std::size_t gcr_writes_now() { return mips_cmOwnershipRace::gcr_writes(); }

void vp1_cuts_in() {
  cut.ran = true;
  cut.owner_seen = D::owner();
  the_model->set_cpu(1);
  const std::size_t before = gcr_writes_now();
  if (what == Try::claim) {
    cut.claim = D::claim();
    // The loser may not program the counters; a winner gives them straight back (below).
    if (cut.claim != Status::ok) cut.configure = D::configure(1, {event::REQUEST_COUNT, 0, 0});
  } else {
    cut.probe = D::probe().status;
  }
  cut.gcr_writes = gcr_writes_now() - before;
  the_model->set_cpu(0);
}

// VP 0's whole use of the counters; returns the accesses it made and its statuses.
struct Vp0 {
  Status claim = Status::ok, configure = Status::ok, release = Status::ok;
  std::uint64_t cycles = 0;
};
Vp0 vp0_sequence(Model& model) {
  Vp0 r;
  r.claim = D::claim();
  r.configure = D::configure(0, {kCycleEvent, 0, 0});
  if (r.configure == Status::ok) {
    D::reset_and_start(0x1);
    model.cycles(100);
    r.cycles = D::read(0);
    D::stop(0x1);
  }
  r.release = D::release();
  return r;
}

// Accesses of VP 0's sequence when nobody cuts in.
unsigned sequence_length(Model& model) {
  inter.at = 0;
  inter.seen = 0;
  (void)vp0_sequence(model);
  return inter.seen;
}

// Both VPs claim at once (CPS Training, "Performance Registers (GCR)": one counter block per
// cluster, shared by every core): at every interleaving exactly one holds the counters, the loser's
// claim is busy and its configure() refused with no GCR write, and the release hands them over.
TEST_F(mips_cmOwnershipRace, ClaimRace_CmCountersOnePerCluster_ExactlyOneVpWinsTheOtherGetsBusyAtEveryInterleaving) {
  model.set_cycles_per_access(1);
  ASSERT_EQ(D::probe().status, Status::ok);
  model.set_cycles_per_access(0);
  the_model = &model;
  inter.model = &model;
  Bus::device = &inter;
  const unsigned n = sequence_length(model);
  ASSERT_GE(n, 6u) << "VP 0's sequence: EBase, PC_CTL, PC_CTL, PC_CYCLE, PC_CTL, EBase, PC_CTL";
  ASSERT_EQ(D::owner(), -1);
  unsigned vp1_won = 0, vp0_won = 0;
  what = Try::claim;
  for (unsigned at = 1; at <= n; ++at) {
    SCOPED_TRACE(at);
    cut = {};
    inter.at = at;
    inter.seen = 0;
    inter.hook = &vp1_cuts_in;
    const Vp0 r = vp0_sequence(model);
    ASSERT_TRUE(cut.ran);
    // VP 1 wins exactly when the counters were free when it cut in (before VP 0's CAS: VP 0 holds
    // them from its CAS to the end of its release); exactly one VP holds them.
    EXPECT_EQ(cut.claim == Status::ok, cut.owner_seen == -1);
    EXPECT_NE(r.claim == Status::ok, cut.claim == Status::ok) << "both or neither VP won";
    if (cut.claim == Status::ok) {
      ++vp1_won;
      EXPECT_EQ(D::owner(), 1);
      if (r.claim != Status::ok) {
        EXPECT_EQ(r.claim, Status::busy);
        EXPECT_EQ(r.configure, Status::busy) << "VP 0 lost: configure refused";
        EXPECT_EQ(r.release, Status::busy) << "VP 0 lost: only the owner releases";
      }
      model.set_cpu(1);
      EXPECT_EQ(D::release(), Status::ok);
      model.set_cpu(0);
      EXPECT_EQ(D::claim(), Status::ok) << "VP 1's release lets VP 0 claim";
      EXPECT_EQ(D::release(), Status::ok);
    } else {
      ++vp0_won;
      EXPECT_EQ(cut.claim, Status::busy);
      EXPECT_EQ(cut.configure, Status::busy) << "VP 1 lost: configure refused";
      EXPECT_EQ(cut.gcr_writes, 0u) << "the losing VP wrote a GCR register";
      EXPECT_EQ(r.claim, Status::ok);
      EXPECT_EQ(r.configure, Status::ok);
      EXPECT_EQ(r.cycles, 100u) << "VP 0's count undisturbed by VP 1's attempt";
      EXPECT_EQ(r.release, Status::ok);
      model.set_cpu(1);
      EXPECT_EQ(D::claim(), Status::ok) << "VP 0's release lets VP 1 claim";
      EXPECT_EQ(D::release(), Status::ok);
      model.set_cpu(0);
    }
    EXPECT_EQ(D::owner(), -1);
  }
  EXPECT_GE(vp1_won, 1u) << "VP 1 cut in before VP 0's claim (the EBase read) and won";
  EXPECT_GE(vp0_won, 4u);
  Bus::device = &model;
}

// VP 1 probing while VP 0 uses the counters (driver.hpp, probe(): busy, nothing written, when
// another VP holds them), at every access of VP 0's sequence.
TEST_F(mips_cmOwnershipRace, ProbeOnTheOtherVp_CmCountersOnePerCluster_WritesNothingWhileTheOwnerHoldsThem) {
  model.set_cycles_per_access(1);  // the cycle counter advances while a probe watches it
  ASSERT_EQ(D::probe().status, Status::ok);
  the_model = &model;
  inter.model = &model;
  Bus::device = &inter;
  const unsigned n = sequence_length(model);
  what = Try::probe;
  unsigned while_held = 0;
  for (unsigned at = 1; at <= n; ++at) {
    SCOPED_TRACE(at);
    cut = {};
    inter.at = at;
    inter.seen = 0;
    inter.hook = &vp1_cuts_in;
    const Vp0 r = vp0_sequence(model);
    ASSERT_TRUE(cut.ran);
    if (cut.owner_seen == 0) {
      ++while_held;
      EXPECT_EQ(cut.probe, Status::busy);
      EXPECT_EQ(cut.gcr_writes, 0u) << "VP 1's probe wrote the owner's counters";
      EXPECT_GE(r.cycles, 100u);
      EXPECT_EQ(r.release, Status::ok);
      EXPECT_EQ(model.pc_ctl() & 0x400001F0u, 0u) << "VP 0's release stopped the counters and the interrupt";
    } else {
      EXPECT_EQ(cut.probe, Status::ok) << "nobody held them: VP 1's probe claims, checks and gives them back";
    }
    EXPECT_EQ(D::owner(), -1);
  }
  EXPECT_GE(while_held, 4u);
  Bus::device = &model;
}

// release() stops all three counters and the interrupt (driver.hpp, "Ownership"; PC_CTL's CountOn
// and Perf_Int_En, MIPS CPS Training, "Performance Registers (GCR)") even after another VP's probe
// found the counters owned: the discovery is one per image, shared by every VP, and the other VP's
// busy probe must not make the owner's release skip the stop.
TEST_F(mips_cmOwnershipRace, ReleaseAfterAnotherVpsBusyProbe_PcCtlCountOnAndPerfIntEn_StillStopsTheCountersAndTheInterrupt) {
  found_and_claimed();
  ASSERT_EQ(D::configure(1, {event::REQUEST_COUNT, 0, 0}), Status::ok);
  D::start(0x7);
  D::set_overflow_interrupt(0x2, true);
  model.set_cpu(1);
  EXPECT_EQ(D::probe().status, Status::busy);
  model.set_cpu(0);
  ASSERT_EQ(D::release(), Status::ok);
  EXPECT_EQ(model.pc_ctl() & 0x400001F0u, 0u) << "counting or the interrupt left on after the owner's release";
  EXPECT_EQ(D::owner(), -1);
}

}  // namespace
