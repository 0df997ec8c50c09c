// pmusim's MIPS machine: the Malta board of examples/malta/ (RAM at physical 0, the 16550 at
// 0x180003F8, UHI exit through sdbbp, the board REVISION register) on Unicorn's MIPS32 CPU, with
// one of two PMUs:
//  - RM7000 code (-march=rm7000, big-endian o32): the RM7000 model (hal/rm7000/model.hpp) behind
//    CP0 $22/$25, control register 20 and the RM7000's Cause.IP13;
//  - MIPS32r2 CPS code: the Coherence Manager model (hal/mips_cps/model.hpp) behind the GCR block
//    at physical 0x1FBF8000 (QEMU's Malta address), Config3.CMGCR and CMGCRBase, with CM_PCInt wired
//    to hardware interrupt 4 (Cause.IP6): pmusim's Malta has no GIC, so this is its wiring.
//
// The instructions, decoded from the MIPS IV and MIPS32 manuals (not from the project's buses), at
// every word of the executable segments:
//   COP0 (opcode 010000): MF rs=0 / MT rs=4 with rd, sel (bits 2:0); CF rs=2 / CT rs=6 with rd;
//   ERET 0x42000018; SDBBP (SPECIAL2, funct 0x3F).
// pmusim owns what Unicorn's MIPS32 CPU does not have or does not expose: Cause ($13) reads the
// PMU's interrupt bit and the exception code of pmusim's own interrupt entry; EPC ($14) and ERET
// are pmusim's. RM7000: PerfControl ($22), PerfCount ($25) and Interrupt Control (control 20) go to
// the model and PRId ($15) is the model's (an RM7000). CM: Config3 ($16 sel 3) is Unicorn's with
// CMGCR from the model, CMGCRBase ($15 sel 3) is the model's, and the GCR block is the model's.
// Status ($12) and the rest run on Unicorn. A branch whose delay slot holds an intercepted
// instruction is executed by pmusim, slot included (link, likely and target rules).
//
// Events, one stated cost model: every instruction is one clock. RM7000: events 0x00 CYCLES and
// 0x01 INSTR_ISSUED; from the same decode (MIPS IV opcode map), 0x04 LOADS_ISSUED (LB..LD, LWL/LWR,
// LDL/LDR, LL/LLD, LWC1/LDC1, LWXC1/LDXC1), 0x05 STORES_ISSUED (SB..SD, SWL/SWR, SDL/SDR, SC/SCD,
// SWC1/SDC1, SWXC1/SDXC1), 0x12 BRANCHES_ISSUED (every branch and jump, likely forms and BC1
// included) and 0x11 BRANCHES_TAKEN (jumps always; a branch to the word after its slot from its
// registers; any other when execution leaves its delay slot elsewhere than the branch + 8).
// Everything counts in kernel mode (the firmware's), issue = execute (a single-issue, in-order
// view: no dual issue, no cache or TLB); the rest stay at zero. CM: one CM clock (PC_CYCLE); the
// CM's request and data events need a memory system pmusim does not model and stay at zero.
// Clocks reach the model in batches that end at its counters' next boundary (RM7000: bit 31
// setting or the wrap; CM: the wrap).
//
// Interrupts: the PMU's level (RM7000: PerfCount bit 31 with IM13; CM: CM_PCInt with Status.IM6)
// and the timer's are taken on the instruction where they fall while Status.IE = 1 and EXL = ERL =
// 0: EPC = PC, Cause.ExcCode = 0, Status.EXL = 1, PC = the general exception vector (0x80000180
// with BEV = 0). On a delay slot (MIPS32 PRA, Cause.BD and EPC): EPC = the branch, Cause.BD = 1,
// taken in the branch's hook once the branch is counted and its link written, so that the branch
// runs again after eret, as on silicon. The words the firmware copies to the vector's window
// (0x180-0x1FF) are decoded as they are stored.
//
// The CP0 timer (tools/sim/timers.hpp, CountCompare): pmusim owns Count ($9) and Compare ($11),
// which Unicorn's MIPS CPU does not run. Count runs at half the pipeline clock (R4000 User's
// Manual, Count register: half the maximum instruction issue rate; MIPS32 cores alike), so one
// Count tick per two instructions on both machines. Count stepping onto Compare requests the
// timer interrupt until Compare is written: Cause.IP7 (with Status.IM7) and, on MIPS32r2, Cause.TI;
// on the RM7000 with Interrupt Control TE set, Cause.IP12 with IM12 instead (RM7000 datasheet,
// interrupt section: the timer's own Int[12]).
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unicorn/unicorn.h>

