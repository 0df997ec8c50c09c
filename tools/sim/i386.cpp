// pmusim's i386 machine: the PC board of examples/pc/ (COM1, isa-debug-exit, a local APIC page) on
// Unicorn's x86 CPU in 32-bit protected mode, with the NetBurst model (hal/netburst/model.hpp)
// behind rdmsr, wrmsr and rdpmc, and its PMI delivered through the IDT.
//
// The PMU instructions, decoded from the Intel SDM Vol. 2B (not from the project's buses):
//   0F 32 rdmsr   EDX:EAX <- MSR[ECX]          0F 30 wrmsr   MSR[ECX] <- EDX:EAX
//   0F 33 rdpmc   EDX:EAX <- counter ECX        0F A2 cpuid   leaf EAX (the machine's identity)
// Every place in the executable segments where these bytes occur is a candidate; the per-
// instruction hook acts only where an instruction really starts there. An access the model
// refuses (a reserved bit, an MSR it does not have) raises #GP (vector 13, error code 0) at the
// instruction, as on silicon.
//
// Event sources, one stated cost model: every instruction is one clock. Each instruction is one
// global_power_events:RUNNING clock as it starts, and one non-bogus instr_retired when it retires
// (when the next instruction starts; a faulting one never retires): NBOGUSTAG where front-end
// tagging tags one of its load or store uops, else NBOGUSNTAG (the model decides, from its
// uop_type ESCRs).
// Near branches, decoded from the SDM Vol. 2 opcode map the first time each address executes (Jcc,
// LOOP/JECXZ, JMP, CALL, RET, and FF /2, /4 for the indirect forms), retire as branch_retired MMTP
// (taken) or MMNP (not taken: execution continues at the next instruction; a Jcc to the next
// instruction counts as not taken) and as retired_branch_type CONDITIONAL, CALL, RETURN and
// INDIRECT (returns and indirect calls and jumps, as the SDM defines the bit). Every data memory
// access the CPU makes (Unicorn's memory hooks: string instructions, PUSH/POP and CALL/RET
// included; not the stack frame of pmusim's own interrupt entry) is one load or store uop, given
// to the model as uop_type TAGLOADS or TAGSTORES: uop_type counts nothing, and a uop its ESCR tags
// retires as front_end_event NBOGUS (SDM 18.15.6.2). No prediction, cache, replay or bogus uops:
// those events stay at zero.
//
// Interrupts: the model's PMI (LVT unmasked, OVF with OVF_PMI) is held until EFLAGS.IF is set,
// then entered like hardware enters a 32-bit interrupt gate at CPL 0 (SDM Vol. 3A 6.12.1): EFLAGS,
// CS and EIP pushed, IF and TF cleared, EIP from the IDT gate of the LVT's vector.
//
// Timers (tools/sim/timers.hpp, PcTimers): rdtsc (0F 31) and IA32_TIME_STAMP_COUNTER read the
// instruction clock; the 8254's channel 0 interrupts on IRQ 0 through the master 8259A, entered
// like the PMI (after it) at the vector the 8259A gives.
#include <string>
#include <vector>

#include <unicorn/unicorn.h>

#include "hal/core/location.hpp"
#include "hal/netburst/events.hpp"
#include "hal/netburst/model.hpp"
#include "tools/sim/machine.hpp"
#include "tools/sim/timers.hpp"

