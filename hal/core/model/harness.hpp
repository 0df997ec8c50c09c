#pragma once
// The host-only harness under every behavioural PMU model: what a model needs besides the
// manual's rules, written once.
//
//   - Which accesses it answers: locations of its bus kind (the rest go to the mock's register
//     file); in absent mode every such access traps, as on a core without this PMU.
//   - One access bracket: each answered access is counted, then time passes (on_access_done: a
//     model may advance its counters per access), then a test hook runs, then a pending interrupt
//     is taken. Hooks and interrupt handlers may use the bus themselves; their accesses appear in
//     the mock's log before the access that triggered them.
//   - One hook semantics: after_access(n, fn, ctx) runs fn once, right after the n-th answered
//     access from now (n >= 1); fn may re-arm it; nullptr disarms.
//   - One interrupt semantics: the model says when its interrupt is wanted (interrupt_wanted) and
//     what taking it does (interrupt_taken); the harness calls the test's handler with further
//     interrupts masked (no nesting), retakes it while still wanted after the handler returns, and
//     reports a storm past kMaxInterruptLoop back-to-back interrupts instead of hanging.
//   - CounterBank<N>: N counters that wrap at a given width and count their wraps.
// Freestanding: no heap, no exceptions, no RTTI; callbacks are a function pointer and a context.
#include <cstdint>

#include "hal/core/bus/irq.hpp"
#include "hal/core/bus/mock.hpp"
#include "hal/core/location.hpp"

namespace pmu::model {

using Callback = void (*)(void* context);

class Harness : public MockDevice {
 public:
  static constexpr unsigned kMaxInterruptLoop = 64;

  // --- test side ---
  void on_interrupt(Callback fn, void* context) {
    irq_fn_ = fn;
    irq_ctx_ = context;
  }
  void after_access(std::uint64_t n, Callback fn, void* context) {
    hook_fn_ = fn;
    hook_ctx_ = context;
    hook_at_ = accesses_ + (n == 0 ? 1 : n);
  }
  void reset_access_count() {
    accesses_ = 0;
    hook_fn_ = nullptr;
  }
  void set_absent(bool absent) { absent_ = absent; }
  bool absent() const { return absent_; }
  std::uint64_t accesses() const { return accesses_; }
  std::uint32_t interrupts() const { return interrupts_; }  // taken
  bool interrupt_storm() const { return storm_; }
  bool in_handler() const { return in_handler_; }

  // --- MockDevice ---
  MockResult read(std::uint32_t key, std::uint64_t& value) final {
    if (uncounted_read(key, value)) return MockResult::handled;
    return bracket(key, [&] { return on_read(key, value); });
  }
  MockResult write(std::uint32_t key, std::uint64_t value) final {
    if (uncounted_write(key, value)) return MockResult::handled;
    return bracket(key, [&] { return on_write(key, value); });
  }

 protected:
  // The bus kinds the model answers: its registers' (and a second one where the PMU is also reached
  // another way, e.g. x86 counters read by rdpmc and written as MSRs).
  explicit Harness(BusKind kind, BusKind also = BusKind{}) : kinds_(bit(kind) | bit(also)) {}
  Harness(const Harness&) = default;
  Harness& operator=(const Harness&) = default;
  ~Harness() = default;

  // The model's registers. A key of the model's bus kind that it does not know: trap or
  // unhandled, as the hardware would behave.
  virtual MockResult on_read(std::uint32_t key, std::uint64_t& value) = 0;
  virtual MockResult on_write(std::uint32_t key, std::uint64_t value) = 0;
  // Registers the model answers that are not PMU accesses (an ID register read while probing):
  // not counted, never trapping, no hook. true = answered.
  virtual bool uncounted_read(std::uint32_t, std::uint64_t&) { return false; }
  virtual bool uncounted_write(std::uint32_t, std::uint64_t) { return false; }
  // Keys of the bus kind the model does not own at all (e.g. MIDR, answered elsewhere).
  virtual bool owns(std::uint32_t) const { return true; }
  // Time passing after each answered access (counters advancing per instruction).
  virtual void on_access_done() {}
  // Does the PMU assert its interrupt now, and what does taking it change (e.g. e500 clears
  // PMGC0[PMIE]; an edge-triggered model drops its pending edge)?
  virtual bool interrupt_wanted() const = 0;
  virtual void interrupt_taken() = 0;

