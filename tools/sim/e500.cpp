// pmusim's PowerPC machine for e500 code: the mpc8544ds board of examples/e500/ (RAM at 0, CCSR at
// 0xE0000000 with DUART0 and the global utilities' RSTCR and SVR) on Unicorn's e500v2 CPU, with
// the e500 model (hal/e500/model.hpp) behind mfpmr/mtpmr and its interrupt through IVOR35.
//
// The instructions, decoded from the e500 Core Family Reference Manual (mfpmr/mtpmr, 3.3.2 and
// 7.3.1) and Book E (the rest), not from the project's buses, at every word of the executable
// segments. Primary opcode 31 with extended opcode (bits 21-30):
//   334 mfpmr rD,PMRN   462 mtpmr PMRN,rS   339 mfspr rD,SPRN   467 mtspr SPRN,rS   146 mtmsr
// PMRN and SPRN are split fields: instruction bits 16-20 hold the number's low five bits, bits
// 11-15 its high five. rfi is 0x4C000064.
// pmusim owns what Unicorn's PowerPC CPU does not expose: SRR0, SRR1 and ESR (mfspr/mtspr 26, 27,
// 62) and rfi, so that it can enter interrupts, and the time base and decrementer (below). IVPR (63) and IVOR6/IVOR35 (406, 531) run on Unicorn,
// and pmusim notes the value written. An access the model refuses (a PMR it does not have, a
// supervisor PMR from user mode) raises a program interrupt (IVOR6) with ESR[PIL] or ESR[PPR],
// SRR0 at the instruction, as on the CRM's e500 (5.7.7).
//
// Events, one stated cost model: every instruction is one cycle (event 1), one instruction
// completed (2) and fetched (4), and one micro-op decoded and completed (5, 3), two for a load or
// store with update (CRM Table 7-10). From the same decode: branch instructions completed and
// finished (8, 12; b, bc, bclr, bcctr), taken branches finished (13: the next instruction is not
// the next word), load and store micro-ops completed (9, 10; one per load or store instruction,
// lmw/stmw included). From the time base (below): event 90, each 0-to-1 transition of the TB bit
// PMGC0[TBSEL] selects while PMGC0[TBEE] is set (CRM 9.3.2, Table 7-3; the model's time_base()).
// Every other event stays at zero: no caches, TLBs, stalls or speculation.
// The processor context (MSR[PR], MSR[PMM]) is read at each batch; mtmsr and rfi end a batch.
// Unicorn's e500 MSR cannot hold PMM (it reads 0 whatever is written): rather than count a marked
// process as unmarked, pmusim stops the run where mtmsr or rfi would set it.
// Batches end before any counter reaches its next boundary (bit 31 setting, the rollover).
//
// The performance monitor interrupt (CRM 7.4, Book E): while a PMC has an enabled overflow
// condition and PMGC0[PMIE] is set it is taken at an instruction boundary once MSR[EE] is set:
// the model clears PMIE (Table 7-3), SRR0 = the next instruction, SRR1 = MSR, MSR[WE, EE, PR, FP,
// FE0, FE1, IS, DS, SPE] cleared (ME, CE, DE and PMM kept), PC = IVPR[0-15] || IVOR35[16-27] || 0b0000.
// The board's own stub, dispatcher, Sampler and handler run; its rfi returns through pmusim.
//
// The decrementer (tools/sim/timers.hpp, Decrementer; CRM 2.6.4, 2.6.5): DEC counts down at the
// time base's rate, stepping from 1 to 0 sets TSR[DIS] and, with TCR[ARE], reloads DECAR. While
// TSR[DIS] and TCR[DIE] are set the decrementer interrupt is taken like the PMU's once MSR[EE] is
// set (SRR0 = the next instruction, SRR1 = MSR), at IVPR || IVOR10.
#include <string>

#include <unicorn/unicorn.h>

