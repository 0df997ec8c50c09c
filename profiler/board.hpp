#pragma once
// What a board gives the profiler's orchestration (profiler/profile_main_impl.hpp, and the examples'
// examples/common/profile_run.hpp): a struct of static members, checked here so that a board that
// lacks one gets an error naming the member rather than a page of template instantiations.
//
//   struct MyBoard {
//     static void putc(char c);                                   // console: the dump's text frames
//     static bool timer_start(void (*tick)(std::uint32_t pc, std::uint32_t lr));  // periodic IRQ
//     static void timer_stop();
//     static bool pmu_interrupt(void (*irq)(std::uint32_t pc, std::uint32_t lr)); // false: none
//     static void irq_enable();
//     static void irq_disable();
//     // Optional: stack capture from inside those callbacks (profiler/stack.hpp): the interrupted
//     // stack pointer and frame pointer, and the first address above that stack. Both or neither.
//     static void interrupted_stack(std::uint32_t& sp, std::uint32_t& fp);
//     static std::uintptr_t stack_top();
//   };
//   static_assert(pmukit::board_check<MyBoard>());   // one message per missing member
//
// The callbacks get pc = where the interrupted code resumes and lr = its link register (0 where
// the architecture has none) and run with interrupts masked.
#include <concepts>
#include <cstdint>

namespace pmukit {

using IrqCallback = void (*)(std::uint32_t pc, std::uint32_t lr);

template <class B>
concept BoardConsole = requires(char c) { B::putc(c); };
template <class B>
concept BoardTimer = requires(IrqCallback f) {
  { B::timer_start(f) } -> std::convertible_to<bool>;
  B::timer_stop();
};
template <class B>
concept BoardPmuInterrupt = requires(IrqCallback f) {
  { B::pmu_interrupt(f) } -> std::convertible_to<bool>;
};
template <class B>
concept BoardIrqMask = requires {
  B::irq_enable();
  B::irq_disable();
};
template <class B>
concept BoardStackCapture = requires(std::uint32_t& v) {
  B::interrupted_stack(v, v);
  { B::stack_top() } -> std::convertible_to<std::uintptr_t>;
};

// Every member the orchestration needs.
template <class B>
concept Board = BoardConsole<B> && BoardTimer<B> && BoardPmuInterrupt<B> && BoardIrqMask<B>;

// The same as Board, one static_assert per member: the first failing one names what is missing.
template <class B>
consteval bool board_check() {
  static_assert(requires(char c) { B::putc(c); },
                "Board: no `static void putc(char)` (the console the dump's text frames go to)");
  static_assert(requires(IrqCallback f) { { B::timer_start(f) } -> std::convertible_to<bool>; },
                "Board: no `static bool timer_start(void (*)(std::uint32_t pc, std::uint32_t lr))` "
                "(the periodic interrupt that samples where the PMU cannot)");
  static_assert(requires { B::timer_stop(); }, "Board: no `static void timer_stop()`");
  static_assert(requires(IrqCallback f) { { B::pmu_interrupt(f) } -> std::convertible_to<bool>; },
                "Board: no `static bool pmu_interrupt(void (*)(std::uint32_t pc, std::uint32_t lr))` "
                "(return false where the PMU's interrupt is not wired)");
  static_assert(requires { B::irq_enable(); }, "Board: no `static void irq_enable()`");
  static_assert(requires { B::irq_disable(); }, "Board: no `static void irq_disable()`");
  constexpr bool has_sp = requires(std::uint32_t& v) { B::interrupted_stack(v, v); };
  constexpr bool has_top = requires { { B::stack_top() } -> std::convertible_to<std::uintptr_t>; };
  static_assert(has_sp == has_top,
                "Board: stack capture needs both `static void interrupted_stack(std::uint32_t& sp, "
                "std::uint32_t& fp)` and `static std::uintptr_t stack_top()`, or neither");
  return Board<B>;
}

}  // namespace pmukit