  // Call after any state change: takes the interrupt now unless inside an access (then at its
  // end), inside the handler (then when it returns) or while the CPU masks interrupts
  // (pmu::IrqGuard in a host build: then when the mask is lifted).
  void poll_interrupt() {
    if (in_access_ || in_handler_) return;
    if (host_irq::masked) {
      if (interrupt_wanted()) host_irq::run_or_defer(&Harness::deferred_poll, this);
      return;
    }
    unsigned taken = 0;
    while (interrupt_wanted()) {
      if (++taken > kMaxInterruptLoop) {
        storm_ = true;
        return;
      }
      interrupt_taken();
      ++interrupts_;
      if (!irq_fn_) return;
      in_handler_ = true;
      irq_fn_(irq_ctx_);
      in_handler_ = false;
    }
  }

 private:
  static void deferred_poll(void* self) { static_cast<Harness*>(self)->poll_interrupt(); }
  // One answered access: counted, time passes, the hook, then a pending interrupt.
  template <class Answer>
  MockResult bracket(std::uint32_t key, Answer answer) {
    if (!answers(key)) return MockResult::unhandled;
    in_access_ = true;
    const MockResult r = absent_ ? MockResult::trap : answer();
    in_access_ = false;
    if (r != MockResult::unhandled) done();
    return r;
  }
  bool answers(std::uint32_t key) const {
    const std::uint32_t kind = key >> 24;
    return kind < 32 && (kinds_ >> kind & 1u) && owns(key);
  }
  void done() {
    ++accesses_;
    on_access_done();
    if (hook_fn_ && accesses_ == hook_at_) {
      const Callback fn = hook_fn_;
      hook_fn_ = nullptr;  // one-shot; fn may re-arm
      fn(hook_ctx_);
    }
    poll_interrupt();
  }

  static constexpr std::uint32_t bit(BusKind k) {
    return k == BusKind{} ? 0u : std::uint32_t{1} << static_cast<std::uint32_t>(k);
  }
  std::uint32_t kinds_;
  bool absent_ = false;
  bool in_access_ = false;
  bool in_handler_ = false;
  bool storm_ = false;
  std::uint64_t accesses_ = 0;
  std::uint32_t interrupts_ = 0;
  Callback irq_fn_ = nullptr;
  void* irq_ctx_ = nullptr;
  Callback hook_fn_ = nullptr;
  void* hook_ctx_ = nullptr;
  std::uint64_t hook_at_ = 0;
};

// N counters of `width` bits (<= 64) that wrap to 0 and count how often they did.
template <unsigned N>
class CounterBank {
 public:
  explicit constexpr CounterBank(unsigned width) : max_(width >= 64 ? ~0ull : (1ull << width) - 1) {}
  std::uint64_t get(unsigned i) const { return i < N ? v_[i] : 0; }
  void set(unsigned i, std::uint64_t v) {
    if (i < N) v_[i] = v & max_;
  }
  // Adds n; returns how many times the counter wrapped.
  std::uint64_t add(unsigned i, std::uint64_t n) {
    if (i >= N) return 0;
    const std::uint64_t room = max_ - v_[i];  // events before the next wrap, minus one
    std::uint64_t wraps = 0;
    if (n > room) {
      const std::uint64_t past = n - room - 1;  // events after the first wrap
      wraps = 1 + (max_ == ~0ull ? 0 : past / (max_ + 1));
      v_[i] = max_ == ~0ull ? past : past % (max_ + 1);
    } else {
      v_[i] += n;
    }
    wraps_[i] += wraps;
    return wraps;
  }
  std::uint64_t wraps(unsigned i) const { return i < N ? wraps_[i] : 0; }
  std::uint64_t max() const { return max_; }

 private:
  std::uint64_t max_;
  std::uint64_t v_[N]{};
  std::uint64_t wraps_[N]{};
};

}  // namespace pmu::model
