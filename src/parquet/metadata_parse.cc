// Parses the metadata structs of metadata.h from untrusted compact-protocol
// bytes. Unknown fields are skipped; missing required fields are refused.
#include <functional>

#include "parquet/metadata.h"
#include "parquet/thrift_compact.h"

namespace hoglake::parquet {
namespace {

using thrift::CompactReader;
using thrift::CType;

class Parser {
 public:
  Parser(const uint8_t* data, size_t size) : r_(data, size) {}
  CompactReader& reader() { return r_; }

  // Reads one struct, calling on_field(id, type) for every field; the
  // callback reads the value or skips it. `required` lists field ids that
  // must appear. Errors get the struct path appended once.
  Status Struct(const char* name, std::initializer_list<int16_t> required,
                const std::function<Status(int16_t, CType)>& on_field) {
    path_.push_back(name);
    Status status = StructBody(required, on_field);
    if (!status.ok() && !annotated_) {
      annotated_ = true;
      std::string where;
      for (const char* p : path_) where += (where.empty() ? "" : " > ") + std::string(p);
      path_.pop_back();
      return Error{status.error().code, status.error().message + " (in " + where + ")"};
    }
    path_.pop_back();
    return status;
  }

  // Reads a list of `element` values with `read_one` (called size times).
  Status List(CType type, const std::function<Status(CType)>& read_one) {
    CType element;
    int32_t n;
    HOGLAKE_RETURN_IF_ERROR(r_.ReadListHeader(type, &element, &n));
    for (int32_t i = 0; i < n; ++i) HOGLAKE_RETURN_IF_ERROR(read_one(element));
    return Status::Ok();
  }

  template <typename E>
  Status Enum(CType type, E* out) {
    int32_t v = 0;
    HOGLAKE_RETURN_IF_ERROR(r_.ReadI32(type, &v));
    *out = static_cast<E>(v);
    return Status::Ok();
  }
  template <typename E>
  Status Enum(CType type, std::optional<E>* out) {
    E v{};
    HOGLAKE_RETURN_IF_ERROR(Enum(type, &v));
    *out = v;
    return Status::Ok();
  }
  template <typename T>
  Status Opt(Status (CompactReader::*read)(CType, T*), CType type, std::optional<T>* out) {
    T v{};
    HOGLAKE_RETURN_IF_ERROR((r_.*read)(type, &v));
    *out = std::move(v);
    return Status::Ok();
  }
  Status OptString(CType type, std::optional<std::string>* out) {
    return Opt<std::string>(&CompactReader::ReadBinary, type, out);
  }
  Status OptI32(CType type, std::optional<int32_t>* out) {
    return Opt<int32_t>(&CompactReader::ReadI32, type, out);
  }
  Status OptI64(CType type, std::optional<int64_t>* out) {
    return Opt<int64_t>(&CompactReader::ReadI64, type, out);
  }
  Status OptBool(CType type, std::optional<bool>* out) {
    return Opt<bool>(&CompactReader::ReadBool, type, out);
  }

  Status Expect(CType type, CType want) {
    if (type != want) {
      return InvalidData("corrupt Thrift metadata at byte ", r_.position(), ": expected ",
                         thrift::CTypeName(want), ", found ", thrift::CTypeName(type));
    }
    return Status::Ok();
  }

 private:
  Status StructBody(std::initializer_list<int16_t> required,
                    const std::function<Status(int16_t, CType)>& on_field) {
    HOGLAKE_RETURN_IF_ERROR(r_.BeginStruct());
    uint64_t seen = 0;
    while (true) {
      int16_t id = 0;
      CType type;
      HOGLAKE_RETURN_IF_ERROR(r_.ReadFieldHeader(&id, &type));
      if (type == CType::kStop) break;
      if (id > 0 && id < 64) seen |= uint64_t{1} << id;
      HOGLAKE_RETURN_IF_ERROR(on_field(id, type));
    }
    r_.EndStruct();
    for (int16_t id : required) {
      if (!(seen & (uint64_t{1} << id))) {
        return InvalidData("corrupt Thrift metadata: required field ", id, " is missing");
      }
    }
    return Status::Ok();
  }

