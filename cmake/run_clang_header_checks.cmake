# Compiles each header-check file with clang: cmake -DCLANGXX=... -DROOT=... -DSOURCES=a;b -P ...
set(failed 0)
set(count 0)
foreach(src IN LISTS SOURCES)
  execute_process(COMMAND ${CLANGXX} -std=c++20 -fsyntax-only -Wall -Wextra -Werror -ffreestanding
                          -fno-exceptions -fno-rtti -I${ROOT} ${src}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  math(EXPR count "${count} + 1")
  if(NOT rc EQUAL 0)
    math(EXPR failed "${failed} + 1")
    message("clang: ${src}\n${err}")
  endif()
endforeach()
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} of ${count} headers do not compile with clang")
endif()
message("clang: ${count} headers compile")