#include "hal/core/location.hpp"
#include "hal/mips_cps/model.hpp"
#include "hal/rm7000/model.hpp"
#include "tools/sim/machine.hpp"
#include "tools/sim/timers.hpp"

namespace pmusim {
namespace {

namespace rm = pmu::rm7000;
namespace cps = pmu::mips_cps;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kRamSize = 32u << 20;
constexpr u64 kUartPage = 0x18000000u, kUart = 0x3F8;
constexpr u64 kBoardPage = 0x1FC00000u, kRevision = 0x10;
constexpr u32 kRevisionPmusim = 0x504D5553u;  // "PMUS": the REVISION register of pmusim's Malta
constexpr u32 ST_IE = 1u << 0, ST_EXL = 1u << 1, ST_ERL = 1u << 2, ST_BEV = 1u << 22;
constexpr u32 ST_IM6 = 1u << 14, CAUSE_IP6 = 1u << 14;  // hardware interrupt 4: CM_PCInt here
constexpr u32 ST_IM7 = 1u << 15, CAUSE_IP7 = 1u << 15;  // the CP0 timer
constexpr u32 CAUSE_TI = 1u << 30;                      // MIPS32r2: the timer interrupt is pending
constexpr u32 CAUSE_BD = 1u << 31;                      // the exception was taken on a delay slot
constexpr u32 CAUSE_IP12 = 1u << 20, ICR_TE = 1u << 7, ICR_IM12 = 1u << 12;  // RM7000: the timer on Int[12]
constexpr u64 kGcrPhys = 0x1FBF8000u, kGcrBytes = 0x8000;  // global, core-local, core-other, debug
constexpr u32 kEret = 0x42000018u;
constexpr u32 kNoBranch = 1;  // never an instruction address

// The models' keys for CP0 registers (hal/core/location.hpp: Cp0 and Cp0Control).
constexpr u32 cp0_key(u32 rd, u32 sel) { return pmu::detail::make_key(pmu::BusKind::cp0, (rd << 3) | sel); }
constexpr u32 cp0_control_key(u32 rd) { return pmu::detail::make_key(pmu::BusKind::cp0, 0x100u | rd); }

// A word's tag: what the decoder intercepts (kKind bits), and the event classes it belongs to.
// kJump: always taken (J, JAL, JR, JALR). kToNext: a branch to the word after its delay slot, where
// the flow cannot tell taken from not taken.
enum : std::uint8_t {
  kNone, kCop0, kEretOp, kSdbbp, kKind = 3,
  kLoad = 4, kStore = 8, kBranch = 16, kJump = 32, kToNext = 64
};

// The RM7000 event classes of a MIPS IV instruction word (MIPS IV ISA, opcode and function maps).
std::uint8_t mips4_class(std::uint32_t w) {
  const std::uint32_t op = w >> 26, rs = (w >> 21) & 31, rt = (w >> 16) & 31, fn = w & 0x3F;
  switch (op) {
    case 0x00: return (fn == 0x08 || fn == 0x09) ? kBranch | kJump : kNone;  // JR, JALR
    case 0x02: case 0x03: return kBranch | kJump;                             // J, JAL
    case 0x01:                                                                 // BLTZ..BGEZALL
      if (!(rt <= 0x03 || (rt >= 0x10 && rt <= 0x13))) return kNone;
      [[fallthrough]];
    case 0x04: case 0x05: case 0x06: case 0x07:                               // BEQ..BGTZ
    case 0x14: case 0x15: case 0x16: case 0x17:                               // BEQL..BGTZL
      return (w & 0xFFFF) == 1 ? kBranch | kToNext : kBranch;
    case 0x11:                                                                 // BC1
      if (rs != 0x08) return kNone;
      return (w & 0xFFFF) == 1 ? kBranch | kToNext : kBranch;
    case 0x13: return fn <= 0x01 ? kLoad : (fn == 0x08 || fn == 0x09) ? kStore : kNone;  // COP1X
    case 0x1A: case 0x1B: return kLoad;                                     // LDL, LDR
    default: break;
  }
  if ((op >= 0x20 && op <= 0x27) || op == 0x30 || op == 0x31 || op == 0x32 || op == 0x34 || op == 0x35 ||
      op == 0x36 || op == 0x37)
    return kLoad;  // LB..LWU, LL, LWC1, LWC2, LLD, LDC1, LDC2, LD
  if ((op >= 0x28 && op <= 0x2E) || op == 0x38 || op == 0x39 || op == 0x3A || op == 0x3C || op == 0x3D ||
      op == 0x3E || op == 0x3F)
    return kStore;  // SB..SWR, SC, SWC1, SWC2, SCD, SDC1, SDC2, SD
  return kNone;
}

enum class Pmu { rm7000, cm };

// The CPS's second CPU (CM machine; EBase.CPUNum 1): held in reset until CPU 0 writes VP_RUN in the
// Cluster Power Controller, as QEMU 7.2's Malta does with -smp 2 (hw/misc/mips_cpc.c, where the two
// are VPs of one core), then started at the image's entry (the Malta boot code's jump to the
// kernel). The CPC sits where GCR_CPC_BASE puts it (CPCEN, bit 0; CPCBase, bits 31:15), which pmusim
// answers at kCpcPhys only, this board's address. Registers as QEMU has them (core-local block at
// 0x2000, its core-other alias at 0x4000): VP_STOP +0x20, VP_RUN +0x28, VP_RUNNING +0x30, one bit
// per VP. Not checked against a CPS manual: untested on silicon.
constexpr u32 kGcrCpcBase = 0x0088;
constexpr u64 kCpcPhys = 0x1BDE0000u, kCpcBytes = 0x6000;
constexpr u32 kCpcVpStop = 0x20, kCpcVpRun = 0x28, kCpcVpRunning = 0x30;
// Instructions a core runs before the other runs its own (while both run): the cores interleave
// in quanta of this length (each core's time base is its own instruction count).
constexpr u32 kQuantum = 1000;

struct Machine;
// What the cores of the CM machine share: the CM (its counters are one set per cluster) and the
// CPC's state.
struct Cluster {
  cps::Model cm;
  u32 cpc_base = 0;
  Machine* cores[2] = {};
  u32 entry = 0;
};

struct Machine : Cpu {
  Pmu pmu = Pmu::rm7000;
  rm::Model model;
  Cluster own_cluster;
  Cluster* cluster = &own_cluster;
  cps::Model* cm = &own_cluster.cm;
  u32 slice = 0;  // instructions since this core last took its turn (two cores running)
  u32 epc = 0, exccode = 0;
  bool bd = false;  // Cause.BD: the last exception was taken on a delay slot (EPC is its branch)
  u32 last_pc = 0;
  u64 pending = 0, horizon = 1;
  u64 loads = 0, stores = 0, branches = 0, taken = 0;  // RM7000 events not yet given to the model
  u32 branch_pc = kNoBranch;  // a branch whose outcome shows once execution leaves its delay slot
  timers::CountCompare timer;
  u64 timer_due = timers::kNever;  // the instruction count of Count's next step onto Compare
  bool timer_ip = false;           // the timer interrupt is requested

