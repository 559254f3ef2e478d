#include "columnar/json_rows.h"

#include <cstring>

#include "common/encoding.h"
#include "common/json_text.h"
#include "common/time_text.h"

namespace hoglake::columnar {
namespace {

template <typename T>
T Load(const ArrayData& a, int64_t i) {
  T value;
  std::memcpy(&value, a.buffers[1]->data() + (a.offset + i) * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return value;
}

void AppendUInt128(unsigned __int128 v, std::string* out) {
  char buf[48];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  while (n > 0) out->push_back(buf[--n]);
}

}  // namespace

std::string FormatDecimal(__int128 unscaled, int32_t scale) {
  std::string digits;
  const bool negative = unscaled < 0;
  const unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(unscaled)
               : static_cast<unsigned __int128>(unscaled);
  AppendUInt128(magnitude, &digits);
  if (scale > 0) {
    if (static_cast<int32_t>(digits.size()) <= scale) {
      digits.insert(0, static_cast<size_t>(scale - static_cast<int32_t>(digits.size()) + 1), '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), 1, '.');
  }
  return negative ? "-" + digits : digits;
}

void AppendJsonValue(const ArrayData& a, int64_t i, std::string* out) {
  if (a.IsNull(i)) {
    out->append("null");
    return;
  }
  const DataType& type = *a.type;
  switch (type.id) {
    case TypeId::kBool:
      out->append(a.GetBool(i) ? "true" : "false");
      return;
    case TypeId::kInt8:
      out->append(std::to_string(Load<int8_t>(a, i)));
      return;
    case TypeId::kInt16:
      out->append(std::to_string(Load<int16_t>(a, i)));
      return;
    case TypeId::kInt32:
      out->append(std::to_string(Load<int32_t>(a, i)));
      return;
    case TypeId::kInt64:
      out->append(std::to_string(Load<int64_t>(a, i)));
      return;
    case TypeId::kUInt8:
      out->append(std::to_string(Load<uint8_t>(a, i)));
      return;
    case TypeId::kUInt16:
      out->append(std::to_string(Load<uint16_t>(a, i)));
      return;
    case TypeId::kUInt32:
      out->append(std::to_string(Load<uint32_t>(a, i)));
      return;
    case TypeId::kUInt64:
      out->append(std::to_string(Load<uint64_t>(a, i)));
      return;
    case TypeId::kFloat32:
      AppendJsonFloat(Load<float>(a, i), out);
      return;
    case TypeId::kFloat64:
      AppendJsonDouble(Load<double>(a, i), out);
      return;
    case TypeId::kDecimal128:
      out->push_back('"');
      out->append(FormatDecimal(Load<__int128>(a, i), type.scale));
      out->push_back('"');
      return;
    case TypeId::kDate32:
      out->push_back('"');
      AppendDate(Load<int32_t>(a, i), out);
      out->push_back('"');
      return;
    case TypeId::kTime64:
      out->push_back('"');
      AppendTimeOfDay(Load<int64_t>(a, i), TicksPerSecond(type.unit), out);
      out->push_back('"');
      return;
    case TypeId::kTimestamp:
      out->push_back('"');
      AppendTimestamp(Load<int64_t>(a, i), TicksPerSecond(type.unit), !type.timezone.empty(), out);
      out->push_back('"');
      return;
    case TypeId::kUtf8:
      AppendJsonString(a.GetView(i), out);
      return;
    case TypeId::kBinary:
      out->push_back('"');
      AppendBase64(a.GetView(i), out);
      out->push_back('"');
      return;
    case TypeId::kFixedSizeBinary:
      out->push_back('"');
      if (type.byte_width == 16) {
        AppendUuid(a.GetView(i), out);
      } else {
        AppendBase64(a.GetView(i), out);
      }
      out->push_back('"');
      return;
    case TypeId::kIntervalMonthDayNano: {
      const std::string_view bytes = a.GetView(i);
      int32_t months, days;
      int64_t nanos;
      std::memcpy(&months, bytes.data(), 4);
      std::memcpy(&days, bytes.data() + 4, 4);
      std::memcpy(&nanos, bytes.data() + 8, 8);
      out->append("{\"months\":" + std::to_string(months) + ",\"days\":" + std::to_string(days) +
                  ",\"nanoseconds\":" + std::to_string(nanos) + "}");
      return;
    }
    case TypeId::kList: {
      const int32_t* offsets = a.offsets();
      out->push_back('[');
      for (int32_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        if (k != offsets[i]) out->push_back(',');
        AppendJsonValue(*a.children[0], k, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kStruct:
      out->push_back('{');
      for (size_t c = 0; c < a.children.size(); ++c) {
        if (c) out->push_back(',');
        AppendJsonString(type.children[c].name, out);
        out->push_back(':');
        AppendJsonValue(*a.children[c], a.offset + i, out);
      }
      out->push_back('}');
      return;
    case TypeId::kMap: {
      const int32_t* offsets = a.offsets();
      const ArrayData& entries = *a.children[0];
      out->push_back('[');
      for (int32_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        if (k != offsets[i]) out->push_back(',');
        out->append("{\"key\":");
        AppendJsonValue(*entries.children[0], entries.offset + k, out);
        out->append(",\"value\":");
        AppendJsonValue(*entries.children[1], entries.offset + k, out);
        out->push_back('}');
      }
      out->push_back(']');
      return;
    }
  }
}

void AppendJsonLines(const RecordBatch& batch, std::string* out) {
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    out->push_back('{');
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c) out->push_back(',');
      AppendJsonString(batch.schema->fields[c].name, out);
      out->push_back(':');
      AppendJsonValue(*batch.columns[c], row, out);
    }
    out->append("}\n");
  }
}

}  // namespace hoglake::columnar
