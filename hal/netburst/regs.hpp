#pragma once
// Intel NetBurst (Pentium 4, CPUID family 0Fh) performance monitoring: register descriptors and the
// ESCR table (no code).
//
// Source: Intel SDM Vol. 3B, "Performance Monitoring Facility" of the Pentium 4 (section 18.15 in
// the 2016-era edition): Table 18-63 (counters, CCCRs, ESCRs and which ESCR feeds which counter, with
// the CCCR ESCR-select value of each), the ESCR and CCCR figures (18.15.2, 18.15.3), 18.15.5.6
// "Cascading Counters", 18.16 (Hyper-Threading bits). IA32_MISC_ENABLE bits 7
// and 12: the SDM's MSR table. The local APIC LVT performance counter entry: SDM Vol. 3A ch. 10.
// hal/netburst/README.md lists every decision where sources disagree.
//
// Every MSR is 64 bits; reserved bits are written as zero (a set reserved bit makes wrmsr #GP).
// Names are the SDM's (MSR_ prefix dropped): BPU_COUNTER0, BPU_CCCR0, BSU_ESCR0, ...
#include <cstddef>
#include <cstdint>

#include <utility>

#include "hal/core/location.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"

namespace pmu::netburst {

inline constexpr unsigned kCounters = 18;
inline constexpr unsigned kCounterBits = 40;
inline constexpr u64 kCounterMask = (u64{1} << kCounterBits) - 1;

// A register name taken from a table at compile time (the type then prints it in diagnostics).
inline constexpr std::size_t kNameLen = 20;
consteval Name<kNameLen> table_name(const char* s) {
  Name<kNameLen> n{};
  for (std::size_t i = 0; i + 1 < kNameLen && s[i]; ++i) n.text[i] = s[i];
  return n;
}

// --- the 18 counters and their CCCRs (Table 18-63): counter n at 0x300 + n, CCCR n at 0x360 + n ---
inline constexpr const char* kCounterNames[kCounters] = {
    "BPU_COUNTER0",   "BPU_COUNTER1",   "BPU_COUNTER2",   "BPU_COUNTER3",   "MS_COUNTER0",
    "MS_COUNTER1",    "MS_COUNTER2",    "MS_COUNTER3",    "FLAME_COUNTER0", "FLAME_COUNTER1",
    "FLAME_COUNTER2", "FLAME_COUNTER3", "IQ_COUNTER0",    "IQ_COUNTER1",    "IQ_COUNTER2",
    "IQ_COUNTER3",    "IQ_COUNTER4",    "IQ_COUNTER5"};
inline constexpr const char* kCccrNames[kCounters] = {
    "BPU_CCCR0", "BPU_CCCR1", "BPU_CCCR2", "BPU_CCCR3", "MS_CCCR0",   "MS_CCCR1",
    "MS_CCCR2",  "MS_CCCR3",  "FLAME_CCCR0", "FLAME_CCCR1", "FLAME_CCCR2", "FLAME_CCCR3",
    "IQ_CCCR0",  "IQ_CCCR1",  "IQ_CCCR2",  "IQ_CCCR3",  "IQ_CCCR4",   "IQ_CCCR5"};

// A counter: 40 bits in a 64-bit MSR.
template <unsigned N>
using Counter = Reg<table_name(kCounterNames[N]), Msr<0x300 + N>, u64, Layout<u64>{.write_mask = kCounterMask}>;

// The same counter read with rdpmc, ECX = n (SDM Vol. 2B, RDPMC: on the Pentium 4 the index selects
// one of the 18 counters and EDX:EAX returns its 40 bits). Read only: writes go to the MSR.
template <unsigned N>
using CounterPmc = Reg<table_name(kCounterNames[N]), Pmc<N>, u64, Layout<u64>{Access::RO, 0, 0, 0}>;

namespace detail {
template <template <unsigned> class Of, class Seq>
struct CounterList;
template <template <unsigned> class Of, std::size_t... I>
struct CounterList<Of, std::index_sequence<I...>> {
  using type = RegList<Of<I>...>;
};
}  // namespace detail
// The counters in slot order (slot n = counter n): as MSRs, and as rdpmc indices.
using CounterRegs = detail::CounterList<Counter, std::make_index_sequence<kCounters>>::type;
using CounterPmcRegs = detail::CounterList<CounterPmc, std::make_index_sequence<kCounters>>::type;

// CCCR: OVF 31, CASCADE 30, OVF_PMI_T1 27, OVF_PMI_T0 26, FORCE_OVF 25, EDGE 24, THRESHOLD 23:20,
// COMPLEMENT 19, COMPARE 18, ACTIVE_THREAD 17:16, ESCR_SELECT 15:13, ENABLE 12. Bits 63:32, 29:28 and
// 11:0 reserved (bit 11 of some IQ CCCRs is the extended-cascade flag of models 2-6, not used here).
// OVF is sticky: set by the hardware, cleared by software writing 0 (a plain read-write bit).
inline constexpr u64 kCccrWritable = 0xCFFFF000ull;
template <unsigned N>
using Cccr = Reg<table_name(kCccrNames[N]), Msr<0x360 + N>, u64, Layout<u64>{.write_mask = kCccrWritable}>;

// CCCR fields, as bit positions (the CCCRs are a run-time-indexed family: the driver composes values).
namespace cccr {
inline constexpr u64 OVF = u64{1} << 31;
inline constexpr u64 CASCADE = u64{1} << 30;
inline constexpr u64 OVF_PMI_T1 = u64{1} << 27;
inline constexpr u64 OVF_PMI_T0 = u64{1} << 26;  // "OVF_PMI" on parts without Hyper-Threading
inline constexpr u64 FORCE_OVF = u64{1} << 25;
inline constexpr u64 EDGE = u64{1} << 24;
inline constexpr unsigned THRESHOLD_SHIFT = 20;  // 4 bits
inline constexpr u64 COMPLEMENT = u64{1} << 19;
inline constexpr u64 COMPARE = u64{1} << 18;
inline constexpr unsigned ACTIVE_THREAD_SHIFT = 16;  // 2 bits
inline constexpr u64 ACTIVE_THREAD_ANY = u64{3} << 16;  // "must be set to 11B" without HT
inline constexpr unsigned ESCR_SELECT_SHIFT = 13;      // 3 bits
inline constexpr u64 ENABLE = u64{1} << 12;
}  // namespace cccr

// ESCR: event select 30:25, event mask 24:9, tag value 8:5, tag enable 4, T0_OS 3, T0_USR 2,
// T1_OS 1, T1_USR 0 (OS and USR without Hyper-Threading). Bits 63:31 reserved.
inline constexpr u64 kEscrWritable = 0x7FFFFFFFull;
namespace escr {
inline constexpr unsigned EVENT_SELECT_SHIFT = 25;  // 6 bits
inline constexpr unsigned EVENT_MASK_SHIFT = 9;     // 16 bits
inline constexpr unsigned TAG_VALUE_SHIFT = 5;      // 4 bits
inline constexpr u64 TAG_ENABLE = u64{1} << 4;
inline constexpr u64 T0_OS = u64{1} << 3;
inline constexpr u64 T0_USR = u64{1} << 2;
inline constexpr u64 T1_OS = u64{1} << 1;
inline constexpr u64 T1_USR = u64{1} << 0;
}  // namespace escr

// --- the 45 ESCRs (Table 18-63) ---------------------------------------------------------------
// Each: MSR address, the CCCR ESCR-select value that picks it, and the counters it can feed (an
// ESCR0 feeds the first pair of its block, plus counter 16 in the IQ block; an ESCR1 the second
// pair, plus 17). 0x3BF, 0x3C6-0x3C7 and 0x3CE-0x3DF are holes. IQ_ESCR0/1 exist only on models 1 and 2.
enum class EscrId : std::uint8_t {
  BSU_ESCR0, BSU_ESCR1, FSB_ESCR0, FSB_ESCR1, FIRM_ESCR0, FIRM_ESCR1, FLAME_ESCR0, FLAME_ESCR1,
  DAC_ESCR0, DAC_ESCR1, MOB_ESCR0, MOB_ESCR1, PMH_ESCR0, PMH_ESCR1, SAAT_ESCR0, SAAT_ESCR1,
  U2L_ESCR0, U2L_ESCR1, BPU_ESCR0, BPU_ESCR1, IS_ESCR0, IS_ESCR1, ITLB_ESCR0, ITLB_ESCR1,
  CRU_ESCR0, CRU_ESCR1, IQ_ESCR0, IQ_ESCR1, RAT_ESCR0, RAT_ESCR1, SSU_ESCR0, MS_ESCR0, MS_ESCR1,
  TBPU_ESCR0, TBPU_ESCR1, TC_ESCR0, TC_ESCR1, IX_ESCR0, IX_ESCR1, ALF_ESCR0, ALF_ESCR1,
  CRU_ESCR2, CRU_ESCR3, CRU_ESCR4, CRU_ESCR5,
  none,
};
inline constexpr unsigned kEscrs = static_cast<unsigned>(EscrId::none);

struct EscrInfo {
  const char* name;
  std::uint32_t msr;
  std::uint8_t select;     // CCCR ESCR_SELECT value
  std::uint32_t counters;  // bit n: counter n
  bool early_models_only;  // IQ_ESCR0/1: models 1 and 2
};
inline constexpr std::uint32_t kBpuPair1 = 0x3, kBpuPair2 = 0xC;
inline constexpr std::uint32_t kMsPair1 = 0x30, kMsPair2 = 0xC0;
inline constexpr std::uint32_t kFlamePair1 = 0x300, kFlamePair2 = 0xC00;
inline constexpr std::uint32_t kIqSide0 = (1u << 12) | (1u << 13) | (1u << 16);
inline constexpr std::uint32_t kIqSide1 = (1u << 14) | (1u << 15) | (1u << 17);

inline constexpr EscrInfo kEscrTable[kEscrs] = {
    {"BSU_ESCR0", 0x3A0, 7, kBpuPair1, false},    {"BSU_ESCR1", 0x3A1, 7, kBpuPair2, false},
    {"FSB_ESCR0", 0x3A2, 6, kBpuPair1, false},    {"FSB_ESCR1", 0x3A3, 6, kBpuPair2, false},
    {"FIRM_ESCR0", 0x3A4, 1, kFlamePair1, false}, {"FIRM_ESCR1", 0x3A5, 1, kFlamePair2, false},
    {"FLAME_ESCR0", 0x3A6, 0, kFlamePair1, false}, {"FLAME_ESCR1", 0x3A7, 0, kFlamePair2, false},
    {"DAC_ESCR0", 0x3A8, 5, kFlamePair1, false},  {"DAC_ESCR1", 0x3A9, 5, kFlamePair2, false},
    {"MOB_ESCR0", 0x3AA, 2, kBpuPair1, false},    {"MOB_ESCR1", 0x3AB, 2, kBpuPair2, false},
    {"PMH_ESCR0", 0x3AC, 4, kBpuPair1, false},    {"PMH_ESCR1", 0x3AD, 4, kBpuPair2, false},
    {"SAAT_ESCR0", 0x3AE, 2, kFlamePair1, false}, {"SAAT_ESCR1", 0x3AF, 2, kFlamePair2, false},
    {"U2L_ESCR0", 0x3B0, 3, kFlamePair1, false},  {"U2L_ESCR1", 0x3B1, 3, kFlamePair2, false},
    {"BPU_ESCR0", 0x3B2, 0, kBpuPair1, false},    {"BPU_ESCR1", 0x3B3, 0, kBpuPair2, false},
    {"IS_ESCR0", 0x3B4, 1, kBpuPair1, false},     {"IS_ESCR1", 0x3B5, 1, kBpuPair2, false},
    {"ITLB_ESCR0", 0x3B6, 3, kBpuPair1, false},   {"ITLB_ESCR1", 0x3B7, 3, kBpuPair2, false},
    {"CRU_ESCR0", 0x3B8, 4, kIqSide0, false},     {"CRU_ESCR1", 0x3B9, 4, kIqSide1, false},
    {"IQ_ESCR0", 0x3BA, 0, kIqSide0, true},       {"IQ_ESCR1", 0x3BB, 0, kIqSide1, true},
    {"RAT_ESCR0", 0x3BC, 2, kIqSide0, false},     {"RAT_ESCR1", 0x3BD, 2, kIqSide1, false},
    {"SSU_ESCR0", 0x3BE, 3, kIqSide0, false},
    {"MS_ESCR0", 0x3C0, 0, kMsPair1, false},      {"MS_ESCR1", 0x3C1, 0, kMsPair2, false},
    {"TBPU_ESCR0", 0x3C2, 2, kMsPair1, false},    {"TBPU_ESCR1", 0x3C3, 2, kMsPair2, false},
    {"TC_ESCR0", 0x3C4, 1, kMsPair1, false},      {"TC_ESCR1", 0x3C5, 1, kMsPair2, false},
    {"IX_ESCR0", 0x3C8, 5, kBpuPair1, false},     {"IX_ESCR1", 0x3C9, 5, kBpuPair2, false},
    {"ALF_ESCR0", 0x3CA, 1, kIqSide0, false},     {"ALF_ESCR1", 0x3CB, 1, kIqSide1, false},
    {"CRU_ESCR2", 0x3CC, 5, kIqSide0, false},     {"CRU_ESCR3", 0x3CD, 5, kIqSide1, false},
    {"CRU_ESCR4", 0x3E0, 6, kIqSide0, false},     {"CRU_ESCR5", 0x3E1, 6, kIqSide1, false},
};

constexpr const EscrInfo& escr_info(EscrId e) { return kEscrTable[static_cast<unsigned>(e)]; }

namespace detail {
// The table's own rules: addresses ascending inside 0x3A0-0x3E1 without the holes, the ESCR pairs
// of one unit share a select value, an ESCR0 never feeds an ESCR1's counters.
constexpr bool escr_table_sound() {
  for (unsigned i = 0; i < kEscrs; ++i) {
    const EscrInfo& e = kEscrTable[i];
    if (e.msr < 0x3A0 || e.msr > 0x3E1 || e.msr == 0x3BF || e.msr == 0x3C6 || e.msr == 0x3C7 ||
        (e.msr >= 0x3CE && e.msr <= 0x3DF))
      return false;
    if (i > 0 && kEscrTable[i - 1].msr >= e.msr) return false;
    if (e.select > 7 || e.counters == 0) return false;
    const bool side1 = (e.counters & (kBpuPair2 | kMsPair2 | kFlamePair2 | kIqSide1)) != 0;
    const bool side0 = (e.counters & (kBpuPair1 | kMsPair1 | kFlamePair1 | kIqSide0)) != 0;
    if (side0 == side1) return false;
  }
  return true;
}
static_assert(escr_table_sound(), "NetBurst ESCR table: addresses, selects and counter sides");
static_assert(kEscrs == 45, "Table 18-63 has 45 ESCRs");
}  // namespace detail

// An ESCR as a register type, by table index (for the bus: the MSR address is an immediate).
template <unsigned I>
using Escr = Reg<table_name(kEscrTable[I].name), Msr<kEscrTable[I].msr>, u64,
                 Layout<u64>{.write_mask = kEscrWritable}>;

// --- other MSRs -----------------------------------------------------------------------------
// IA32_MISC_ENABLE: bit 7 "Performance Monitoring Available" (RO), bit 12 "Processor Event Based
// Sampling Unavailable" (RO). The toolkit only reads it.
using IA32_MISC_ENABLE = Reg<"IA32_MISC_ENABLE", Msr<0x1A0>, u64, Layout<u64>{Access::RO, 0, 0, 0}>;
inline constexpr Field<IA32_MISC_ENABLE, 7, 1, Access::RO, "PERF_MON_AVAILABLE"> misc_perfmon_available{};
inline constexpr Field<IA32_MISC_ENABLE, 12, 1, Access::RO, "PEBS_UNAVAILABLE"> misc_pebs_unavailable{};
// Replay tagging and PEBS: cleared at reset by the driver (stale state from a previous boot stage).
using IA32_PEBS_ENABLE = Reg<"IA32_PEBS_ENABLE", Msr<0x3F1>, u64, Layout<u64>{.write_mask = 0x07FFFFFFull}>;
using PEBS_MATRIX_VERT = Reg<"PEBS_MATRIX_VERT", Msr<0x3F2>, u64, Layout<u64>{.write_mask = 0x1FFFull}>;

// The local APIC's LVT Performance Counter entry (xAPIC MMIO, APIC base + 0x340): vector 7:0,
// delivery mode 10:8 (0 fixed, 4 NMI), mask 16. NetBurst masks it on every PMI: the handler must
// unmask it again, after clearing OVF (an overflowed counter keeps asserting).
using LVT_PERF = Reg<"LVT_PERFMON", Mmio<0x340>, u32, Layout<u32>{.write_mask = 0x000107FFu}>;
inline constexpr Field<LVT_PERF, 0, 8, Access::RW, "Vector"> lvt_vector{};
inline constexpr Field<LVT_PERF, 8, 3, Access::RW, "DeliveryMode"> lvt_delivery_mode{};
inline constexpr Field<LVT_PERF, 16, 1, Access::RW, "Mask"> lvt_mask{};
inline constexpr std::uintptr_t kDefaultApicBase = 0xFEE00000u;

}  // namespace pmu::netburst
