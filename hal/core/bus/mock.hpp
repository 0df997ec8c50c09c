#pragma once
// Mock bus for host tests: same interface as the hardware buses, no asm, no heap.
//
// - A register file in static storage, filed by location key (any bus kind).
// - An access log of every read and write, in order; entries past its capacity are counted in
//   log_dropped, never silently lost.
// - A device hook: a behavioural PMU model (MockDevice) answers reads and takes writes for the
//   registers it models, may make an access trap (as a missing register does on hardware), and
//   leaves the rest to the register file.
// One MockBus<Tag> per Tag, so two models can live in one test binary.
#include <cstddef>
#include <cstdint>

#include "hal/core/fault.hpp"
#include "hal/core/location.hpp"

namespace pmu {

enum class MockResult : std::uint8_t {
  unhandled,  // not a register of this device: use the mock's register file
  handled,    // the device answered the read / took the write
  trap,       // the access traps (undefined instruction, program interrupt)
};

struct MockDevice {
  virtual MockResult read(std::uint32_t key, std::uint64_t& value) = 0;
  virtual MockResult write(std::uint32_t key, std::uint64_t value) = 0;

 protected:
  ~MockDevice() = default;
};

// barrier: a bus's select_barrier() (select-then-access, location.hpp), logged with key 0.
enum class MockOp : std::uint8_t { read, write, barrier };

struct MockAccess {
  std::uint32_t key;
  MockOp op;
  std::uint64_t value;  // value read or written (as the driver saw it)
  bool trapped;
};

template <class Tag = void>
struct MockBus {
  static constexpr bool all_kinds = true;  // the register file takes every location kind
  static constexpr std::size_t kRegisters = 128;
  static constexpr std::size_t kLog = 4096;

  template <class Loc, class T>
  static T read() {
    std::uint64_t v = 0;
    bool trapped = false;
    const MockResult r = device ? device->read(Loc::key, v) : MockResult::unhandled;
    if (r == MockResult::unhandled) {
      v = peek(file_key<Loc>());
    } else if (r == MockResult::trap) {
      trapped = true;
      v = kTrapValue;
      if (!fault::raise()) ++unexpected_traps;
    }
    record({Loc::key, MockOp::read, static_cast<T>(v), trapped});
    return static_cast<T>(v);
  }

  template <class Loc, class T>
  static void write(T v) {
    bool trapped = false;
    const MockResult r = device ? device->write(Loc::key, v) : MockResult::unhandled;
    last_write = v;
    if (r == MockResult::unhandled) {
      poke(file_key<Loc>(), v);
    } else if (r == MockResult::trap) {
      trapped = true;
      if (!fault::raise()) ++unexpected_traps;
    }
    record({Loc::key, MockOp::write, v, trapped});
  }

  // The select-then-access barrier (an ISB on ARMv7-A): no device sees it; logged, so a test can
  // check its place. The register file files a banked register under the value of the select
  // written just before (selection), as the hardware's select would choose it.
  static void select_barrier() {
    selection = last_write;
    record({0, MockOp::barrier, 0, false});
  }

  // --- test-side access (not logged) ---
  static void reset() {
    selection = 0;
    last_write = 0;
    for (auto& s : slots) s = Slot{};
    log_size = 0;
    log_dropped = 0;
    unexpected_traps = 0;
    register_file_full = false;
    device = nullptr;
  }
  static std::uint64_t peek(std::uint32_t key) {
    for (const auto& s : slots)
      if (s.used && s.key == key) return s.value;
    return 0;
  }
  static void poke(std::uint32_t key, std::uint64_t value) {
    for (auto& s : slots) {
      if (s.used && s.key == key) {
        s.value = value;
        return;
      }
    }
    for (auto& s : slots) {
      if (!s.used) {
        s = Slot{key, value, true};
        return;
      }
    }
    register_file_full = true;  // tests assert it stays false
  }
  template <class R>
  static std::uint64_t peek() {
    return peek(R::location::key);
  }
  template <class R>
  static void poke(std::uint64_t value) {
    poke(R::location::key, value);
  }
  // Accesses to one register (of one kind) since the last reset/clear_log.
  static std::size_t count(std::uint32_t key, MockOp op) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < log_size; ++i)
      if (log[i].key == key && log[i].op == op) ++n;
    return n;
  }
  template <class R>
  static std::size_t count(MockOp op) {
    return count(R::location::key, op);
  }
  static void clear_log() {
    log_size = 0;
    log_dropped = 0;
  }

  // What a trapped read returns: unspecified on hardware, a recognisable pattern here.
  static constexpr std::uint64_t kTrapValue = 0xDEADBEEFDEADBEEFull;

  static inline MockDevice* device = nullptr;
  static inline MockAccess log[kLog]{};
  static inline std::size_t log_size = 0;
  static inline std::size_t log_dropped = 0;
  static inline std::size_t unexpected_traps = 0;  // traps while no probe was armed
  static inline bool register_file_full = false;
  static inline std::uint64_t selection = 0;   // select value the last select_barrier() saw
  static inline std::uint64_t last_write = 0;  // value of the last write (the select, at a barrier)

 private:
  template <class Loc>
  static std::uint32_t file_key() {
    if constexpr (requires { Loc::banked; })
      return selected_key(Loc::key, static_cast<std::uint32_t>(selection));
    else
      return Loc::key;
  }
  struct Slot {
    std::uint32_t key = 0;
    std::uint64_t value = 0;
    bool used = false;
  };
  static inline Slot slots[kRegisters]{};

  static void record(const MockAccess& a) {
    if (log_size < kLog)
      log[log_size++] = a;
    else
      ++log_dropped;
  }
};

}  // namespace pmu
