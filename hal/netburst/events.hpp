#pragma once
// Intel NetBurst (Pentium 4) events: the SDM's non-retirement (Table 19-28) and at-retirement
// (Table 19-29) events with their event select, CCCR ESCR select, the ESCRs that can host each,
// their event-mask bits, and the catalog the host tool lists (data only).
//
// Decisions where sources disagree (hal/netburst/README.md has the detail; each is marked
// kDoubtful and shown as doubtful in `pmukit events`):
// 1. b2b_cycles, bnr, snoop, response: libpfm4 and Linux give CCCR ESCR select 3 with FSB_ESCR0/1,
//    but select 3 names ITLB_ESCR0/1 in the BPU block, and the FSB ESCRs have select 6 everywhere
//    else in Table 18-63. Table 18-63 wins: select 6. Their mask bits are not in the SDM.
// 2. machine_clear masks: CLEAR 0, MOCLEAR 2, SMCLEAR 6 (libpfm3/4 and OProfile after its 2004
//    fix); Linux (0, 1, 2) and FreeBSD (0, 2, 3) differ.
// 3. IOQ_active_entries and BSQ_active_entries: one ESCR each (FSB_ESCR1, BSU_ESCR1), as the SDM
//    rows give; Linux calls its choice a guess.
// A mask bit no source names is not offered; the SDM's "ESCR[31:25]" event-select rows are read as
// 30:25 (bit 31 is reserved in the ESCR figure).
#include <cstddef>
#include <cstdint>

#include "hal/core/event.hpp"
#include "hal/netburst/regs.hpp"

