// RetirementOptions defaults and RetirementResult's ledger JSON.
#include <gtest/gtest.h>

#include "catalog/maintenance/maintenance_info.h"

namespace hoglake::catalog {
namespace {

TEST(RetirementOptionsTest, DefaultsFollowTheDigest) {
  const RetirementOptions options;
  EXPECT_EQ(options.batch, 8000);
  EXPECT_EQ(options.run_budget_ms, 60000);
  EXPECT_EQ(options.pause_ms, 750);
  EXPECT_EQ(options.queue_ceiling, 500000);
  EXPECT_EQ(options.cancel, nullptr);
}

TEST(RetirementResultTest, JsonCarriesCoreFieldsAndNonDefaultFlags) {
  RetirementResult result;
  EXPECT_EQ(result.ToJson(), R"({"tables_examined":0,"rows_retired":0,"batches":0})");
  result.tables_examined = 1;
  result.rows_retired = 3;
  result.batches = 2;
  result.convoyed = true;
  result.skipped = "queue_full";
  EXPECT_EQ(result.ToJson(), R"({"tables_examined":1,"rows_retired":3,"batches":2,"convoyed":true,)"
                             R"("skipped":"queue_full"})");
}

}  // namespace
}  // namespace hoglake::catalog