  using Cpu::Cpu;

  u32 gpr(u32 n) { return n == 0 ? 0 : reg(UC_MIPS_REG_0 + static_cast<int>(n)); }
  void set_gpr(u32 n, u32 v) {
    if (n != 0) set(UC_MIPS_REG_0 + static_cast<int>(n), v);
  }
  u32 word(u32 va) {
    std::uint8_t b[4] = {};
    uc_mem_read(uc, va & 0x1FFFFFFFu, b, 4);
    return u32{b[0]} << 24 | u32{b[1]} << 16 | u32{b[2]} << 8 | b[3];
  }
  void flush() {
    if (pmu == Pmu::cm) {
      if (pending && core_id == 0) cm->cycles(pending);  // PC_CYCLE: core 0's clock is the cluster's
      pending = loads = stores = branches = taken = 0;
      // Up to 0xFFFFFFFF, where Perf_Ovf_Stop stops the counters (the model's default reading),
      // then one more for the roll-over.
      horizon = 1ull << 32;
      for (unsigned slot = 0; slot < 3; ++slot) {
        const u64 to = 0xFFFFFFFFull - cm->counter(slot);
        if (to != 0 && to < horizon) horizon = to;
        if (to == 0) horizon = 1;
      }
      return;
    }
    if (pending) {
      model.event(0x00, pending, rm::Mode::kernel);  // CYCLES
      model.event(0x01, pending, rm::Mode::kernel);  // INSTR_ISSUED
      if (loads) model.event(0x04, loads, rm::Mode::kernel);       // LOADS_ISSUED
      if (stores) model.event(0x05, stores, rm::Mode::kernel);     // STORES_ISSUED
      if (branches) model.event(0x12, branches, rm::Mode::kernel); // BRANCHES_ISSUED
      if (taken) model.event(0x11, taken, rm::Mode::kernel);       // BRANCHES_TAKEN
      pending = loads = stores = branches = taken = 0;
    }
    const u64 v = model.perfcount();
    horizon = v < 0x80000000u ? 0x80000000u - v : 0x100000000ull - v;
  }
  // CM_PCInt reaches core 0 only (pmusim's wiring: one interrupt line, to the boot core).
  bool pcint() { return core_id == 0 && cm->pcint(); }
  // The PMU's and the timer's interrupt requests as Cause shows them (before Status masks them).
  u32 cause_ip() {
    if (pmu == Pmu::cm) return (pcint() ? CAUSE_IP6 : 0) | (timer_ip ? CAUSE_IP7 | CAUSE_TI : 0);
    u64 v = 0;
    model.read(cp0_key(13, 0), v);
    return static_cast<u32>(v) | (timer_ip ? ((model.icr() & ICR_TE) ? CAUSE_IP12 : CAUSE_IP7) : 0);
  }
  // Is the PMU's interrupt requested and unmasked by its own enable (not Status.IE)?
  bool level(u32 status) {
    if (pmu == Pmu::cm) return pcint() && (status & ST_IM6);
    return model.cause() && (model.icr() & rm::Model::kIm13);
  }
  // Is the timer's interrupt requested and unmasked?
  bool timer_level(u32 status) {
    if (!timer_ip) return false;
    if (pmu == Pmu::rm7000 && (model.icr() & ICR_TE)) return (model.icr() & ICR_IM12) != 0;
    return (status & ST_IM7) != 0;
  }
  void timer_update() {
    timer_ip = timer.pending(result.instructions);
    timer_due = timer.due();
  }

