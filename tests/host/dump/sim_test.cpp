// `pmukit sim` (pmusim) on hostile firmware: every run ends within its limits, with the firmware's
// exit status, or 3 and a message; never a signal, never a hang. Small firmware made here, one per
// machine (each programs its PMU, takes one overflow interrupt and exits), the runaways found
// before, and a fuzz of the five seeds with a fixed seed. Files in a folder of their own.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "temp_folder.hpp"

#if PMUKIT_WITH_SIM
namespace {

using Bytes = std::vector<std::uint8_t>;

// Each test's own folder.
struct TempFolder : dumptest::TempFolder {
  TempFolder() : dumptest::TempFolder("pmukit_sim") {}
};

void put(Bytes& b, std::size_t at, std::uint32_t v, unsigned n, bool big) {
  for (unsigned i = 0; i < n; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * (big ? n - 1 - i : i)));
}

struct Image {
  std::uint16_t machine = 0;  // e_machine: 3 i386, 8 MIPS, 20 PowerPC, 40 ARM
  bool big = false;
  std::uint32_t flags = 0, entry = 0, addr = 0;
  Bytes code;
  std::uint32_t memsz = 0;  // 0: the code's size
  bool exec = true;
};

// An ELF32 executable of one PT_LOAD segment (System V ABI): file header, program header, code.
Bytes elf32(const Image& im) {
  Bytes b(84, 0);
  b[0] = 0x7f, b[1] = 'E', b[2] = 'L', b[3] = 'F', b[4] = 1, b[5] = im.big ? 2 : 1, b[6] = 1;
  const auto h = [&](std::size_t at, std::uint32_t v, unsigned n) { put(b, at, v, n, im.big); };
  h(16, 2, 2), h(18, im.machine, 2), h(20, 1, 4), h(24, im.entry, 4), h(28, 52, 4), h(36, im.flags, 4);
  h(40, 52, 2), h(42, 32, 2), h(44, 1, 2), h(46, 40, 2);
  const auto size = static_cast<std::uint32_t>(im.code.size());
  h(52, 1, 4), h(56, 84, 4), h(60, im.addr, 4), h(64, im.addr, 4), h(68, size, 4);
  h(72, im.memsz ? im.memsz : size, 4), h(76, im.exec ? 5 : 6, 4), h(80, 4, 4);
  b.insert(b.end(), im.code.begin(), im.code.end());
  return b;
}

Bytes words(const std::vector<std::uint32_t>& w, bool big) {
  Bytes b(4 * w.size());
  for (std::size_t i = 0; i < w.size(); ++i) put(b, 4 * i, w[i], 4, big);
  return b;
}

