// The Parquet physical (PLAIN) form of one Arrow slot, as the writer stores
// it: INT32/FLOAT 4 LE bytes, INT64/DOUBLE 8 LE bytes, BOOLEAN one byte 0/1,
// decimals big-endian two's complement of the FIXED_LEN_BYTE_ARRAY width,
// byte arrays raw (without the length prefix). Temporal values are scaled to
// the unit Parquet stores (time: micros; timestamp[s]: millis); a value that
// overflows int64 when scaled is InvalidArgument.
#pragma once

#include <cstdint>
#include <string_view>

#include "columnar/array.h"

namespace hoglake::parquet {

// Slot `i` of `a`; fixed-size results are written to `tmp` (16 bytes).
Status PhysicalValue(const columnar::ArrayData& a, int64_t i, int32_t flba_width, char* tmp,
                     std::string_view* out);

// The factor an int64 temporal value of `type` is multiplied by for Parquet
// (1 when stored as is).
int64_t TemporalScale(const columnar::DataType& type);

// v * factor, or InvalidArgument when it overflows.
Status ScaleTemporal(int64_t v, int64_t factor, int64_t* out);

}  // namespace hoglake::parquet