  // The branch or jump at pc, before it executes: whether it is taken and where execution goes
  // after its delay slot. false for BC1, whose FP condition Unicorn does not expose.
  bool resolve_branch(u32 pc, bool& taken, u32& next) {
    const u32 b = word(pc), op = b >> 26, rs = (b >> 21) & 31, rt = (b >> 16) & 31;
    const u32 rel = pc + 4 + (static_cast<u32>(static_cast<std::int16_t>(b & 0xFFFF)) << 2);
    const auto s = [&](u32 r) { return static_cast<std::int32_t>(gpr(r)); };
    next = rel;
    switch (op) {
      case 0: taken = true; next = gpr(rs); return true;                                    // jr, jalr
      case 2: case 3: taken = true; next = ((pc + 4) & 0xF0000000u) | ((b & 0x03FFFFFFu) << 2); return true;
      case 4: case 0x14: taken = gpr(rs) == gpr(rt); break;  // beq(l)
      case 5: case 0x15: taken = gpr(rs) != gpr(rt); break;  // bne(l)
      case 6: case 0x16: taken = s(rs) <= 0; break;          // blez(l)
      case 7: case 0x17: taken = s(rs) > 0; break;           // bgtz(l)
      case 1: taken = (rt & 1) ? s(rs) >= 0 : s(rs) < 0; break;  // bltz, bgez (l, al, all)
      default: return false;                                  // bc1
    }
    if (!taken) next = pc + 8;
    return true;
  }

  // The branch just seen, counted: a jump is taken; a branch to the word after its slot is resolved
  // from its registers; any other shows its outcome once execution leaves its delay slot.
  void count_branch(u32 pc, std::uint8_t tag) {
    ++branches;
    bool t = false;
    u32 next = 0;
    if (tag & kJump) ++taken;
    else if (!(tag & kToNext)) branch_pc = pc;
    else if (resolve_branch(pc, t, next)) taken += t;
    else branch_pc = pc;  // BC1 to pc + 8: counted as not taken (the FP condition is not exposed)
  }

  // The branch at pc whose delay slot holds an instruction pmusim intercepts: pmusim executes both
  // (Unicorn would run the slot's own instruction once more after the hook), with the branch's link
  // and likely rules (MIPS IV: a likely branch not taken nullifies its slot).
  void branch_with_slot(u32 pc) {
    u32 branch_next = 0;
    bool branch_taken = false;
    if (!resolve_branch(pc, branch_taken, branch_next)) {
      stop("a PMU instruction in the delay slot of an FP branch: pmusim cannot resolve that branch");
      return;
    }
    const u32 b = word(pc), op = b >> 26, rt = (b >> 16) & 31;
    if (op == 3 || (op == 1 && (rt & 0x10))) set_gpr(31, pc + 8);       // jal, bltzal..bgezall
    else if (op == 0 && (b & 0x3F) == 0x09) set_gpr((b >> 11) & 31, pc + 8);  // jalr
    const bool likely = (op >= 0x14 && op <= 0x17) || (op == 1 && (rt & 0x02));
    if (likely && !branch_taken) {
      set(UC_MIPS_REG_PC, pc + 8);
      return;
    }
    ++result.instructions;
    if (opt.pmu) ++pending;
    flush();  // the access sees every event before it
    cop0(pc + 4, word(pc + 4));
    flush();
    set(UC_MIPS_REG_PC, branch_next);
  }