namespace pmu::netburst {

struct MaskBit {
  const char* name;
  std::uint8_t bit;  // in the 16-bit ESCR event-mask field
};
enum EventFlags : std::uint8_t {
  kAtRetirement = 1,  // Table 19-29
  kDoubtful = 2,      // sources disagree: decided as the header says, unverified on silicon
  kModel3Plus = 4,    // models 3, 4 and 6 only
  kThreadShared = 8,  // counts for the whole package, whatever the T0/T1 bits say
  kExecTagging = 16,  // an upstream event of execution tagging: its ESCR may tag the uops it counts
                      // (tag value 8:5, tag enable 4; SDM 18.15.6.3), which execution_event then
                      // counts at retirement. libpfm4 names the tag bits TAG0-TAG3 on these events
  kFrontEndTagging = 32,  // uop_type: its ESCR tags load and store uops for front_end_event (SDM
                          // 18.15.6.2, Table 19-31) and no counter increments on it (Table 19-29:
                          // "does not cause a counter to increment")
};
struct NbEvent {
  const char* name;           // the SDM's name
  std::uint8_t event_select;  // ESCR 30:25
  std::uint8_t escr_select;   // CCCR 15:13
  EscrId escr[2];             // the ESCR0-side and ESCR1-side ESCR that can host it (none: no such side)
  const MaskBit* masks;
  std::uint8_t num_masks;
  std::uint8_t flags;         // EventFlags
  std::uint8_t default_mask;  // mask bit used when none is named (0xFF: one must be named)
  const char* description;
};

#define NB_MASKS(a) a, static_cast<std::uint8_t>(sizeof(a) / sizeof(a[0]))

// --- event masks (bit numbers inside the 16-bit field) ---------------------------------------
inline constexpr MaskBit kMTcDeliverMode[] = {{"DD", 0}, {"DB", 1}, {"DI", 2}, {"BD", 3},
                                              {"BB", 4}, {"BI", 5}, {"ID", 6}, {"IB", 7}};
inline constexpr MaskBit kMBpuFetchRequest[] = {{"TCMISS", 0}};
inline constexpr MaskBit kMItlbReference[] = {{"HIT", 0}, {"MISS", 1}, {"HIT_UC", 2}};
inline constexpr MaskBit kMMemoryCancel[] = {{"ST_RB_FULL", 2}, {"64K_CONF", 3}};
inline constexpr MaskBit kMMemoryComplete[] = {{"LSC", 0}, {"SSC", 1}};
inline constexpr MaskBit kMLoadPortReplay[] = {{"SPLIT_LD", 1}};
inline constexpr MaskBit kMStorePortReplay[] = {{"SPLIT_ST", 1}};
inline constexpr MaskBit kMMobLoadReplay[] = {{"NO_STA", 1}, {"NO_STD", 3}, {"PARTIAL_DATA", 4}, {"UNALGN_ADDR", 5}};
inline constexpr MaskBit kMPageWalkType[] = {{"DTMISS", 0}, {"ITMISS", 1}};
inline constexpr MaskBit kMBsqCacheReference[] = {
    {"RD_2ndL_HITS", 0}, {"RD_2ndL_HITE", 1}, {"RD_2ndL_HITM", 2}, {"RD_3rdL_HITS", 3}, {"RD_3rdL_HITE", 4},
    {"RD_3rdL_HITM", 5}, {"RD_2ndL_MISS", 8}, {"RD_3rdL_MISS", 9}, {"WR_2ndL_MISS", 10}};
inline constexpr MaskBit kMIoq[] = {
    {"TYPE_BIT0", 0}, {"TYPE_BIT1", 1}, {"TYPE_BIT2", 2}, {"TYPE_BIT3", 3}, {"TYPE_BIT4", 4},
    {"ALL_READ", 5},  {"ALL_WRITE", 6}, {"MEM_UC", 7},    {"MEM_WC", 8},    {"MEM_WT", 9},
    {"MEM_WP", 10},   {"MEM_WB", 11},   {"OWN", 13},      {"OTHER", 14},    {"PREFETCH", 15}};
inline constexpr MaskBit kMFsbDataActivity[] = {{"DRDY_DRV", 0}, {"DRDY_OWN", 1}, {"DRDY_OTHER", 2},
                                                {"DBSY_DRV", 3}, {"DBSY_OWN", 4}, {"DBSY_OTHER", 5}};
inline constexpr MaskBit kMBsq[] = {
    {"REQ_TYPE0", 0},       {"REQ_TYPE1", 1},       {"REQ_LEN0", 2},      {"REQ_LEN1", 3},
    {"REQ_IO_TYPE", 5},     {"REQ_LOCK_TYPE", 6},   {"REQ_CACHE_TYPE", 7}, {"REQ_SPLIT_TYPE", 8},
    {"REQ_DEM_TYPE", 9},    {"REQ_ORD_TYPE", 10},   {"MEM_TYPE0", 11},    {"MEM_TYPE1", 12},
    {"MEM_TYPE2", 13}};
inline constexpr MaskBit kMAll[] = {{"ALL", 15}};
inline constexpr MaskBit kMX87SimdMoves[] = {{"ALLP0", 3}, {"ALLP2", 4}};
inline constexpr MaskBit kMTcMisc[] = {{"FLUSH", 4}};
inline constexpr MaskBit kMGlobalPower[] = {{"RUNNING", 0}};
inline constexpr MaskBit kMTcMsXfer[] = {{"CISC", 0}};
inline constexpr MaskBit kMUopQueueWrites[] = {{"FROM_TC_BUILD", 0}, {"FROM_TC_DELIVER", 1}, {"FROM_ROM", 2}};
inline constexpr MaskBit kMBranchType[] = {{"CONDITIONAL", 1}, {"CALL", 2}, {"RETURN", 3}, {"INDIRECT", 4}};
inline constexpr MaskBit kMResourceStall[] = {{"SBFULL", 5}};
inline constexpr MaskBit kMWcBuffer[] = {{"WCB_EVICTS", 0}, {"WCB_FULL_EVICT", 1}};
// The FSB events below have no mask names in the SDM; these are libpfm4's bit names, with its
// b2b_cycles BIT5/BIT6 (both given bit 4 there, a copy slip) as bits 5 and 6.
inline constexpr MaskBit kMB2bCycles[] = {{"BIT1", 1}, {"BIT2", 2}, {"BIT3", 3}, {"BIT4", 4}, {"BIT5", 5}, {"BIT6", 6}};
inline constexpr MaskBit kMBnr[] = {{"BIT0", 0}, {"BIT1", 1}, {"BIT2", 2}};
inline constexpr MaskBit kMSnoop[] = {{"BIT2", 2}, {"BIT6", 6}, {"BIT7", 7}};
inline constexpr MaskBit kMResponse[] = {{"BIT1", 1}, {"BIT2", 2}, {"BIT8", 8}, {"BIT9", 9}};
inline constexpr MaskBit kMNbogusBogus[] = {{"NBOGUS", 0}, {"BOGUS", 1}};
inline constexpr MaskBit kMExecutionEvent[] = {{"NBOGUS0", 0}, {"NBOGUS1", 1}, {"NBOGUS2", 2}, {"NBOGUS3", 3},
                                               {"BOGUS0", 4},  {"BOGUS1", 5},  {"BOGUS2", 6},  {"BOGUS3", 7}};
inline constexpr MaskBit kMInstrRetired[] = {{"NBOGUSNTAG", 0}, {"NBOGUSTAG", 1}, {"BOGUSNTAG", 2}, {"BOGUSTAG", 3}};
inline constexpr MaskBit kMUopType[] = {{"TAGLOADS", 1}, {"TAGSTORES", 2}};
inline constexpr MaskBit kMBranchRetired[] = {{"MMNP", 0}, {"MMNM", 1}, {"MMTP", 2}, {"MMTM", 3}};
inline constexpr MaskBit kMNbogus[] = {{"NBOGUS", 0}};
inline constexpr MaskBit kMX87Assist[] = {{"FPSU", 0}, {"FPSO", 1}, {"POAO", 2}, {"POAU", 3}, {"PREA", 4}};
inline constexpr MaskBit kMMachineClear[] = {{"CLEAR", 0}, {"MOCLEAR", 2}, {"SMCLEAR", 6}};

using E = EscrId;
inline constexpr std::uint8_t kNoDflt = 0xFF;
inline constexpr NbEvent kEvents[] = {
    // --- Table 19-28: non-retirement events ---
    {"TC_deliver_mode", 0x01, 1, {E::TC_ESCR0, E::TC_ESCR1}, NB_MASKS(kMTcDeliverMode), kThreadShared, kNoDflt,
     "Cycles the trace cache spends in each delivery/build mode, per logical processor state"},
    {"BPU_fetch_request", 0x03, 0, {E::BPU_ESCR0, E::BPU_ESCR1}, NB_MASKS(kMBpuFetchRequest), 0, 0,
     "Instruction fetch requests from the branch prediction unit (TCMISS: trace cache lookup misses)"},
    {"ITLB_reference", 0x18, 3, {E::ITLB_ESCR0, E::ITLB_ESCR1}, NB_MASKS(kMItlbReference), 0, kNoDflt,
     "Instruction TLB translations: hits, misses, uncacheable hits"},
    {"memory_cancel", 0x02, 5, {E::DAC_ESCR0, E::DAC_ESCR1}, NB_MASKS(kMMemoryCancel), 0, kNoDflt,
     "Canceled requests in the data cache address control unit"},
    {"memory_complete", 0x08, 2, {E::SAAT_ESCR0, E::SAAT_ESCR1}, NB_MASKS(kMMemoryComplete), 0, kNoDflt,
     "Completed load or store splits"},
    {"load_port_replay", 0x04, 2, {E::SAAT_ESCR0, E::SAAT_ESCR1}, NB_MASKS(kMLoadPortReplay), 0, 1,
     "Replayed events at the load port"},
    {"store_port_replay", 0x05, 2, {E::SAAT_ESCR0, E::SAAT_ESCR1}, NB_MASKS(kMStorePortReplay), 0, 1,
     "Replayed events at the store port"},
    {"MOB_load_replay", 0x03, 2, {E::MOB_ESCR0, E::MOB_ESCR1}, NB_MASKS(kMMobLoadReplay), 0, kNoDflt,
     "Loads replayed by the memory order buffer"},
    {"page_walk_type", 0x01, 4, {E::PMH_ESCR0, E::PMH_ESCR1}, NB_MASKS(kMPageWalkType), kThreadShared, kNoDflt,
     "Page walks by the page miss handler, for data or instruction TLB misses"},
    {"BSQ_cache_reference", 0x0C, 7, {E::BSU_ESCR0, E::BSU_ESCR1}, NB_MASKS(kMBsqCacheReference), 0, kNoDflt,
     "Second- and third-level cache references seen by the bus sequence queue"},
    {"IOQ_allocation", 0x03, 6, {E::FSB_ESCR0, E::FSB_ESCR1}, NB_MASKS(kMIoq), 0, kNoDflt,
     "Bus transactions allocated in the in-order queue, by type"},
    // Decision 3: FSB_ESCR1 only, as the SDM row gives.
    {"IOQ_active_entries", 0x1A, 6, {E::none, E::FSB_ESCR1}, NB_MASKS(kMIoq), kDoubtful, kNoDflt,
     "In-order queue entries outstanding each cycle, by type"},
    {"FSB_data_activity", 0x17, 6, {E::FSB_ESCR0, E::FSB_ESCR1}, NB_MASKS(kMFsbDataActivity), kThreadShared, kNoDflt,
     "Front-side bus DRDY/DBSY activity"},
    {"BSQ_allocation", 0x05, 7, {E::BSU_ESCR0, E::none}, NB_MASKS(kMBsq), 0, kNoDflt,
     "Bus sequence queue allocations, by request type"},
    // Decision 3: BSU_ESCR1 only.
    {"BSQ_active_entries", 0x06, 7, {E::none, E::BSU_ESCR1}, NB_MASKS(kMBsq), kDoubtful, kNoDflt,
     "Bus sequence queue entries outstanding each cycle, by request type"},
    {"SSE_input_assist", 0x34, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared, 15,
     "SSE/SSE2 operations that needed an input assist"},
    {"packed_SP_uop", 0x08, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared | kExecTagging, 15,
     "Packed single-precision uops"},
    {"packed_DP_uop", 0x0C, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared | kExecTagging, 15,
     "Packed double-precision uops"},
    {"scalar_SP_uop", 0x0A, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared | kExecTagging, 15,
     "Scalar single-precision uops"},
    {"scalar_DP_uop", 0x0E, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared | kExecTagging, 15,
     "Scalar double-precision uops"},
    {"64bit_MMX_uop", 0x02, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared | kExecTagging, 15,
     "MMX uops on 64-bit operands"},
    {"128bit_MMX_uop", 0x1A, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared | kExecTagging, 15,
     "Integer SSE2 uops on 128-bit operands"},
    {"x87_FP_uop", 0x04, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMAll), kThreadShared | kExecTagging, 15,
     "x87 floating-point uops"},
    {"x87_SIMD_moves_uop", 0x2E, 1, {E::FIRM_ESCR0, E::FIRM_ESCR1}, NB_MASKS(kMX87SimdMoves), kThreadShared, kNoDflt,
     "x87, MMX and SSE register load/store/move uops (name ALLP0 or ALLP2)"},
    {"TC_misc", 0x06, 1, {E::TC_ESCR0, E::TC_ESCR1}, NB_MASKS(kMTcMisc), 0, 4,
     "Miscellaneous trace cache events (FLUSH)"},
    {"global_power_events", 0x13, 6, {E::FSB_ESCR0, E::FSB_ESCR1}, NB_MASKS(kMGlobalPower), 0, 0,
     "Cycles the processor is not halted (RUNNING)"},
    {"tc_ms_xfer", 0x05, 0, {E::MS_ESCR0, E::MS_ESCR1}, NB_MASKS(kMTcMsXfer), 0, 0,
     "Transfers of uop delivery from the trace cache to the microcode ROM"},
    {"uop_queue_writes", 0x09, 0, {E::MS_ESCR0, E::MS_ESCR1}, NB_MASKS(kMUopQueueWrites), 0, kNoDflt,
     "Uops written to the uop queue, by source"},
    {"retired_mispred_branch_type", 0x05, 2, {E::TBPU_ESCR0, E::TBPU_ESCR1}, NB_MASKS(kMBranchType), 0, kNoDflt,
     "Retired mispredicted branches, by type"},
    {"retired_branch_type", 0x04, 2, {E::TBPU_ESCR0, E::TBPU_ESCR1}, NB_MASKS(kMBranchType), 0, kNoDflt,
     "Retired branches, by type"},
    {"resource_stall", 0x01, 1, {E::ALF_ESCR0, E::ALF_ESCR1}, NB_MASKS(kMResourceStall), 0, 5,
     "Allocation stalls (SBFULL: store buffer full)"},
    {"WC_Buffer", 0x05, 5, {E::DAC_ESCR0, E::DAC_ESCR1}, NB_MASKS(kMWcBuffer), kThreadShared, kNoDflt,
     "Write-combining buffer evictions"},
    // Decision 1 (these four): ESCR select 6, the FSB ESCRs' select in Table 18-63.
    {"b2b_cycles", 0x16, 6, {E::FSB_ESCR0, E::FSB_ESCR1}, NB_MASKS(kMB2bCycles), kDoubtful, kNoDflt,
     "Back-to-back bus cycles"},
    {"bnr", 0x08, 6, {E::FSB_ESCR0, E::FSB_ESCR1}, NB_MASKS(kMBnr), kDoubtful, kNoDflt, "Bus not ready conditions"},
    {"snoop", 0x06, 6, {E::FSB_ESCR0, E::FSB_ESCR1}, NB_MASKS(kMSnoop), kDoubtful, kNoDflt, "Bus snoops"},
    {"response", 0x04, 6, {E::FSB_ESCR0, E::FSB_ESCR1}, NB_MASKS(kMResponse), kDoubtful, kNoDflt,
     "Bus responses, by type"},
    // --- Table 19-29: at-retirement events ---
    {"front_end_event", 0x08, 5, {E::CRU_ESCR2, E::CRU_ESCR3}, NB_MASKS(kMNbogusBogus), kAtRetirement, kNoDflt,
     "Retired uops tagged by front-end tagging (uop_type)"},
    {"execution_event", 0x0C, 5, {E::CRU_ESCR2, E::CRU_ESCR3}, NB_MASKS(kMExecutionEvent), kAtRetirement, kNoDflt,
     "Retired uops tagged by execution tagging"},
    {"replay_event", 0x09, 5, {E::CRU_ESCR2, E::CRU_ESCR3}, NB_MASKS(kMNbogusBogus), kAtRetirement, kNoDflt,
     "Retired uops tagged by replay tagging (IA32_PEBS_ENABLE / PEBS_MATRIX_VERT select the cause)"},
    {"instr_retired", 0x02, 4, {E::CRU_ESCR0, E::CRU_ESCR1}, NB_MASKS(kMInstrRetired), kAtRetirement, kNoDflt,
     "Retired instructions, by bogus/non-bogus and tagged/untagged"},
    {"uops_retired", 0x01, 4, {E::CRU_ESCR0, E::CRU_ESCR1}, NB_MASKS(kMNbogusBogus), kAtRetirement, kNoDflt,
     "Retired uops"},
    {"uop_type", 0x02, 2, {E::RAT_ESCR0, E::RAT_ESCR1}, NB_MASKS(kMUopType), kAtRetirement | kFrontEndTagging, kNoDflt,
     "Tags load and store uops for front-end tagging"},
    {"branch_retired", 0x06, 5, {E::CRU_ESCR2, E::CRU_ESCR3}, NB_MASKS(kMBranchRetired), kAtRetirement, kNoDflt,
     "Retired branches, by predicted/mispredicted and taken/not taken"},
    {"mispred_branch_retired", 0x03, 4, {E::CRU_ESCR0, E::CRU_ESCR1}, NB_MASKS(kMNbogus), kAtRetirement, 0,
     "Retired mispredicted branches"},
    {"x87_assist", 0x03, 5, {E::CRU_ESCR2, E::CRU_ESCR3}, NB_MASKS(kMX87Assist), kAtRetirement, kNoDflt,
     "Retired x87 instructions that needed an assist"},
    // Decision 2: CLEAR 0, MOCLEAR 2, SMCLEAR 6.
    {"machine_clear", 0x02, 5, {E::CRU_ESCR2, E::CRU_ESCR3}, NB_MASKS(kMMachineClear), kAtRetirement | kDoubtful, kNoDflt,
     "Pipeline clears, by cause"},
    {"instr_completed", 0x07, 4, {E::CRU_ESCR0, E::CRU_ESCR1}, NB_MASKS(kMNbogusBogus), kAtRetirement | kModel3Plus, kNoDflt,
     "Completed instructions (models 3, 4 and 6)"},
};
#undef NB_MASKS

