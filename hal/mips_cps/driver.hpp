#pragma once
// MIPS CPS Coherence Manager performance counter driver, templated on the bus: on silicon
// pmu::mips_cps::HwBus (CP0 for discovery, MMIO for the GCR; the kit's composite bus), in host
// tests a MockBus with hal/mips_cps/model.hpp. Static members only; no asm, no heap.
//
// Slot map: slot 0 = PC_CYCLE (CM clock cycles), slot 1 = PC_CNT0, slot 2 = PC_CNT1: the order of
//   the PC_OV bits, so an overflow mask and a slot mask are the same bits.
// Width: 32 on every slot (the counters roll over to 0; see "Overflow timing" in the README). With
//   Perf_Ovf_Stop a counter may instead stop at 0xFFFFFFFF with its overflow bit set (the CPS
//   text's words; README, "Perf_Ovf_Stop"): stopped_at_max() tells the profiler which it was, so a
//   64-bit value is exact under both readings.
// Link: none (the CM cannot chain its counters).
//
// EventConfig for this PMU:
//   slot 0:    code = kCycleEvent, qualifier = 0, options = 0.
//   slots 1-2: code = an event of events.hpp (0-6, 8, 9, 16, 17), qualifier = the raw 32-bit
//              PC_QUALn value (layouts per core: its CPS Software User's Manual), options = 0.
//
// Discovery (never a fixed address): Config.M -> Config1.M -> Config2.M -> Config3.CMGCR, then
// CMGCRBase gives the GCR's physical base, unless the board set one (set_gcr_base). GCR_BASE must
// read back that address, GCR_REV must be a revision whose counter layout is published (CM2,
// CM2.5) unless the firmware forced one (force_revision), and PC_CTL.Perf_Num_Cnt must read 2.
// The block is reached uncached through KSEG1: a GCR at or above 512 MB needs a mapping this
// driver does not make (Finding::base_unreachable).
//
// Ownership: the counters are one set per cluster, shared by every core and VP. One owner at a time
// holds them: claim() on the VP that will program them (any VP may; the boot VP is the natural
// one), release() when done. The claim is a word in memory updated atomically, so every VP must see
// it coherently (cacheable-coherent KSEG0, the CPS default) and must run this same image. configure()
// refuses (busy) on a VP that does not hold the claim; start, stop, read, write, overflow_status,
// clear_overflow and set_overflow_interrupt do not check it (they run in the interrupt handler):
// call them only on the owning VP.
//
// Interrupt: with Perf_Int_En the CM raises CM_PCInt while any overflow bit is set (a level: clear
// the bit to drop it). Perf_Int_En is one enable for all three counters: enabling any slot enables
// it for every counter that overflows, which the profiler's Sampler handles (it folds the overflows
// it did not arm). CM_PCInt reaches a CPU only if the SoC wired it (on real parts a GIC shared
// source); the board names the source with set_pcint_source(), and pcint_wired() says whether it did.
#include <cstdint>

#include <type_traits>

#include "hal/core/bus/composite.hpp"
#include "hal/core/bus/cp0.hpp"
#include "hal/core/bus/irq.hpp"
#include "hal/core/bus/mmio.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"
#include "hal/mips_cps/events.hpp"
#include "hal/mips_cps/regs.hpp"

