#include "tools/elf/elf_symbols.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>

#include "tools/dumpread/crc32_host.hpp"

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
    elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);  // mapped: only the sections read are paged in
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
        if (pass == 0 && code_section(sym.st_shndx) && GELF_ST_TYPE(sym.st_info) != STT_SECTION &&
            GELF_ST_TYPE(sym.st_info) != STT_FILE)
          table.note_code_symbol(sym.st_value);
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

  // Machine, class, byte order, the GNU build-id note and the loadable segments' bytes.
  ElfIdentity identity() {
    ElfIdentity id;
    GElf_Ehdr ehdr;
    if (gelf_getehdr(elf_, &ehdr) == nullptr) fail(std::string("bad ELF header: ") + elf_errmsg(-1));
    id.machine = ehdr.e_machine;
    id.address_bytes = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
    id.big_endian = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn != nullptr && id.build_id.empty();
         scn = elf_nextscn(elf_, scn)) {
      GElf_Shdr shdr;
      if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_NOTE) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      GElf_Nhdr nhdr;
      std::size_t name_at = 0, desc_at = 0;
      for (std::size_t at = 0; data != nullptr &&
                               (at = gelf_getnote(data, at, &nhdr, &name_at, &desc_at)) != 0;) {
        const char* base = static_cast<const char*>(data->d_buf);
        if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 && std::memcmp(base + name_at, "GNU", 4) == 0) {
          id.build_id.assign(base + desc_at, base + desc_at + nhdr.n_descsz);
          break;
        }
      }
    }
    std::size_t count = 0;
    if (elf_getphdrnum(elf_, &count) != 0) count = 0;
    for (std::size_t i = 0; i < count; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf_, static_cast<int>(i), &ph) == nullptr || ph.p_type != PT_LOAD || ph.p_filesz == 0)
        continue;
      Elf_Data* raw = elf_getdata_rawchunk(elf_, static_cast<off_t>(ph.p_offset), ph.p_filesz, ELF_T_BYTE);
      if (raw == nullptr) continue;  // a segment past the end of a cut-off file: not held
      const auto* b = static_cast<const std::uint8_t*>(raw->d_buf);
      id.segments.push_back({ph.p_vaddr, std::vector<std::uint8_t>(b, b + raw->d_size)});
    }
    return id;
  }

  // Line table rows of every compilation unit, as address ranges. DWARF that libdw would read out
  // of bounds is not given to it: the report then has functions without source lines, and says so.
  void add_lines(SymbolTable& table, std::vector<std::string>& warnings) {
    if (const std::string why = unsafe_dwarf(); !why.empty()) {
      warnings.push_back("ELF '" + path_ + "': " + why + "; source lines are not used");
      return;
    }
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
  bool code_section(std::size_t index) {
    if (index == SHN_UNDEF || index >= SHN_LORESERVE) return false;
    Elf_Scn* scn = elf_getscn(elf_, index);
    GElf_Shdr shdr;
    return scn != nullptr && gelf_getshdr(scn, &shdr) != nullptr && (shdr.sh_flags & SHF_EXECINSTR) != 0;
  }

  Elf_Scn* find_section(GElf_Word type) {
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn != nullptr; scn = elf_nextscn(elf_, scn)) {
      GElf_Shdr shdr;
      if (gelf_getshdr(scn, &shdr) != nullptr && shdr.sh_type == type) return scn;
    }
    return nullptr;
  }

  // libdw reads the strings of .debug_str and .debug_line_str with strlen() from an offset the line
  // program gives: a section whose last byte is not NUL lets that run past its buffer (elfutils
  // 0.188). Compressed sections are checked as libdw will see them, decompressed in place.
  std::string unsafe_dwarf() {
    std::size_t shstrndx = 0;
    if (elf_getshdrstrndx(elf_, &shstrndx) != 0) return {};  // no section names: no .debug_* either
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn != nullptr; scn = elf_nextscn(elf_, scn)) {
      GElf_Shdr shdr;
      if (gelf_getshdr(scn, &shdr) == nullptr) continue;
      const char* name = elf_strptr(elf_, shstrndx, shdr.sh_name);
      if (name == nullptr || shdr.sh_type == SHT_NOBITS) continue;
      const std::string n = name;
      const bool gnu_compressed = n == ".zdebug_str" || n == ".zdebug_line_str";
      if (n != ".debug_str" && n != ".debug_line_str" && !gnu_compressed) continue;
      if ((shdr.sh_flags & SHF_COMPRESSED) != 0 ? elf_compress(scn, 0, 0) < 0
          : gnu_compressed                      ? elf_compress_gnu(scn, 0, 0) < 0
                                                : false)
        return n + " cannot be decompressed (" + elf_errmsg(-1) + ")";
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (data == nullptr) return n + " cannot be read (" + std::string(elf_errmsg(-1)) + ")";
      const auto* bytes = static_cast<const unsigned char*>(data->d_buf);
      if (data->d_size != 0 && (bytes == nullptr || bytes[data->d_size - 1] != 0))
        return n + " does not end with a NUL byte (malformed string table)";
    }
    return {};
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

 public:
  // DWARF's inlined subroutines (after add_lines, which opens the DWARF, and with the functions
  // sorted, to name inlined copies after their out-of-line one): each inlined call's ranges, its
  // function (the abstract origin) and where it was called from, nested.
  void add_inlined(SymbolTable& table) {
    if (dwarf_ == nullptr) return;
    Inlines found;
    Dwarf_Off off = 0, next = 0;
    std::size_t header_size = 0;
    while (dwarf_nextcu(dwarf_, off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      if (dwarf_offdie(dwarf_, off + header_size, &cu) != nullptr) {
        Dwarf_Files* files = nullptr;
        std::size_t nfiles = 0;
        if (dwarf_getsrcfiles(&cu, &files, &nfiles) != 0) files = nullptr, nfiles = 0;
        walk(found, &cu, files, nfiles, 0, 0, 0);
      }
      off = next;
    }
    for (auto& [at, o] : found.origins) {
      Dwarf_Die die;
      if (dwarf_offdie(dwarf_, at, &die) != nullptr) o = describe(found, &die);
    }
    // The name: the symbol table's spelling where DWARF has it (a linkage name, or an out-of-line
    // copy's symbol), else DWARF's name within its namespaces and classes (no parameter list).
    std::map<Dwarf_Off, std::uint32_t> ids;
    for (const auto& [at, o] : found.origins) {
      std::string name = o.linkage;
      if (const auto copy = found.copies.find(at); name.empty() && copy != found.copies.end())
        if (const auto f = table.function_at(copy->second)) name = table.function(*f).name;
      ids[at] = table.add_inlined_function(name.empty() ? o.scoped : name, o.decl_file, o.decl_line);
    }
    for (const Call& c : found.calls) table.add_inlined(c.depth, c.lo, c.hi, ids.at(c.origin), c.file, c.line);
  }

 private:
  static constexpr unsigned kMaxNesting = 256;  // DIE tree levels read: hostile DWARF stays bounded

  struct Origin {
    std::string linkage, scoped, decl_file;
    unsigned decl_line = 0;
  };
  struct Call {
    Dwarf_Off origin;
    unsigned depth;
    std::uint64_t lo, hi;
    std::string file;
    unsigned line;
  };
  struct Inlines {
    std::map<Dwarf_Off, Origin> origins;
    // The namespaces and classes around each subprogram DIE ("fw::"), as found on the way down.
    std::vector<std::string> scopes{""};
    std::unordered_map<Dwarf_Off, std::uint32_t> scope_of;
    std::map<Dwarf_Off, std::uint64_t> copies;  // origin -> its out-of-line copy's entry
    std::vector<Call> calls;
  };

  // The DIE an inlined call or an out-of-line copy stands for (DW_AT_abstract_origin), or itself.
  static Dwarf_Die origin_of(Dwarf_Die* die) {
    Dwarf_Attribute attr;
    Dwarf_Die origin;
    if (dwarf_attr(die, DW_AT_abstract_origin, &attr) != nullptr && dwarf_formref_die(&attr, &origin) != nullptr)
      return origin;
    return *die;
  }

  static Origin describe(const Inlines& found, Dwarf_Die* die) {
    Origin o;
    Dwarf_Attribute attr;
    const char* name = nullptr;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) != nullptr ||
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr) != nullptr)
      name = dwarf_formstring(&attr);
    if (name != nullptr) o.linkage = demangle(name);
    name = nullptr;
    if (dwarf_attr_integrate(die, DW_AT_name, &attr) != nullptr) name = dwarf_formstring(&attr);
    o.scoped = name != nullptr ? name : "[inlined]";
    // Namespaces and classes around the declaration (a member's is where DW_AT_specification says).
    Dwarf_Die decl = *die, spec;
    if (dwarf_attr(die, DW_AT_specification, &attr) != nullptr && dwarf_formref_die(&attr, &spec) != nullptr) decl = spec;
    if (const auto it = found.scope_of.find(dwarf_dieoffset(&decl)); it != found.scope_of.end())
      o.scoped = found.scopes[it->second] + o.scoped;
    const char* file = dwarf_decl_file(die);
    int line = 0;
    if (file != nullptr && dwarf_decl_line(die, &line) == 0 && line > 0) {
      o.decl_file = file;
      o.decl_line = static_cast<unsigned>(line);
    }
    return o;
  }

  // depth: inlined calls around the DIE within its subprogram (0 outside one); scope: the
  // namespaces and classes around it (an index into found.scopes).
  static void walk(Inlines& found, Dwarf_Die* parent, Dwarf_Files* files, std::size_t nfiles, unsigned depth,
                   std::uint32_t scope, unsigned level) {
    if (level >= kMaxNesting) return;
    Dwarf_Die die;
    if (dwarf_child(parent, &die) != 0) return;
    do {
      const int tag = dwarf_tag(&die);
      unsigned inner = tag == DW_TAG_subprogram ? 0 : depth;
      std::uint32_t inner_scope = scope;
      if (tag == DW_TAG_subprogram && scope != 0) found.scope_of.emplace(dwarf_dieoffset(&die), scope);
      if (tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
          tag == DW_TAG_union_type) {
        const char* name = dwarf_diename(&die);
        if (name != nullptr && dwarf_haschildren(&die) > 0) {
          found.scopes.push_back(found.scopes[scope] + name + "::");
          inner_scope = static_cast<std::uint32_t>(found.scopes.size() - 1);
        }
      }
      Dwarf_Addr entry = 0;
      if (tag == DW_TAG_subprogram && dwarf_hasattr(&die, DW_AT_abstract_origin) && dwarf_lowpc(&die, &entry) == 0) {
        Dwarf_Die origin = origin_of(&die);
        found.copies.try_emplace(dwarf_dieoffset(&origin), entry);
      }
      if (tag == DW_TAG_inlined_subroutine) {
        inner = depth + 1;
        Dwarf_Die origin = origin_of(&die);
        const Dwarf_Off at = dwarf_dieoffset(&origin);
        found.origins.try_emplace(at);  // described once the walk has seen every scope
        Dwarf_Attribute attr;
        Dwarf_Word call_file = 0, call_line = 0;
        const char* file = nullptr;
        if (dwarf_formudata(dwarf_attr(&die, DW_AT_call_file, &attr), &call_file) == 0 && files != nullptr &&
            call_file < nfiles)
          file = dwarf_filesrc(files, call_file, nullptr, nullptr);
        if (dwarf_formudata(dwarf_attr(&die, DW_AT_call_line, &attr), &call_line) != 0 || call_line > 0xFFFFFFFFu)
          call_line = 0;
        Dwarf_Addr base = 0, lo = 0, hi = 0;
        for (ptrdiff_t next = 0; (next = dwarf_ranges(&die, next, &base, &lo, &hi)) > 0;)
          found.calls.push_back({at, inner, lo, hi, file != nullptr ? file : "", static_cast<unsigned>(call_line)});
      }
      if (dwarf_haschildren(&die) > 0) walk(found, &die, files, nfiles, inner, inner_scope, level + 1);
    } while (dwarf_siblingof(&die, &die) == 0);
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

std::optional<std::uint32_t> ElfIdentity::crc(std::uint64_t lo, std::uint64_t hi) const {
  HostCrc32 c;
  for (std::uint64_t at = lo; at < hi;) {
    const Segment* in = nullptr;
    for (const Segment& s : segments)
      if (at >= s.vaddr && at - s.vaddr < s.bytes.size()) in = &s;
    if (in == nullptr) return std::nullopt;
    const std::uint64_t off = at - in->vaddr;
    const std::uint64_t n = std::min<std::uint64_t>(hi - at, in->bytes.size() - off);
    c.update(in->bytes.data() + off, static_cast<std::size_t>(n));
    at += n;
  }
  return c.value();
}

ElfImage load_elf(const std::string& path, bool inlined) {
  ElfFile elf(path);
  ElfImage image;
  elf.add_functions(image.symbols);
  elf.add_lines(image.symbols, image.warnings);
  if (inlined) {
    image.symbols.finalize();  // sorted, to find the out-of-line copies of inlined functions
    elf.add_inlined(image.symbols);
  }
  image.symbols.finalize();
  if (image.symbols.empty()) elf.fail("has no function symbols");
  image.identity = elf.identity();
  return image;
}

SymbolTable load_elf_symbols(const std::string& path, bool inlined) { return load_elf(path, inlined).symbols; }

}  // namespace pmukit