inline constexpr std::size_t kNumEvents = sizeof(kEvents) / sizeof(kEvents[0]);
inline constexpr std::uint8_t kNoDefaultMask = kNoDflt;

// --- checks of the table's own rules ---------------------------------------------------------
namespace detail {
constexpr bool same_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
// Every row: its ESCRs are on the right sides (escr[0] an ESCR0-side, escr[1] an ESCR1-side one),
// its ESCR select is theirs, mask bits fit the 16-bit field and are distinct, names unique, the
// default mask is one of its masks.
constexpr bool event_table_sound() {
  for (std::size_t i = 0; i < kNumEvents; ++i) {
    const NbEvent& e = kEvents[i];
    if (e.event_select > 0x3F || e.escr_select > 7 || e.num_masks == 0) return false;
    if (e.escr[0] == EscrId::none && e.escr[1] == EscrId::none) return false;
    for (unsigned side = 0; side < 2; ++side) {
      if (e.escr[side] == EscrId::none) continue;
      const EscrInfo& x = escr_info(e.escr[side]);
      if (x.select != e.escr_select) return false;
      const bool side1 = (x.counters & (kBpuPair2 | kMsPair2 | kFlamePair2 | kIqSide1)) != 0;
      if (side1 != (side == 1)) return false;
    }
    std::uint32_t seen = 0;
    bool default_found = e.default_mask == kNoDefaultMask;
    for (std::size_t m = 0; m < e.num_masks; ++m) {
      if (e.masks[m].bit > 15 || (seen >> e.masks[m].bit & 1u)) return false;
      seen |= 1u << e.masks[m].bit;
      if (e.masks[m].bit == e.default_mask) default_found = true;
      for (std::size_t k = 0; k < m; ++k)
        if (same_text(e.masks[k].name, e.masks[m].name)) return false;
    }
    if (!default_found) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (same_text(kEvents[j].name, e.name)) return false;
  }
  return true;
}
static_assert(kNumEvents == 47, "SDM Tables 19-28 and 19-29: 36 + 11 events");
static_assert(event_table_sound(),
              "NetBurst event table: ESCR sides and selects, mask bits, unique names, default masks");
}  // namespace detail