namespace pmusim {
namespace {

namespace nb = pmu::netburst;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kRamSize = 32u << 20;
constexpr u64 kApicBase = 0xFEE00000u;
constexpr u32 kApicLvtPerf = 0x340;  // EOI (0xB0) and the spurious-vector register: nothing to model
constexpr std::uint16_t kCom1 = 0x3f8, kDebugExit = 0xf4;
// CPUID leaf 0x40000000: the hypervisor signature by which firmware can tell it runs here.
constexpr char kSignature[13] = "pmukitpmusim";

constexpr u32 key(pmu::BusKind k, u32 enc) { return pmu::detail::make_key(k, enc); }  // the models' keys

// A code byte's tag: kPmu where 0F 30/31/32/33/A2 start, kHlt where F4 (hlt) is, and once the
// instruction starting there has executed, kSeen with its branch kind in the bits of kKindMask.
enum : std::uint8_t { kPmu = 1, kKindShift = 1, kKindMask = 7u << kKindShift, kHlt = 0x10, kSeen = 0x80 };
enum : std::uint8_t { kNotBranch, kCond, kJmp, kJmpIndirect, kCall, kCallIndirect, kRet, kKinds };

// The near-branch kind of the instruction in `b` (SDM Vol. 2, Appendix A opcode map), after its
// prefixes. Far transfers, INT and IRET are not counted as branches.
std::uint8_t branch_kind_of(const std::uint8_t* b, unsigned size) {
  unsigned i = 0;
  while (i < size && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xF0 || b[i] == 0xF2 || b[i] == 0xF3 ||
                      b[i] == 0x26 || b[i] == 0x2E || b[i] == 0x36 || b[i] == 0x3E || b[i] == 0x64 || b[i] == 0x65))
    ++i;
  if (i >= size) return kNotBranch;
  const std::uint8_t op = b[i];
  if ((op >= 0x70 && op <= 0x7F) || (op >= 0xE0 && op <= 0xE3)) return kCond;  // Jcc rel8, LOOPcc, JECXZ
  if (op == 0x0F && i + 1 < size && b[i + 1] >= 0x80 && b[i + 1] <= 0x8F) return kCond;  // Jcc rel32
  if (op == 0xE8) return kCall;
  if (op == 0xE9 || op == 0xEB) return kJmp;
  if (op == 0xC2 || op == 0xC3) return kRet;
  if (op == 0xFF && i + 1 < size) {
    const unsigned reg = (b[i + 1] >> 3) & 7;
    if (reg == 2) return kCallIndirect;
    if (reg == 4) return kJmpIndirect;
  }
  return kNotBranch;
}

struct Machine : Cpu {
  nb::Model model;
  bool pmi_pending = false;
  timers::PcTimers timers;  // TSC, PIT channel 0, the 8259As
  // Clocks not yet given to the model, and how many events of a kind may wait: the model's
  // quiet_events(), fewer than any counter needs to wrap or to raise a due PMI, so a batch never
  // hides an overflow and the PMI lands on the same instruction as if the model had seen every
  // event one by one.
  u64 pending = 0, horizon = 1;
  std::size_t cycles_row = nb::event_row("global_power_events");
  std::size_t branch_row = nb::event_row("branch_retired");
  std::size_t type_row = nb::event_row("retired_branch_type");
  std::size_t uop_row = nb::event_row("uop_type");
  // Events of the batch: retired instructions by the uop types they had (uop_type's mask bits:
  // TAGLOADS 1 << 1, TAGSTORES 1 << 2), memory accesses, branches taken and not, branches by kind.
  static constexpr std::uint16_t kLoad = 1u << 1, kStore = 1u << 2;
  u64 retired[8] = {}, retired_total = 0;
  u64 loads = 0, stores = 0, taken = 0, not_taken = 0, kinds[kKinds] = {};
  bool started = false;        // an instruction started and has not retired yet
  std::uint16_t uop_types = 0;  // the load and store uops it has made so far
  u32 branch_next = 0;  // the last instruction, if a branch: where it falls through
  std::uint8_t branch_kind = kNotBranch;

  using Cpu::Cpu;

  void push(u32 v) {
    const u32 sp = reg(UC_X86_REG_ESP) - 4;
    uc_mem_write(uc, sp, &v, 4);
    set(UC_X86_REG_ESP, sp);
  }

