#pragma once
// ARM semihosting: a request to the debugger or emulator attached to the core ("Semihosting for
// AArch32 and AArch64", ARM DUI 0375 / the semihosting specification v2). The operation number in
// r0, a pointer to its parameter block in r1, the result back in r0. The trap is SVC 0x123456 in
// ARM state, BKPT 0xAB in Thumb state and on M-profile cores. Without a debugger or an emulator
// that serves it (QEMU -semihosting), the trap goes to the core's SVC or prefetch-abort vector:
// call only where something serves it.
#include <cstdint>

namespace pmu::semihosting {

// Operation numbers (the specification's SYS_* names).
inline constexpr std::uint32_t kSysOpen = 0x01;   // {path, mode, length} -> handle, or -1
inline constexpr std::uint32_t kSysClose = 0x02;  // {handle} -> 0, or -1
inline constexpr std::uint32_t kSysWrite = 0x05;  // {handle, data, length} -> bytes NOT written
// SYS_OPEN's mode: an index into the C fopen() modes "r", "rb", "r+", "r+b", "w", "wb", ...
inline constexpr std::uint32_t kModeWriteBinary = 5;  // "wb"

#if defined(__arm__)
inline std::uint32_t call(std::uint32_t op, const void* block) {
  register std::uint32_t r0 asm("r0") = op;
  register const void* r1 asm("r1") = block;
#if defined(__thumb__) || (defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M')
  asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
#else
  asm volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
#endif
  return r0;
}
inline constexpr bool kAvailable = true;
#else
inline std::uint32_t call(std::uint32_t, const void*) { return ~std::uint32_t{0}; }
inline constexpr bool kAvailable = false;  // the ARM protocol only (MIPS UHI is another one)
#endif

}  // namespace pmu::semihosting
