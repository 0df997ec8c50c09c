#include "tools/elf/unwind.hpp"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>

#include "tools/elf/elf_symbols.hpp"
#include "tools/elf/unwind_llvm.hpp"

namespace pmukit {
namespace {

// DWARF register numbers of what a sample carries, per e_machine (the psABIs' DWARF mappings).
struct Abi {
  int sp, fp;
  std::vector<int> lr;  // where the sample's lr goes (PowerPC's LR has two numbers in use)
};
std::optional<Abi> abi_for(unsigned machine) {
  switch (machine) {
    case 40: return Abi{13, 11, {14}};        // ARM: r13 sp, r11 fp, r14 lr
    case 8: return Abi{29, 30, {31}};         // MIPS: $29 sp, $30 fp, $31 ra
    case 20: return Abi{1, 31, {65, 108}};    // PowerPC: r1, r31; LR 65 (.eh_frame), 108 (.debug_frame)
    case 3: return Abi{4, 5, {}};             // i386: esp, ebp; the return address is on the stack
    default: return std::nullopt;
  }
}

using Regs = std::map<int, std::uint64_t>;

struct Memory {
  const StackSampleRecord& s;
  bool big;
  unsigned bytes;
  // The farthest byte above the copy a failed read wanted, from sp (0: none): how long a copy
  // would have had to be.
  mutable std::uint64_t wanted = 0;
  std::optional<std::uint64_t> read(std::uint64_t addr) const {
    // Not addr - sp + bytes > size: with 8-byte addresses that sum wraps for an address just
    // under 2^64 above an sp under 8, and the read started before the copy (issue 31).
    if (addr < s.sp || addr - s.sp > s.stack.size() || s.stack.size() - (addr - s.sp) < bytes) {
      if (addr >= s.sp && addr - s.sp < (std::uint64_t{1} << 32)) wanted = std::max(wanted, addr - s.sp + bytes);
      return std::nullopt;
    }
    std::uint64_t v = 0;
    const std::size_t at = static_cast<std::size_t>(addr - s.sp);
    for (unsigned i = 0; i < bytes; ++i) {
      const std::uint64_t b = s.stack[at + i];
      v |= b << (8 * (big ? bytes - 1 - i : i));
    }
    return v;
  }
};

// A DWARF expression as libdw gives CFI rules: a small stack machine over the registers known so
// far, the CFA and the captured stack. nullopt: it needs what the sample does not have.
struct Eval {
  const Regs& regs;
  std::optional<std::uint64_t> cfa;
  const Memory& mem;
  std::uint64_t mask;
  bool value = false;      // DW_OP_stack_value / DW_OP_regN: the result is the value itself
  std::optional<std::uint64_t> run(const Dwarf_Op* ops, std::size_t n) {
    std::vector<std::uint64_t> st;
    auto reg = [&](std::uint64_t r) -> std::optional<std::uint64_t> {
      const auto it = regs.find(static_cast<int>(r));
      if (it == regs.end()) return std::nullopt;
      return it->second;
    };
    for (std::size_t i = 0; i < n; ++i) {
      const Dwarf_Op& o = ops[i];
      const unsigned a = o.atom;
      if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
        const auto v = reg(a - DW_OP_breg0);
        if (!v) return std::nullopt;
        st.push_back(*v + static_cast<std::int64_t>(o.number));
      } else if (a == DW_OP_bregx) {
        const auto v = reg(o.number);
        if (!v) return std::nullopt;
        st.push_back(*v + static_cast<std::int64_t>(o.number2));
      } else if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
        const auto v = reg(a - DW_OP_reg0);
        if (!v) return std::nullopt;
        st.push_back(*v);
        value = true;
      } else if (a == DW_OP_regx) {
        const auto v = reg(o.number);
        if (!v) return std::nullopt;
        st.push_back(*v);
        value = true;
      } else if (a == DW_OP_call_frame_cfa) {
        if (!cfa) return std::nullopt;
        st.push_back(*cfa);
      } else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
        st.push_back(a - DW_OP_lit0);
      } else if (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u || a == DW_OP_const8u ||
                 a == DW_OP_constu || a == DW_OP_const1s || a == DW_OP_const2s || a == DW_OP_const4s ||
                 a == DW_OP_const8s || a == DW_OP_consts) {
        st.push_back(o.number);
      } else if (a == DW_OP_plus_uconst) {
        if (st.empty()) return std::nullopt;
        st.back() += o.number;
      } else if (a == DW_OP_plus || a == DW_OP_minus) {
        if (st.size() < 2) return std::nullopt;
        const std::uint64_t y = st.back();
        st.pop_back();
        st.back() = a == DW_OP_plus ? st.back() + y : st.back() - y;
      } else if (a == DW_OP_deref) {
        if (st.empty()) return std::nullopt;
        const auto v = mem.read(st.back() & mask);
        if (!v) return std::nullopt;
        st.back() = *v;
      } else if (a == DW_OP_stack_value) {
        value = true;
      } else if (a == DW_OP_nop) {
      } else {
        return std::nullopt;  // an operation CFI for these targets does not use
      }
    }
    if (st.empty()) return std::nullopt;
    return st.back() & mask;
  }
};

}  // namespace