// i386 at 0x1000 (examples/pc's board): BPU_COUNTER0 4096 clocks from its wrap with OVF_PMI, the
// LVT entry on vector 0x20, a loop, rdpmc, 'A' on COM1, isa-debug-exit 0. No GDT, so the handler
// pops its frame by hand.
Image i386_seed() {
  Image im{3, false, 0, 0x1000, 0x1000, {}};
  im.code = {
      0xbc, 0x00, 0x00, 0xf0, 0x01,              // mov $0x1f00000, %esp
      0x0f, 0x01, 0x1d, 0x70, 0x12, 0x00, 0x00,  // lidt 0x1270
      0x31, 0xc0, 0x0f, 0xa2,                    // xor %eax, %eax; cpuid
      0xb9, 0xa2, 0x03, 0x00, 0x00,              // mov $0x3a2, %ecx (FSB_ESCR0)
      0xb8, 0x0f, 0x02, 0x00, 0x26,              // mov $0x2600020f, %eax (global_power_events:RUNNING)
      0x31, 0xd2, 0x0f, 0x30,                    // xor %edx, %edx; wrmsr
      0xb9, 0x00, 0x03, 0x00, 0x00,              // mov $0x300, %ecx (BPU_COUNTER0)
      0xb8, 0x00, 0xf0, 0xff, 0xff,              // mov $0xfffff000, %eax
      0xba, 0xff, 0x00, 0x00, 0x00, 0x0f, 0x30,  // mov $0xff, %edx; wrmsr
      0xb9, 0x60, 0x03, 0x00, 0x00,              // mov $0x360, %ecx (BPU_CCCR0)
      0xb8, 0x00, 0xd0, 0x03, 0x04,              // mov $0x0403d000, %eax (enable, ESCR 0, OVF_PMI)
      0x31, 0xd2, 0x0f, 0x30,                    // xor %edx, %edx; wrmsr
      0xc7, 0x05, 0x40, 0x03, 0xe0, 0xfe, 0x20, 0x00, 0x00, 0x00,  // movl $0x20, 0xfee00340 (LVT)
      0xfb,                                      // sti
      0xb9, 0xb8, 0x0b, 0x00, 0x00,              // mov $3000, %ecx
      0x49, 0x75, 0xfd,                          // 1: dec %ecx; jnz 1b
      0x31, 0xc9, 0x0f, 0x33,                    // xor %ecx, %ecx; rdpmc
      0x66, 0xba, 0xf8, 0x03, 0xb0, 0x41, 0xee,  // mov $0x3f8, %dx; mov $'A', %al; out %al, %dx
      0x66, 0xba, 0xf4, 0x00, 0x30, 0xc0, 0xee,  // mov $0xf4, %dx; xor %al, %al; out %al, %dx
      0xfa, 0xf4,                                // cli; hlt
      0x58, 0x83, 0xc4, 0x08, 0xfb, 0xff, 0xe0,  // 0x1064: pop %eax; add $8, %esp; sti; jmp *%eax
      0x8d, 0x74, 0x26, 0x00, 0x90};             // padding to the IDT at 0x1070
  for (int v = 0; v < 64; ++v)  // 32-bit interrupt gates to 0x1064, selector 8
    im.code.insert(im.code.end(), {0x64, 0x10, 0x08, 0x00, 0x00, 0x8e, 0x00, 0x00});
  im.code.insert(im.code.end(), {0xff, 0x01, 0x70, 0x10, 0x00, 0x00});  // 0x1270: the IDTR
  return im;
}

// MIPS IV big-endian at 0x80000180 (the general exception vector; examples/malta's board):
// PerfCount 4096 cycles before bit 31, PerfControl CE|KM|cycles, IM13, Status.IE, a loop, 'A' on
// the 16550, UHI exit 0. The vector clears PerfCount and returns.
Image rm7000_seed() {
  std::vector<std::uint32_t> w = {0x4080c800, 0x42000018};  // mtc0 $0, $25; eret
  w.resize(32, 0);                                           // nops up to 0x80000200
  w.insert(w.end(), {
      0x3c1d80f0,              // lui sp, 0x80f0
      0x3c087fff, 0x3508f000,  // li t0, 0x7ffff000
      0x4088c800,              // mtc0 t0, $25 (PerfCount)
      0x24080500, 0x4088b000,  // li t0, 0x500; mtc0 t0, $22 (PerfControl)
      0x24082000, 0x40c8a000,  // li t0, 0x2000; ctc0 t0, $20 (Interrupt Control: IM13)
      0x24080001, 0x40886000,  // li t0, 1; mtc0 t0, $12 (Status: IE)
      0x24090bb8,              // li t1, 3000
      0x1520ffff, 0x2529ffff,  // 1: bnez t1, 1b; addiu t1, t1, -1
      0x400ac800,              // mfc0 t2, $25
      0x3c0bb800, 0x240c0041, 0xa16c03f8,  // sb 'A', 0xb80003f8
      0x24190001, 0x24040000, 0x7000003f}); // li t9, 1; li a0, 0; sdbbp (UHI exit)
  return {8, true, 0x30001101, 0x80000200, 0x80000180, words(w, true)};
}

// MIPS32r2 big-endian (the CM's machine): Config3, CMGCRBase, GCR_REV, a loop, 'A', UHI exit 0.
Image cm_seed() {
  return {8, true, 0x70001001, 0x80001000, 0x80001000,
          words({0x3c1d80f0,              // lui sp, 0x80f0
                 0x40088003, 0x40087803,  // mfc0 t0, $16, 3; mfc0 t0, $15, 3
                 0x3c09bfbf, 0x35298000, 0x8d2a0030,  // lw t2, GCR_REV(0xbfbf8000)
                 0x24090bb8, 0x1520ffff, 0x2529ffff,  // the loop
                 0x3c0bb800, 0x240c0041, 0xa16c03f8,  // 'A'
                 0x24190001, 0x24040000, 0x7000003f, 0},  // UHI exit
                true)};
}

