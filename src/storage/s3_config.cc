#include "storage/s3_config.h"

#include "common/config.h"

namespace hoglake {

Result<S3Config> ResolveS3Config(S3Config config) {
  EnvReader env;
  auto Env = [&env](std::string_view name) { return env.Text(name); };
  if (config.access_key_id.empty() && config.secret_access_key.empty()) {
    config.access_key_id = Env("AWS_ACCESS_KEY_ID");
    config.secret_access_key = Env("AWS_SECRET_ACCESS_KEY");
    if (!config.session_token.has_value()) {
      std::string token = Env("AWS_SESSION_TOKEN");
      if (!token.empty()) config.session_token = std::move(token);
    }
  }
  if (config.region.empty()) config.region = Env("AWS_REGION");
  if (config.region.empty()) config.region = Env("AWS_DEFAULT_REGION");
  if (config.region.empty()) config.region = "us-east-1";
  if (config.endpoint.empty()) config.endpoint = Env("AWS_ENDPOINT_URL_S3");
  if (config.endpoint.empty()) config.endpoint = Env("AWS_ENDPOINT_URL");

  if (!config.access_key_id.empty() && config.secret_access_key.empty()) {
    return InvalidArgument("S3 access key id '", config.access_key_id,
                           "' has no secret access key (set secret_access_key or "
                           "AWS_SECRET_ACCESS_KEY)");
  }
  if (config.access_key_id.empty() && !config.secret_access_key.empty()) {
    return InvalidArgument("S3 secret access key given without an access key id");
  }
  if (config.part_size < (5ull << 20)) {
    return InvalidArgument("S3 part_size ", config.part_size,
                           " is below the 5 MiB minimum of a multipart upload part");
  }
  if (config.part_size > (5ull << 30)) {
    return InvalidArgument("S3 part_size ", config.part_size, " exceeds the 5 GiB maximum");
  }
  if (config.list_page_size < 1 || config.list_page_size > 1000) {
    return InvalidArgument("S3 list_page_size ", config.list_page_size, " is outside 1..1000");
  }
  if (config.max_attempts < 1) {
    return InvalidArgument("S3 max_attempts ", config.max_attempts, " must be at least 1");
  }
  if (config.retry_base_delay_ms < 0 || config.connect_timeout_ms < 1 ||
      config.read_timeout_ms < 1000 || config.max_idle_connections < 1) {
    return InvalidArgument(
        "S3 timeouts must be positive (read_timeout_ms at least 1000), "
        "retry_base_delay_ms non-negative and max_idle_connections at least 1");
  }
  return config;
}

}  // namespace hoglake