constexpr std::size_t event_row(const char* name) {
  for (std::size_t i = 0; i < kNumEvents; ++i)
    if (detail::same_text(kEvents[i].name, name)) return i;
  return kNumEvents;
}

inline constexpr std::uint32_t kAllCounters = (1u << kCounters) - 1;
inline constexpr std::uint32_t kUsableCounters = kAllCounters & ~(1u << 1);  // never BPU counter 1 (driver.hpp)

// The event's counters: those its ESCRs feed, never counter 1 (the catalog's, the driver's and
// the host tool's answer; configure() also refuses an ESCR the part's model lacks).
constexpr std::uint32_t event_counters(const NbEvent& e) {
  std::uint32_t m = 0;
  for (EscrId id : e.escr)
    if (id != EscrId::none) m |= escr_info(id).counters;
  return m & kUsableCounters;
}

// The mask configure() counts when an EventConfig's qualifier is 0 (what a preset passes): the
// event's default mask where it has one, and for the preset events without one the toolkit's
// choice: instr_retired NBOGUSNTAG|NBOGUSTAG (non-bogus instructions, as Linux counts them),
// branch_retired all four, page_walk_type both. 0: the event needs a named mask.
constexpr std::uint16_t zero_qualifier_mask(std::size_t row) {
  if (row >= kNumEvents) return 0;
  const NbEvent& e = kEvents[row];
  if (e.default_mask != kNoDefaultMask) return static_cast<std::uint16_t>(1u << e.default_mask);
  if (detail::same_text(e.name, "instr_retired")) return 0x3;
  if (detail::same_text(e.name, "branch_retired")) return 0xF;
  if (detail::same_text(e.name, "page_walk_type")) return 0x3;
  return 0;
}

