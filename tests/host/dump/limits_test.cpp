// The host tool's children and files, with limits: run_program (objdump, pmukit-llvm-cfi) kills a
// helper that hangs or floods and says why one failed; a bare program name is looked up on PATH;
// annotate reads source text from regular files of bounded size only. Every file, FIFO and node
// is made in a folder of the test's own.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "temp_folder.hpp"
#include "tools/report/annotate.hpp"
#include "tools/report/run_program.hpp"

namespace {

// Each test's own folder.
struct TempFolder : dumptest::TempFolder {
  TempFolder() : dumptest::TempFolder("pmukit_limits") {}
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(RunProgram, AHelperThatHangsIsKilledAtItsDeadline) {
  pmukit::ProgramLimits limits;
  limits.seconds = 1;
  for (const char* script : {"exec sleep 30", "exec >&-; exec sleep 30"}) {  // silent; output closed
    const auto t0 = std::chrono::steady_clock::now();
    const pmukit::ProgramOutput r = pmukit::run_program({"/bin/sh", "-c", script}, limits);
    EXPECT_TRUE(r.started);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failure, "no answer within 1 s (killed)") << script;
    EXPECT_LT(seconds_since(t0), 10) << script;
  }
}

TEST(RunProgram, OutputBeyondTheLimitIsRefused) {
  pmukit::ProgramLimits limits;
  limits.output = 1 << 20;
  const pmukit::ProgramOutput r = pmukit::run_program({"/bin/sh", "-c", "exec yes pmukit"}, limits);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure, "more than 1048576 bytes of output (killed)");
  EXPECT_TRUE(r.out.empty());
}

// The child's own limits, as its shell reports them (KiB of address space, seconds of CPU).
TEST(RunProgram, TheChildRunsUnderMemoryAndCpuLimits) {
  pmukit::ProgramLimits limits;
  limits.seconds = 7;
  limits.memory = std::uint64_t{256} << 20;
  const pmukit::ProgramOutput r = pmukit::run_program({"/bin/sh", "-c", "ulimit -v; ulimit -t"}, limits);
  ASSERT_TRUE(r.ok) << r.failure;
#if defined(__SANITIZE_ADDRESS__)
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1), "7\n") << "sanitizer builds limit time only";
#else
  EXPECT_EQ(r.out, "262144\n7\n");
#endif
}

TEST(RunProgram, SaysWhyAHelperFailed) {
  const TempFolder dir;
  const pmukit::ProgramOutput missing = pmukit::run_program({dir.path + "/no-such-helper"});
  EXPECT_FALSE(missing.started);
  EXPECT_EQ(missing.failure, "cannot run it: No such file or directory");
  const pmukit::ProgramOutput crashed = pmukit::run_program({"/bin/sh", "-c", "kill -SEGV $$"});
  EXPECT_TRUE(crashed.started);
  EXPECT_EQ(crashed.failure, "killed by signal 11 (Segmentation fault)");
  const pmukit::ProgramOutput failed = pmukit::run_program({"/bin/sh", "-c", "echo partial; exit 3"});
  EXPECT_EQ(failed.exit_status, 3);
  EXPECT_EQ(failed.failure, "exit status 3");
  const pmukit::ProgramOutput fine = pmukit::run_program({"/bin/sh", "-c", "echo fine"});
  EXPECT_TRUE(fine.ok);
  EXPECT_EQ(fine.out, "fine\n");
  EXPECT_EQ(fine.failure, "");
}

TEST(FindOnPath, ABareNameIsSearchedInPath) {
  const TempFolder dir;
  const std::string bin = dir.path + "/bin", other = dir.path + "/other";
  std::filesystem::create_directories(bin);
  std::filesystem::create_directories(other + "/pmukit-test-tool");  // a directory is not a program
  std::ofstream(bin + "/pmukit-test-tool") << "#!/bin/sh\n";
  ::chmod((bin + "/pmukit-test-tool").c_str(), 0755);
  const char* old = std::getenv("PATH");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("PATH", (other + ":" + bin).c_str(), 1);
  EXPECT_EQ(pmukit::find_on_path("pmukit-test-tool"), bin + "/pmukit-test-tool");
  EXPECT_EQ(pmukit::find_on_path("pmukit-no-such-tool"), "");
  EXPECT_EQ(pmukit::find_on_path("./pmukit-test-tool"), "./pmukit-test-tool") << "a path is used as given";
  ::setenv("PATH", saved.c_str(), 1);
}

// annotate prints the source line the DWARF names: a FIFO there would block it forever, a device
// like /dev/zero would fill memory. Only the regular file's text is shown. Run in a child with an
// alarm (and, outside sanitizer builds, a memory limit), so that the old behaviour fails here.
TEST(AnnotateSources, OnlyRegularFilesOfBoundedSizeAreRead) {
  const TempFolder dir;
  ASSERT_FALSE(dir.path.empty());
  const std::string fifo = dir.path + "/fifo.cpp", zero = dir.path + "/zero.cpp", big = dir.path + "/big.cpp",
                    folder = dir.path + "/folder.cpp", plain = dir.path + "/plain.cpp";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
#if !defined(__SANITIZE_ADDRESS__)
  const bool device = ::mknod(zero.c_str(), S_IFCHR | 0600, makedev(1, 5)) == 0;  // like /dev/zero (root only)
#else
  const bool device = false;  // no memory limit for the child under the sanitizer: not tried
#endif
  std::ofstream(big) << "big_line();\n";
  std::filesystem::resize_file(big, std::uintmax_t{17} << 20);  // sparse: 17 MiB
  std::filesystem::create_directories(folder);
  std::ofstream(plain) << "int plain_line = 1;\n";
  pmukit::SymbolTable symbols;
  symbols.add_function(0x1000, 0x50, "f");
  const std::string files[] = {fifo, zero, big, folder, plain};
  for (unsigned i = 0; i < 5; ++i) symbols.add_line(0x1000 + 0x10 * i, 0x1010 + 0x10 * i, files[i], 1);
  symbols.finalize();
  const pmukit::Profile profile;
  std::vector<pmukit::DisassembledInstruction> code;
  for (unsigned i = 0; i < 5; ++i) code.push_back({0x1000 + 0x10 * i, "nop"});
  const std::string out = dir.path + "/annotation.txt";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(20);
#if !defined(__SANITIZE_ADDRESS__)
    const rlimit as{std::uint64_t{2} << 30, std::uint64_t{2} << 30};
    ::setrlimit(RLIMIT_AS, &as);
#endif
    std::ostringstream os;
    pmukit::write_annotation(os, profile, symbols, symbols.function(0), code);
    std::ofstream(out) << os.str();
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "annotate hung on the FIFO or exhausted memory on the device (status " << status << ")";
  std::stringstream s;
  s << std::ifstream(out).rdbuf();
  const std::string text = s.str();
  EXPECT_NE(text.find(plain + ":1  int plain_line = 1;"), std::string::npos) << text;
  EXPECT_NE(text.find(fifo + ":1\n"), std::string::npos) << text;
  EXPECT_NE(text.find(big + ":1\n"), std::string::npos) << "over 16 MiB: not read\n" << text;
  EXPECT_NE(text.find(folder + ":1\n"), std::string::npos) << text;
  if (device) {
    EXPECT_NE(text.find(zero + ":1\n"), std::string::npos) << text;
  }
}

}  // namespace
