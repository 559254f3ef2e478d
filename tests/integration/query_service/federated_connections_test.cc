// Federated PostgreSQL connections over HTTP against the test server, with a
// database on the test PostgreSQL as the source: registration discovers its
// tables, views and columns (PostgreSQL's type names) into the REST and SQL
// information_schema; the password is in no response and stored only
// sealed; a query naming the source fails clearly (sync 400, async failed);
// refresh sees a new table; a source that cannot be reached is registered
// with its discovery error; bad requests change nothing; DELETE removes it;
// without the server's secret key a password is refused, and a sealed
// password opens only under the key that sealed it.
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <rapidjson/document.h>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

constexpr std::string_view kPassword = "fed-Pa55word-visible-nowhere";

std::string NextName(const std::string& stem) {
  static std::atomic<int> counter{0};
  return stem + std::to_string(getpid()) + "_" + std::to_string(++counter);
}

std::string RegisterBody(const std::string& name, const std::string& database,
                         const std::string& port = "5432") {
  return "{\"name\":\"" + name + "\",\"source_type\":\"postgres\",\"config\":{\"host\":\"" +
         ServerEnvironment::data_dir() + "/run\",\"port\":" + port + ",\"user\":\"hoglake\"," +
         "\"database\":\"" + database + "\",\"password\":\"" + std::string(kPassword) + "\"}}";
}

std::string Code(const ApiResponse& r) {
  if (!r.json.IsObject() || !r.json.HasMember("error")) return "";
  return r.json["error"]["code"].GetString();
}

// (schema.table: column type nullable) lines of one connection's REST listing.
std::vector<std::string> RestColumns(const std::string& id) {
  ApiResponse r = ServerEnvironment::Call(
      "GET", "/v1/information_schema?include_columns=true&connection_id=" + id);
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body.find(kPassword), std::string::npos);
  std::vector<std::string> lines;
  if (r.status != 200) return lines;
  for (const auto& t : r.json["tables"].GetArray()) {
    EXPECT_EQ(std::string(t["connection"].GetString()), id);
    for (const auto& c : t["columns"].GetArray()) {
      lines.push_back(std::string(t["schema"].GetString()) + "." + t["table"].GetString() + ": " +
                      c["name"].GetString() + " " + c["data_type"].GetString() +
                      (c["nullable"].GetBool() ? "" : " not null"));
    }
  }
  return lines;
}

std::vector<std::string> SqlColumns(const std::string& id) {
  ApiResponse r = ServerEnvironment::Call(
      "POST", "/v1/query",
      "{\"sql\":\"SELECT table_schema || '.' || table_name || ': ' || column_name || ' ' || "
      "data_type || CASE is_nullable WHEN 'NO' THEN ' not null' ELSE '' END "
      "FROM information_schema.columns WHERE table_catalog = '" +
          id + "' ORDER BY table_schema, table_name, ordinal_position\"}");
  EXPECT_EQ(r.status, 200) << r.body;
  std::vector<std::string> lines;
  if (r.status != 200) return lines;
  for (const auto& row : r.json["rows"].GetArray()) lines.push_back(row[0].GetString());
  return lines;
}

class FederatedConnectionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    source_db_ = NextName("fedsrc");
    CreateTestDatabase(source_db_);
    PgSession source(TestPgConninfo(source_db_));
    ASSERT_TRUE(source.ok());
    source.Exec(
        "CREATE SCHEMA crm;"
        "CREATE TABLE crm.customers (id bigint PRIMARY KEY, name varchar(40) NOT NULL, "
        "balance numeric(12,2), tags text[], seen timestamptz);"
        "CREATE VIEW crm.rich AS SELECT id, balance FROM crm.customers WHERE balance > 1000;"
        "CREATE TABLE public.notes (body text);"
        "ALTER TABLE public.notes ADD COLUMN gone int; ALTER TABLE public.notes DROP COLUMN gone;"
        "ALTER TABLE public.notes ADD COLUMN at date");
  }

  std::string source_db_;
};