  void cop0(u32 pc, u32 w) {
    const u32 rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31, sel = w & 7;
    u64 v = 0;
    bool ok = true;
    if ((rd == 9 || rd == 11) && (rs == 0 || rs == 4)) {  // Count, Compare: pmusim's timer
      const u64 now = result.instructions;
      if (rs == 0) set_gpr(rt, rd == 9 ? timer.count(now) : timer.compare());
      else if (rd == 9) timer.set_count(gpr(rt), now);
      else timer.set_compare(gpr(rt), now);  // also withdraws the request
      timer_update();
      return;
    }
    if (rs == 0) {  // mfc0
      if (rd == 13) {
        timer_update();  // a match by this very instruction shows
        v = cause_ip() | exccode << 2 | (bd ? CAUSE_BD : 0u);
      } else if (rd == 14) {
        v = epc;
      } else if (pmu == Pmu::cm && rd == 15 && sel == 1) {  // EBase: CPUNum is this core's
        v = 0x80000000u | core_id;
      } else if (pmu == Pmu::cm) {  // Config3 (Unicorn's, CMGCR from the model) or CMGCRBase
        ok = model_read(*cm, cp0_key(rd, sel), v);
        if (rd == 16) v = (reg(UC_MIPS_REG_CP0_CONFIG3) & ~cps::Model::kConfig3Cmgcr) | (v & cps::Model::kConfig3Cmgcr);
      } else {
        ok = model_read(model, cp0_key(rd, sel), v);
      }
      if (ok) set_gpr(rt, static_cast<u32>(v));
    } else if (rs == 4) {  // mtc0
      if (rd == 14) epc = gpr(rt);
      else if (rd == 13) ok = true;  // Cause: IV/IP1:0, not modelled
      else if (pmu == Pmu::cm) ok = rd == 16 || rd == 15;  // read-only registers: writes ignored
      else ok = model_write(model, cp0_key(rd, sel), gpr(rt));
    } else if (rs == 2) {  // cfc0
      ok = model_read(model, cp0_control_key(rd), v);
      if (ok) set_gpr(rt, static_cast<u32>(v));
    } else {  // ctc0
      ok = model_write(model, cp0_control_key(rd), gpr(rt));
    }
    if (!ok) {
      char b[96];
      std::snprintf(b, sizeof b, "CP0 access 0x%08x at 0x%08x refused by the model (reserved instruction)", w, pc);
      stop(b);  // no guest exception entry for faults yet: the firmware's probes do not need one
      return;
    }
  }

  void enter_interrupt(u32 pc, bool slot) {
    const u32 st = reg(UC_MIPS_REG_CP0_STATUS);
    epc = pc;
    exccode = 0;
    bd = slot;
    set(UC_MIPS_REG_CP0_STATUS, st | ST_EXL);
    set(UC_MIPS_REG_PC, (st & ST_BEV) ? 0xBFC00380u : 0x80000180u);
  }

  // Is an interrupt requested, unmasked and enabled (Status.IE set, EXL and ERL clear)?
  [[gnu::always_inline]] bool interrupt_due(bool* perf_out = nullptr) {  // on_code's hot path
    if (!((opt.pmu && (pmu == Pmu::cm ? pcint() : model.cause())) || timer_ip)) return false;
    const u32 st = reg(UC_MIPS_REG_CP0_STATUS);
    const bool perf = opt.pmu && level(st), tick = timer_level(st);
    if (perf_out) *perf_out = perf;
    return (perf || tick) && (st & ST_IE) && !(st & (ST_EXL | ST_ERL));
  }
  // The interrupt entry at `at` (the instruction it returns to) when one is due; `slot`: taken on
  // the delay slot of the branch at `at`.
  [[gnu::always_inline]] bool take_interrupt(u32 at, bool slot) {
    bool perf = false;
    if (!interrupt_due(&perf)) return false;
    ++(perf ? result.interrupts : result.timer_interrupts);
    enter_interrupt(at, slot);
    last_pc = 0;
    return true;
  }

  // This core's quantum is over: Unicorn stops before the instruction the hook was called for,
  // where run() resumes this core after the other's turn. (Not with a PC write: Unicorn restarts
  // at a written PC inside uc_emu_start, ignoring the stop.) Out of line: on_code runs for every
  // instruction of every machine.
  [[gnu::noinline]] void end_turn() {
    slice = 0;
    flush();  // core 0's CM clocks reach the model before the other core reads it
    yield_ = true;
    uc_emu_stop(uc);
  }