// ARM at 0xa0008000 (examples/xscale's mainstone): the IRQ vector written at 0, CCNT 4096 cycles
// before its wrap with its interrupt, ICMR's PMU source, IRQs on, a loop, 'A' on the FFUART,
// semihosting exit. The handler clears FLAG.
Image xscale_seed() {
  return {40, false, 0, 0xa0008000, 0xa0008000,
          words({0xe3a0d4a1, 0xe3a00000,              // mov sp, #0xa1000000; mov r0, #0
                 0xe59f1060, 0xe5801018,              // str =0xe59ff018 (ldr pc, [pc, #0x18]), [r0, #0x18]
                 0xe59f105c, 0xe5801038,              // str =irq, [r0, #0x38]
                 0xe59f0058, 0xee010e11,              // mcr p14, 0, =0xfffff000, c1, c1 (CCNT)
                 0xe3a00001, 0xee040e11, 0xee000e11,  // INTEN = PMNC = 1
                 0xe59f2048, 0xe3a03a01, 0xe5823000,  // ICMR = 1 << 12
                 0xe321f013,                          // msr cpsr_c, #0x13
                 0xe59f403c, 0xe2544001, 0x1afffffd,  // the loop
                 0xee115e11,                          // mrc p14, 0, r5, c1, c1 (CCNT)
                 0xe59f2030, 0xe3a03041, 0xe5823000,  // 'A'
                 0xe3a00018, 0xe59f1024, 0xef123456,  // SYS_EXIT, ApplicationExit
                 0xe3a00001, 0xee050e11, 0xe25ef004,  // irq: FLAG = 1; subs pc, lr, #4
                 0xe59ff018, 0xa0008064, 0xfffff000, 0x40d00004, 0x00000bb8, 0x40100000, 0x00020026},
                false)};
}

// PowerPC big-endian at 0x1000 (examples/e500's mpc8544ds): IVOR35, PMC0 4096 cycles before its
// condition, PMLCa0 CE|cycles, PMGC0.PMIE, MSR[EE], a loop, "E\n" on DUART0, RSTCR. The handler
// clears PMC0 and returns with rfi.
Image e500_seed() {
  return {20, true, 0, 0x1000, 0x1000,
          words({0x3c200100, 0x38000000, 0x7c1f0ba6,  // lis r1, 0x100; mtspr IVPR, 0
                 0x38601080, 0x7c7383a6,              // mtspr IVOR35, 0x1080
                 0x3c607fff, 0x6063f000, 0x7c70039c,  // mtpmr PMC0, 0x7ffff000
                 0x3c600401, 0x7c70239c,              // mtpmr PMLCa0, 0x04010000
                 0x3c604000, 0x7c70639c,              // mtpmr PMGC0, PMIE
                 0x7c6000a6, 0x60638000, 0x7c600124,  // MSR |= EE
                 0x38801770, 0x7c8903a6, 0x42000000,  // li r4, 6000; mtctr r4; bdnz .
                 0x7cb0029c,                          // mfpmr r5, PMC0
                 0x3cc0e000, 0x60c64500,              // DUART0
                 0x38e00045, 0x98e60000, 0x38e0000a, 0x98e60000,  // "E\n"
                 0x3cc0e00e, 0x60c600b0, 0x38e00002, 0x90e60000,  // RSTCR = HRESET_REQ
                 0x48000000, 0x60000000, 0x60000000,  // b .
                 0x39000000, 0x7d10039c, 0x4c000064},  // 0x1080: mtpmr PMC0, 0; rfi
                true)};
}

std::vector<Image> seeds() { return {i386_seed(), rm7000_seed(), cm_seed(), xscale_seed(), e500_seed()}; }

struct SimRun {
  bool signaled = false, hung = false;
  int status = -1;
  std::string err;
  double seconds = 0;
};