// One frame's way to its caller: the CFA, the caller's registers and the return address.
struct Step {
  bool no_frame = false;  // no CFI covers the pc
  std::optional<std::uint64_t> cfa, ret;
  Regs next;
  bool ra_undefined = false, unreadable = false;

  // Register r's value in the caller, by its rule (both rule sources end here):
  //   undefined: none, except that in the sampled frame a return address register with no rule
  //     still holds the return address (a leaf, or a function before it saves it, returns
  //     through it, per the ABI);
  //   same: its value here;
  //   computed: the rule's value (missing where it needs a register the sample lacks);
  //   loaded: the same, read from the captured stack: a return address missing there is one
  //     beyond the stack copy.
  enum class Rule { undefined, same, computed, loaded };
  void settle(int r, int ra, unsigned depth, const Regs& regs, Rule rule, std::optional<std::uint64_t> computed = {}) {
    std::optional<std::uint64_t> v;
    const auto here = regs.find(r);
    if (rule == Rule::undefined) {
      if (r != ra) return;
      if (depth != 0 || here == regs.end()) {
        ra_undefined = true;
        return;
      }
      v = here->second;
    } else if (rule == Rule::same) {
      if (here != regs.end()) v = here->second;
    } else {
      v = computed;
      if (!v && r == ra && rule == Rule::loaded) unreadable = true;
    }
    if (v) next[r] = *v;
    if (r == ra) ret = v;
  }
};

// The registers the caller needs: every one known here, and the return address column.
std::vector<int> wanted_registers(const Regs& regs, int ra) {
  std::vector<int> w;
  for (const auto& [r, v] : regs) w.push_back(r);
  if (ra >= 0 && !regs.count(ra)) w.push_back(ra);
  return w;
}

struct Unwinder::Impl {
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf* dwarf = nullptr;
  Dwarf_CFI* debug_frame = nullptr;  // owned by dwarf
  Dwarf_CFI* eh_frame = nullptr;     // ours
  unsigned machine = 0;
  ~Impl() {
    if (eh_frame) dwarf_cfi_end(eh_frame);
    if (dwarf) dwarf_end(dwarf);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
  std::string path;
  bool use_llvm = true;
  mutable std::unique_ptr<LlvmCfi> llvm;  // made on the first pc libdw has no frame for
  Dwarf_Frame* frame_at(std::uint64_t pc) const {
    Dwarf_Frame* f = nullptr;
    for (Dwarf_CFI* cfi : {debug_frame, eh_frame})
      if (cfi != nullptr && dwarf_cfi_addrframe(cfi, pc, &f) == 0) return f;
    return nullptr;
  }

  // libdw's rules: DWARF expressions for the CFA and each register (Eval above).
  Step libdw_step(std::uint64_t lookup, const Regs& regs, const Memory& mem, std::uint64_t mask, unsigned depth) const {
    Step st;
    Dwarf_Frame* frame = frame_at(lookup);
    if (frame == nullptr) {
      st.no_frame = true;
      return st;
    }
    Dwarf_Addr start = 0, end = 0;
    bool signal = false;
    const int ra = dwarf_frame_info(frame, &start, &end, &signal);
    Dwarf_Op* ops = nullptr;
    std::size_t nops = 0;
    if (dwarf_frame_cfa(frame, &ops, &nops) == 0) st.cfa = Eval{regs, std::nullopt, mem, mask}.run(ops, nops);
    if (st.cfa)
      for (int r : wanted_registers(regs, ra)) {
        Dwarf_Op mem_ops[3];
        Dwarf_Op* rops = nullptr;
        std::size_t rn = 0;
        if (dwarf_frame_register(frame, r, mem_ops, &rops, &rn) != 0) continue;
        if (rn == 0) {  // no operations: same value (ops null) or undefined (ops = mem_ops), libdw.h
          st.settle(r, ra, depth, regs, rops == nullptr ? Step::Rule::same : Step::Rule::undefined);
          continue;
        }
        Eval e{regs, st.cfa, mem, mask};
        const auto at = e.run(rops, rn);
        st.settle(r, ra, depth, regs, Step::Rule::loaded, at && !e.value ? mem.read(*at) : at);
      }
    free(frame);
    return st;
  }

  // LLVM's rules (unwind_llvm.hpp), where libdw has none: the same walk over a rule table.
  Step llvm_step(std::uint64_t lookup, const Regs& regs, const Memory& mem, std::uint64_t mask, unsigned depth) const {
    Step st;
    if (!use_llvm) {
      st.no_frame = true;
      return st;
    }
    if (!llvm) llvm = std::make_unique<LlvmCfi>(path);
    const std::optional<CfiRow> row = llvm->at(lookup);
    if (!row) {
      st.no_frame = true;
      return st;
    }
    const auto base = regs.find(row->cfa_reg);
    if (base == regs.end()) return st;
    st.cfa = (base->second + static_cast<std::uint64_t>(row->cfa_offset)) & mask;
    for (int r : wanted_registers(regs, row->ra)) {
      const auto it = row->rules.find(r);
      const CfiRule rule = it == row->rules.end() ? CfiRule{} : it->second;
      const std::uint64_t at_offset = (*st.cfa + static_cast<std::uint64_t>(rule.offset)) & mask;
      switch (rule.kind) {
        case CfiRule::undefined: st.settle(r, row->ra, depth, regs, Step::Rule::undefined); break;
        case CfiRule::same: st.settle(r, row->ra, depth, regs, Step::Rule::same); break;
        case CfiRule::at_cfa: st.settle(r, row->ra, depth, regs, Step::Rule::loaded, mem.read(at_offset)); break;
        case CfiRule::is_cfa: st.settle(r, row->ra, depth, regs, Step::Rule::computed, at_offset); break;
        case CfiRule::in_register: {
          const auto src = regs.find(rule.reg);
          st.settle(r, row->ra, depth, regs, Step::Rule::computed,
                    src == regs.end() ? std::nullopt : std::optional<std::uint64_t>(src->second));
          break;
        }
        case CfiRule::unsupported: break;
      }
    }
    return st;
  }
};

Unwinder::Unwinder(const std::string& path, bool llvm_fallback) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->use_llvm = llvm_fallback;
  if (elf_version(EV_CURRENT) == EV_NONE) throw ElfError("libelf is too old");
  impl_->fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (impl_->fd < 0) throw ElfError("cannot open ELF '" + path + "': " + std::strerror(errno));
  impl_->elf = elf_begin(impl_->fd, ELF_C_READ, nullptr);
  GElf_Ehdr ehdr;
  if (impl_->elf == nullptr || gelf_getehdr(impl_->elf, &ehdr) == nullptr) throw ElfError("ELF '" + path + "': not an ELF file");
  impl_->machine = ehdr.e_machine;
  impl_->dwarf = dwarf_begin_elf(impl_->elf, DWARF_C_READ, nullptr);
  if (impl_->dwarf != nullptr) impl_->debug_frame = dwarf_getcfi(impl_->dwarf);
  impl_->eh_frame = dwarf_getcfi_elf(impl_->elf);
}

