#include "storage/s3_config.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "storage/s3_client.h"

namespace hoglake {
namespace {

// Sets AWS variables for one test and restores the environment afterwards.
class ScopedEnv {
 public:
  ScopedEnv() {
    for (const char* name : kNames) {
      const char* value = getenv(name);
      saved_.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name, value->c_str(), 1);
      } else {
        unsetenv(name);
      }
    }
  }
  void Set(const char* name, const char* value) { setenv(name, value, 1); }

 private:
  static constexpr const char* kNames[] = {
      "AWS_ACCESS_KEY_ID",  "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",  "AWS_REGION",
      "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL",      "AWS_ENDPOINT_URL_S3"};
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

TEST(S3ConfigTest, EnvironmentFillsOnlyEmptyFields) {
  ScopedEnv env;
  env.Set("AWS_ACCESS_KEY_ID", "env-key");
  env.Set("AWS_SECRET_ACCESS_KEY", "env-secret");
  env.Set("AWS_SESSION_TOKEN", "env-token");
  env.Set("AWS_DEFAULT_REGION", "eu-west-1");
  env.Set("AWS_ENDPOINT_URL", "http://127.0.0.1:9000");
  auto from_env = ResolveS3Config({});
  ASSERT_TRUE(from_env.ok()) << from_env.error().ToString();
  EXPECT_EQ(from_env->access_key_id, "env-key");
  EXPECT_EQ(from_env->secret_access_key, "env-secret");
  EXPECT_EQ(from_env->session_token, "env-token");
  EXPECT_EQ(from_env->region, "eu-west-1");
  EXPECT_EQ(from_env->endpoint, "http://127.0.0.1:9000");

  env.Set("AWS_REGION", "ap-south-1");
  S3Config explicit_keys;
  explicit_keys.access_key_id = "mine";
  explicit_keys.secret_access_key = "my-secret";
  explicit_keys.endpoint = "minio:9000";
  auto mixed = ResolveS3Config(explicit_keys);
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->access_key_id, "mine");
  EXPECT_EQ(mixed->session_token, std::nullopt);  // the token belongs to the env keys
  EXPECT_EQ(mixed->region, "ap-south-1");
  EXPECT_EQ(mixed->endpoint, "minio:9000");
}

TEST(S3ConfigTest, DefaultsAndValidation) {
  ScopedEnv env;
  auto defaults = ResolveS3Config({});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->region, "us-east-1");
  EXPECT_TRUE(defaults->access_key_id.empty());

  S3Config small_parts;
  small_parts.part_size = 1 << 20;
  auto bad = ResolveS3Config(small_parts);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("part_size"), std::string::npos);

  S3Config no_secret;
  no_secret.access_key_id = "key";
  EXPECT_FALSE(ResolveS3Config(no_secret).ok());
  S3Config pages;
  pages.list_page_size = 1001;
  EXPECT_FALSE(ResolveS3Config(pages).ok());
}

TEST(S3ClientTest, UrlsArePathStyleWithAnEndpointAndEncoded) {
  S3Config config;
  config.endpoint = "http://127.0.0.1:4568/";
  S3Client path_style(config);
  S3Request request;
  request.bucket = "bkt";
  request.key = "data/a b+c/é~.parquet";
  request.query = {{"uploadId", "x/y="}, {"partNumber", "3"}, {"uploads", ""}};
  EXPECT_EQ(path_style.Url(request),
            "http://127.0.0.1:4568/bkt/data/a%20b%2Bc/%C3%A9~.parquet"
            "?partNumber=3&uploadId=x%2Fy%3D&uploads=");

  config.endpoint = "minio.local:9000";
  config.path_style = false;
  EXPECT_EQ(S3Client(config).Url(request).substr(0, 40),
            "https://bkt.minio.local:9000/data/a%20b%");

  S3Config aws;
  aws.region = "eu-central-1";
  S3Request list;
  list.bucket = "bkt";
  list.query = {{"list-type", "2"}, {"prefix", "a/b"}};
  EXPECT_EQ(S3Client(aws).Url(list),
            "https://bkt.s3.eu-central-1.amazonaws.com/?list-type=2&prefix=a%2Fb");
}

TEST(S3ClientTest, ErrorsCarryTheS3CodeAndMessage) {
  S3Request request;
  request.operation = "GetObject";
  request.bucket = "missing";
  request.key = "k";
  S3Response response;
  response.status = 404;
  response.body =
      "<?xml version=\"1.0\"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket "
      "does not exist</Message><BucketName>missing</BucketName></Error>";
  Error error = S3Client::ResponseError(request, response);
  EXPECT_EQ(error.code, ErrorCode::kNotFound);
  EXPECT_EQ(error.message,
            "S3 GetObject s3://missing/k failed: HTTP 404 NoSuchBucket: The specified bucket "
            "does not exist");
  response.status = 503;
  response.attempts = 4;
  response.body = "<Error><Code>SlowDown</Code><Message>Reduce &amp; retry</Message></Error>";
  error = S3Client::ResponseError(request, response);
  EXPECT_EQ(error.code, ErrorCode::kUnavailable);
  EXPECT_NE(error.message.find("SlowDown: Reduce & retry (after 4 attempts)"), std::string::npos);
}

}  // namespace
}  // namespace hoglake
