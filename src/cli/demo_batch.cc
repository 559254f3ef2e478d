#include "cli/demo_batch.h"

#include "columnar/builder.h"
#include "common/time_text.h"

namespace hoglake::cli {

using namespace columnar;

namespace {
Field F(std::string name, DataTypePtr type, int32_t id, bool nullable = true) {
  return Field{std::move(name), std::move(type), nullable, {}}.WithFieldId(id);
}
}  // namespace

Result<RecordBatch> MakeDemoBatch() {
  auto schema = std::make_shared<Schema>(
      Schema{{
                 F("id", Int64(), 1, false),
                 F("team_id", Int32(), 2),
                 F("ts", Timestamp(TimeUnit::kMicro, "UTC"), 3),
                 F("event", Utf8(), 4),
                 F("amount", Decimal128(10, 2), 5),
                 F("score", Float64(), 6),
                 F("day", Date32(), 7),
                 UuidField("session").WithFieldId(8),
                 F("is_bot", Bool(), 9),
                 F("tags", List(F("element", Utf8(), 11)), 10),
                 F("geo", Struct({F("city", Utf8(), 13), F("zip", UInt16(), 14)}), 12),
                 F("props", Map(Utf8(), Utf8()), 15),
             },
             {{"hoglake.demo", "events"}}});

  Int64Builder id;
  Int32Builder team;
  TimestampBuilder ts(schema->fields[2].type);
  StringBuilder event;
  Decimal128Builder amount(schema->fields[4].type);
  Float64Builder score;
  Date32Builder day;
  FixedSizeBinaryBuilder session(FixedSizeBinary(16));
  BooleanBuilder is_bot;
  ListBuilder tags(schema->fields[9].type);
  StructBuilder geo(schema->fields[10].type);
  MapBuilder props(schema->fields[11].type);

  const char* events[] = {"$pageview", "signup", "purchase"};
  const char* cities[] = {"Oslo", "Lagos", "Lima"};
  const int64_t base_day = DaysFromCivil(2026, 9, 5);
  for (int i = 0; i < 3; ++i) {
    id.Append(1000 + i);
    if (i == 1)
      team.AppendNull();
    else
      team.Append(7);
    ts.Append((base_day * 86400 + 12 * 3600 + i * 61) * 1000000LL + 123456);
    event.Append(events[i]);
    if (i == 0)
      amount.AppendNull();
    else
      amount.Append(1999 * i);
    score.Append(i == 2 ? -0.5 : 0.25 * (i + 1));
    day.Append(static_cast<int32_t>(base_day));
    std::string uuid(16, '\0');
    for (int k = 0; k < 16; ++k) uuid[k] = static_cast<char>(0x10 * i + k);
    HOGLAKE_RETURN_IF_ERROR(session.Append(uuid));
    is_bot.Append(i == 2);
    tags.Append();
    for (int k = 0; k <= i; ++k)
      tags.value_builder<BinaryBuilder>().Append("tag" + std::to_string(k));
    if (i == 2) {
      geo.AppendNull();
    } else {
      geo.Append();
      geo.child<BinaryBuilder>(0).Append(cities[i]);
      geo.child<UInt16Builder>(1).Append(static_cast<uint16_t>(1000 * (i + 1)));
    }
    props.Append();
    props.key_builder<BinaryBuilder>().Append("$browser");
    props.item_builder<BinaryBuilder>().Append(i == 1 ? "Firefox" : "Chrome");
  }
  std::vector<ArrayPtr> columns;
  for (ArrayBuilder* b :
       std::initializer_list<ArrayBuilder*>{&id, &team, &ts, &event, &amount, &score, &day,
                                            &session, &is_bot, &tags, &geo, &props}) {
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr array, b->Finish());
    columns.push_back(std::move(array));
  }
  return MakeRecordBatch(schema, std::move(columns));
}

}  // namespace hoglake::cli