#include "hal/core/location.hpp"
#include "hal/e500/model.hpp"
#include "tools/sim/machine.hpp"
#include "tools/sim/timers.hpp"

namespace pmusim {
namespace {

namespace e5 = pmu::e500;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kRamSize = 64u << 20;
constexpr u64 kCcsr = 0xE0000000u, kCcsrBytes = 1u << 20;
constexpr u32 kDuart0 = 0x4500;            // 16550 registers, byte-wide: THR +0, LCR +3, LSR +5
constexpr u32 kGutsSvr = 0xE00A4;          // MPC8544E RM, global utilities: system version
constexpr u32 kGutsRstcr = 0xE00B0, kHresetReq = 0x2;
constexpr u32 kSvrPmusim = 0x504D5553u;    // "PMUS": the SVR of pmusim's board
constexpr u32 kRfi = 0x4C000064u;
constexpr const char* kNoPmm =
    "the firmware sets MSR[PMM] (the process mark), which pmusim cannot model: Unicorn's MSR drops it";
// MSR bits (Book E, 32-bit numbering as values).
constexpr u32 MSR_SPE = 1u << 25, MSR_WE = 1u << 18, MSR_EE = 1u << 15, MSR_PR = 1u << 14,
              MSR_FP = 1u << 13, MSR_FE0 = 1u << 11, MSR_FE1 = 1u << 8, MSR_IS = 1u << 5,
              MSR_DS = 1u << 4, MSR_PMM = 1u << 2;
constexpr u32 kMsrClearedOnInterrupt = MSR_SPE | MSR_WE | MSR_EE | MSR_PR | MSR_FP | MSR_FE0 | MSR_FE1 | MSR_IS | MSR_DS;
constexpr u32 ESR_PIL = 1u << 27, ESR_PPR = 1u << 26;  // illegal, privileged (CRM 5.7.7)
constexpr u32 SPR_SRR0 = 26, SPR_SRR1 = 27, SPR_ESR = 62, SPR_IVPR = 63, SPR_IVOR6 = 406, SPR_IVOR10 = 410,
              SPR_IVOR35 = 531;
// The time base and decrementer (Book E): Unicorn 2.0.1's e500 has no timer state and crashes on
// them, so pmusim owns them. Reads 268/269 (TBL/TBU, also through mftb), writes 284/285.
constexpr u32 SPR_TBL_R = 268, SPR_TBU_R = 269, SPR_TBL_W = 284, SPR_TBU_W = 285;
constexpr u32 SPR_DEC = 22, SPR_DECAR = 54, SPR_TSR = 336, SPR_TCR = 340;
constexpr u32 TSR_DIS = 1u << (63 - 36), TCR_DIE = 1u << (63 - 37), TCR_ARE = 1u << (63 - 41);  // CRM 2.6.1, 2.6.2
constexpr timers::Rate kTimeBase{2, 5};  // 400 MHz: QEMU's mpc8544ds time base under -icount shift=0

bool owned_spr(u32 n) {
  return n == SPR_SRR0 || n == SPR_SRR1 || n == SPR_ESR || n == SPR_TBL_R || n == SPR_TBU_R || n == SPR_TBL_W ||
         n == SPR_TBU_W || n == SPR_DEC || n == SPR_DECAR || n == SPR_TSR || n == SPR_TCR;
}

// What the decoder found at a word.
enum : std::uint8_t {
  kPmr = 1, kSprOwned, kSprNoted, kRfiOp, kMtmsr,       // intercepted or noted
  kBranch = 0x10, kLoad = 0x20, kStore = 0x40, kUpdate = 0x80,  // event flags
};

u32 split_field(u32 w) { return ((w >> 16) & 0x1F) | (((w >> 11) & 0x1F) << 5); }

std::uint8_t classify(u32 w) {
  const u32 op = w >> 26, xo = (w >> 1) & 0x3FF;
  if (w == kRfi) return kRfiOp;
  switch (op) {
    case 16: case 18: return kBranch;                          // bc, b
    case 19: return (xo == 16 || xo == 528) ? kBranch : 0;     // bclr, bcctr
    case 32: case 34: case 40: case 42: case 46: return kLoad;   // lwz lbz lhz lha lmw
    case 33: case 35: case 41: case 43: return kLoad | kUpdate;  // lwzu lbzu lhzu lhau
    case 36: case 38: case 44: case 47: return kStore;           // stw stb sth stmw
    case 37: case 39: case 45: return kStore | kUpdate;          // stwu stbu sthu
    case 31: break;
    default: return 0;
  }
  switch (xo) {
    case 334: case 462: return kPmr;
    case 371: return kSprOwned;  // mftb
    case 339: case 467: {
      const u32 spr = split_field(w);
      if (owned_spr(spr)) return kSprOwned;
      return (xo == 467 && (spr == SPR_IVPR || spr == SPR_IVOR6 || spr == SPR_IVOR10 || spr == SPR_IVOR35)) ? kSprNoted
                                                                                                           : 0;
    }
    case 146: return kMtmsr;
    case 23: case 87: case 279: case 343: case 20: case 534: case 790: return kLoad;  // lwzx lbzx lhzx lhax lwarx lwbrx lhbrx
    case 55: case 119: case 311: case 375: return kLoad | kUpdate;                     // lwzux lbzux lhzux lhaux
    case 151: case 215: case 407: case 150: case 662: case 918: return kStore;          // stwx stbx sthx stwcx. stwbrx sthbrx
    case 183: case 247: case 439: return kStore | kUpdate;                              // stwux stbux sthux
    default: return 0;
  }
}

struct Machine : Cpu {
  e5::Model model;
  u32 srr0 = 0, srr1 = 0, esr = 0, ivpr = 0, ivor6 = 0, ivor10 = 0, ivor35 = 0;
  u32 decar = 0, tsr = 0, tcr = 0;  // TSR's bits but DIS (the decrementer's)
  u64 tb_base = 0;  // the time base = tb_base + 2 ticks per 5 instructions
  timers::Decrementer decrementer{kTimeBase};
  u64 dec_due = timers::kNever;  // the instruction count of DEC's next step from 1 to 0
  u64 tb_seen = 0;  // the time base the model has seen (event 90)
  bool pmi_wanted = false;  // a condition with PMIE: check MSR[EE] each instruction
  bool dec_wanted = false;  // TSR[DIS] with TCR[DIE]: check MSR[EE] each instruction
  bool lcr_dlab = false;
  std::string line;         // the console's current line: the board prints "EXIT <code>" last
  int exit_line = -1;
  u64 pending = 0, uops = 0, branches = 0, taken = 0, loads = 0, stores = 0, horizon = 1;
  u32 last_pc = 0;
  bool last_branch = false;

