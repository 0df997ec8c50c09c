#include "tools/elf/unwind_table.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>

#include "tools/elf/elf_symbols.hpp"
#include "tools/elf/unwind_llvm.hpp"

namespace pmukit {
namespace {

using prof::UnwindRule;

// DWARF register numbers of the registers the walk keeps, per e_machine (the psABIs' DWARF
// mappings: ARM "DWARF for the ARM Architecture", MIPS and PowerPC SVR4 psABIs, i386 psABI).
// lr -1: none (i386: the return address is always on the stack).
struct Regs {
  int sp, fp, lr;
};
std::optional<Regs> regs_for(unsigned machine, int ra_column) {
  switch (machine) {
    case 40: return Regs{13, 11, 14};          // ARM: r13, r11, r14
    case 8: return Regs{29, 30, 31};           // MIPS: $29, $30, $31
    case 20: return Regs{1, 31, ra_column};    // PowerPC: r1, r31, LR (65 in .eh_frame, 108 in .debug_frame)
    case 3: return Regs{4, 5, -1};             // i386: esp, ebp
    default: return std::nullopt;
  }
}

// An offset the entry can hold and the walk can use (the table holds them from the CFA's base
// register: the CFA's offset plus the rule's must fit too): 16 bits, a whole word (the walk reads words,
// and the table's reader refuses other offsets: MIPS faults on a misaligned load).
bool fits16(std::int64_t v) {
  return v >= std::numeric_limits<std::int16_t>::min() && v <= std::numeric_limits<std::int16_t>::max() && v % 4 == 0;
}

// One CFI row as an entry; false: a rule the walk cannot follow (the entry then ends walks).
bool to_entry(const CfiRow& row, const Regs& r, UnwindRule& e) {
  e.cfa_base = UnwindRule::none;
  e.cfa_offset = e.ra_offset = e.fp_offset = 0;
  e.rules = UnwindRule::ra_unknown;
  if (!fits16(row.cfa_offset)) return false;
  if (row.cfa_reg == r.sp) e.cfa_base = UnwindRule::sp;
  else if (row.cfa_reg == r.fp) e.cfa_base = UnwindRule::fp;
  else return false;
  e.cfa_offset = static_cast<std::int16_t>(row.cfa_offset);
  auto rule = [&](int reg) {
    const auto it = row.rules.find(reg);
    return it == row.rules.end() ? CfiRule{} : it->second;  // no rule: the same value (kept)
  };
  std::uint8_t ra = UnwindRule::ra_unknown, fp = UnwindRule::fp_unknown;
  bool ok = true;
  const CfiRule rr = rule(row.ra);
  if (rr.kind == CfiRule::undefined) ra = UnwindRule::ra_undefined;
  else if (rr.kind == CfiRule::at_cfa && fits16(rr.offset) && fits16(row.cfa_offset + rr.offset)) {
    ra = UnwindRule::ra_at_cfa;
    e.ra_offset = static_cast<std::int16_t>(rr.offset);
  } else if (r.lr >= 0 && (rr.kind == CfiRule::same || (rr.kind == CfiRule::in_register && rr.reg == r.lr)))
    ra = UnwindRule::ra_in_lr;
  else
    ok = false;
  const CfiRule fr = rule(r.fp);
  if (fr.kind == CfiRule::same || (fr.kind == CfiRule::in_register && fr.reg == r.fp)) fp = UnwindRule::fp_same;
  else if (fr.kind == CfiRule::at_cfa && fits16(fr.offset) && fits16(row.cfa_offset + fr.offset)) {
    fp = UnwindRule::fp_at_cfa;
    e.fp_offset = static_cast<std::int16_t>(fr.offset);
  }  // otherwise the caller's FP is unknown: only a walk that needs it ends
  e.rules = static_cast<std::uint8_t>(ra | fp << 4);
  return ok;
}

bool same_rule(const UnwindRule& a, const UnwindRule& b) {  // padding-free: fields compared
  return a.cfa_base == b.cfa_base && a.cfa_offset == b.cfa_offset && a.ra_offset == b.ra_offset &&
         a.fp_offset == b.fp_offset && a.rules == b.rules;
}

}  // namespace

UnwindRules unwind_rules(const std::string& path) {
  UnwindRules out;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ElfError("cannot open ELF '" + path + "'");
    unsigned char h[20] = {};
    in.read(reinterpret_cast<char*>(h), sizeof h);
    if (!in || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') throw ElfError("ELF '" + path + "': not an ELF file");
    if (h[4] != 1) {
      out.error = "not an ELF32 file: the table holds 32-bit addresses";
      return out;
    }
    out.big_endian = h[5] == 2;
    out.machine = out.big_endian ? (h[18] << 8 | h[19]) : (h[19] << 8 | h[18]);
  }
  const LlvmCfi cfi(path);
  if (cfi.crashed()) {
    out.error = cfi.failure();
    return out;
  }
  std::vector<const CfiFde*> fdes;
  for (const CfiFde& f : cfi.fdes())
    if (f.hi > f.lo && f.hi <= 0xffffffffu && !f.rows.empty()) fdes.push_back(&f);
  if (fdes.empty()) {
    out.error = "no call frame information";
    return out;
  }
  // The indexed range: the cluster of FDEs (no gap over 64 KiB inside) holding the most code; code
  // far from it (ARM's vectors at 0, the image at 0xa0008000) is found by a binary search instead.
  {
    std::uint64_t lo = fdes.front()->lo, hi = fdes.front()->hi, best = 0;
    for (std::size_t i = 0; i <= fdes.size(); ++i) {
      if (i == fdes.size() || fdes[i]->lo > hi + 0x10000) {
        if (hi - lo > best) {
          best = hi - lo;
          out.text_start = static_cast<std::uint32_t>(lo);
          out.text_end = static_cast<std::uint32_t>(hi);
        }
        if (i == fdes.size()) break;
        lo = fdes[i]->lo;
      }
      hi = std::max(hi, fdes[i]->hi);
    }
  }
  auto push = [&](std::uint64_t pc, const UnwindRule& e) {
    auto& v = out.entries;
    while (!v.empty() && v.back().pc >= pc) v.pop_back();  // an FDE overlapping the one before: the later wins
    if (!v.empty() && same_rule(v.back().rule, e)) return;
    v.push_back(UnwindRow{static_cast<std::uint32_t>(pc), e});
  };
  UnwindRule none{};
  none.rules = UnwindRule::ra_unknown;
  for (std::size_t i = 0; i < fdes.size(); ++i) {
    const CfiFde& f = *fdes[i];
    const auto regs = regs_for(out.machine, f.ra);
    for (const auto& [addr, row] : f.rows) {
      if (addr >= f.hi) continue;  // the row after the last advance
      UnwindRule e{};
      ++out.rows;
      if (!regs || !to_entry(row, *regs, e)) ++out.unsupported;
      push(std::max(addr, f.lo), e);
    }
    if (i + 1 == fdes.size() || fdes[i + 1]->lo > f.hi) push(f.hi, none);  // a gap, or the end
  }
  if (out.entries.size() > 0xffff) {
    out.error = "more than 65535 entries";
    out.entries.clear();
  }
  return out;
}

std::vector<std::uint8_t> encode_unwind_table(const UnwindRules& r, bool big) {
  std::vector<std::uint8_t> out;
  if (r.entries.empty() || r.text_end <= r.text_start) return out;
  auto put = [&](std::uint32_t v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * (big ? bytes - 1 - i : i))));
  };
  unsigned shift = 2;
  for (const UnwindRow& e : r.entries)
    while (shift > 0 && (e.pc & ((1u << shift) - 1)) != 0) --shift;
  while (shift > 0 && (r.text_start & ((1u << shift) - 1)) != 0) --shift;
  // The rules, each once, "no rule" first (then numbered among the others); then sorted by
  // UnwindRule::order() (the walk's paths: one compare of the number selects each).
  std::vector<UnwindRule> rules(1, UnwindRule{0, 0, 0, UnwindRule::none, UnwindRule::ra_unknown});
  std::vector<std::uint32_t> number(r.entries.size());
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    const UnwindRule& x = r.entries[i].rule;
    const bool mapped = r.entries[i].pc < r.text_end && (i + 1 == r.entries.size() || r.entries[i + 1].pc > r.text_start);
    if (x.cfa_base == UnwindRule::none || !mapped) continue;
    std::size_t k = 1;
    while (k < rules.size() && !same_rule(rules[k], x)) ++k;
    if (k == rules.size()) rules.push_back(x);
    number[i] = static_cast<std::uint32_t>(k);
  }
  if (rules.size() > 0x10000) return out;
  std::vector<std::uint32_t> order(rules.size());  // the new number of each rule
  std::vector<UnwindRule> sorted;  // "no rule" (rules[0]) among the others: the map's number for none
  for (int o = 1; o <= 6; ++o)
    for (std::size_t k = 0; k < rules.size(); ++k)
      if (rules[k].order() == o) {
        order[k] = static_cast<std::uint32_t>(sorted.size());
        sorted.push_back(rules[k]);
      }
  std::uint32_t bound[7] = {};  // bound[o]: the first rule of order > o
  for (int o = 1; o <= 6; ++o) {
    bound[o] = bound[o - 1];
    while (bound[o] < sorted.size() && sorted[bound[o]].order() == o) ++bound[o];
  }
  for (std::uint32_t& n : number) n = order[n];
  rules = std::move(sorted);
  if (rules.size() > 0x4000) return out;
  const unsigned width = rules.size() > 0x40 ? 2 : 1;
  const std::uint32_t slots = ((r.text_end - r.text_start) + (1u << shift) - 1) >> shift;
  put(prof::UnwindTableHeader::kMagic, 4);
  put(r.text_start, 4);
  put(slots, 4);
  put(shift, 2);
  put(width, 2);
  put(static_cast<std::uint32_t>(rules.size()), 4);
  for (int o = 1; o <= 5; ++o) put(bound[o], 4);  // simple, chain, saves, leaf, outer
  // The fast path's kind: i386's common frame is the frame record (its examples keep the frame
  // pointer); elsewhere CFA = SP + offset with the return address one word below the CFA (ARM's
  // push {..., lr}, MIPS's sw $ra at the frame's top) or, on PowerPC, one word above it (the LR
  // save word of the caller's frame: PowerPC SVR4 ABI, "The Stack Frame").
  const std::uint32_t fast = r.machine == 3 ? UnwindRule::fast_chain : UnwindRule::fast_sp;
  const std::int32_t ra_at = r.machine == 20 ? 4 : -4;
  put(fast, 4);
  put(static_cast<std::uint32_t>(ra_at), 4);
  for (const UnwindRule& x : rules) {  // every offset from the CFA's base register (UnwindTableRule)
    const auto from_base = [&](int v) { return static_cast<std::uint16_t>(x.cfa_offset + v); };
    put(std::uint32_t{static_cast<std::uint16_t>(x.cfa_offset)} << 16 | from_base(x.ra_offset), 4);
    put(from_base(x.fp_offset), 2);
    put(x.cfa_base, 1);
    put(x.rules, 1);
  }
  const bool fp_used = std::any_of(rules.begin(), rules.end(), [](const UnwindRule& x) { return x.cfa_base == UnwindRule::fp; });
  for (const UnwindRule& x : rules) put(x.fast_word(fast, ra_at, fp_used), 4);
  std::size_t i = 0;  // the row covering the slot's first address (none before the first row)
  for (std::uint32_t s = 0; s < slots; ++s) {
    const std::uint32_t at = r.text_start + (s << shift);
    while (i < r.entries.size() && r.entries[i].pc <= at) ++i;
    put(i == 0 ? 0 : 4 * number[i - 1], width);  // the rule's fast word's offset
  }
  while (out.size() % 4 != 0) out.push_back(0);
  return out;
}

std::string unwind_table_assembly(const std::vector<std::uint8_t>& blob, const std::string& comment) {
  std::string s = "/* " + comment + " */\n";
  s += "\t.section .pmukit_unwind,\"a\"\n\t.balign 4\n\t.globl pmukit_unwind_table\npmukit_unwind_table:\n";
  char buf[8];
  for (std::size_t i = 0; i < blob.size(); ++i) {
    s += i % 16 == 0 ? "\t.byte " : ",";
    std::snprintf(buf, sizeof buf, "%u", blob[i]);
    s += buf;
    if (i % 16 == 15 || i + 1 == blob.size()) s += "\n";
  }
  if (blob.empty()) s += "\t.long 0\n";  // an empty table: UnwindTable::from gives count 0
  s += "\t.section .note.GNU-stack,\"\",%progbits\n";  // no executable stack asked for
  return s;
}

}  // namespace pmukit
