#include "tools/elf/elf_symbols.hpp"

#include <cxxabi.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace pmukit {
namespace {

std::string demangle(const char* name) {
  if (name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(name);
}

// Owns the file descriptor and the libelf/libdw handles.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) : path_(path) {
    if (elf_version(EV_CURRENT) == EV_NONE) fail("libelf is too old");
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw ElfError("cannot open ELF '" + path + "': " + std::strerror(errno));
    elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
    if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) {
      release();
      fail("not an ELF file");
    }
  }
  ~ElfFile() { release(); }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  [[noreturn]] void fail(const std::string& why) const {
    throw ElfError("ELF '" + path_ + "': " + why);
  }

  // Function symbols: global ones first so they win over local aliases at the same address.
  void add_functions(SymbolTable& table) {
    GElf_Ehdr ehdr;
    if (gelf_getehdr(elf_, &ehdr) == nullptr) fail(std::string("bad ELF header: ") + elf_errmsg(-1));
    // A cut-off file loses its section headers (they sit at the end): say so, not "stripped".
    struct stat st {};
    if (fstat(fd_, &st) == 0 && ehdr.e_shoff != 0 &&
        ehdr.e_shoff + std::uint64_t{ehdr.e_shnum} * ehdr.e_shentsize > static_cast<std::uint64_t>(st.st_size))
      fail("truncated: its section headers end at byte " +
           std::to_string(ehdr.e_shoff + std::uint64_t{ehdr.e_shnum} * ehdr.e_shentsize) +
           " but the file has " + std::to_string(st.st_size));
    Elf_Scn* symtab = find_section(SHT_SYMTAB);
    if (symtab == nullptr) symtab = find_section(SHT_DYNSYM);
    if (symtab == nullptr) fail("has no symbol table (stripped?)");
    GElf_Shdr shdr;
    Elf_Data* data = elf_getdata(symtab, nullptr);
    if (gelf_getshdr(symtab, &shdr) == nullptr || data == nullptr || shdr.sh_entsize == 0)
      fail("unreadable symbol table");
    const std::size_t count = shdr.sh_size / shdr.sh_entsize;
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 1; i < count; ++i) {
        GElf_Sym sym;
        if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
        if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF) continue;
        const bool local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
        if (local != (pass == 1)) continue;
        const char* name = elf_strptr(elf_, shdr.sh_link, sym.st_name);
        if (name == nullptr || name[0] == '\0') continue;
        std::uint64_t addr = sym.st_value;
        // Thumb (ARM) and MIPS16/microMIPS entry points have bit 0 set; the code starts one lower.
        if (ehdr.e_machine == EM_ARM || ehdr.e_machine == EM_MIPS) addr &= ~std::uint64_t{1};
        table.add_function(addr, sym.st_size, demangle(name));
      }
    }
  }

  // Line table rows of every compilation unit, as address ranges.
  void add_lines(SymbolTable& table) {
    dwarf_ = dwarf_begin_elf(elf_, DWARF_C_READ, nullptr);
    if (dwarf_ == nullptr) return;  // no DWARF: functions only
    Dwarf_Off off = 0, next = 0;
    std::size_t header_size = 0;
    while (dwarf_nextcu(dwarf_, off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      if (dwarf_offdie(dwarf_, off + header_size, &cu) != nullptr) add_unit_lines(table, &cu);
      off = next;
    }
  }

 private:
  Elf_Scn* find_section(GElf_Word type) {
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn != nullptr; scn = elf_nextscn(elf_, scn)) {
      GElf_Shdr shdr;
      if (gelf_getshdr(scn, &shdr) != nullptr && shdr.sh_type == type) return scn;
    }
    return nullptr;
  }

  static void add_unit_lines(SymbolTable& table, Dwarf_Die* cu) {
    Dwarf_Lines* lines = nullptr;
    std::size_t n = 0;
    if (dwarf_getsrclines(cu, &lines, &n) != 0) return;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      Dwarf_Line* row = dwarf_onesrcline(lines, i);
      Dwarf_Line* following = dwarf_onesrcline(lines, i + 1);
      bool end = false;
      Dwarf_Addr lo = 0, hi = 0;
      int lineno = 0;
      if (row == nullptr || following == nullptr || dwarf_lineendsequence(row, &end) != 0 || end)
        continue;
      if (dwarf_lineaddr(row, &lo) != 0 || dwarf_lineaddr(following, &hi) != 0) continue;
      if (dwarf_lineno(row, &lineno) != 0 || lineno <= 0) continue;
      const char* file = dwarf_linesrc(row, nullptr, nullptr);
      table.add_line(lo, hi, file != nullptr ? file : "??", static_cast<unsigned>(lineno));
    }
  }

  void release() {
    if (dwarf_ != nullptr) dwarf_end(dwarf_);
    if (elf_ != nullptr) elf_end(elf_);
    if (fd_ >= 0) close(fd_);
    dwarf_ = nullptr;
    elf_ = nullptr;
    fd_ = -1;
  }

  std::string path_;
  int fd_ = -1;
  Elf* elf_ = nullptr;
  Dwarf* dwarf_ = nullptr;
};

}  // namespace

SymbolTable load_elf_symbols(const std::string& path) {
  ElfFile elf(path);
  SymbolTable table;
  elf.add_functions(table);
  elf.add_lines(table);
  table.finalize();
  if (table.empty()) elf.fail("has no function symbols");
  return table;
}

}  // namespace pmukit