// --- the catalog -----------------------------------------------------------------------------
// Codes are rows of kEvents (event selects repeat across ESCRs: 0x04 on SAAT is load_port_replay,
// on TBPU retired_branch_type). counters: the counters the event's ESCRs feed, never counter 1.
// The description carries the ESCRs, so `pmukit events` shows the constraints.
inline constexpr std::size_t kTextLen = 240;
struct EventText {
  char s[kTextLen];
};
namespace detail {
constexpr void append(EventText& t, std::size_t& n, const char* s) {
  while (*s && n + 1 < kTextLen) t.s[n++] = *s++;
  t.s[n] = '\0';
}
constexpr EventText text_of(const NbEvent& e) {
  EventText t{};
  std::size_t n = 0;
  append(t, n, e.description);
  append(t, n, " [ESCR ");
  bool first = true;
  for (EscrId id : e.escr) {
    if (id == EscrId::none) continue;
    if (!first) append(t, n, "/");
    append(t, n, escr_info(id).name);
    first = false;
  }
  append(t, n, "]");
  if (e.flags & kAtRetirement) append(t, n, " [at retirement]");
  if (e.flags & kModel3Plus) append(t, n, " [models 3, 4, 6]");
  if (e.flags & kExecTagging) append(t, n, " [execution tagging: TAG0-TAG3]");
  if (e.flags & kFrontEndTagging) append(t, n, " [tags only, counts nothing: front_end_event counts the tagged uops]");
  if (e.flags & kDoubtful) append(t, n, " [doubtful: sources disagree, see hal/netburst/README.md]");
  return t;
}
struct Catalog {
  EventText text[kNumEvents];
  EventInfo info[kNumEvents];
};
constexpr Catalog make_catalog() {
  Catalog c{};
  for (std::size_t i = 0; i < kNumEvents; ++i) c.text[i] = text_of(kEvents[i]);
  return c;
}
}  // namespace detail
inline constexpr detail::Catalog kCatalogText = detail::make_catalog();
namespace detail {
constexpr Catalog with_info() {
  Catalog c = kCatalogText;
  for (std::size_t i = 0; i < kNumEvents; ++i)
    c.info[i] = {static_cast<std::uint32_t>(i), kEvents[i].name, kCatalogText.text[i].s, event_counters(kEvents[i]), 0};
  return c;
}
}  // namespace detail
inline constexpr detail::Catalog kCatalogData = detail::with_info();

