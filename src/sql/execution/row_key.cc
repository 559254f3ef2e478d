#include "sql/execution/row_key.h"

#include <cmath>
#include <cstring>

namespace hoglake::sql {

bool AppendRowKey(const std::vector<columnar::ArrayPtr>& columns,
                  const std::vector<SqlType>& types, int64_t row, std::string* out) {
  bool any_null = false;
  for (size_t c = 0; c < columns.size(); ++c) {
    const columnar::ArrayData& a = *columns[c];
    if (a.IsNull(row)) {
      out->push_back('\0');
      any_null = true;
      continue;
    }
    out->push_back('\1');
    switch (types[c].id) {
      case SqlTypeId::kBoolean:
        out->push_back(a.GetBool(row) ? '\1' : '\0');
        break;
      case SqlTypeId::kSmallint: {
        int16_t v = a.values<int16_t>()[row];
        out->append(reinterpret_cast<const char*>(&v), 2);
        break;
      }
      case SqlTypeId::kInteger:
      case SqlTypeId::kDate: {
        int32_t v = a.values<int32_t>()[row];
        out->append(reinterpret_cast<const char*>(&v), 4);
        break;
      }
      case SqlTypeId::kBigint:
      case SqlTypeId::kTime:
      case SqlTypeId::kTimestamp:
      case SqlTypeId::kTimestampTz: {
        int64_t v = a.values<int64_t>()[row];
        out->append(reinterpret_cast<const char*>(&v), 8);
        break;
      }
      case SqlTypeId::kReal:
      case SqlTypeId::kDouble: {
        double d = types[c].id == SqlTypeId::kReal ? a.values<float>()[row] : a.values<double>()[row];
        if (std::isnan(d)) d = std::nan("");
        if (d == 0) d = 0;
        out->append(reinterpret_cast<const char*>(&d), 8);
        break;
      }
      case SqlTypeId::kNumeric: {
        // Strip trailing zeros so equal values at different scales agree.
        __int128 v;
        std::memcpy(&v, a.buffers[1]->data() + (a.offset + row) * 16, 16);
        int scale = types[c].scale;
        while (scale > 0 && v % 10 == 0) {
          v /= 10;
          --scale;
        }
        if (v == 0) scale = 0;
        out->append(reinterpret_cast<const char*>(&v), 16);
        out->push_back(static_cast<char>(scale));
        break;
      }
      case SqlTypeId::kInterval: {
        // Equal intervals are equal spans (1 day = 24 hours), as PostgreSQL's
        // interval_eq: months of 30 days, days of 24 hours.
        std::string_view s = a.GetView(row);
        int32_t months, days;
        int64_t micros;
        std::memcpy(&months, s.data(), 4);
        std::memcpy(&days, s.data() + 4, 4);
        std::memcpy(&micros, s.data() + 8, 8);
        __int128 span = (static_cast<__int128>(months) * 30 + days) * 86400000000LL + micros;
        out->append(reinterpret_cast<const char*>(&span), 16);
        break;
      }
      default: {
        std::string_view s = a.GetView(row);
        uint32_t len = static_cast<uint32_t>(s.size());
        out->append(reinterpret_cast<const char*>(&len), 4);
        out->append(s);
        break;
      }
    }
  }
  return any_null;
}

}  // namespace hoglake::sql