  // Enters the IDT gate of `vector` with EIP `ret` saved (and an error code where `with_error`).
  void enter(unsigned vector, u32 ret, bool with_error) {
    uc_x86_mmr idtr{};
    uc_reg_read(uc, UC_X86_REG_IDTR, &idtr);
    std::uint8_t gate[8];
    if (vector * 8 + 7 > idtr.limit || uc_mem_read(uc, idtr.base + vector * 8, gate, 8) != UC_ERR_OK ||
        !(gate[5] & 0x80)) {
      stop("interrupt vector " + std::to_string(vector) + " has no present IDT gate");
      return;
    }
    const u32 eflags = reg(UC_X86_REG_EFLAGS);
    push(eflags);
    push(reg(UC_X86_REG_CS));
    push(ret);
    if (with_error) push(0);
    set(UC_X86_REG_EFLAGS, eflags & ~((1u << 9) | (1u << 8)));  // IF, TF
    set(UC_X86_REG_EIP, u32{gate[0]} | u32{gate[1]} << 8 | u32{gate[6]} << 16 | u32{gate[7]} << 24);
  }

  void flush() {
    if (pending) {
      model.event(cycles_row, 1u << 0, pending);  // RUNNING
      pending = 0;
    }
    for (std::uint16_t t = 0; t < 8; ++t)
      if (retired[t]) model.instructions_retired(retired[t], t);  // NBOGUSTAG or NBOGUSNTAG
    for (u64& r : retired) r = 0;
    retired_total = 0;
    if (loads) model.event(uop_row, 1u << 1, loads);      // TAGLOADS
    if (stores) model.event(uop_row, 1u << 2, stores);    // TAGSTORES
    if (taken) model.event(branch_row, 1u << 2, taken);   // MMTP
    if (not_taken) model.event(branch_row, 1u << 0, not_taken);  // MMNP
    constexpr std::uint16_t kCondBit = 1u << 1, kCallBit = 1u << 2, kRetBit = 1u << 3, kIndirectBit = 1u << 4;
    constexpr std::uint16_t kTypeMask[kKinds] = {0, kCondBit, 0, kIndirectBit, kCallBit, kCallBit | kIndirectBit,
                                                 kRetBit | kIndirectBit};
    for (unsigned k = kCond; k < kKinds; ++k)
      if (kinds[k] && kTypeMask[k]) model.event(type_row, kTypeMask[k], kinds[k]);
    loads = stores = taken = not_taken = 0;
    for (u64& k : kinds) k = 0;
    horizon = model.quiet_events();
  }
  // The instruction that started last retires (the next one starts, or an interrupt is entered
  // after it), with the uop types it made.
  void retire() {
    if (!started) return;
    started = false;
    ++retired[uop_types];
    uop_types = 0;
    if (++retired_total >= horizon) flush();
  }

  void cpuid() {
    const u32 leaf = reg(UC_X86_REG_EAX);
    u32 a = 0, b = 0, c = 0, d = 0;
    auto text = [](const char* s) { return u32(s[0]) | u32(s[1]) << 8 | u32(s[2]) << 16 | u32(s[3]) << 24; };
    if (leaf == 0) {
      a = 1;
      b = text("Genu"), d = text("ineI"), c = text("ntel");
    } else if (leaf == 1) {
      u64 v = 0;
      model.read(pmu::Cpuid<1, 0>::key, v);  // family 0Fh and the model's model number
      a = static_cast<u32>(v);
      c = 1u << 31;                                     // a hypervisor: leaf 0x40000000 names it
      d = (1u << 4) | (1u << 5) | (1u << 9);           // TSC, MSR, APIC
    } else if (leaf == 0x40000000u) {
      a = 0x40000000u;
      b = text(kSignature), c = text(kSignature + 4), d = text(kSignature + 8);
    }
    set(UC_X86_REG_EAX, a);
    set(UC_X86_REG_EBX, b);
    set(UC_X86_REG_ECX, c);
    set(UC_X86_REG_EDX, d);
  }