namespace pmu::mips_cps {

// The GCR block's virtual base, set by probe() (the one CM of the system).
struct GcrTag;
using GcrBase = RuntimeBase<GcrTag>;
using HwBus = CompositeBus<Cp0Bus, MmioBus<GcrBase>>;

// What discovery found, in more words than a Status.
enum class Finding : std::uint8_t {
  found,               // the counter block answers; the counters are usable
  not_probed,          // probe() has not run
  cp0_trapped,         // reading the Config chain trapped: a core before MIPS32 release 2
  no_config3,          // Config.M, Config1.M or Config2.M is clear: no Config3
  no_cmgcr,            // Config3.CMGCR = 0: no Coherence Manager
  base_unreachable,    // the GCR is at or above 512 MB: not reachable through KSEG1
  gcr_silent,          // GCR_BASE trapped (bus error): nothing answers at that address
  gcr_moved,           // GCR_BASE does not read back the address: no GCR there, or it was moved
  unknown_revision,    // GCR_REV is no revision this driver knows (force_revision to try one)
  layout_unpublished,  // CM3 / CM3.5: no public text gives their counter layout
  counters_absent,     // PC_CTL.Perf_Num_Cnt is not 2 (QEMU: the whole debug block reads 0)
  not_counting,        // Perf_Num_Cnt reads 2 but the cycle counter does not advance
  owned_elsewhere,     // another VP holds the counters (claim)
};
constexpr const char* finding_text(Finding f) {
  switch (f) {
    case Finding::found: return "CM performance counters found";
    case Finding::not_probed: return "not probed";
    case Finding::cp0_trapped: return "the Config chain traps (no MIPS32r2 CP0 selects)";
    case Finding::no_config3: return "no Config3 (Config.M chain ends)";
    case Finding::no_cmgcr: return "no Coherence Manager (Config3.CMGCR = 0)";
    case Finding::base_unreachable: return "GCR above 512 MB, not reachable through KSEG1";
    case Finding::gcr_silent: return "nothing answers at the GCR address (bus error)";
    case Finding::gcr_moved: return "GCR_BASE does not read back the address (no GCR there, or moved)";
    case Finding::unknown_revision: return "unknown CM revision";
    case Finding::layout_unpublished: return "counter layout of this CM revision not published";
    case Finding::counters_absent: return "counter block absent (Perf_Num_Cnt is not 2)";
    case Finding::not_counting: return "the cycle counter does not advance";
    case Finding::owned_elsewhere: return "the counters are claimed by another VP";
  }
  return "?";
}
constexpr Status status_of(Finding f) {
  switch (f) {
    case Finding::found: return Status::ok;
    case Finding::unknown_revision:
    case Finding::layout_unpublished: return Status::unsupported_core;
    case Finding::owned_elsewhere: return Status::busy;
    default: return Status::pmu_absent;
  }
}

struct Discovery {
  Finding finding = Finding::not_probed;
  std::uint64_t gcr_phys = 0;  // physical base (from CMGCRBase or the board); 0 if none
  u32 gcr_rev = 0;             // GCR_REV as read
  Revision revision = Revision::unknown;  // as read, or as forced
  bool base_from_board = false;
};

inline constexpr std::uint64_t kKseg1Limit = 0x20000000u;  // KSEG1 maps physical 0 .. 512 MB
inline constexpr std::uintptr_t kKseg1 = 0xA0000000u;
inline constexpr int kNotWired = -1;

template <class Bus>
struct Driver : CounterDriver<Bus, RegList<PC_CYCLE, PC_CNT0, PC_CNT1>, 32> {
  using Base = CounterDriver<Bus, RegList<PC_CYCLE, PC_CNT0, PC_CNT1>, 32>;
  using Base::kAllSlots;
  using Base::kSlots;
  using Base::read;
  using Base::write;
  using R = Regs<Bus>;

  // The count register of a slot as an address, on the hardware bus: a read chosen at run time is
  // one load from it (profiler/counter_region.hpp), as read<Slot>() is one load at a fixed offset.
  static const volatile std::uint32_t* counter_address(unsigned slot) requires std::is_same_v<Bus, HwBus> {
    constexpr std::uintptr_t kOffset[] = {PC_CYCLE::location::offset, PC_CNT0::location::offset,
                                          PC_CNT1::location::offset};
    return reinterpret_cast<const volatile std::uint32_t*>(GcrBase::address() + kOffset[slot < kSlots ? slot : 0]);
  }

  // --- static description (pmu::Driver) ---
  static constexpr const PmuCatalog& catalog = pmu::mips_cps::catalog;
  static constexpr LinkKind kLink = LinkKind::none;
  static constexpr Capabilities kCapabilities{.overflow = true, .interrupt = true, .link = false, .sampling = true};
  static constexpr std::uint32_t slots_for(std::uint32_t code) {
    if (code == kCycleEvent) return 0x1u;
    return has_counter_event(code) ? 0x6u : 0u;
  }
  // Reads of PC_CYCLE while probe() waits for it to advance.
  static constexpr unsigned kProbeSpins = 64;