  using Cpu::Cpu;

  u32 gpr(u32 n) { return reg(UC_PPC_REG_0 + static_cast<int>(n)); }
  void set_gpr(u32 n, u32 v) { set(UC_PPC_REG_0 + static_cast<int>(n), v); }
  u32 word(u32 a) {
    std::uint8_t b[4] = {};
    uc_mem_read(uc, a, b, 4);
    return u32{b[0]} << 24 | u32{b[1]} << 16 | u32{b[2]} << 8 | b[3];
  }

  void flush() {
    if (pending) {
      const u32 msr = reg(UC_PPC_REG_MSR);
      model.set_context({(msr & MSR_PR) != 0, (msr & MSR_PMM) != 0});
      model.event(1, pending);  // CYCLES
      model.event(2, pending);  // INSTR_COMPLETED
      model.event(4, pending);  // INSTR_FETCHED
      model.event(3, uops);     // UOPS_COMPLETED
      model.event(5, uops);     // UOPS_DECODED
      if (branches) {
        model.event(8, branches);  // BRANCH_INSTR_COMPLETED
        model.event(12, branches); // BRANCHES_FINISHED
      }
      if (taken) model.event(13, taken);
      if (loads) model.event(9, loads);
      if (stores) model.event(10, stores);
      pending = uops = branches = taken = loads = stores = 0;
      const u64 tb = timebase();
      model.time_base(tb_seen, tb);  // TBL_BIT_TRANSITIONS (90)
      tb_seen = tb;
    }
    // Up to two micro-ops per instruction: half the distance to the nearest boundary.
    u64 h = 1ull << 32;
    for (unsigned n = 0; n < e5::kCounters; ++n) {
      const u64 v = model.pmc(n);
      const u64 to = v < 0x80000000u ? 0x80000000u - v : 0x100000000ull - v;
      if (to < h) h = to;
    }
    horizon = h / 2 ? h / 2 : 1;
    pmi_wanted = (model.pmgc0() & 0x40000000u) && model.conditions();  // PMIE and a condition
  }