  static void on_code(uc_engine*, u64 address, u32, void* self) {
    auto& m = *static_cast<Machine*>(self);
    const u32 pc = static_cast<u32>(address);
    if (m.branch_pc != kNoBranch && pc != m.branch_pc + 4) {  // past the delay slot (or a likely skip)
      m.taken += pc != m.branch_pc + 8;
      m.branch_pc = kNoBranch;
    }
    if (m.result.instructions >= m.timer_due) m.timer_update();
    // Never on a delay slot here: an interrupt due there was taken on its branch (below).
    const bool slot = pc == m.last_pc + 4 && (m.code.tag(m.last_pc & 0x1FFFFFFFu) & kBranch);
    // The other core's turn (never on a delay slot: resuming there would lose the branch).
    if (m.peer && m.peer->runnable && ++m.slice >= kQuantum && !slot) {
      m.end_turn();
      return;
    }
    if (!slot && m.take_interrupt(pc, false)) return;
    if (!m.step(pc)) return;
    const std::uint8_t tag = m.code.tag(pc & 0x1FFFFFFFu);
    if (m.opt.pmu) {
      if (tag & kBranch) m.count_branch(pc, tag);
      m.loads += (tag & kLoad) != 0;
      m.stores += (tag & kStore) != 0;
      if (++m.pending >= m.horizon) m.flush();
    }
    // An interrupt the branch raised (its own events) or that falls due with it is taken on its
    // delay slot, before the slot runs: EPC is the branch and Cause.BD set (MIPS32 PRA, Cause and
    // EPC), and the branch runs again after eret, as on silicon. The branch's first run is
    // counted (it issued; a jump also as taken) and its link register written; a conditional
    // branch's outcome is not counted (it did not complete).
    if (tag & kBranch) {
      if (m.result.instructions >= m.timer_due) m.timer_update();
      if (m.interrupt_due()) {
        const u32 b = m.word(pc), op = b >> 26, rt = (b >> 16) & 31;
        if (op == 3 || (op == 1 && (rt & 0x10))) m.set_gpr(31, pc + 8);            // jal, bltzal..bgezall
        else if (op == 0 && (b & 0x3F) == 0x09) m.set_gpr((b >> 11) & 31, pc + 8);  // jalr
        m.branch_pc = kNoBranch;
        m.take_interrupt(pc, true);
        return;
      }
    }
    if ((tag & kBranch) && (m.code.tag((pc + 4) & 0x1FFFFFFFu) & kKind) == kCop0) {
      m.branch_with_slot(pc);
      m.last_pc = pc;
      return;
    }
    if (const std::uint8_t kind = tag & kKind) {
      m.flush();
      const u32 w = m.word(pc);
      switch (kind) {
        case kCop0:
          m.cop0(pc, w);
          m.set(UC_MIPS_REG_PC, pc + 4);
          break;
        case kEretOp: {
          const u32 st = m.reg(UC_MIPS_REG_CP0_STATUS);
          m.set(UC_MIPS_REG_CP0_STATUS, st & ~ST_EXL);
          m.set(UC_MIPS_REG_PC, m.epc);
          break;
        }
        case kSdbbp:  // UHI (MIPS UHI specification): operation in $25, arguments from $4
          if (m.gpr(25) == 1) {
            m.result.exit_code = static_cast<int>(m.gpr(4) & 0xFF);
            uc_emu_stop(m.uc);
          } else {
            m.stop("UHI operation " + std::to_string(m.gpr(25)) + " not provided");
          }
          break;
      }
      m.flush();
    }
    m.last_pc = pc;
  }

  // A word stored into the vector's window: decoded again (a store of whole aligned words; the
  // firmware copies images word by word).
  static void on_vector_write(uc_engine*, uc_mem_type, u64 address, int size, std::int64_t value, void* self);

