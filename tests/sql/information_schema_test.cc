// information_schema.{schemata,tables,columns} in SQL: over MemoryLake (the
// lake's own listing, real Parquet tables) and over a fake SchemaListing
// (as the query service supplies one), with filters, joins, aggregates,
// catalog qualification and the errors for unknown views and catalogs.
#include <gtest/gtest.h>

#include "memory_lake.h"
#include "sql/source/schema_listing.h"

namespace hoglake::sql::testing {
namespace {

using Rows = std::vector<std::string>;

// Two catalogs, one with an empty schema; a table whose listing the fake
// decides (as a federated source's stored discovery would be).
class FakeListing : public SchemaListing {
 public:
  Result<std::vector<ListingSchema>> Schemata() override {
    ++schemata_calls;
    return std::vector<ListingSchema>{{"alpha", "public"}, {"alpha", "sales"}, {"beta", "empty"}};
  }
  Result<std::vector<ListingTable>> Tables(bool with_columns) override {
    std::vector<ListingTable> tables = {
        {"alpha",
         "public",
         "orders",
         {{"id", "bigint", false},
          {"amount", "numeric(10,2)", true},
          {"placed", "timestamp with time zone", true}}},
        {"alpha", "sales", "regions", {{"name", "character varying(40)", true}}},
    };
    if (!with_columns) {
      for (ListingTable& t : tables) t.columns.clear();
    }
    return tables;
  }
  int schemata_calls = 0;
};

class FailingListing : public SchemaListing {
 public:
  Result<std::vector<ListingSchema>> Schemata() override {
    return MakeError(ErrorCode::kUnavailable, "listing unavailable");
  }
  Result<std::vector<ListingTable>> Tables(bool) override {
    return MakeError(ErrorCode::kUnavailable, "listing unavailable");
  }
};

class InformationSchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    lake_.CreateTable("t", {{"id", columnar::Int64()},
                            {"name", columnar::Utf8()},
                            {"amount", columnar::Decimal128(10, 2)},
                            {"day", columnar::Date32()}});
    lake_.Append("t", {{"1", "a", "1.00", "2024-01-01"}});
    lake_.CreateTable("u", {{"flag", columnar::Bool()}});
  }

  Rows RunOverLake(const std::string& sql) {
    Session session(lake_.MakeSessionOptions());
    return RunRows(session, sql);
  }
  Rows RunOverFake(const std::string& sql) {
    SessionOptions options = lake_.MakeSessionOptions();
    options.listing = &fake_;
    Session session(options);
    return RunRows(session, sql);
  }

  MemoryLake lake_;
  FakeListing fake_;
};

TEST_F(InformationSchemaTest, LakeColumnsWithPostgresTypeNames) {
  EXPECT_EQ(
      RunOverLake("SELECT table_catalog, table_schema, table_name, column_name, "
                  "ordinal_position, column_default, is_nullable, data_type "
                  "FROM information_schema.columns WHERE table_name = 't' "
                  "ORDER BY ordinal_position"),
      (Rows{"lake|public|t|id|1|NULL|YES|bigint", "lake|public|t|name|2|NULL|YES|text",
            "lake|public|t|amount|3|NULL|YES|numeric(10,2)", "lake|public|t|day|4|NULL|YES|date"}));
  EXPECT_EQ(RunOverLake("SELECT table_name, table_type FROM information_schema.tables "
                        "ORDER BY table_name"),
            (Rows{"t|BASE TABLE", "u|BASE TABLE"}));
  EXPECT_EQ(RunOverLake("SELECT * FROM information_schema.schemata"), (Rows{"lake|public"}));
}

TEST_F(InformationSchemaTest, ViewsAreOrdinaryRelations) {
  EXPECT_EQ(RunOverLake("SELECT t.table_name, count(c.column_name) "
                        "FROM information_schema.tables t "
                        "JOIN information_schema.columns c USING (table_catalog, table_schema, "
                        "table_name) GROUP BY t.table_name ORDER BY 1"),
            (Rows{"t|4", "u|1"}));
  EXPECT_EQ(RunOverLake("SELECT max(ordinal_position) + 1 FROM information_schema.columns "
                        "WHERE data_type LIKE 'num%' OR column_name = 'flag'"),
            (Rows{"4"}));
  EXPECT_EQ(RunOverLake("SELECT column_name FROM information_schema.columns AS c (a, b, n, "
                        "column_name) WHERE n = 'u'"),
            (Rows{"flag"}));
  // The real table is still read alongside.
  EXPECT_EQ(RunOverLake("SELECT count(*) FROM t WHERE EXISTS (SELECT 1 FROM "
                        "information_schema.tables WHERE table_name = 'u')"),
            (Rows{"1"}));
}