  // One PMU or CPUID instruction at `pc` (0F xx); false: it faulted (#GP entered).
  void emulate(u32 pc, std::uint8_t op) {
    const u32 ecx = reg(UC_X86_REG_ECX);
    u64 v = 0;
    bool ok = true;
    switch (op) {
      case 0x31:  // rdtsc
        v = timers.tsc(result.instructions);
        break;
      case 0x32:  // rdmsr
        if (ecx == 0x10) v = timers.tsc(result.instructions);   // IA32_TIME_STAMP_COUNTER
        else if (ecx == 0x1B) v = kApicBase | (1u << 11) | (1u << 8);  // IA32_APIC_BASE: enabled, BSP
        else ok = opt.pmu ? model_read(model, key(pmu::BusKind::msr, ecx), v) : true;  // unknown MSR: #GP
        break;
      case 0x30:  // wrmsr
        v = u64{reg(UC_X86_REG_EDX)} << 32 | reg(UC_X86_REG_EAX);
        if (ecx == 0x10) timers.set_tsc(v, result.instructions);
        else if (ecx != 0x1B) ok = opt.pmu ? model_write(model, key(pmu::BusKind::msr, ecx), v) : true;
        break;
      case 0x33:  // rdpmc
        ok = opt.pmu && model_read(model, key(pmu::BusKind::pmc, ecx), v);
        break;
      case 0xA2:
        cpuid();
        set(UC_X86_REG_EIP, pc + 2);
        return;
    }
    if (!ok) {
      started = false;  // a faulting instruction does not retire
      enter(op == 0x33 && !opt.pmu ? 6 : 13, pc, op != 0x33 || opt.pmu);
      return;
    }
    if (op != 0x30) {
      set(UC_X86_REG_EAX, static_cast<u32>(v));
      set(UC_X86_REG_EDX, static_cast<u32>(v >> 32));
    }
    set(UC_X86_REG_EIP, pc + 2);
  }

  // The branch kind of the instruction at pc (`size` bytes), decoded once per address.
  std::uint8_t kind_at(u32 pc, unsigned size, std::uint8_t& tag) {
    if (!(tag & kSeen)) {
      std::uint8_t b[16] = {};
      uc_mem_read(uc, pc, b, size < 16 ? size : 16);
      tag = static_cast<std::uint8_t>(tag | kSeen | branch_kind_of(b, size) << kKindShift);
      code.set(pc, tag);
    }
    return (tag & kKindMask) >> kKindShift;
  }

  static void on_code(uc_engine*, u64 address, u32 size, void* self) {
    auto& m = *static_cast<Machine*>(self);
    const u32 pc = static_cast<u32>(address);
    if (m.branch_kind != kNotBranch) {  // the branch before this instruction retired: taken or not
      ++m.kinds[m.branch_kind];
      if (pc == m.branch_next && m.branch_kind == kCond) ++m.not_taken;
      else ++m.taken;
      m.branch_kind = kNotBranch;
    }
    if (m.opt.pmu) m.retire();  // that instruction, in the same batch as its branch events
    if (m.pmi_pending && (m.reg(UC_X86_REG_EFLAGS) & (1u << 9))) {
      m.pmi_pending = false;
      ++m.result.interrupts;
      m.enter(static_cast<unsigned>(m.model.lvt() & 0xFFu), pc, false);
      return;  // this instruction runs after the handler's iret
    }
    if (m.result.instructions >= m.timers.due()) m.timers.update(m.result.instructions);
    if (m.timers.requesting() && (m.reg(UC_X86_REG_EFLAGS) & (1u << 9))) {
      ++m.result.timer_interrupts;
      m.enter(m.timers.acknowledge(), pc, false);
      return;
    }
    if (!m.step(pc)) return;
    std::uint8_t tag = m.code.tag(pc);
    if ((tag & kHlt) && !(m.reg(UC_X86_REG_EFLAGS) & (1u << 9))) {
      char b[96];
      std::snprintf(b, sizeof b, "hlt with interrupts disabled at 0x%08x: the CPU would wait forever", pc);
      m.stop(b);
      return;
    }
    if (m.opt.pmu) {
      if ((m.branch_kind = m.kind_at(pc, size, tag)) != kNotBranch) m.branch_next = pc + size;
      m.started = true;
      if (++m.pending >= m.horizon) m.flush();
    }
    if (tag & kPmu) {  // PMU/CPUID bytes start here
      m.flush();  // the access sees every clock before it
      std::uint8_t b[2];
      uc_mem_read(m.uc, pc, b, 2);
      m.emulate(pc, b[1]);
      m.flush();  // a write may have moved a counter closer to its wrap
    }
  }