  static u64 uart_read(uc_engine*, u64 offset, unsigned, void*) { return offset == kUart + 5 ? 0x60 : 0; }
  static void uart_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    if (offset == kUart) static_cast<Machine*>(self)->console.put(static_cast<char>(value));
  }
  static u64 gcr_read(uc_engine*, u64 offset, unsigned, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (offset == kGcrCpcBase) return m.cluster->cpc_base;
    m.flush();
    u64 v = 0;
    if (!m.model_read(*m.cm, pmu::detail::make_key(pmu::BusKind::mmio, static_cast<u32>(offset)), v)) v = 0;
    return v;  // a GCR the model does not have reads 0
  }
  static void gcr_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (offset == kGcrCpcBase) {
      m.cluster->cpc_base = static_cast<u32>(value) & 0xFFFF8001u;
      return;
    }
    m.flush();
    m.model_write(*m.cm, pmu::detail::make_key(pmu::BusKind::mmio, static_cast<u32>(offset)), value);
    m.flush();
  }
  // The CPC (kCpcPhys, above): answers only where GCR_CPC_BASE enabled it there.
  bool cpc_here() const { return cluster->cpc_base == (kCpcPhys | 1u); }
  static u64 cpc_read(uc_engine*, u64 offset, unsigned, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (!m.cpc_here() || (offset & 0x1FFF) != kCpcVpRunning || offset < 0x2000) return 0;
    u64 running = 1;
    if (Machine* c1 = m.cluster->cores[1]; c1 && c1->runnable) running |= 2;
    return running;
  }
  static void cpc_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    Machine* c1 = m.cluster->cores[1];
    if (!m.cpc_here() || !c1 || offset < 0x2000) return;
    if ((offset & 0x1FFF) == kCpcVpRun && (value & 2) && !c1->runnable) {
      c1->runnable = true;  // from reset: the image's entry, as the boot code would jump there
      c1->resume_pc = m.cluster->entry;
      c1->slice = 0;
    } else if ((offset & 0x1FFF) == kCpcVpStop && (value & 2) && c1 != &m) {
      c1->runnable = false;
    }
  }
  static u64 board_read(uc_engine*, u64 offset, unsigned, void*) {
    return offset == kRevision ? kRevisionPmusim : 0;
  }
  static void board_write(uc_engine*, u64, unsigned, u64, void*) {}
  static bool on_intr(uc_engine*, u32 intno, void* self) {
    auto& m = *static_cast<Machine*>(self);
    char b[96];
    std::snprintf(b, sizeof b, "MIPS exception %u at 0x%08x (pmusim enters only the PMU interrupt)", intno,
                  m.last_pc);  // Unicorn's PC reads 0 after an exception it swallowed
    m.stop(b);
    return true;
  }
};

}  // namespace