// pmukit sim ARGS, standard output discarded; killed (hung) after `limit` seconds. `poke`: a signal
// sent to it after 0.3 s.
SimRun sim(const std::vector<std::string>& args, const std::string& err_path, double limit = 30, int poke = 0) {
  std::vector<std::string> all = {PMUKIT_CLI, "sim"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  SimRun r;
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open("/dev/null", O_WRONLY), err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  for (;;) {
    if (::waitpid(pid, &status, WNOHANG) == pid) break;
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (poke != 0 && t > 0.3) {
      ::kill(pid, poke);
      poke = 0;
    }
    if (t > limit) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.signaled = !r.hung && WIFSIGNALED(status);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_path);
  std::stringstream s;
  s << in.rdbuf();
  r.err = s.str();
  return r;
}

std::string write_elf(const TempFolder& dir, const std::string& name, const Bytes& b) {
  const std::string path = dir.path + "/" + name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return path;
}

// Each seed runs to its exit, its interrupt taken: the mutations start from working firmware.
TEST(SimLimits, SeedsRunToTheirExit) {
  const TempFolder dir;
  ASSERT_FALSE(dir.path.empty());
  const char* names[] = {"i386", "rm7000", "cm", "xscale", "e500"};
  const std::vector<Image> all = seeds();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const SimRun r = sim({write_elf(dir, names[i], elf32(all[i])), "--quiet"}, dir.path + "/err");
    EXPECT_EQ(r.status, 0) << names[i] << ": " << r.err;
    if (names[i] != std::string("cm")) {
      EXPECT_NE(r.err.find(" 1 PMU interrupts"), std::string::npos) << names[i] << ": " << r.err;
    }
  }
}

// PowerPC (the e500 machine): PMGC0 = `pmgc0`, PMC0 counting event 90 (TBL_BIT_TRANSITIONS),
// `loop` trips of bdnz, then "EXIT <PMC0>\n" on DUART0 (one digit) and RSTCR: PMC0 is the exit status.
Image e500_event90(std::uint32_t pmgc0, std::uint32_t loop) {
  return {20, true, 0, 0x1000, 0x1000,
          words({0x38600000 | pmgc0, 0x7c70639c,      // li r3, pmgc0; mtpmr PMGC0, r3
                 0x3c60005a, 0x7c70239c,              // lis r3, 90; mtpmr PMLCa0, r3 (EVENT 90)
                 0x38800000 | loop, 0x7c8903a6, 0x42000000,  // li r4, loop; mtctr r4; bdnz .
                 0x7cb0029c,                          // mfpmr r5, PMC0
                 0x3cc0e000, 0x60c64500,              // DUART0
                 0x38e00045, 0x98e60000, 0x38e00058, 0x98e60000, 0x38e00049, 0x98e60000,  // "EXI"
                 0x38e00054, 0x98e60000, 0x38e00020, 0x98e60000,                          // "T "
                 0x38e50030, 0x98e60000, 0x38e0000a, 0x98e60000,  // '0' + r5, "\n"
                 0x3cc0e00e, 0x60c600b0, 0x38e00002, 0x90e60000,  // RSTCR = HRESET_REQ
                 0x48000000},                                     // b .
                true)};
}

// e500 Core Family Reference Manual 9.3.2: the e500v2 counts "transitions of the TBL bit selected
// by PMGC0[TBSEL]. This count is enabled by setting PMGC0[TBEE]"; Table 7-3: TBSEL 01 selects
// TB[55], 10 TB[51], each event that bit going from 0 to 1. pmusim's time base ticks 2 per 5
// instructions: 6000 trips end near TB 2400, past TB[55]'s rises at 256, 768, 1280, 1792 and 2304;
// 30000 trips end near TB 12000, past TB[51]'s rise at 4096 only. Without TBEE, none.
TEST(SimE500, Event90CountsTheTbselBitsTransitionsFromTheTimeBaseWhileTbeeIsSet) {
  const TempFolder dir;
  constexpr std::uint32_t TBEE = 0x100, TBSEL1 = 0x800, TBSEL2 = 0x1000;
  const struct {
    std::uint32_t pmgc0, loop;
    int transitions;
  } cases[] = {{TBSEL1 | TBEE, 6000, 5}, {TBSEL2 | TBEE, 30000, 1}, {TBSEL1, 6000, 0}};
  for (const auto& c : cases) {
    const SimRun r = sim({write_elf(dir, "event90.elf", elf32(e500_event90(c.pmgc0, c.loop))), "--quiet"},
                         dir.path + "/err");
    EXPECT_EQ(r.status, c.transitions) << std::hex << "PMGC0 0x" << c.pmgc0 << ": " << r.err;
  }
}