  // A data access by the instruction executing: one load or store uop.
  static void on_memory(uc_engine*, uc_mem_type type, u64, int, std::int64_t, void* self) {
    auto& m = *static_cast<Machine*>(self);
    const bool store = type == UC_MEM_WRITE;
    ++(store ? m.stores : m.loads);
    m.uop_types = static_cast<std::uint16_t>(m.uop_types | (store ? kStore : kLoad));
    if (m.loads + m.stores >= m.horizon) m.flush();
  }

  static void on_pmi(void* self) { static_cast<Machine*>(self)->pmi_pending = true; }

  static void on_out(uc_engine*, u32 port, int, u32 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (timers::PcTimers::owns(port)) m.timers.out(port, static_cast<std::uint8_t>(value), m.result.instructions);
    if (port == kCom1) m.console.put(static_cast<char>(value));
    if (port == kDebugExit) {
      m.result.exit_code = static_cast<int>(value & 0xFF);
      uc_emu_stop(m.uc);
    }
  }
  static u32 on_in(uc_engine*, u32 port, int, void* self) {
    auto& m = *static_cast<Machine*>(self);
    if (timers::PcTimers::owns(port)) return m.timers.in(port, m.result.instructions);
    if (port == kCom1 + 5) return 0x60;  // LSR: transmitter empty
    return 0;
  }
  static u64 apic_read(uc_engine*, u64 offset, unsigned, void* self) {
    auto& m = *static_cast<Machine*>(self);
    m.flush();
    u64 v = 0;
    if (offset == kApicLvtPerf) m.model.read(key(pmu::BusKind::mmio, kApicLvtPerf), v);
    return v;
  }
  static void apic_write(uc_engine*, u64 offset, unsigned, u64 value, void* self) {
    auto& m = *static_cast<Machine*>(self);
    m.flush();
    if (offset == kApicLvtPerf) m.model.write(key(pmu::BusKind::mmio, kApicLvtPerf), value);
  }
};

}  // namespace

Result run_i386(const ElfImage& image, const Options& options) {
  Result result;
  Console console(options);
  Machine m(console, options, result);
  if (!m.open(UC_ARCH_X86, UC_MODE_32, "i386")) return result;
  m.map_ram(0, kRamSize);
  if (!m.load(image, ~0u, 1)) return result;
  uc_mmio_map(m.uc, kApicBase, 0x1000, &Machine::apic_read, &m, &Machine::apic_write, &m);
  m.each_code_segment(image, [&](u32 at, const Segment& s) {
    for (std::size_t i = 0; i < s.bytes.size(); ++i) {
      const std::uint8_t b = i + 1 < s.bytes.size() ? s.bytes[i + 1] : 0;
      if (s.bytes[i] == 0x0F && (b == 0x30 || b == 0x31 || b == 0x32 || b == 0x33 || b == 0xA2))
        m.code.set(static_cast<u32>(at + i), kPmu);
      else if (s.bytes[i] == 0xF4)
        m.code.set(static_cast<u32>(at + i), kHlt);
    }
  });
  m.model.on_interrupt(&Machine::on_pmi, &m);
  uc_hook code, out, in, memory;
  uc_hook_add(m.uc, &code, UC_HOOK_CODE, reinterpret_cast<void*>(&Machine::on_code), &m, 1, 0);
  if (options.pmu)
    uc_hook_add(m.uc, &memory, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, reinterpret_cast<void*>(&Machine::on_memory), &m,
                1, 0);
  uc_hook_add(m.uc, &out, UC_HOOK_INSN, reinterpret_cast<void*>(&Machine::on_out), &m, 1, 0, UC_X86_INS_OUT);
  uc_hook_add(m.uc, &in, UC_HOOK_INSN, reinterpret_cast<void*>(&Machine::on_in), &m, 1, 0, UC_X86_INS_IN);
  const u32 sp = static_cast<u32>(kRamSize - 16);
  m.set(UC_X86_REG_ESP, sp);
  m.run(image.entry, UC_X86_REG_EIP);
  return result;
}

}  // namespace pmusim