  // ---------------------------------------------------------------------------------------
  // Discovery, ownership
  // ---------------------------------------------------------------------------------------

  // Finds the counter block (header comment). If no other VP holds the counters, it then runs the
  // cycle counter briefly, requires a changing count, and leaves all three counters reset and
  // stopped, the interrupt off (under this VP's claim, released again unless it held it before).
  // Status: ok; pmu_absent (no CM, no GCR, no block, not counting); unsupported_core (a CM revision
  // without a published layout, unless forced); busy (another VP holds the counters: nothing is
  // written). discovery() says which, in words.
  static ProbeResult probe() {
    d_ = find();
    block_found_ = d_.finding == Finding::found;
    if (d_.finding == Finding::found) {
      const bool held = owned_here();
      if (!held && claim() != Status::ok) {
        d_.finding = Finding::owned_elsewhere;
      } else {
        if (!cycle_counter_advances()) d_.finding = Finding::not_counting;
        (void)fault::traps([] { reset(); });
        if (!held) (void)release();
      }
    }
    const Status s = status_of(d_.finding);
    return {s, s == Status::ok ? kAllSlots : 0u};
  }
  // The last probe's finding, on whichever VP ran it: one per image, shared by every VP (a probe on
  // a VP that finds the counters claimed elsewhere leaves owned_elsewhere here for all of them).
  static const Discovery& discovery() { return d_; }

  // The board's GCR physical base, for SoCs whose CMGCRBase is wrong (0: use CMGCRBase again).
  // GCR_BASE must still read it back.
  static void set_gcr_base(std::uint64_t phys) { board_base_ = phys; }
  // Accept a CM revision whose layout the firmware knows to match (Revision::unknown: detect).
  static void force_revision(Revision r) { revision_.force(r); }

