// The formatting functions' kernels: to_char(timestamp | timestamptz |
// interval, text), to_char(integer | bigint | real | double precision |
// numeric, text), to_date(text, text) and to_timestamp(text, text). Each batch
// parses its template once (again only when a row's template text
// differs, for a template taken from a column); NULL in, NULL out, and
// to_char of a datetime with an empty template is NULL too (as PostgreSQL).
#include <optional>

#include "columnar/builder.h"
#include "sql/execution/vector_ops.h"
#include "sql/function/builtins.h"
#include "sql/function/formatting/templates.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

// The parsed template of the current row, kept while its text repeats.
template <typename Template, typename ParseFn>
class TemplateCache {
 public:
  explicit TemplateCache(ParseFn parse) : parse_(parse) {}
  Result<const Template*> For(std::string_view text) {
    if (!parsed_ || text != text_) {
      HOGLAKE_ASSIGN_OR_RETURN(Template t, parse_(text));
      parsed_ = std::move(t);
      text_ = std::string(text);
    }
    return &*parsed_;
  }

 private:
  ParseFn parse_;
  std::string text_;
  std::optional<Template> parsed_;
};

Result<formatting::DatetimeTemplate> ParseDatetime(std::string_view text) {
  return formatting::ParseDatetimeTemplate(text);
}

Result<ArrayPtr> ToCharKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                              int64_t rows) {
  const ArrayData& value = *args[0];
  const ArrayData& format = *args[1];
  const SqlType& type = call.args[0]->type;
  TemplateCache<formatting::DatetimeTemplate, decltype(&ParseDatetime)> datetime(&ParseDatetime);
  TemplateCache<formatting::NumberTemplate, decltype(&formatting::ParseNumberTemplate)> number(
      &formatting::ParseNumberTemplate);
  columnar::BinaryBuilder out(columnar::Utf8());
  std::string text;
  for (int64_t i = 0; i < rows; ++i) {
    if (value.IsNull(i) || format.IsNull(i)) {
      out.AppendNull();
      continue;
    }
    text.clear();
    const std::string_view pattern = format.GetView(i);
    switch (type.id) {
      case SqlTypeId::kTimestamp:
      case SqlTypeId::kTimestampTz:
      case SqlTypeId::kInterval: {
        if (pattern.empty()) {  // PostgreSQL: an empty template gives NULL here
          out.AppendNull();
          continue;
        }
        HOGLAKE_ASSIGN_OR_RETURN(const formatting::DatetimeTemplate* t, datetime.For(pattern));
        formatting::DatetimeFields fields;
        if (type.id == SqlTypeId::kInterval) {
          int32_t months, days;
          int64_t micros;
          ReadInterval(value.GetView(i), &months, &days, &micros);
          fields = formatting::IntervalFields(months, days, micros);
        } else {
          fields = formatting::TimestampFields(value.values<int64_t>()[i],
                                               type.id == SqlTypeId::kTimestampTz);
        }
        HOGLAKE_RETURN_IF_ERROR(formatting::FormatDatetime(*t, fields, &text));
        break;
      }
      default: {
        HOGLAKE_ASSIGN_OR_RETURN(const formatting::NumberTemplate* t, number.For(pattern));
        if (type.id == SqlTypeId::kDouble) {
          HOGLAKE_ASSIGN_OR_RETURN(text,
                                   formatting::FormatDouble(*t, value.values<double>()[i], 15));
        } else if (type.id == SqlTypeId::kReal) {
          HOGLAKE_ASSIGN_OR_RETURN(text, formatting::FormatDouble(*t, value.values<float>()[i], 6));
        } else if (type.id == SqlTypeId::kNumeric) {
          HOGLAKE_ASSIGN_OR_RETURN(
              text, formatting::FormatDecimal(*t, LoadDecimal(value, i), type.scale));
        } else {
          const int64_t v = type.id == SqlTypeId::kInteger ? value.values<int32_t>()[i]
                                                           : value.values<int64_t>()[i];
          if (t->eeee) {
            HOGLAKE_ASSIGN_OR_RETURN(text,
                                     formatting::FormatDouble(*t, static_cast<double>(v), 15));
          } else {
            HOGLAKE_ASSIGN_OR_RETURN(text, formatting::FormatDecimal(*t, v, 0));
          }
        }
        break;
      }
    }
    out.Append(text);
  }
  return out.Finish();
}

// to_date (date result) and to_timestamp (timestamptz result).
Result<ArrayPtr> ParseKernel(const std::vector<ArrayPtr>& args, const BoundExpr& call,
                             int64_t rows) {
  const bool to_date = call.type.id == SqlTypeId::kDate;
  FixedOutput<int32_t> dates(CarrierType(call.type), to_date ? rows : 0);
  FixedOutput<int64_t> stamps(CarrierType(call.type), to_date ? 0 : rows);
  TemplateCache<formatting::DatetimeTemplate, decltype(&ParseDatetime)> cache(&ParseDatetime);
  for (int64_t i = 0; i < rows; ++i) {
    if (args[0]->IsNull(i) || args[1]->IsNull(i)) {
      to_date ? dates.SetNull(i) : stamps.SetNull(i);
      continue;
    }
    HOGLAKE_ASSIGN_OR_RETURN(const formatting::DatetimeTemplate* t, cache.For(args[1]->GetView(i)));
    if (to_date) {
      HOGLAKE_ASSIGN_OR_RETURN(dates.values()[i], formatting::ParseDate(*t, args[0]->GetView(i)));
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(stamps.values()[i],
                               formatting::ParseTimestamp(*t, args[0]->GetView(i)));
    }
  }
  return to_date ? dates.Finish() : stamps.Finish();
}

}  // namespace

const ScalarFunction kToChar{"to_char", ToCharKernel};
const ScalarFunction kToDate{"to_date", ParseKernel};
const ScalarFunction kToTimestampText{"to_timestamp", ParseKernel};

}  // namespace hoglake::sql