  // A Book E non-critical interrupt: SRR0 = `at`, SRR1 = MSR, the MSR bits cleared.
  void enter(u32 at, u32 ivor) {
    const u32 msr = reg(UC_PPC_REG_MSR);
    srr0 = at;
    srr1 = msr;
    set(UC_PPC_REG_MSR, msr & ~kMsrClearedOnInterrupt);
    set(UC_PPC_REG_PC, (ivpr & 0xFFFF0000u) | (ivor & 0xFFF0u));
  }
  void program(u32 pc, u32 why) {
    esr = why;
    enter(pc, ivor6);
  }

  void pmr(u32 pc, u32 w) {
    const bool user = (reg(UC_PPC_REG_MSR) & MSR_PR) != 0;
    model.set_user_access(user);
    const u32 key = pmu::detail::make_key(pmu::BusKind::pmr, split_field(w)), r = (w >> 21) & 31;
    bool ok;
    if (((w >> 1) & 0x3FF) == 334) {
      u64 v = 0;
      ok = model_read(model, key, v);
      if (ok) set_gpr(r, static_cast<u32>(v));
    } else {
      ok = model_write(model, key, gpr(r));
    }
    if (ok) set(UC_PPC_REG_PC, pc + 4);
    else program(pc, user ? ESR_PPR : ESR_PIL);
  }

  // The time base ticks 2 per 5 instructions: QEMU's mpc8544ds rate (400 MHz) under -icount
  // shift=0, so the board's figures hold here too. The decrementer counts at the same rate.
  u64 timebase() const { return tb_base + kTimeBase.ticks(result.instructions); }
  void dec_update() {
    const u64 now = result.instructions;
    dec_wanted = decrementer.dis(now) && (tcr & TCR_DIE);
    dec_due = decrementer.due();
  }
  void spr(u32 pc, u32 w) {
    const u32 n = split_field(w), r = (w >> 21) & 31, xo = (w >> 1) & 0x3FF;
    if (xo == 339 || xo == 371) {  // mfspr, mftb
      const u64 tb = timebase();
      u32 v = 0;
      switch (n) {
        case SPR_SRR0: v = srr0; break;
        case SPR_SRR1: v = srr1; break;
        case SPR_ESR: v = esr; break;
        case SPR_TBL_R: v = static_cast<u32>(tb); break;
        case SPR_TBU_R: v = static_cast<u32>(tb >> 32); break;
        case SPR_DEC: v = decrementer.dec(result.instructions); break;
        case SPR_DECAR: v = decar; break;
        case SPR_TSR: v = tsr | (decrementer.dis(result.instructions) ? TSR_DIS : 0); break;
        case SPR_TCR: v = tcr; break;
        default: break;  // TBL/TBU's write numbers read nothing
      }
      set_gpr(r, v);
    } else {
      const u32 v = gpr(r);
      const bool tb_write = n == SPR_TBL_W || n == SPR_TBU_W;
      if (tb_write) flush();  // event 90 up to the write, from the old time base
      const u64 tb = timebase();
      switch (n) {
        case SPR_SRR0: srr0 = v; break;
        case SPR_SRR1: srr1 = v; break;
        case SPR_ESR: esr = v; break;
        case SPR_TBL_W: tb_base += (v - static_cast<u32>(tb)); break;
        case SPR_TBU_W: tb_base += (u64{v} << 32) - (tb & 0xFFFFFFFF00000000ull); break;
        case SPR_DEC: decrementer.set_dec(v, result.instructions); break;
        case SPR_DECAR: decrementer.set_decar(decar = v, result.instructions); break;
        case SPR_TSR:  // write 1 to clear
          tsr &= ~(v | TSR_DIS);
          if (v & TSR_DIS) decrementer.clear_dis(result.instructions);
          break;
        case SPR_TCR:
          tcr = v;
          decrementer.set_auto_reload((v & TCR_ARE) != 0, result.instructions);
          break;
        default: break;
      }
      dec_update();
      if (tb_write) tb_seen = timebase();  // a write moves the time base: no transition counted
    }
    set(UC_PPC_REG_PC, pc + 4);
  }

