// Metrics::RenderPrometheus: the commit-lock wait histogram and the queue
// timeout counter (always present, no per-catalog label, cumulative buckets).
#include "server/observability/metrics.h"

#include <gtest/gtest.h>

#include <string>

namespace hoglake::server {
namespace {

bool Has(const std::string& text, const std::string& line) {
  return text.find(line + "\n") != std::string::npos;
}

TEST(MetricsTest, CommitLockSeriesRenderedBeforeAnyWait) {
  Metrics metrics;
  const std::string text = metrics.RenderPrometheus();
  EXPECT_TRUE(Has(text, "# TYPE hoglake_commit_lock_wait_seconds histogram"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_bucket{le=\"+Inf\"} 0"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_count 0"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_sum 0"));
  EXPECT_TRUE(Has(text, "# TYPE hoglake_commit_queue_timeouts_total counter"));
  EXPECT_TRUE(Has(text, "hoglake_commit_queue_timeouts_total 0"));
}

TEST(MetricsTest, CommitBatchSizesFillCumulativeBuckets) {
  Metrics metrics;
  EXPECT_TRUE(Has(metrics.RenderPrometheus(), "hoglake_commit_batch_requests_count 0"));
  for (size_t requests : {1, 1, 3, 8, 64}) metrics.RecordCommitBatch(requests);
  const std::string text = metrics.RenderPrometheus();
  EXPECT_TRUE(Has(text, "# TYPE hoglake_commit_batch_requests histogram"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_bucket{le=\"1\"} 2"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_bucket{le=\"2\"} 2"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_bucket{le=\"4\"} 3"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_bucket{le=\"8\"} 4"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_bucket{le=\"32\"} 4"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_bucket{le=\"64\"} 5"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_bucket{le=\"+Inf\"} 5"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_sum 77"));
  EXPECT_TRUE(Has(text, "hoglake_commit_batch_requests_count 5"));
}

TEST(MetricsTest, CommitLockWaitsFillCumulativeBuckets) {
  Metrics metrics;
  metrics.RecordCommitLockWait(0.0002, false);
  metrics.RecordCommitLockWait(0.02, false);
  metrics.RecordCommitLockWait(0.3, true);
  metrics.RecordCommitLockWait(120, true);  // beyond the last finite bound
  const std::string text = metrics.RenderPrometheus();
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_bucket{le=\"0.001\"} 1"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_bucket{le=\"0.025\"} 2"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_bucket{le=\"0.25\"} 2"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_bucket{le=\"0.5\"} 3"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_bucket{le=\"60\"} 3"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_bucket{le=\"+Inf\"} 4"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_count 4"));
  EXPECT_TRUE(Has(text, "hoglake_commit_lock_wait_seconds_sum 120.3202"));
  EXPECT_TRUE(Has(text, "hoglake_commit_queue_timeouts_total 2"));
  // Bounded cardinality: no label other than `le` on the histogram.
  EXPECT_EQ(text.find("hoglake_commit_lock_wait_seconds_bucket{catalog"), std::string::npos);
}

TEST(MetricsTest, RequestsAndCommitsStillRendered) {
  Metrics metrics;
  metrics.RecordRequest("/v1/catalogs/{catalog}/commit", "POST", 503, 0.3);
  metrics.RecordCommit("append");
  const std::string text = metrics.RenderPrometheus();
  EXPECT_TRUE(Has(text,
                  "hoglake_http_requests_total{route=\"/v1/catalogs/{catalog}/commit\","
                  "method=\"POST\",status=\"503\"} 1"));
  EXPECT_TRUE(Has(text, "hoglake_commits_total{kind=\"append\"} 1"));
}

TEST(MetricsTest, CountersAppearOnlyOnceCounted) {
  Metrics metrics;
  metrics.AddToCounter("hoglake_files_removed_total", "Objects deleted by cleanup.",
                       {{"catalog", "lake"}}, 0);
  EXPECT_EQ(metrics.RenderPrometheus().find("hoglake_files_removed_total"), std::string::npos);
  metrics.AddToCounter("hoglake_files_removed_total", "Objects deleted by cleanup.",
                       {{"catalog", "lake"}}, 3);
  metrics.AddToCounter("hoglake_files_removed_total", "Objects deleted by cleanup.",
                       {{"catalog", "lake"}}, 2);
  metrics.AddToCounter("hoglake_files_removed_total", "Objects deleted by cleanup.",
                       {{"catalog", "other\"x"}}, 1);
  const std::string text = metrics.RenderPrometheus();
  EXPECT_TRUE(Has(text, "# TYPE hoglake_files_removed_total counter"));
  EXPECT_TRUE(Has(text, "hoglake_files_removed_total{catalog=\"lake\"} 5"));
  EXPECT_TRUE(Has(text, "hoglake_files_removed_total{catalog=\"other\\\"x\"} 1"));
}

TEST(MetricsTest, GaugeSampleReplacesThePreviousOne) {
  Metrics metrics;
  metrics.PublishGauges({{"hoglake_live_bytes", "Bytes.", {{"catalog", "a"}}, 12345678901.0},
                         {"hoglake_head_age_seconds", "Age.", {{"catalog", "a"}}, 1.5},
                         {"hoglake_live_bytes", "Bytes.", {{"catalog", "b"}}, 7}});
  std::string text = metrics.RenderPrometheus();
  EXPECT_TRUE(Has(text, "# TYPE hoglake_live_bytes gauge"));
  EXPECT_TRUE(Has(text, "hoglake_live_bytes{catalog=\"a\"} 12345678901"));
  EXPECT_TRUE(Has(text, "hoglake_live_bytes{catalog=\"b\"} 7"));
  EXPECT_TRUE(Has(text, "hoglake_head_age_seconds{catalog=\"a\"} 1.5"));
  // One HELP/TYPE header per family even when its series were interleaved.
  EXPECT_EQ(text.find("# TYPE hoglake_live_bytes gauge"),
            text.rfind("# TYPE hoglake_live_bytes gauge"));
  metrics.PublishGauges({{"hoglake_live_bytes", "Bytes.", {{"catalog", "b"}}, 8}});
  text = metrics.RenderPrometheus();
  EXPECT_EQ(text.find("catalog=\"a\""), std::string::npos);
  EXPECT_TRUE(Has(text, "hoglake_live_bytes{catalog=\"b\"} 8"));
}

}  // namespace
}  // namespace hoglake::server
