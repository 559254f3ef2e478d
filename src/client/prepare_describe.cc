// Reading a prepared file's tail (prepare_schema_check.h): the trailer, a
// raw scan of the footer's schema list for what our Thrift codec skips (the
// VARIANT logical-type member), and the FileMetaData with its Arrow view.
#include "client/prepare_schema_check.h"

#include <algorithm>
#include <fstream>
#include <utility>

#include "parquet/reader.h"
#include "parquet/thrift_compact.h"

namespace hoglake::client {
namespace {

using parquet::thrift::CompactReader;
using parquet::thrift::CType;

constexpr int16_t kVariantMember = 16;
constexpr int64_t kMaxFooterBytes = int64_t{64} << 20;

Status ScanLogicalType(CompactReader& r, RawSchemaElement* out) {
  HOGLAKE_RETURN_IF_ERROR(r.BeginStruct());
  while (true) {
    int16_t id = 0;
    CType type;
    HOGLAKE_RETURN_IF_ERROR(r.ReadFieldHeader(&id, &type));
    if (type == CType::kStop) break;
    out->logical_members.push_back(id);
    if (id != kVariantMember || type != CType::kStruct) {
      HOGLAKE_RETURN_IF_ERROR(r.Skip(type));
      continue;
    }
    int32_t version = 0;
    HOGLAKE_RETURN_IF_ERROR(r.BeginStruct());
    while (true) {
      int16_t fid = 0;
      CType ft;
      HOGLAKE_RETURN_IF_ERROR(r.ReadFieldHeader(&fid, &ft));
      if (ft == CType::kStop) break;
      if (fid == 1 && ft == CType::kByte) {
        int8_t v = 0;
        HOGLAKE_RETURN_IF_ERROR(r.ReadI8(ft, &v));
        version = v;
      } else if (fid == 1 && (ft == CType::kI16 || ft == CType::kI32)) {
        HOGLAKE_RETURN_IF_ERROR(r.ReadI32(ft, &version));
      } else {
        HOGLAKE_RETURN_IF_ERROR(r.Skip(ft));
      }
    }
    r.EndStruct();
    out->variant_version = version;
  }
  r.EndStruct();
  return Status::Ok();
}

Status ScanElement(CompactReader& r, RawSchemaElement* out) {
  HOGLAKE_RETURN_IF_ERROR(r.BeginStruct());
  while (true) {
    const size_t at = r.position();
    int16_t id = 0;
    CType type;
    HOGLAKE_RETURN_IF_ERROR(r.ReadFieldHeader(&id, &type));
    if (type == CType::kStop) {
      out->end_offset = at;
      break;
    }
    if (id == 1) out->has_physical_type = true;
    if (id == 10 && type == CType::kStruct) {
      HOGLAKE_RETURN_IF_ERROR(ScanLogicalType(r, out));
    } else {
      HOGLAKE_RETURN_IF_ERROR(r.Skip(type));
    }
  }
  r.EndStruct();
  return Status::Ok();
}

}  // namespace

Result<std::vector<RawSchemaElement>> ScanRawSchema(std::string_view footer) {
  CompactReader r(reinterpret_cast<const uint8_t*>(footer.data()), footer.size());
  HOGLAKE_RETURN_IF_ERROR(r.BeginStruct());
  while (true) {
    int16_t id = 0;
    CType type;
    HOGLAKE_RETURN_IF_ERROR(r.ReadFieldHeader(&id, &type));
    if (type == CType::kStop) return InvalidData("Parquet footer has no schema");
    if (id != 2 || type != CType::kList) {
      HOGLAKE_RETURN_IF_ERROR(r.Skip(type));
      continue;
    }
    CType element;
    int32_t count = 0;
    HOGLAKE_RETURN_IF_ERROR(r.ReadListHeader(type, &element, &count));
    if (element != CType::kStruct || count <= 0) {
      return InvalidData("invalid Parquet schema list");
    }
    std::vector<RawSchemaElement> out(static_cast<size_t>(count));
    for (RawSchemaElement& e : out) HOGLAKE_RETURN_IF_ERROR(ScanElement(r, &e));
    return out;
  }
}

Result<PreparedFileFacts> DescribePreparedFile(const std::string& local_path) {
  PreparedFileFacts facts;
  facts.local_path = local_path;
  std::ifstream in(local_path, std::ios::binary | std::ios::ate);
  if (!in) return IoError("cannot open prepared file ", local_path);
  facts.file_size = static_cast<int64_t>(in.tellg());
  auto invalid = [&](const auto&... what) {
    return Validation("invalid prepared Parquet file ", local_path, ": ", what...);
  };
  if (facts.file_size < 12) return invalid("too short for Parquet");
  char trailer[8];
  in.seekg(facts.file_size - 8);
  if (!in.read(trailer, 8)) return IoError("cannot read prepared file ", local_path);
  if (std::string_view(trailer + 4, 4) != "PAR1") {
    return invalid("trailer magic is not PAR1 (encrypted or not Parquet)");
  }
  uint32_t length = 0;
  for (int i = 3; i >= 0; --i) length = (length << 8) | static_cast<uint8_t>(trailer[i]);
  facts.footer_size = length;
  if (facts.footer_size > std::min(facts.file_size - 12, kMaxFooterBytes)) {
    return invalid("footer length ", facts.footer_size, " does not fit the file");
  }
  std::string footer(static_cast<size_t>(length), '\0');
  in.seekg(facts.file_size - 8 - facts.footer_size);
  if (!in.read(footer.data(), length)) return IoError("cannot read prepared file ", local_path);
  auto raw = ScanRawSchema(footer);
  if (!raw.ok()) return invalid(raw.error().message);
  facts.raw = std::move(raw).value();

  auto reader = parquet::ParquetReader::OpenFile(local_path);
  if (!reader.ok()) {
    const ErrorCode code = reader.error().code;
    if (code == ErrorCode::kIoError || code == ErrorCode::kNotFound) return reader.status();
    return invalid(reader.error().message);
  }
  facts.metadata = (*reader)->metadata();
  facts.schema = (*reader)->schema();
  facts.num_rows = (*reader)->num_rows();
  if ((*reader)->footer_size() != facts.footer_size || (*reader)->file_size() != facts.file_size) {
    return invalid("the file changed while it was being read");
  }
  if (facts.raw.size() != facts.metadata.schema.size()) {
    return invalid("schema list length differs between reads");
  }
  return facts;
}

}  // namespace hoglake::client