  void note_spr(u32 w) {
    const u32 n = split_field(w), v = gpr((w >> 21) & 31);
    if (n == SPR_IVPR) ivpr = v;
    else if (n == SPR_IVOR6) ivor6 = v;
    else if (n == SPR_IVOR10) ivor10 = v;
    else ivor35 = v;
  }

  static void on_code(uc_engine*, u64 address, u32, void* self) {
    auto& m = *static_cast<Machine*>(self);
    const u32 pc = static_cast<u32>(address);
    if (m.pmi_wanted && (m.reg(UC_PPC_REG_MSR) & MSR_EE)) {
      m.flush();
      m.model.set_ee(true);  // the model takes it: PMIE cleared (Table 7-3)
      m.model.set_ee(false);
      ++m.result.interrupts;
      m.enter(pc, m.ivor35);
      m.last_branch = false;
      m.flush();
      return;  // this instruction runs after the handler's rfi
    }
    if (m.result.instructions >= m.dec_due) m.dec_update();
    if (m.dec_wanted && (m.reg(UC_PPC_REG_MSR) & MSR_EE)) {
      ++m.result.timer_interrupts;
      m.enter(pc, m.ivor10);
      m.last_branch = false;
      return;  // a level: taken again after rfi unless the handler clears TSR[DIS] or TCR[DIE]
    }
    if (!m.step(pc)) return;
    const std::uint8_t tag = m.code.tag(pc);
    if (m.opt.pmu) {
      if (m.last_branch && pc != m.last_pc + 4) ++m.taken;
      ++m.pending;
      m.uops += (tag & kUpdate) ? 2 : 1;
      if (tag & kBranch) ++m.branches;
      if (tag & kLoad) ++m.loads;
      if (tag & kStore) ++m.stores;
      if (m.pending >= m.horizon) m.flush();
    }
    m.last_pc = pc;
    m.last_branch = (tag & kBranch) != 0;
    switch (tag & 0x0F) {
      case 0: return;
      case kSprNoted: m.note_spr(m.word(pc)); return;  // Unicorn runs it
      case kSprOwned: m.spr(pc, m.word(pc)); return;
      case kMtmsr:  // the events before it count in the old context
        m.flush();
        if (m.gpr((m.word(pc) >> 21) & 31) & MSR_PMM) m.stop(kNoPmm);
        return;
      case kPmr:
        m.flush();  // the access sees every event before it
        m.pmr(pc, m.word(pc));
        m.flush();  // a write may have moved a counter or raised a condition
        return;
      case kRfiOp:
        m.flush();
        if (m.srr1 & MSR_PMM) m.stop(kNoPmm);
        // Unicorn runs e500 code in real mode and aborts the host process when MSR[IS] or MSR[DS]
        // is set: translation is off here, so they are dropped.
        m.set(UC_PPC_REG_MSR, m.srr1 & ~(MSR_IS | MSR_DS));
        m.set(UC_PPC_REG_PC, m.srr0);
        m.last_branch = false;
        m.flush();  // MSR[EE] may be set again: a pending interrupt is taken next
        return;
    }
  }