// A jump to address 0 restarted Unicorn at 0 forever, which its `until` of 0 stopped before the
// first instruction: past every limit, nothing executed.
TEST(SimLimits, AJumpToAddressZeroEndsAtTheInstructionLimit) {
  const TempFolder dir;
  const std::vector<Image> images = {
      {3, false, 0, 0x1000, 0x1000, {0x31, 0xc0, 0xff, 0xe0}},                      // xor %eax, %eax; jmp *%eax
      {40, false, 0, 0xa0008000, 0xa0008000, words({0xe3a0f000}, false)},            // mov pc, #0
      {20, true, 0, 0x1000, 0x1000, words({0x38000000, 0x7c0803a6, 0x4e800020}, true)}};  // blr to 0
  for (const Image& im : images) {
    const SimRun r = sim({write_elf(dir, "zero.elf", elf32(im)), "--insns", "100000"}, dir.path + "/err", 20);
    EXPECT_FALSE(r.hung) << "e_machine " << im.machine << ": still running after 20 s";
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_NE(r.err.rfind("\npmusim: "), std::string::npos) << r.err;
  }
}

// cli; hlt waits for an interrupt that cannot come: an error at once, not 4e9 instructions later.
TEST(SimLimits, HltWithInterruptsDisabledEnds) {
  const TempFolder dir;
  const Image im{3, false, 0, 0x1000, 0x1000, {0xfa, 0xf4, 0xeb, 0xfd}};  // cli; hlt; jmp .-1
  const SimRun r = sim({write_elf(dir, "hlt.elf", elf32(im))}, dir.path + "/err", 20);
  ASSERT_FALSE(r.hung);
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("hlt with interrupts disabled at 0x00001001"), std::string::npos) << r.err;
}

// --timeout bounds the wall time whatever --insns allows.
TEST(SimLimits, WallTimeLimit) {
  const TempFolder dir;
  const Image im{3, false, 0, 0x1000, 0x1000, {0xeb, 0xfe}};  // jmp .
  const SimRun r = sim({write_elf(dir, "loop.elf", elf32(im)), "--insns", "1000000000000", "--timeout", "1"},
                    dir.path + "/err", 20);
  ASSERT_FALSE(r.hung);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("pmusim: time limit reached (1 s)"), std::string::npos) << r.err;
  EXPECT_LT(r.seconds, 10);
  EXPECT_EQ(sim({"loop.elf", "--timeout", "0"}, dir.path + "/err").status, 2);
}

// A crash or an abort inside Unicorn is an error with a message: Unicorn 2.0.1 aborts the process
// on an e500 mtmsr that sets MSR[IS] or MSR[DS] (it runs without translation); a SIGSEGV, and the
// backstop alarm of a stall inside it, are sent from here.
TEST(SimLimits, AFaultInsideTheEmulatorIsAnError) {
  const TempFolder dir;
  const Image is{20, true, 0, 0x1000, 0x1000,
                 words({0x38600030, 0x7c600124, 0x48000000}, true)};  // li r3, IS|DS; mtmsr r3; b .
  const SimRun abort = sim({write_elf(dir, "is.elf", elf32(is))}, dir.path + "/err", 30);
  EXPECT_FALSE(abort.signaled) << abort.err;
  EXPECT_EQ(abort.status, 3);
  EXPECT_NE(abort.err.find("pmusim: the emulator crashed (SIGABRT after 2 instructions): "), std::string::npos)
      << abort.err;
  const Image loop{3, false, 0, 0x1000, 0x1000, {0xeb, 0xfe}};  // jmp .
  const std::string elf = write_elf(dir, "loop.elf", elf32(loop));
  for (const int sig : {SIGSEGV, SIGALRM}) {
    const SimRun r = sim({elf, "--insns", "100000000000"}, dir.path + "/err", 30, sig);
    EXPECT_FALSE(r.signaled) << r.err;
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find(sig == SIGSEGV ? "pmusim: the emulator crashed (SIGSEGV after "
                                        : "pmusim: the emulator did not stop at the time limit (after "),
              std::string::npos) << r.err;
  }
}

