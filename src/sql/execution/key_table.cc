#include "sql/execution/key_table.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "sql/execution/row_key.h"
#include "sql/function/compare_values.h"

namespace hoglake::sql {
uint64_t HashKeyBytes(std::string_view key) {
  // One multiply per 8-byte word, one full mix at the end.
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (key.size() * 0xff51afd7ed558ccdULL);
  size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, key.data() + i, 8);
    h = (h ^ word) * 0xc4ceb9fe1a85ec53ULL;
    h = (h << 31) | (h >> 33);
  }
  if (i < key.size()) {
    uint64_t word = 0;
    std::memcpy(&word, key.data() + i, key.size() - i);
    h = (h ^ word) * 0xc4ceb9fe1a85ec53ULL;
  }
  return MixHash(h);
}

namespace {

// The width of an integer-like key value as AppendRowKey writes it, or 0.
int IntegerKeyWidth(SqlTypeId id) {
  switch (id) {
    case SqlTypeId::kInteger:
    case SqlTypeId::kDate:
      return 4;
    case SqlTypeId::kBigint:
    case SqlTypeId::kTime:
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
      return 8;
    default:
      return 0;
  }
}

// AppendRowKey's bytes for columns of integer-like types without NULLs,
// written column by column at a fixed stride. False (nothing written) for
// other columns.
bool EncodeIntegerKeys(const std::vector<columnar::ArrayPtr>& columns,
                       const std::vector<SqlType>& types, int64_t rows, EncodedKeys* out) {
  int64_t stride = 0;
  for (size_t c = 0; c < columns.size(); ++c) {
    const int width = IntegerKeyWidth(types[c].id);
    if (width == 0 || columns[c]->null_count != 0) return false;
    stride += 1 + width;
  }
  if (columns.empty() || rows * stride > UINT32_MAX) return false;
  out->bytes.resize(static_cast<size_t>(rows * stride));
  char* base = out->bytes.data();
  int64_t at = 0;
  for (size_t c = 0; c < columns.size(); ++c) {
    const int width = IntegerKeyWidth(types[c].id);
    const char* values = reinterpret_cast<const char*>(
        width == 4 ? static_cast<const void*>(columns[c]->values<int32_t>())
                   : static_cast<const void*>(columns[c]->values<int64_t>()));
    for (int64_t i = 0; i < rows; ++i) {
      char* p = base + i * stride + at;
      p[0] = '\1';
      std::memcpy(p + 1, values + i * width, static_cast<size_t>(width));
    }
    at += 1 + width;
  }
  for (int64_t i = 0; i <= rows; ++i) out->offsets[i] = static_cast<uint32_t>(i * stride);
  std::fill(out->has_null.begin(), out->has_null.end(), 0);
  return true;
}

}  // namespace

void EncodeKeys(const std::vector<columnar::ArrayPtr>& columns, const std::vector<SqlType>& types,
                int64_t rows, EncodedKeys* out) {
  out->bytes.clear();
  out->offsets.resize(rows + 1);
  out->hashes.resize(rows);
  out->has_null.resize(rows);
  out->offsets[0] = 0;
  if (EncodeIntegerKeys(columns, types, rows, out)) {
    for (int64_t i = 0; i < rows; ++i) out->hashes[i] = HashKeyBytes(out->key(i));
    return;
  }
  for (int64_t i = 0; i < rows; ++i) {
    out->has_null[i] = AppendRowKey(columns, types, i, &out->bytes) ? 1 : 0;
    out->offsets[i + 1] = static_cast<uint32_t>(out->bytes.size());
  }
  for (int64_t i = 0; i < rows; ++i) out->hashes[i] = HashKeyBytes(out->key(i));
}

int64_t KeyTable::FindOrInsert(std::string_view key, uint64_t hash, bool* inserted) {
  if ((size() + 1) * 2 > static_cast<int64_t>(slots_.size())) Grow();
  const uint64_t mask = slots_.size() - 1;
  for (uint64_t s = hash & mask;; s = (s + 1) & mask) {
    Slot& slot = slots_[s];
    if (slot.id == kAbsent) {
      slot = {hash, size()};
      hashes_.push_back(hash);
      arena_.append(key);
      key_offsets_.push_back(arena_.size());
      *inserted = true;
      return slot.id;
    }
    if (slot.hash == hash && this->key(slot.id) == key) {
      *inserted = false;
      return slot.id;
    }
  }
}

int64_t KeyTable::Find(std::string_view key, uint64_t hash) const {
  if (slots_.empty()) return kAbsent;
  const uint64_t mask = slots_.size() - 1;
  for (uint64_t s = hash & mask;; s = (s + 1) & mask) {
    const Slot& slot = slots_[s];
    if (slot.id == kAbsent) return kAbsent;
    if (slot.hash == hash && this->key(slot.id) == key) return slot.id;
  }
}

void KeyTable::Grow() {
  size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(capacity, Slot{});
  const uint64_t mask = capacity - 1;
  for (int64_t id = 0; id < size(); ++id) {
    uint64_t s = hashes_[id] & mask;
    while (slots_[s].id != kAbsent) s = (s + 1) & mask;
    slots_[s] = {hashes_[id], id};
  }
}

int64_t KeyTable::bytes() const {
  return static_cast<int64_t>(slots_.capacity() * sizeof(Slot) +
                              hashes_.capacity() * sizeof(uint64_t) + arena_.capacity() +
                              key_offsets_.capacity() * sizeof(uint64_t));
}

}  // namespace hoglake::sql