  static bool on_intr(uc_engine*, u32 intno, void* self) {
    auto& m = *static_cast<Machine*>(self);
    char b[112];
    std::snprintf(b, sizeof b, "PowerPC exception %u at 0x%08x (pmusim enters the PMU and program interrupts only)",
                  intno, m.last_pc);  // Unicorn's PC is already past the instruction
    m.stop(b);
    return true;
  }

  static u64 ccsr_read(uc_engine*, u64 offset, unsigned, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (offset == kDuart0 + 5) return 0x60;  // LSR: THRE, TEMT
    if (offset == kDuart0 + 3) return m.lcr_dlab ? 0x83 : 0x03;
    if (offset == kGutsSvr) return kSvrPmusim;
    return 0;
  }
  static void ccsr_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (offset == kDuart0 + 3) m.lcr_dlab = (value & 0x80) != 0;
    if (offset == kDuart0 && !m.lcr_dlab) m.put(static_cast<char>(value));
    if (offset == kGutsRstcr && (value & kHresetReq)) {
      // The board has no exit register: like QEMU under -no-reboot, a reset request ends the run.
      // Its last line, "EXIT <code>", carries the status (examples/e500/board: board::exit).
      m.result.exit_code = m.exit_line >= 0 ? m.exit_line : 0;
      uc_emu_stop(m.uc);
    }
  }
  void put(char c) {
    console.put(c);
    if (c != '\n') {
      if (line.size() < 32) line += c;
      return;
    }
    int code = 0;
    if (line.rfind("EXIT ", 0) == 0 && std::sscanf(line.c_str() + 5, "%d", &code) == 1) exit_line = code & 0xFF;
    line.clear();
  }
};

}  // namespace

Result run_e500(const ElfImage& image, const Options& options) {
  Result result;
  Console console(options);
  Machine m(console, options, result);
  if (!m.open(UC_ARCH_PPC, static_cast<uc_mode>(UC_MODE_PPC32 | UC_MODE_BIG_ENDIAN), "big-endian PowerPC32")) return result;
  uc_ctl_set_cpu_model(m.uc, UC_CPU_PPC32_E500V2_V30);
  m.map_ram(0, kRamSize);
  if (!m.load(image, ~0u, 4)) return result;
  uc_mmio_map(m.uc, kCcsr, kCcsrBytes, &Machine::ccsr_read, &m, &Machine::ccsr_write, &m);
  m.each_code_segment(image, [&](u32 at, const Segment& s) {
    for (std::size_t i = 0; i + 3 < s.bytes.size(); i += 4) {
      const u32 w = u32{s.bytes[i]} << 24 | u32{s.bytes[i + 1]} << 16 | u32{s.bytes[i + 2]} << 8 | s.bytes[i + 3];
      if (const std::uint8_t t = classify(w)) m.code.set(static_cast<u32>(at + i), t);
    }
  });
  m.model.set_ee(false);  // pmusim takes the interrupt itself, at MSR[EE]
  uc_hook code, intr;
  uc_hook_add(m.uc, &code, UC_HOOK_CODE, reinterpret_cast<void*>(&Machine::on_code), &m, 1, 0);
  uc_hook_add(m.uc, &intr, UC_HOOK_INTR, reinterpret_cast<void*>(&Machine::on_intr), &m, 1, 0);
  m.set(UC_PPC_REG_1, static_cast<u32>(kRamSize - 16));
  m.flush();
  m.run(image.entry, UC_PPC_REG_PC);
  return result;
}

}  // namespace pmusim
