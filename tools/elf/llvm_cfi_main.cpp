// pmukit-llvm-cfi FILE: prints the call frame information rules of every FDE of FILE for the
// unwinder (tools/elf/unwind_llvm.hpp): LLVM's DWARF library (Debian's llvm-14-dev) decodes the
// CFA programs, run() below evaluates them.
// A separate program so that pmukit itself does not load LLVM (its start-up time is part of the
// symbolization benchmark), and so that a file which crashes LLVM's reader costs only this process.
// Exit status 0 with whatever it printed; a crash is the caller's to notice.
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugFrame.h>
#include <llvm/Object/ObjectFile.h>

#include <cstdio>
#include <map>
#include <optional>
#include <vector>

#include "tools/elf/unwind_llvm.hpp"

namespace pmukit {
namespace {

// Registers the unwinder can name (tools/elf/unwind.cpp's ABIs); rules for others are left out.
constexpr std::uint64_t kRegisters = 128;

// One row of the rule table while a CFA program runs.
struct Row {
  int cfa_reg = -1;  // CFA = cfa_reg + cfa_offset; -1: no rule yet, or an expression (unsupported)
  std::int64_t cfa_offset = 0;
  std::map<std::uint64_t, CfiRule> rules;  // registers with no entry keep their value
};

void print_row(std::FILE* out, std::uint64_t addr, const Row& row) {
  std::fprintf(out, "R %llu %d %lld %zu\n", static_cast<unsigned long long>(addr), row.cfa_reg,
               static_cast<long long>(row.cfa_offset), row.rules.size());
  for (const auto& [n, rule] : row.rules)
    std::fprintf(out, "%llu %d %d %lld\n", static_cast<unsigned long long>(n), static_cast<int>(rule.kind), rule.reg,
                 static_cast<long long>(rule.offset));
}

// An instruction's operand with its alignment factor applied, as LLVM decoded it.
template <typename T>
std::optional<T> operand(llvm::Expected<T> v) {
  if (v) return *v;
  llvm::consumeError(v.takeError());
  return std::nullopt;
}

// Runs one CFA program (the CIE's initial instructions, then the FDE's) over row, printing the
// row at each advance when out is not null. LLVM only decodes the program: LLVM 14's UnwindTable
// remembers the register rules on DW_CFA_remember_state but not the CFA rule, so after
// DW_CFA_restore_state every row kept the epilogue's CFA (MIPS: sp + 0) and MIPS walks stopped
// there (issue 32). initial: the CIE's rules, for DW_CFA_restore (null in the CIE). false: an
// instruction this does not evaluate, or an inconsistent program: the FDE is left out, as LLVM
// left it out.
bool run(const llvm::dwarf::CFIProgram& program, const Row* initial, Row& row, std::uint64_t& addr, std::FILE* out) {
  using namespace llvm::dwarf;
  std::vector<Row> remembered;
  for (const CFIProgram::Instruction& in : program) {
    const auto u = [&](unsigned i) { return operand(in.getOperandAsUnsigned(program, i)); };
    const auto s = [&](unsigned i) { return operand(in.getOperandAsSigned(program, i)); };
    // Register operand 0 gets rule (kind, offset, reg).
    const auto set = [&](CfiRule::Kind kind, std::optional<std::int64_t> offset = 0, int reg = 0) {
      const auto n = u(0);
      if (!n || !offset) return false;
      if (*n < kRegisters) row.rules[*n] = CfiRule{kind, reg, *offset};
      return true;
    };
    bool ok = true;
    switch (in.Opcode) {
      case DW_CFA_nop:
      case DW_CFA_GNU_args_size: break;
      case DW_CFA_set_loc:
      case DW_CFA_advance_loc:
      case DW_CFA_advance_loc1:
      case DW_CFA_advance_loc2:
      case DW_CFA_advance_loc4: {
        const auto v = u(0);
        if (!v) return false;
        if (out != nullptr) print_row(out, addr, row);
        addr = in.Opcode == DW_CFA_set_loc ? *v : addr + *v;
        break;
      }
      case DW_CFA_def_cfa:
      case DW_CFA_def_cfa_sf:
      case DW_CFA_def_cfa_register: {
        const auto r = u(0);
        const auto o = in.Opcode == DW_CFA_def_cfa_register ? row.cfa_offset : s(1);
        if (!r || !o) return false;
        row.cfa_reg = *r < kRegisters ? static_cast<int>(*r) : -1;
        row.cfa_offset = *o;
        break;
      }
      case DW_CFA_def_cfa_offset:
      case DW_CFA_def_cfa_offset_sf: {
        const auto o = s(0);
        if (!o) return false;
        row.cfa_offset = *o;
        break;
      }
      case DW_CFA_def_cfa_expression: row.cfa_reg = -1; break;
      case DW_CFA_offset:
      case DW_CFA_offset_extended:
      case DW_CFA_offset_extended_sf: ok = set(CfiRule::at_cfa, s(1)); break;
      case DW_CFA_val_offset:
      case DW_CFA_val_offset_sf: ok = set(CfiRule::is_cfa, s(1)); break;
      case DW_CFA_register: {
        const auto r = u(1);
        ok = r && (*r < kRegisters ? set(CfiRule::in_register, 0, static_cast<int>(*r)) : set(CfiRule::unsupported));
        break;
      }
      case DW_CFA_undefined: ok = set(CfiRule::undefined); break;
      case DW_CFA_same_value: ok = set(CfiRule::same); break;
      case DW_CFA_expression:
      case DW_CFA_val_expression: ok = set(CfiRule::unsupported); break;
      case DW_CFA_restore:
      case DW_CFA_restore_extended: {  // back to the CIE's rule
        const auto n = u(0);
        if (!n || initial == nullptr) return false;
        const auto it = initial->rules.find(*n);
        if (it != initial->rules.end()) row.rules[*n] = it->second;
        else row.rules.erase(*n);
        break;
      }
      // DWARF 4 section 6.4.2.4: a stack of whole rows, the CFA rule with the registers' (as
      // binutils and libgcc read it, and GCC's epilogues need it).
      case DW_CFA_remember_state:
        if (remembered.size() >= 64) return false;  // GCC nests one deep: a bound for hostile input
        remembered.push_back(row);
        break;
      case DW_CFA_restore_state:
        if (remembered.empty()) return false;
        row = std::move(remembered.back());
        remembered.pop_back();
        break;
      default: return false;  // DW_CFA_GNU_window_save and the like: not used by these targets
    }
    if (!ok) return false;
  }
  return true;
}

// The FDE's rows from its CIE's initial instructions and its own; false when they cannot be
// evaluated (nothing printed then).
bool print_fde(const llvm::dwarf::FDE& fde, std::FILE* out) {
  const llvm::dwarf::CIE& cie = *fde.getLinkedCIE();
  Row row;
  std::uint64_t addr = fde.getInitialLocation();
  if (!run(cie.cfis(), nullptr, row, addr, out)) return false;
  const Row initial = row;
  if (!run(fde.cfis(), &initial, row, addr, out)) return false;
  if (out != nullptr) print_row(out, addr, row);
  return true;
}

// In the child: every FDE of the file's .debug_frame (or .eh_frame where that is empty) as text,
// "F lo hi ra" then "R addr cfa_reg cfa_offset n" and n "reg kind reg offset" lines per row.
void dump_rules(const std::string& path, std::FILE* out) {
  auto binary = llvm::object::ObjectFile::createObjectFile(path);
  if (!binary) {
    llvm::consumeError(binary.takeError());
    return;
  }
  std::unique_ptr<llvm::DWARFContext> context = llvm::DWARFContext::create(*binary->getBinary());
  // One table: LLVM 14's getEHFrame() parses into the context's .debug_frame slot, freeing the
  // table getDebugFrame() returned, so .eh_frame is asked for only when .debug_frame is empty.
  const llvm::DWARFDebugFrame* table = nullptr;
  auto debug = context->getDebugFrame();
  if (debug && !(*debug)->empty()) {
    table = *debug;
  } else {
    if (!debug) llvm::consumeError(debug.takeError());
    auto eh = context->getEHFrame();
    if (!eh) {
      llvm::consumeError(eh.takeError());
      return;
    }
    table = *eh;
  }
  for (const llvm::dwarf::FrameEntry& e : table->entries()) {
    const auto* fde = llvm::dyn_cast<llvm::dwarf::FDE>(&e);
    if (fde == nullptr || fde->getLinkedCIE() == nullptr) continue;
    if (!print_fde(*fde, nullptr)) continue;  // a first pass only checks: no rows of a bad FDE
    std::fprintf(out, "F %llu %llu %d\n", static_cast<unsigned long long>(fde->getInitialLocation()),
                 static_cast<unsigned long long>(fde->getInitialLocation() + fde->getAddressRange()),
                 static_cast<int>(fde->getLinkedCIE()->getReturnAddressRegister()));
    print_fde(*fde, out);
  }
}

}  // namespace
}  // namespace pmukit

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pmukit-llvm-cfi ELF\n");
    return 2;
  }
  pmukit::dump_rules(argv[1], stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
