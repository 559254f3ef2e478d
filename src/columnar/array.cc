#include "columnar/array.h"

namespace hoglake::columnar {

std::string_view ArrayData::GetView(int64_t i) const {
  if (type->id == TypeId::kFixedSizeBinary || type->id == TypeId::kDecimal128 ||
      type->id == TypeId::kIntervalMonthDayNano) {
    const int64_t width = type->byte_width;
    const auto* base = buffers[1]->data() + (offset + i) * width;
    return std::string_view(reinterpret_cast<const char*>(base), static_cast<size_t>(width));
  }
  const int32_t* offs = offsets();
  const auto* base = buffers[2]->data() + offs[i];
  return std::string_view(reinterpret_cast<const char*>(base),
                          static_cast<size_t>(offs[i + 1] - offs[i]));
}

Result<RecordBatch> MakeRecordBatch(SchemaPtr schema, std::vector<ArrayPtr> columns) {
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return InvalidArgument("record batch has ", columns.size(), " columns but the schema has ",
                           schema->num_fields(), " fields");
  }
  int64_t num_rows = columns.empty() ? 0 : columns[0]->length;
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& field = schema->fields[i];
    if (columns[i]->length != num_rows) {
      return InvalidArgument("column '", field.name, "' has ", columns[i]->length,
                             " rows, expected ", num_rows);
    }
    if (!columns[i]->type->Equals(*field.type)) {
      return InvalidArgument("column '", field.name, "' has type ", columns[i]->type->ToString(),
                             " but the schema says ", field.type->ToString());
    }
    if (!field.nullable && columns[i]->null_count > 0) {
      return InvalidArgument("column '", field.name, "' is not nullable but has ",
                             columns[i]->null_count, " nulls");
    }
  }
  return RecordBatch{std::move(schema), num_rows, std::move(columns)};
}

}  // namespace hoglake::columnar