Unwinder::~Unwinder() = default;

bool Unwinder::has_cfi() const {
  if (impl_->debug_frame != nullptr || impl_->eh_frame != nullptr) return true;
  if (!impl_->use_llvm) return false;
  if (!impl_->llvm) impl_->llvm = std::make_unique<LlvmCfi>(impl_->path);
  return impl_->llvm->any();
}

std::string Unwinder::llvm_failure() const { return impl_->llvm ? impl_->llvm->failure() : std::string(); }

UnwoundStack Unwinder::unwind(const StackSampleRecord& s, ByteOrder order, unsigned address_bytes) const {
  UnwoundStack out;
  out.pcs.push_back(s.pc);
  const auto abi = abi_for(impl_->machine);
  if (!abi) {
    out.stopped = "no unwinding rules for this machine";
    return out;
  }
  const std::uint64_t mask = address_bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * address_bytes)) - 1;
  const Memory mem{s, order == ByteOrder::big, address_bytes};
  Regs regs;
  regs[abi->sp] = s.sp;
  if (s.fp != 0) regs[abi->fp] = s.fp;
  for (int r : abi->lr)
    if (s.lr != 0) regs[r] = s.lr;
  std::uint64_t pc = s.pc;
  for (unsigned depth = 0;; ++depth) {
    if (depth + 1 >= kMaxFrames) {
      out.stopped = "deeper than " + std::to_string(kMaxFrames) + " frames";
      return out;
    }
    // A caller's pc is a return address: look up the call (pc - 1), which may end its function.
    const std::uint64_t lookup = depth == 0 ? pc : pc - 1;
    Step step = impl_->libdw_step(lookup, regs, mem, mask, depth);
    if (step.no_frame) step = impl_->llvm_step(lookup, regs, mem, mask, depth);
    if (step.no_frame) {
      out.stopped = "no CFI for its pc";
      return out;
    }
    if (!step.cfa) {
      out.stopped = "its CFA needs a register the sample lacks";
      return out;
    }
    if (step.ra_undefined) return out;  // the outermost frame: a complete walk
    if (!step.ret) {
      out.stopped = step.unreadable ? "its return address is beyond the captured stack" : "no return address rule";
      if (step.unreadable && mem.wanted > s.stack.size()) out.copy_needed = mem.wanted;
      return out;
    }
    step.next[abi->sp] = *step.cfa;
    if (*step.ret == 0) return out;  // a zero return address ends the stack (start-up code)
    if (*step.cfa <= regs[abi->sp] && *step.ret == pc) {
      out.stopped = "no progress";
      return out;
    }
    pc = *step.ret;
    out.pcs.push_back(pc);
    regs = std::move(step.next);
  }
}

}  // namespace pmukit