  CompactReader r_;
  std::vector<const char*> path_;
  bool annotated_ = false;
};

Status ParseStatisticsIn(Parser& p, CType type, Statistics* s) {
  HOGLAKE_RETURN_IF_ERROR(p.Expect(type, CType::kStruct));
  auto& r = p.reader();
  return p.Struct("Statistics", {}, [&](int16_t id, CType t) -> Status {
    switch (id) {
      case 1:
        return p.OptString(t, &s->max);
      case 2:
        return p.OptString(t, &s->min);
      case 3:
        return p.OptI64(t, &s->null_count);
      case 4:
        return p.OptI64(t, &s->distinct_count);
      case 5:
        return p.OptString(t, &s->max_value);
      case 6:
        return p.OptString(t, &s->min_value);
      case 7:
        return p.OptBool(t, &s->is_max_value_exact);
      case 8:
        return p.OptBool(t, &s->is_min_value_exact);
      default:
        return r.Skip(t);
    }
  });
}

Status ParseTimeUnit(Parser& p, CType type, LogicalTimeUnit* unit) {
  HOGLAKE_RETURN_IF_ERROR(p.Expect(type, CType::kStruct));
  auto& r = p.reader();
  return p.Struct("TimeUnit", {}, [&](int16_t id, CType t) -> Status {
    if (id >= 1 && id <= 3) *unit = static_cast<LogicalTimeUnit>(id);
    return r.Skip(t);
  });
}

Status ParseLogicalType(Parser& p, CType type, std::optional<LogicalType>* out) {
  HOGLAKE_RETURN_IF_ERROR(p.Expect(type, CType::kStruct));
  auto& r = p.reader();
  LogicalType lt;
  bool known = false;
  HOGLAKE_RETURN_IF_ERROR(p.Struct("LogicalType", {}, [&](int16_t id, CType t) -> Status {
    if ((id >= 1 && id <= 8) || (id >= 10 && id <= 15)) {
      HOGLAKE_RETURN_IF_ERROR(p.Expect(t, CType::kStruct));
      known = true;
      lt.kind = static_cast<LogicalType::Kind>(id);
      return p.Struct("LogicalType member", {}, [&](int16_t fid, CType ft) -> Status {
        switch (lt.kind) {
          case LogicalType::Kind::kDecimal:
            if (fid == 1) return r.ReadI32(ft, &lt.scale);
            if (fid == 2) return r.ReadI32(ft, &lt.precision);
            break;
          case LogicalType::Kind::kTime:
          case LogicalType::Kind::kTimestamp:
            if (fid == 1) return r.ReadBool(ft, &lt.is_adjusted_to_utc);
            if (fid == 2) return ParseTimeUnit(p, ft, &lt.unit);
            break;
          case LogicalType::Kind::kInteger:
            if (fid == 1) return r.ReadI8(ft, &lt.bit_width);
            if (fid == 2) return r.ReadBool(ft, &lt.is_signed);
            break;
          default:
            break;
        }
        return r.Skip(ft);
      });
    }
    return r.Skip(t);  // a member newer than this code: treated as no annotation
  }));
  if (known) *out = lt;
  return Status::Ok();
}

Status ParseKeyValues(Parser& p, CType type, std::vector<KeyValue>* out) {
  auto& r = p.reader();
  return p.List(type, [&](CType element) -> Status {
    HOGLAKE_RETURN_IF_ERROR(p.Expect(element, CType::kStruct));
    KeyValue kv;
    HOGLAKE_RETURN_IF_ERROR(p.Struct("KeyValue", {1}, [&](int16_t id, CType t) -> Status {
      if (id == 1) return r.ReadBinary(t, &kv.key);
      if (id == 2) return p.OptString(t, &kv.value);
      return r.Skip(t);
    }));
    out->push_back(std::move(kv));
    return Status::Ok();
  });
}

Status ParseSchemaElement(Parser& p, CType element, SchemaElement* e) {
  HOGLAKE_RETURN_IF_ERROR(p.Expect(element, CType::kStruct));
  auto& r = p.reader();
  return p.Struct("SchemaElement", {4}, [&](int16_t id, CType t) -> Status {
    switch (id) {
      case 1:
        return p.Enum(t, &e->type);
      case 2:
        return p.OptI32(t, &e->type_length);
      case 3:
        return p.Enum(t, &e->repetition_type);
      case 4:
        return r.ReadBinary(t, &e->name);
      case 5:
        return p.OptI32(t, &e->num_children);
      case 6:
        return p.Enum(t, &e->converted_type);
      case 7:
        return p.OptI32(t, &e->scale);
      case 8:
        return p.OptI32(t, &e->precision);
      case 9:
        return p.OptI32(t, &e->field_id);
      case 10:
        return ParseLogicalType(p, t, &e->logical_type);
      default:
        return r.Skip(t);
    }
  });
}

Status ParseColumnMetaData(Parser& p, CType type, ColumnMetaData* m) {
  HOGLAKE_RETURN_IF_ERROR(p.Expect(type, CType::kStruct));
  auto& r = p.reader();
  return p.Struct("ColumnMetaData", {1, 2, 3, 4, 5, 6, 7, 9}, [&](int16_t id, CType t) -> Status {
    switch (id) {
      case 1:
        return p.Enum(t, &m->type);
      case 2:
        return p.List(t, [&](CType et) -> Status {
          Encoding e{};
          HOGLAKE_RETURN_IF_ERROR(p.Enum(et, &e));
          m->encodings.push_back(e);
          return Status::Ok();
        });
      case 3:
        return p.List(t, [&](CType et) -> Status {
          std::string s;
          HOGLAKE_RETURN_IF_ERROR(r.ReadBinary(et, &s));
          m->path_in_schema.push_back(std::move(s));
          return Status::Ok();
        });
      case 4:
        return p.Enum(t, &m->codec);
      case 5:
        return r.ReadI64(t, &m->num_values);
      case 6:
        return r.ReadI64(t, &m->total_uncompressed_size);
      case 7:
        return r.ReadI64(t, &m->total_compressed_size);
      case 8:
        return ParseKeyValues(p, t, &m->key_value_metadata);
      case 9:
        return r.ReadI64(t, &m->data_page_offset);
      case 10:
        return p.OptI64(t, &m->index_page_offset);
      case 11:
        return p.OptI64(t, &m->dictionary_page_offset);
      case 12:
        m->statistics.emplace();
        return ParseStatisticsIn(p, t, &*m->statistics);
      default:
        return r.Skip(t);
    }
  });
}

Status ParseRowGroup(Parser& p, CType element, RowGroup* g) {
  HOGLAKE_RETURN_IF_ERROR(p.Expect(element, CType::kStruct));
  auto& r = p.reader();
  return p.Struct("RowGroup", {1, 2, 3}, [&](int16_t id, CType t) -> Status {
    switch (id) {
      case 1:
        return p.List(t, [&](CType et) -> Status {
          HOGLAKE_RETURN_IF_ERROR(p.Expect(et, CType::kStruct));
          ColumnChunk c;
          HOGLAKE_RETURN_IF_ERROR(p.Struct("ColumnChunk", {}, [&](int16_t cid, CType ct) -> Status {
            switch (cid) {
              case 1:
                return p.OptString(ct, &c.file_path);
              case 2:
                return r.ReadI64(ct, &c.file_offset);
              case 3:
                c.meta_data.emplace();
                return ParseColumnMetaData(p, ct, &*c.meta_data);
              default:
                return r.Skip(ct);
            }
          }));
          g->columns.push_back(std::move(c));
          return Status::Ok();
        });
      case 2:
        return r.ReadI64(t, &g->total_byte_size);
      case 3:
        return r.ReadI64(t, &g->num_rows);
      case 5:
        return p.OptI64(t, &g->file_offset);
      case 6:
        return p.OptI64(t, &g->total_compressed_size);
      case 7:
        return p.Opt<int16_t>(&CompactReader::ReadI16, t, &g->ordinal);
      default:
        return r.Skip(t);
    }
  });
}

}  // namespace

Result<FileMetaData> ParseFileMetaData(const uint8_t* data, size_t size) {
  Parser p(data, size);
  auto& r = p.reader();
  FileMetaData m;
  m.version = 0;
  HOGLAKE_RETURN_IF_ERROR(
      p.Struct("FileMetaData", {1, 2, 3, 4}, [&](int16_t id, CType t) -> Status {
        switch (id) {
          case 1:
            return r.ReadI32(t, &m.version);
          case 2:
            return p.List(t, [&](CType et) -> Status {
              m.schema.emplace_back();
              return ParseSchemaElement(p, et, &m.schema.back());
            });
          case 3:
            return r.ReadI64(t, &m.num_rows);
          case 4:
            return p.List(t, [&](CType et) -> Status {
              m.row_groups.emplace_back();
              return ParseRowGroup(p, et, &m.row_groups.back());
            });
          case 5:
            return ParseKeyValues(p, t, &m.key_value_metadata);
          case 6:
            return p.OptString(t, &m.created_by);
          case 7:
            return p.List(t, [&](CType et) -> Status {
              HOGLAKE_RETURN_IF_ERROR(p.Expect(et, CType::kStruct));
              bool type_order = false;
              HOGLAKE_RETURN_IF_ERROR(
                  p.Struct("ColumnOrder", {}, [&](int16_t oid, CType ot) -> Status {
                    if (oid == 1) type_order = true;
                    return r.Skip(ot);
                  }));
              m.column_orders.push_back(type_order);
              return Status::Ok();
            });
          default:
            return r.Skip(t);
        }
      }));
  return m;
}

Result<PageHeader> ParsePageHeader(const uint8_t* data, size_t size, size_t* consumed) {
  Parser p(data, size);
  auto& r = p.reader();
  PageHeader h;
  HOGLAKE_RETURN_IF_ERROR(p.Struct("PageHeader", {1, 2, 3}, [&](int16_t id, CType t) -> Status {
    switch (id) {
      case 1:
        return p.Enum(t, &h.type);
      case 2:
        return r.ReadI32(t, &h.uncompressed_page_size);
      case 3:
        return r.ReadI32(t, &h.compressed_page_size);
      case 4:
        return p.OptI32(t, &h.crc);
      case 5: {
        HOGLAKE_RETURN_IF_ERROR(p.Expect(t, CType::kStruct));
        DataPageHeader& d = h.data_page_header.emplace();
        return p.Struct("DataPageHeader", {1, 2, 3, 4}, [&](int16_t did, CType dt) -> Status {
          switch (did) {
            case 1:
              return r.ReadI32(dt, &d.num_values);
            case 2:
              return p.Enum(dt, &d.encoding);
            case 3:
              return p.Enum(dt, &d.definition_level_encoding);
            case 4:
              return p.Enum(dt, &d.repetition_level_encoding);
            case 5:
              return ParseStatisticsIn(p, dt, &d.statistics.emplace());
            default:
              return r.Skip(dt);
          }
        });
      }
      case 7: {
        HOGLAKE_RETURN_IF_ERROR(p.Expect(t, CType::kStruct));
        DictionaryPageHeader& d = h.dictionary_page_header.emplace();
        return p.Struct("DictionaryPageHeader", {1, 2}, [&](int16_t did, CType dt) -> Status {
          switch (did) {
            case 1:
              return r.ReadI32(dt, &d.num_values);
            case 2:
              return p.Enum(dt, &d.encoding);
            case 3:
              return p.OptBool(dt, &d.is_sorted);
            default:
              return r.Skip(dt);
          }
        });
      }
      case 8: {
        HOGLAKE_RETURN_IF_ERROR(p.Expect(t, CType::kStruct));
        DataPageHeaderV2& d = h.data_page_header_v2.emplace();
        return p.Struct("DataPageHeaderV2", {1, 2, 3, 4, 5, 6},
                        [&](int16_t did, CType dt) -> Status {
                          switch (did) {
                            case 1:
                              return r.ReadI32(dt, &d.num_values);
                            case 2:
                              return r.ReadI32(dt, &d.num_nulls);
                            case 3:
                              return r.ReadI32(dt, &d.num_rows);
                            case 4:
                              return p.Enum(dt, &d.encoding);
                            case 5:
                              return r.ReadI32(dt, &d.definition_levels_byte_length);
                            case 6:
                              return r.ReadI32(dt, &d.repetition_levels_byte_length);
                            case 7:
                              return p.OptBool(dt, &d.is_compressed);
                            case 8:
                              return ParseStatisticsIn(p, dt, &d.statistics.emplace());
                            default:
                              return r.Skip(dt);
                          }
                        });
      }
      default:
        return r.Skip(t);
    }
  }));
  *consumed = r.position();
  return h;
}

Result<Statistics> ParseStatistics(const uint8_t* data, size_t size) {
  Parser p(data, size);
  Statistics s;
  HOGLAKE_RETURN_IF_ERROR(ParseStatisticsIn(p, CType::kStruct, &s));
  return s;
}

}  // namespace hoglake::parquet
