// GCR_BASE is read-only to this toolkit: writing it would move the whole GCR block under every core.
#include "cf.hpp"

void misuse() {
  (void)R::read(cm::gcr_base_gcrbase);  // fine: the read-back check
#ifdef PMU_MISUSE
  R::write_raw<cm::GCR_BASE>(0x1FB00000u);
#endif
}