// Presets, each on zero_qualifier_mask (EventConfig qualifier 0):
//   cycles             global_power_events:RUNNING (not counted while halted)
//   instructions       instr_retired:NBOGUSNTAG:NBOGUSTAG
//   branches           branch_retired:MMNP:MMNM:MMTP:MMTM
//   branch_mispredicts mispred_branch_retired:NBOGUS
//   tlb_misses         page_walk_type:DTMISS:ITMISS
// No cache-miss preset: the NetBurst cache-miss counts need replay tagging through
// IA32_PEBS_ENABLE/PEBS_MATRIX_VERT, which this driver does not program.
namespace detail {
constexpr PresetBinding preset_on(Preset p, const char* event) {
  const std::size_t row = event_row(event);
  return {p, static_cast<std::uint32_t>(row), event_counters(kEvents[row])};
}
}  // namespace detail
inline constexpr PresetBinding kPresets[] = {
    detail::preset_on(Preset::cycles, "global_power_events"),
    detail::preset_on(Preset::instructions, "instr_retired"),
    detail::preset_on(Preset::branches, "branch_retired"),
    detail::preset_on(Preset::branch_mispredicts, "mispred_branch_retired"),
    detail::preset_on(Preset::tlb_misses, "page_walk_type"),
};

inline constexpr PmuCatalog catalog{
    "netburst",
    "Intel NetBurst (Pentium 4) PMU: 18 40-bit counters fed by 45 ESCRs through their CCCRs "
    "(event code = table row; BPU counter 1 never used); cascading, PMI through the local APIC",
    40,
    kCounters,
    kCatalogData.info,
    kNumEvents,
    kPresets,
    sizeof(kPresets) / sizeof(kPresets[0]),
    6,  // codes are rows 0..46
};
static_assert(catalog_sound(catalog), "netburst catalog: codes unique, counters exist, presets consistent");

}  // namespace pmu::netburst
