# cmake -DIN=file -DOUT=file.cc -DFUNCTION=qualified::Name -DHEADER=dir/header.h -P EmbedText.cmake
# Writes a C++ source defining `std::string_view FUNCTION()` returning IN's text.
file(READ "${IN}" text)
string(REGEX MATCH "^(.*)::([A-Za-z0-9_]+)$" _ "${FUNCTION}")
set(ns "${CMAKE_MATCH_1}")
set(fn "${CMAKE_MATCH_2}")
file(WRITE "${OUT}.tmp" "// Generated from ${IN}; do not edit.
#include \"${HEADER}\"

namespace ${ns} {

std::string_view ${fn}() {
  static constexpr std::string_view kText = R\"hoglake_text(${text})hoglake_text\";
  return kText;
}

}  // namespace ${ns}
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