  // This VP takes the counters: ok (now or already held here), busy (another VP holds them).
  static Status claim() {
    const u32 me = self() + 1;
    u32 expected = 0;
    if (__atomic_compare_exchange_n(&owner_, &expected, me, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return Status::ok;
    return expected == me ? Status::ok : Status::busy;
  }
  // Gives them back: stops all three counters and the interrupt first. ok (released, or nobody held
  // them), busy (another VP holds them: nothing touched).
  static Status release() {
    const u32 me = self() + 1;
    const u32 cur = __atomic_load_n(&owner_, __ATOMIC_ACQUIRE);
    if (cur == 0) return Status::ok;
    if (cur != me) return Status::busy;
    // Only a block discovery found is written: a failed discovery leaves no address to trust. Not
    // d_.finding, which another VP's busy probe turns into owned_elsewhere under the owner.
    if (block_found_) R::modify(pc_ctl_int_en(0), pc_ctl_counton.each(kAllSlots, 0));
    __atomic_store_n(&owner_, 0u, __ATOMIC_RELEASE);
    return Status::ok;
  }
  // The VP (EBase.CPUNum) holding the counters, or -1.
  static int owner() {
    const u32 cur = __atomic_load_n(&owner_, __ATOMIC_ACQUIRE);
    return cur == 0 ? -1 : static_cast<int>(cur - 1);
  }
  static bool owned_here() { return __atomic_load_n(&owner_, __ATOMIC_ACQUIRE) == self() + 1; }
  // Recovery only (the owning VP is gone, or a test starts afresh): drops the claim unconditionally.
  static void force_release() { __atomic_store_n(&owner_, 0u, __ATOMIC_RELEASE); }

  // All three counters stopped and zeroed, overflow bits clear, interrupt and overflow stop off,
  // events and qualifiers 0. Owner only.
  static void reset() {
    R::template write_raw<PC_CTL>(0);
    R::template write_raw<PC_OV>(0x7u);
    R::template write_raw<PC_EVENT>(0);
    R::template write_raw<PC_QUAL0>(0);
    R::template write_raw<PC_QUAL1>(0);
    R::template write_raw<PC_CYCLE>(0);
    R::template write_raw<PC_CNT0>(0);
    R::template write_raw<PC_CNT1>(0);
  }

  // ---------------------------------------------------------------------------------------
  // pmu::Driver
  // ---------------------------------------------------------------------------------------

  // Programs the slot's event and qualifier; counting stays as it was (off after probe/reset).
  //   bad_argument       slot out of range, options, or a qualifier on the cycle counter
  //   unsupported_event  not an event of this slot (slot 0 takes only kCycleEvent)
  //   busy               another VP holds the counters (or none does: claim() first), or the slot
  //                      is counting (the event must not change under a running count: stop first)
  static Status configure(unsigned slot, EventConfig ev) {
    const Status s = check_event(slot, ev);
    if (s != Status::ok) return s;
    return program(slot, ev);
  }

  // configure() checked at compile time. Not configure_fixed's program() step (hal/core/driver.hpp):
  // here GCC folds configure()'s run-time check of a constant event away (no event table in the
  // image either way), and program() alone lays its busy returns out 32 bytes longer (bench/footprint,
  // minimal: 476 against 444 B).
  template <unsigned Slot, EventConfig Ev>
  static Status configure() {
    require_event<Driver, Slot, Ev>();
    return configure(Slot, Ev);
  }

  // What configure() does once the event is known valid.
  static Status program(unsigned slot, EventConfig ev) {
    if (!owned_here()) return Status::busy;
    const auto ctl = R::template read<PC_CTL>();
    if (ctl.get(pc_ctl_counton, slot)) return Status::busy;
    if (slot == 1) {
      R::template write_raw<PC_QUAL0>(ev.qualifier);
      R::modify(pc_event_p0.runtime(ev.code));
    } else if (slot == 2) {
      R::template write_raw<PC_QUAL1>(ev.qualifier);
      R::modify(pc_event_p1.runtime(ev.code));
    }
    return Status::ok;
  }

  // CountOn on / off for these slots: one read-modify-write of PC_CTL (the Reset bits are never
  // written back, so the counts are kept).
  static void start(std::uint32_t mask) {
    if (mask & kAllSlots) R::template modify_raw<PC_CTL>(0, pc_ctl_counton.mask_of(mask));
  }
  static void stop(std::uint32_t mask) {
    if (mask & kAllSlots) R::template modify_raw<PC_CTL>(pc_ctl_counton.mask_of(mask), 0);
  }
  // Resets these counters (and their overflow bits) and starts them in one PC_CTL write, as the
  // CPS text allows ("all three counters reset and started with a single GCR write").
  static void reset_and_start(std::uint32_t mask) {
    static_assert(pc_ctl_reset.mask_of(kAllSlots) == pc_ctl_counton.mask_of(kAllSlots) << 1,
                  "each Reset bit sits just above its CountOn bit");
    const u32 on = pc_ctl_counton.mask_of(mask);
    if (on) R::template modify_raw<PC_CTL>(0, on | (on << 1));
  }
  // The same for all three, the fields named as constants (one and-or on the value read).
  static void reset_and_start_all() {
    R::modify(pc_ctl_cycl_reset(1), pc_ctl_cycl_counton(1), pc_ctl_p0_reset(1), pc_ctl_p0_counton(1),
              pc_ctl_p1_reset(1), pc_ctl_p1_counton(1));
  }

  // read(slot), read<S>() and write(slot, v) come from CounterDriver: one load / store each.

  // PC_OV, whose bit n is slot n.
  static std::uint32_t overflow_status() {
    return pc_ov_overflow.slots_set(R::template read_raw<PC_OV>());
  }
  // One W1C write of exactly these slots' bits.
  static void clear_overflow(std::uint32_t mask) {
    if (mask & kAllSlots) R::template write_raw<PC_OV>(pc_ov_overflow.mask_of(mask));
  }

  // Sampling's common case (hal/core/driver.hpp): one W1C store of its PC_OV bit, which drops
  // CM_PCInt unless another counter's bit is set, then the counter rewound. The bit stays set when
  // a whole period came since the overflow: CM_PCInt stays asserted for the next period's sample.
  // Not with Perf_Ovf_Stop: a counter held at 0xFFFFFFFF is never ahead of its overflow, and the
  // acknowledge would let it count before the rewind (README, "Perf_Ovf_Stop"). A firmware that
  // sets set_overflow_stop samples through the general entry (its stop, rewind, acknowledge, start).
  template <unsigned Slot>
  static void rearm(std::uint64_t period) {
    Base::template rewind<Slot>(period, [](std::uint32_t ack) {
      R::template write_raw<PC_OV>(pc_ov_overflow.mask_of(ack));
    });
  }

  // Perf_Int_En (one enable for all three counters, header comment), with interrupts masked across
  // the read-modify-write of PC_CTL, which the overflow handler also changes (stop/start).
  // Enabling first acknowledges the overflow bits of counters that are not counting: nothing would
  // ever clear them, and with one enable for all three they would keep CM_PCInt asserted.
  static void set_overflow_interrupt(std::uint32_t mask, bool enable) {
    if (!(mask & kAllSlots)) return;
    IrqGuard guard;
    const auto ctl = R::template read<PC_CTL>();
    if (enable) {
      const std::uint32_t idle = kAllSlots & ~pc_ctl_counton.slots_set(ctl.raw);
      if (idle) clear_overflow(idle);
    }
    R::modify_from(ctl, pc_ctl_int_en.runtime(enable ? 1u : 0u));
  }

  static Status link(unsigned, unsigned) { return Status::not_linkable; }

  // ---------------------------------------------------------------------------------------
  // The CM's own controls
  // ---------------------------------------------------------------------------------------

  // Perf_Ovf_Stop: when any counter overflows, all three stop (what restarts them the CPS text does
  // not say; the model: clearing the overflow bit). Where the overflowing counter stops is open
  // (README): at 0xFFFFFFFF, as the text words it, or at 0 after its roll-over. The profiler is
  // exact under both (stopped_at_max); sampling takes the general entry (rearm).
  static void set_overflow_stop(bool stop_all) {
    IrqGuard guard;
    R::modify(pc_ctl_ovf_stop.runtime(stop_all ? 1u : 0u));
  }
  // For a slot whose overflow bit is set and whose register reads `raw`: did the counter stop at its
  // maximum instead of wrapping? The CPS text (MIPS CPS Training, "Performance Registers (GCR)",
  // GCR_DB_PC_CTL) has Perf_Ovf_Stop stop every counter "when any counter ... reaches its maximum
  // value of 0xFFFFFFFF": the bit then marks the stop and the register holds the whole count, not
  // 2^32 more. Under the other reading the counter wraps to 0 first, and nothing counts while a
  // bit is set, so with Perf_Ovf_Stop a set bit and 0xFFFFFFFF mean the first. The profiler's
  // optional hook (hal/core/driver.hpp); one PC_CTL read, only for a register reading 0xFFFFFFFF.
  static bool stopped_at_max(unsigned /*slot*/, std::uint64_t raw) {
    return raw == Base::kCounterMax && R::read(pc_ctl_ovf_stop) != 0;
  }
  // CM_PCInt as the CM drives it: Perf_Int_En and an overflow bit set. Acknowledge = clear_overflow.
  static bool interrupt_pending() {
    return R::read(pc_ctl_int_en) != 0 && R::template read_raw<PC_OV>() != 0;
  }
  static bool interrupt_enabled() { return R::read(pc_ctl_int_en) != 0; }

  // The SoC's wiring of CM_PCInt (e.g. its GIC shared source), named by the board; kNotWired (the
  // default) says the overflow interrupt never reaches a CPU: sample from a timer instead.
  static void set_pcint_source(int source) { pcint_source_ = source; }
  static int pcint_source() { return pcint_source_; }
  static bool pcint_wired() { return pcint_source_ != kNotWired; }

  // Presets the counter to overflow after exactly `period` events: 2^32 - period, period in
  // 1..2^32 (bad_argument otherwise).
  static Status preset_for_sampling(unsigned slot, std::uint64_t period) {
    if (slot >= kSlots || period == 0 || period > (std::uint64_t{1} << 32)) return Status::bad_argument;
    write(slot, (std::uint64_t{1} << 32) - period);
    return Status::ok;
  }

  // configure()'s validation, without touching the hardware.
  static constexpr Status check_event(unsigned slot, EventConfig ev) {
    if (slot >= kSlots || ev.options != 0) return Status::bad_argument;
    if (slot == 0) {
      if (ev.code != kCycleEvent) return Status::unsupported_event;
      return ev.qualifier == 0 ? Status::ok : Status::bad_argument;
    }
    return has_counter_event(ev.code) ? Status::ok : Status::unsupported_event;
  }

 private:
  static u32 self() { return R::read(ebase_cpunum); }

  // Discovery proper: CP0, then the GCR's global registers, then Perf_Num_Cnt. Writes nothing.
  static Discovery find() {
    Discovery d{};
    d.base_from_board = board_base_ != 0;
    if (d.base_from_board) {
      d.gcr_phys = board_base_;
    } else {
      u32 cfg = 0, cfg3 = 0, base = 0;
      bool chain = false;
      // fault::traps() does not nest: one guarded step per call.
      if (fault::traps([&] {
            cfg = R::template read_raw<Config>();
            chain = config_m.extract(cfg) && R::read(config1_m) && R::read(config2_m);
          }))
        return with(d, Finding::cp0_trapped);
      if (!chain) return with(d, Finding::no_config3);
      if (fault::traps([&] { cfg3 = R::template read_raw<Config3>(); }))
        return with(d, Finding::cp0_trapped);
      if (!config3_cmgcr.extract(cfg3)) return with(d, Finding::no_cmgcr);
      if (fault::traps([&] { base = R::template read_raw<CMGCRBase>(); }))
        return with(d, Finding::cp0_trapped);
      d.gcr_phys = gcr_phys_of_cmgcrbase(base);
    }
    if (d.gcr_phys + 0x8000u > kKseg1Limit) return with(d, Finding::base_unreachable);
    GcrBase::value = kKseg1 | static_cast<std::uintptr_t>(d.gcr_phys);
    u32 readback = 0;
    if (fault::traps([&] { readback = R::template read_raw<GCR_BASE>(); }))
      return with(d, Finding::gcr_silent);
    if ((std::uint64_t{gcr_base_gcrbase.extract(readback)} << 15) != d.gcr_phys)
      return with(d, Finding::gcr_moved);
    if (fault::traps([&] { d.gcr_rev = R::template read_raw<GCR_REV>(); }))
      return with(d, Finding::gcr_silent);
    revision_.detect([&] { return revision_of(d.gcr_rev); });
    d.revision = revision_.core;
    if (d.revision == Revision::unknown) return with(d, Finding::unknown_revision);
    if (!revision_.forced && !layout_published(d.revision)) return with(d, Finding::layout_unpublished);
    u32 num = 0;
    if (fault::traps([&] { num = R::read(pc_ctl_num_cnt); })) return with(d, Finding::counters_absent);
    return with(d, num == kPerfNumCnt ? Finding::found : Finding::counters_absent);
  }
  static Discovery with(Discovery d, Finding f) {
    d.finding = f;
    return d;
  }

  // Under this VP's claim: the cycle counter alone, reset and started; a later read must differ
  // from the first (a register holding a constant is not a counter).
  static bool cycle_counter_advances() {
    if (fault::traps([] {
          reset();
          reset_and_start(0x1u);
        }))
      return false;
    u32 first = 0;
    if (fault::traps([&] { first = R::template read_raw<PC_CYCLE>(); })) return false;
    for (unsigned i = 0; i < kProbeSpins; ++i) {
      u32 v = first;
      if (fault::traps([&] { v = R::template read_raw<PC_CYCLE>(); })) return false;
      if (v != first) return true;
    }
    return false;
  }

  static inline Discovery d_{};
  static inline bool block_found_ = false;  // the last discovery found the block (whoever owns it)
  static inline std::uint64_t board_base_ = 0;
  static inline CoreChoice<Revision> revision_{};
  static inline u32 owner_ = 0;  // 0: free; else EBase.CPUNum + 1 of the owner
  static inline int pcint_source_ = kNotWired;
};

}  // namespace pmu::mips_cps