// A device named as the firmware (here a node like /dev/zero, made in the test's folder; root only)
// is refused at a size no firmware has, not read until memory runs out. The shell's ulimit keeps a
// run without the bound from taking the machine's memory.
TEST(SimLimits, AnEndlessFileIsRefused) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "no ulimit -v under the sanitizer";
#endif
  const TempFolder dir;
  const std::string zero = dir.path + "/zero.elf";
  if (::mknod(zero.c_str(), S_IFCHR | 0600, makedev(1, 5)) != 0) GTEST_SKIP() << "mknod needs root";
  const std::string err = dir.path + "/err";
  const std::string command = "ulimit -v 2000000; timeout 60 " + std::string(PMUKIT_CLI) + " sim " + zero + " 2>" + err;
  const int raw = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 3) << raw;
  std::stringstream s;
  s << std::ifstream(err).rdbuf();
  EXPECT_EQ(s.str(), "pmusim: '" + zero + "' is larger than 256 MiB: not a firmware image\n");
}

// 4 MiB of ARM ldm, each translated to ~1.3 KiB: Unicorn 2.0.1's 1 GiB translation buffer filled
// after ~800k instructions and it crashed (SIGSEGV in tb_set_jmp_target), as a runaway through
// zeroed RAM does after ~12M. Filling 1 GiB of translations takes ~10 s whatever the code.
TEST(SimLimits, CodeThatFillsUnicornsTranslationBufferEndsCleanly) {
  const TempFolder dir;
  const Image im{40, false, 0, 0xa0008000, 0xa0008000,
                 words(std::vector<std::uint32_t>(1u << 20, 0xe8905ffe), false)};  // ldmia r0, {r1-r12, lr}
  const SimRun r = sim({write_elf(dir, "ldm.elf", elf32(im)), "--insns", "1000000", "--quiet"}, dir.path + "/err", 60);
  EXPECT_FALSE(r.signaled) << r.err;
  EXPECT_FALSE(r.hung);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("pmusim: instruction limit reached (1000000)"), std::string::npos) << r.err;
}

// The five seeds, mutated (a few bytes of code, now and then the ELF and program headers) with a
// fixed seed: each run ends by itself with an exit status and, for 3, pmusim's message.
TEST(SimFuzz, MutatedFirmwareNeverCrashesNorHangs) {
  const TempFolder dir;
  ASSERT_FALSE(dir.path.empty());
  std::mt19937 rng(31);  // the standard fixes mt19937's sequence: the same cases everywhere
  unsigned runs = 0, exits = 0, stopped = 0, crashes_contained = 0;
  const std::vector<std::string> limits = {"--insns", "100000", "--timeout", "10", "--quiet"};
  for (const Image& seed : seeds()) {
    const Bytes base = elf32(seed);
    std::vector<std::string> args = {write_elf(dir, "seed.elf", base)};
    args.insert(args.end(), limits.begin(), limits.end());
    ASSERT_EQ(sim(args, dir.path + "/err").status, 0) << "the seed itself, e_machine " << seed.machine;
    for (int k = 0; k < 60; ++k) {
      Bytes b = base;
      const unsigned changes = 1u << (rng() % 5);
      for (unsigned c = 0; c < changes; ++c) {
        const std::size_t at = rng() % 10 == 0 ? rng() % 84 : 84 + rng() % (b.size() - 84);
        switch (rng() % 4) {
          case 0: b[at] = static_cast<std::uint8_t>(rng()); break;
          case 1: b[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
          case 2: b[at] = 0; break;
          default: b[at] = 0xff; break;
        }
      }
      const std::string elf = write_elf(dir, "m" + std::to_string(runs) + ".elf", b);
      args[0] = elf;
      const SimRun r = sim(args, dir.path + "/err", 30);
      ++runs;
      const std::string which = "case " + std::to_string(runs - 1) + ", e_machine " + std::to_string(seed.machine);
      ASSERT_FALSE(r.signaled) << which << ": a signal\n" << r.err;
      ASSERT_FALSE(r.hung) << which << ": still running after 30 s";
      ASSERT_GE(r.status, 0);
      ASSERT_EQ(r.err.find("Sanitizer"), std::string::npos) << which << ": " << r.err;  // host-asan's report
      if (r.status == 3) {
        ASSERT_NE(r.err.find("pmusim: "), std::string::npos) << which << ": no message";
        ++stopped;
        crashes_contained += r.err.find("the emulator crashed") != std::string::npos;
      } else {
        ++exits;
      }
      std::remove(elf.c_str());
    }
  }
  std::printf("pmusim fuzz: %u runs, %u exits, %u stopped with a message (%u of them emulator crashes)\n", runs,
              exits, stopped, crashes_contained);
}

}  // namespace
#endif