namespace {

constexpr u32 kVectorPhys = 0x180, kVectorBytes = 0x80;

// The CP0 accesses pmusim intercepts for each PMU (MF/MT rd with sel in bits 2:0, CF/CT rd), and
// for both the timer's Count and Compare.
bool intercepted_cop0(Pmu pmu, u32 w) {
  if ((w >> 26) != 0x10 || (w & 0x7F8u) != 0) return false;
  const u32 rs = (w >> 21) & 31, rd = (w >> 11) & 31, sel = w & 7;
  const bool mf = rs == 0, mt = rs == 4;
  if ((mf || mt) && (rd == 9 || rd == 11) && sel == 0) return true;
  if (pmu == Pmu::cm)
    return ((mf || mt) && (rd == 13 || rd == 14) && sel == 0) || (mf && (rd == 15 || rd == 16) && sel == 3) ||
           (mf && rd == 15 && sel == 1);  // EBase: pmusim's, CPUNum the core's (Unicorn numbers its CPU 1)
  return ((mf || mt) && (rd == 13 || rd == 14 || rd == 15 || rd == 22 || rd == 25)) || rs == 2 || rs == 6;
}

// A word's tag (Machine's enum): its event classes and what the decoder intercepts.
std::uint8_t tag_of(Pmu pmu, u32 w) {
  std::uint8_t k = mips4_class(w);  // branches for both cores: MIPS32 keeps MIPS IV's encodings
  if (w == kEret) k |= kEretOp;
  else if ((w & 0xFC00003Fu) == 0x7000003Fu) k |= kSdbbp;
  else if (intercepted_cop0(pmu, w)) k |= kCop0;
  return k;
}

// One core's engine: the CPU, the shared RAM, the board's devices, the decode and the hooks.
bool open_core(Machine& m, const ElfImage& image, Pmu pmu, void* ram, uc_hook* hooks) {
  m.pmu = pmu;
  if (!m.open(UC_ARCH_MIPS, static_cast<uc_mode>(UC_MODE_MIPS32 | UC_MODE_BIG_ENDIAN), "big-endian MIPS32"))
    return false;
  if (pmu == Pmu::cm) uc_ctl_set_cpu_model(m.uc, UC_CPU_MIPS32_P5600);
  m.map_ram(0, kRamSize, ram);
  if (!m.load(image, 0x1FFFFFFFu, 4)) return false;
  uc_mmio_map(m.uc, kUartPage, 0x1000, &Machine::uart_read, &m, &Machine::uart_write, &m);
  uc_mmio_map(m.uc, kBoardPage, 0x1000, &Machine::board_read, &m, &Machine::board_write, &m);
  if (pmu == Pmu::cm) {
    uc_mmio_map(m.uc, kGcrPhys, kGcrBytes, &Machine::gcr_read, &m, &Machine::gcr_write, &m);
    uc_mmio_map(m.uc, kCpcPhys, kCpcBytes, &Machine::cpc_read, &m, &Machine::cpc_write, &m);
  }
  m.each_code_segment(image, [&](u32 at, const Segment& s) {
    for (std::size_t i = 0; i + 3 < s.bytes.size(); i += 4) {
      const u32 w = u32{s.bytes[i]} << 24 | u32{s.bytes[i + 1]} << 16 | u32{s.bytes[i + 2]} << 8 | s.bytes[i + 3];
      if (const std::uint8_t k = tag_of(pmu, w)) m.code.set(static_cast<u32>(at + i), k);
    }
  });
  // The general exception vector's window (0x180 up to 0x200, where Cause.IV would vector): the
  // firmware copies handler images there at run time (examples/malta/board, install_vector), so
  // its words are decoded as they are written, through kseg0 or kseg1.
  m.code.add(kVectorPhys, kVectorBytes, 4);
  for (unsigned i = 0; i < 2; ++i) {
    const u64 seg = i == 0 ? 0x80000000u : 0xA0000000u;
    uc_hook_add(m.uc, &hooks[i], UC_HOOK_MEM_WRITE, reinterpret_cast<void*>(&Machine::on_vector_write), &m,
                seg + kVectorPhys, seg + kVectorPhys + kVectorBytes - 1);
  }
  m.model.set_ie(false);  // pmusim takes the level itself (Status.IE/EXL/ERL)
  uc_hook_add(m.uc, &hooks[2], UC_HOOK_CODE, reinterpret_cast<void*>(&Machine::on_code), &m, 1, 0);
  uc_hook_add(m.uc, &hooks[3], UC_HOOK_INTR, reinterpret_cast<void*>(&Machine::on_intr), &m, 1, 0);
  m.flush();
  return true;
}

Result run_mips(const ElfImage& image, const Options& options, Pmu pmu) {
  Result result, result1;
  Console console(options);
  // RAM both cores' engines map (CM machine): 32 MiB, page-aligned, zeroed as Unicorn's own. The
  // RM7000 machine has one core and Unicorn's own RAM.
  struct Ram {
    void* p = nullptr;
    ~Ram() { std::free(p); }
  } ram;
  if (pmu == Pmu::cm) {
    ram.p = std::aligned_alloc(4096, kRamSize);
    if (!ram.p) {
      result.error = "no host memory for the RAM";
      return result;
    }
    std::memset(ram.p, 0, kRamSize);
  }
  Machine m(console, options, result);
  uc_hook hooks[2][4];
  if (!open_core(m, image, pmu, ram.p, hooks[0])) return result;
  m.cluster->entry = static_cast<u32>(image.entry);
  m.cluster->cores[0] = &m;
  // The CPS's second CPU, in reset until the CPC starts it (Cluster, above).
  Machine m1(console, options, result1);
  if (pmu == Pmu::cm) {
    m1.cluster = m.cluster;
    m1.cm = m.cm;
    m1.core_id = 1;
    m1.runnable = false;
    if (!open_core(m1, image, pmu, ram.p, hooks[1])) {
      result.error = "core 1: " + result1.error;
      return result;
    }
    m.cluster->cores[1] = &m1;
    m.peer = &m1;
    m1.peer = &m;
  }
  m.run(image.entry, UC_MIPS_REG_PC);
  if (m.cluster->cores[1] && result1.instructions != 0)
    result.other_cores.push_back({result1.instructions, result1.interrupts, result1.timer_interrupts});
  return result;
}

}  // namespace

namespace {
void Machine::on_vector_write(uc_engine*, uc_mem_type, u64 address, int size, std::int64_t value, void* self) {
  auto& m = *static_cast<Machine*>(self);
  if (size != 4 || (address & 3) != 0) return;
  m.code.set(static_cast<u32>(address) & 0x1FFFFFFFu, tag_of(m.pmu, static_cast<u32>(value)));
  // The other core shares the memory: its decode and its translations of the word change too.
  if (auto* p = static_cast<Machine*>(m.peer)) {
    p->code.set(static_cast<u32>(address) & 0x1FFFFFFFu, tag_of(m.pmu, static_cast<u32>(value)));
    const u64 a = address & 0x1FFFFFFFu;
    uc_ctl_remove_cache(p->uc, 0x80000000u | a, (0x80000000u | a) + 4);
    uc_ctl_remove_cache(p->uc, 0xA0000000u | a, (0xA0000000u | a) + 4);
  }
}
}  // namespace

Result run_rm7000(const ElfImage& image, const Options& options) { return run_mips(image, options, Pmu::rm7000); }
Result run_mips_cm(const ElfImage& image, const Options& options) { return run_mips(image, options, Pmu::cm); }

}  // namespace pmusim
