#include "catalog/model/packed_stats.h"

#include <algorithm>
#include <cstring>

namespace hoglake::catalog {
namespace {

enum : uint16_t {
  kHasNanCount = 1,
  kHasSizeBytes = 2,
  kHasLower = 4,
  kHasUpper = 8,
  kKnownFlags = 15,
};

void PutBigEndian(std::string* out, uint64_t value, int bytes) {
  for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

// Fixed-width big-endian loads.
uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}
uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
uint16_t Load16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return __builtin_bswap16(v);
}

void PutBytes(std::string* out, std::string_view bytes) {
  PutBigEndian(out, bytes.size(), 4);
  out->append(bytes);
}

// The fields both input kinds share, for one packing routine.
struct EntryRef {
  int64_t field_id;
  int64_t value_count;
  int64_t null_count;
  std::optional<int64_t> nan_count;
  std::optional<int64_t> size_bytes;
  std::optional<std::string_view> lower;
  std::optional<std::string_view> upper;
};

std::string Pack(std::vector<EntryRef> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const EntryRef& a, const EntryRef& b) { return a.field_id < b.field_id; });
  size_t size = 2;
  for (const EntryRef& e : entries) {
    size += 22 + 16 + (e.lower ? 4 + e.lower->size() : 0) + (e.upper ? 4 + e.upper->size() : 0);
  }
  std::string out;
  out.reserve(size);
  PutBigEndian(&out, kPackedStatsVersion, 2);
  for (const EntryRef& e : entries) {
    const uint16_t flags = (e.nan_count ? kHasNanCount : 0) | (e.size_bytes ? kHasSizeBytes : 0) |
                           (e.lower ? kHasLower : 0) | (e.upper ? kHasUpper : 0);
    PutBigEndian(&out, static_cast<uint32_t>(e.field_id), 4);
    PutBigEndian(&out, flags, 2);
    PutBigEndian(&out, static_cast<uint64_t>(e.value_count), 8);
    PutBigEndian(&out, static_cast<uint64_t>(e.null_count), 8);
    if (e.nan_count) PutBigEndian(&out, static_cast<uint64_t>(*e.nan_count), 8);
    if (e.size_bytes) PutBigEndian(&out, static_cast<uint64_t>(*e.size_bytes), 8);
    if (e.lower) PutBytes(&out, *e.lower);
    if (e.upper) PutBytes(&out, *e.upper);
  }
  return out;
}

std::optional<std::string_view> View(const std::optional<std::string>& s) {
  return s ? std::optional<std::string_view>(*s) : std::nullopt;
}

}  // namespace

std::string PackColumnStats(const std::vector<ColumnStatsInput>& stats) {
  std::vector<EntryRef> entries;
  entries.reserve(stats.size());
  for (const ColumnStatsInput& s : stats) {
    entries.push_back({s.field_id, s.value_count, s.null_count, s.nan_count, s.size_bytes,
                       View(s.lower_bound), View(s.upper_bound)});
  }
  return Pack(std::move(entries));
}

std::string PackColumnStats(const std::vector<PackedStat>& stats) {
  std::vector<EntryRef> entries;
  entries.reserve(stats.size());
  for (const PackedStat& s : stats) {
    entries.push_back({s.field_id, s.value_count, s.null_count, s.nan_count, s.size_bytes,
                       s.lower_bound, s.upper_bound});
  }
  return Pack(std::move(entries));
}

PackedStatsReader::PackedStatsReader(std::string_view blob) : rest_(blob) {
  if (rest_.size() < 2) {
    Fail("no version");
    return;
  }
  const uint16_t version = Load16(rest_.data());
  if (version != kPackedStatsVersion) {
    Fail(StrCat("unknown version ", version));
    return;
  }
  rest_.remove_prefix(2);
}

bool PackedStatsReader::Fail(std::string_view what) {
  if (status_.ok()) status_ = Internal("corrupt packed column statistics: ", what);
  rest_ = {};
  return false;
}

bool PackedStatsReader::Next(PackedStat* out) {
  if (rest_.empty()) return false;
  // field id (4), flags (2), value count (8), null count (8).
  constexpr size_t kFixed = 22;
  if (rest_.size() < kFixed) return Fail("truncated entry");
  const char* p = rest_.data();
  const uint16_t flags = Load16(p + 4);
  if (flags & ~uint16_t{kKnownFlags}) return Fail(StrCat("unknown flags ", flags));
  out->field_id = static_cast<int32_t>(Load32(p));
  out->value_count = static_cast<int64_t>(Load64(p + 6));
  out->null_count = static_cast<int64_t>(Load64(p + 14));
  rest_.remove_prefix(kFixed);
  const auto take64 = [&](std::optional<int64_t>* value) {
    if (rest_.size() < 8) return false;
    *value = static_cast<int64_t>(Load64(rest_.data()));
    rest_.remove_prefix(8);
    return true;
  };
  const auto take_bytes = [&](std::optional<std::string_view>* bytes) {
    if (rest_.size() < 4) return false;
    const uint32_t length = Load32(rest_.data());
    if (rest_.size() - 4 < length) return false;
    *bytes = rest_.substr(4, length);
    rest_.remove_prefix(4 + size_t{length});
    return true;
  };
  out->nan_count.reset();
  out->size_bytes.reset();
  out->lower_bound.reset();
  out->upper_bound.reset();
  if ((flags & kHasNanCount) && !take64(&out->nan_count)) return Fail("truncated nan_count");
  if ((flags & kHasSizeBytes) && !take64(&out->size_bytes)) return Fail("truncated size_bytes");
  if ((flags & kHasLower) && !take_bytes(&out->lower_bound)) return Fail("truncated lower_bound");
  if ((flags & kHasUpper) && !take_bytes(&out->upper_bound)) return Fail("truncated upper_bound");
  return true;
}

namespace {

// Into a row that may hold an earlier file's bound: its buffer is reused.
void CopyBound(const std::optional<std::string_view>& from, std::optional<std::string>* to) {
  if (!from) {
    to->reset();
  } else if (*to) {
    (*to)->assign(from->data(), from->size());
  } else {
    to->emplace(*from);
  }
}

}  // namespace

void CopyToRow(const PackedStat& s, ColumnStatRow* row) {
  row->field_id = s.field_id;
  row->value_count = s.value_count;
  row->null_count = s.null_count;
  row->nan_count = s.nan_count;
  row->size_bytes = s.size_bytes;
  CopyBound(s.lower_bound, &row->lower_bound);
  CopyBound(s.upper_bound, &row->upper_bound);
}

Result<std::vector<ColumnStatRow>> UnpackColumnStats(std::string_view blob) {
  std::vector<ColumnStatRow> rows;
  PackedStatsReader reader(blob);
  PackedStat s;
  while (reader.Next(&s)) CopyToRow(s, &rows.emplace_back());
  HOGLAKE_RETURN_IF_ERROR(reader.status());
  return rows;
}

}  // namespace hoglake::catalog
