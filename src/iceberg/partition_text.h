// How partition values are spelled on the wire (pyhoglake-writer §6.4): the
// `partition_values` strings a commit carries. pyhoglake renders them with
// Python's own conventions, and these must be reproduced exactly:
//
//   bucket/year/month/day/hour  decimal integer
//   boolean                     "true" / "false"
//   integers                    decimal ("18446744073709551615" for uint64 max)
//   float, double               Python repr of the value as a double: shortest
//                               round-trip digits, exponent form when the decimal
//                               exponent is < -4 or ≥ 16 ("1e-05", "1e+16"),
//                               "1.0", "-0.0", "inf", "-inf", "nan"; a float32
//                               is widened first (0.1f → "0.10000000149011612")
//   decimal                     Python str(Decimal) at the column scale: "10.50";
//                               scientific when the adjusted exponent is < -6
//                               ("1E-7", "1.0E-7", "0E-8")
//   date                        "YYYY-MM-DD"
//   time                        "HH:MM:SS", or "HH:MM:SS.ffffff" when micros ≠ 0
//   timestamp_s/_ms/timestamp   "YYYY-MM-DDTHH:MM:SS[.ffffff]"
//   timestamptz                 the same plus "+00:00"
//   timestamp_ns                integer nanoseconds since the epoch
//   string, json                the text verbatim
//   uuid                        canonical lowercase 8-4-4-4-12
//   binary                      standard base64 with padding
//   null                        JSON null (not a string)
//
// Python's date and datetime cover years 1..9999 and time of day covers one
// day; values outside are errors (kInvalidArgument), as they are for
// pyhoglake.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace hoglake::iceberg {

void AppendPythonFloatRepr(double value, std::string* out);
void AppendPythonDecimalStr(__int128 unscaled, int32_t scale, std::string* out);
Status AppendPythonDate(int64_t days, std::string* out);
Status AppendPythonTime(int64_t micros, std::string* out);
// `utc_offset` appends "+00:00" (timestamptz).
Status AppendPythonDatetime(int64_t micros, bool utc_offset, std::string* out);

}  // namespace hoglake::iceberg