TEST_F(InformationSchemaTest, ListingDecidesTheRows) {
  EXPECT_EQ(RunOverFake("SELECT catalog_name, schema_name FROM information_schema.schemata"),
            (Rows{"alpha|public", "alpha|sales", "beta|empty"}));
  EXPECT_EQ(RunOverFake("SELECT table_catalog || '.' || table_schema || '.' || table_name "
                        "FROM information_schema.tables"),
            (Rows{"alpha.public.orders", "alpha.sales.regions"}));
  EXPECT_EQ(RunOverFake("SELECT column_name, is_nullable, data_type FROM "
                        "information_schema.columns WHERE table_name = 'orders' "
                        "AND ordinal_position >= 2"),
            (Rows{"amount|YES|numeric(10,2)", "placed|YES|timestamp with time zone"}));
  EXPECT_EQ(RunOverFake("SELECT count(*) FROM information_schema.columns WHERE is_nullable = 'NO'"),
            (Rows{"1"}));
}

TEST_F(InformationSchemaTest, CatalogQualifiedViewsShowThatCatalog) {
  EXPECT_EQ(RunOverFake("SELECT schema_name FROM beta.information_schema.schemata"),
            (Rows{"empty"}));
  EXPECT_EQ(RunOverFake("SELECT count(*) FROM beta.information_schema.tables"), (Rows{"0"}));
  EXPECT_EQ(RunOverFake("SELECT count(*) FROM alpha.information_schema.columns"), (Rows{"4"}));
  // A catalog alias (a Hotdata database's "default") names its catalog.
  SessionOptions options = lake_.MakeSessionOptions();
  options.listing = &fake_;
  options.catalog_aliases["default"] = "alpha";
  Session session(options);
  EXPECT_EQ(RunRows(session,
                    "SELECT table_name FROM \"default\".information_schema.tables "
                    "WHERE table_schema = 'sales'"),
            (Rows{"regions"}));
}

TEST_F(InformationSchemaTest, ColumnTypes) {
  SessionOptions options = lake_.MakeSessionOptions();
  options.listing = &fake_;
  Session session(options);
  Result<QueryResult> result = session.Execute(
      "SELECT table_catalog, ordinal_position, is_nullable FROM "
      "information_schema.columns LIMIT 0");
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->columns.size(), 3u);
  EXPECT_EQ(result->columns[0].type.id, SqlTypeId::kText);
  EXPECT_EQ(result->columns[1].type.id, SqlTypeId::kInteger);
  EXPECT_EQ(result->columns[2].type.id, SqlTypeId::kText);
}

TEST_F(InformationSchemaTest, UnknownViewsAndCatalogsAreNamed) {
  Rows view = RunOverFake("SELECT * FROM information_schema.routines");
  ASSERT_EQ(view.size(), 1u);
  EXPECT_NE(view[0].find("ERROR 42P01"), std::string::npos) << view[0];
  EXPECT_NE(view[0].find("information_schema.routines"), std::string::npos) << view[0];
  Rows catalog = RunOverFake("SELECT * FROM gamma.information_schema.tables");
  ASSERT_EQ(catalog.size(), 1u);
  EXPECT_NE(catalog[0].find("ERROR 42P01"), std::string::npos) << catalog[0];
  EXPECT_NE(catalog[0].find("no catalog \"gamma\""), std::string::npos) << catalog[0];
}

TEST_F(InformationSchemaTest, ListingErrorsFailTheStatement) {
  FailingListing failing;
  SessionOptions options = lake_.MakeSessionOptions();
  options.listing = &failing;
  Session session(options);
  Result<QueryResult> result = session.Execute("SELECT * FROM information_schema.tables");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(result.error().message, "listing unavailable");
  // Other statements are not affected by the listing.
  EXPECT_EQ(RunRows(session, "SELECT count(*) FROM t"), (Rows{"1"}));
}

}  // namespace
}  // namespace hoglake::sql::testing
