// PC_CTL.Perf_Num_Cnt is read-only (the number of counters, always 2).
#include "cf.hpp"

void misuse() {
  (void)R::read(cm::pc_ctl_num_cnt);  // fine: reading it
#ifdef PMU_MISUSE
  R::modify(cm::pc_ctl_num_cnt(2));
#endif
}