const std::vector<std::string> kDiscovered = {
    "crm.customers: id bigint not null",
    "crm.customers: name character varying(40) not null",
    "crm.customers: balance numeric(12,2)",
    "crm.customers: tags text[]",
    "crm.customers: seen timestamp with time zone",
    "crm.rich: id bigint",
    "crm.rich: balance numeric(12,2)",
    "public.notes: body text",
    "public.notes: at date",
};

TEST_F(FederatedConnectionsTest, RegistrationDiscoversIntoInformationSchema) {
  const std::string name = NextName("fed_crm");
  ApiResponse created =
      ServerEnvironment::Call("POST", "/v1/connections", RegisterBody(name, source_db_));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(std::string(created.json["id"].GetString()), name);
  EXPECT_EQ(std::string(created.json["source_type"].GetString()), "postgres");
  EXPECT_EQ(std::string(created.json["discovery_status"].GetString()), "success") << created.body;
  EXPECT_EQ(created.json["tables_discovered"].GetInt64(), 3);
  EXPECT_EQ(created.body.find(kPassword), std::string::npos);

  ApiResponse list = ServerEnvironment::Call("GET", "/v1/connections");
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.body.find(kPassword), std::string::npos);
  bool listed = false;
  for (const auto& c : list.json["connections"].GetArray()) {
    if (std::string(c["id"].GetString()) != name) continue;
    listed = true;
    EXPECT_EQ(std::string(c["source_type"].GetString()), "postgres");
  }
  EXPECT_TRUE(listed) << list.body;
  ApiResponse one = ServerEnvironment::Call("GET", "/v1/connections/" + name);
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(one.json["table_count"].GetInt64(), 3);
  EXPECT_EQ(one.body.find(kPassword), std::string::npos);

  EXPECT_EQ(RestColumns(name), kDiscovered);
  EXPECT_EQ(SqlColumns(name), kDiscovered);
  ApiResponse schemata = ServerEnvironment::Call(
      "POST", "/v1/query",
      "{\"sql\":\"SELECT schema_name FROM " + name + ".information_schema.schemata\"}");
  ASSERT_EQ(schemata.status, 200) << schemata.body;
  ASSERT_EQ(schemata.json["rows"].Size(), 2u) << schemata.body;
  EXPECT_EQ(std::string(schemata.json["rows"][0][0].GetString()), "crm");
  EXPECT_EQ(std::string(schemata.json["rows"][1][0].GetString()), "public");

  // Stored sealed: the password is in no column of the row, in any form.
  PgSession catalog(TestPgConninfo("hoglake"));
  ASSERT_TRUE(catalog.ok());
  EXPECT_EQ(catalog.Int("SELECT count(*) FROM hog_federated_connection WHERE id = '" + name + "'"),
            1);
  EXPECT_EQ(catalog.Int("SELECT count(*) FROM hog_federated_connection t WHERE t::text LIKE '%" +
                        std::string(kPassword) + "%' OR position(convert_to('" +
                        std::string(kPassword) + "', 'UTF8') IN t.secret_sealed) > 0"),
            0);
  EXPECT_EQ(catalog.Int("SELECT length(secret_sealed) FROM hog_federated_connection WHERE id = '" +
                        name + "'"),
            static_cast<int64_t>(kPassword.size() + 28));

  // Reading its rows is not supported yet: sync 400, async a failed run.
  const std::string query = "SELECT * FROM " + name + ".crm.customers";
  ApiResponse sync = ServerEnvironment::Call("POST", "/v1/query", "{\"sql\":\"" + query + "\"}");
  EXPECT_EQ(sync.status, 400) << sync.body;
  EXPECT_NE(sync.body.find("querying federated PostgreSQL connections is not yet supported"),
            std::string::npos)
      << sync.body;
  ApiResponse async =
      ServerEnvironment::Call("POST", "/v1/query", "{\"sql\":\"" + query + "\",\"async\":true}");
  ASSERT_EQ(async.status, 202) << async.body;
  const std::string run_id = async.json["query_run_id"].GetString();
  ApiResponse run;
  for (int i = 0; i < 600; ++i) {
    run = ServerEnvironment::Call("GET", "/v1/query-runs/" + run_id);
    if (run.status != 200 || std::string(run.json["status"].GetString()) != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(run.status, 200) << run.body;
  EXPECT_EQ(std::string(run.json["status"].GetString()), "failed") << run.body;
  EXPECT_NE(std::string(run.json["error_message"].GetString())
                .find("querying federated PostgreSQL connections is not yet supported"),
            std::string::npos)
      << run.body;

  // Refresh discovers again with the stored (sealed) password.
  PgSession source(TestPgConninfo(source_db_));
  source.Exec("CREATE TABLE crm.orders (id int NOT NULL, customer bigint)");
  ApiResponse refreshed =
      ServerEnvironment::Call("POST", "/v1/refresh", "{\"connection_id\":\"" + name + "\"}");
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  EXPECT_EQ(refreshed.json["connections_refreshed"].GetInt64(), 1);
  EXPECT_EQ(refreshed.json["tables_discovered"].GetInt64(), 4);
  std::vector<std::string> after = RestColumns(name);
  EXPECT_EQ(after.size(), kDiscovered.size() + 2);
  EXPECT_EQ(SqlColumns(name), after);

  ApiResponse deleted = ServerEnvironment::Call("DELETE", "/v1/connections/" + name);
  EXPECT_EQ(deleted.status, 204) << deleted.body;
  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/connections/" + name).status, 404);
  EXPECT_EQ(ServerEnvironment::Call("DELETE", "/v1/connections/" + name).status, 404);
  EXPECT_TRUE(SqlColumns(name).empty());
  EXPECT_EQ(
      catalog.Int("SELECT count(*) FROM hog_federated_column WHERE connection_id = '" + name + "'"),
      0);
  EXPECT_EQ(catalog.Int("SELECT count(*) FROM hog_federated_connection WHERE id = '" + name + "'"),
            0);
}

TEST_F(FederatedConnectionsTest, UnreachableSourceIsRegisteredWithItsError) {
  const std::string name = NextName("fed_down");
  ApiResponse created = ServerEnvironment::Call("POST", "/v1/connections",
                                                RegisterBody(name, "no_such_database_here"));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(std::string(created.json["discovery_status"].GetString()), "failed");
  EXPECT_NE(std::string(created.json["discovery_error"].GetString()).find("no_such_database_here"),
            std::string::npos)
      << created.body;
  EXPECT_EQ(created.json["tables_discovered"].GetInt64(), 0);
  EXPECT_EQ(created.body.find(kPassword), std::string::npos);
  ApiResponse one = ServerEnvironment::Call("GET", "/v1/connections/" + name);
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(one.json["table_count"].GetInt64(), 0);
  ApiResponse refreshed =
      ServerEnvironment::Call("POST", "/v1/refresh", "{\"connection_id\":\"" + name + "\"}");
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  EXPECT_EQ(refreshed.json["connections_failed"].GetInt64(), 1);
  EXPECT_EQ(refreshed.body.find(kPassword), std::string::npos);
  EXPECT_EQ(ServerEnvironment::Call("DELETE", "/v1/connections/" + name).status, 204);
}

TEST_F(FederatedConnectionsTest, RefusedRegistrationsChangeNothing) {
  const std::string name = NextName("fed_bad");
  auto refused = [&](const std::string& body, int status, const std::string& needle) {
    ApiResponse r = ServerEnvironment::Call("POST", "/v1/connections", body);
    EXPECT_EQ(r.status, status) << body << " → " << r.body;
    EXPECT_NE(r.body.find(needle), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find(kPassword), std::string::npos);
    EXPECT_NE(Code(r), "");
  };
  refused("{\"name\":\"" + name + "\",\"source_type\":\"postgres\"}", 400, "config");
  refused("{\"name\":\"" + name +
              "\",\"source_type\":\"postgres\",\"config\":{\"user\":\"u\",\"database\":\"d\"}}",
          400, "host");
  refused(RegisterBody(name, source_db_, "70000"), 400, "port");
  refused(
      "{\"name\":\"bad name!\",\"source_type\":\"postgres\",\"config\":{\"host\":\"h\","
      "\"user\":\"u\",\"database\":\"d\"}}",
      400, "name");
  refused("{\"name\":\"" + name + "\",\"source_type\":\"mysql\",\"config\":{}}", 501, "mysql");
  EXPECT_EQ(ServerEnvironment::Call("GET", "/v1/connections/" + name).status, 404);

  // A name in use (this connection, or a lake catalog) is a conflict.
  ASSERT_EQ(
      ServerEnvironment::Call("POST", "/v1/connections", RegisterBody(name, source_db_)).status,
      201);
  refused(RegisterBody(name, source_db_), 409, "already exists");
  const std::string lake_catalog = NewCatalog();
  refused(RegisterBody(lake_catalog, source_db_), 409, "already exists");
  // A managed connection cannot take a federated connection's name either.
  refused("{\"name\":\"" + name + "\",\"source_type\":\"managed\"}", 409, "already exists");
  EXPECT_EQ(ServerEnvironment::Call("DELETE", "/v1/connections/" + name).status, 204);
}

// A server of its own on its own database: without a key a password is
// refused; the secret only opens under the key it was sealed with.
TEST_F(FederatedConnectionsTest, SecretsNeedTheServersKey) {
  const std::string db = NextName("fedkeys");
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  const std::string dir = MakeServerDir("hoglake-fedkeys");
  auto start = [&](ServerProcess& server, const std::string& key) {
    server.Start(dir, {"--database-url", TestDatabaseUrl(db)},
                 {{"HOGLAKE_SECRET_KEY", key},
                  {"HOGLAKE_EXPIRY_INTERVAL_MS", "0"},
                  {"HOGLAKE_HYDRATOR_INTERVAL_MS", "0"}});
    ASSERT_TRUE(server.running());
  };
  const std::string name = NextName("fed_keyed");
  {
    ServerProcess keyless;
    ASSERT_NO_FATAL_FAILURE(start(keyless, ""));
    ApiResponse refused =
        CallServer(keyless.base_url(), "POST", "/v1/connections", RegisterBody(name, source_db_));
    EXPECT_EQ(refused.status, 503) << refused.body;
    EXPECT_NE(refused.body.find("HOGLAKE_SECRET_KEY"), std::string::npos) << refused.body;
    EXPECT_EQ(CallServer(keyless.base_url(), "GET", "/v1/connections/" + name).status, 404);
    keyless.Stop();
  }
  {
    ServerProcess first;
    ASSERT_NO_FATAL_FAILURE(start(first, "the-first-secret-key"));
    ApiResponse created =
        CallServer(first.base_url(), "POST", "/v1/connections", RegisterBody(name, source_db_));
    ASSERT_EQ(created.status, 201) << created.body;
    first.Stop();
  }
  const std::string refresh = "{\"connection_id\":\"" + name + "\"}";
  {
    ServerProcess other;
    ASSERT_NO_FATAL_FAILURE(start(other, "a-different-secret-key"));
    ApiResponse r = CallServer(other.base_url(), "POST", "/v1/refresh", refresh);
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_NE(r.body.find("does not open"), std::string::npos) << r.body;
    EXPECT_EQ(r.body.find(kPassword), std::string::npos);
    other.Stop();
  }
  ServerProcess again;
  ASSERT_NO_FATAL_FAILURE(start(again, "the-first-secret-key"));
  ApiResponse r = CallServer(again.base_url(), "POST", "/v1/refresh", refresh);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["connections_refreshed"].GetInt64(), 1);
  EXPECT_EQ(r.json["tables_discovered"].GetInt64(), 3);
  again.Stop();
}

}  // namespace
}  // namespace hoglake::testing
