#include "catalog/embedded_postgres.h"

#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "catalog/pg_connection.h"
#include "common/log.h"

namespace hoglake::catalog {
namespace {

// Settings every embedded server starts with: no TCP listener, a private
// socket, room for the pool and replicas' connections, durable commits.
const std::vector<std::string> kServerSettings = {
    "listen_addresses=", "unix_socket_permissions=0700", "max_connections=200",
    "synchronous_commit=on"};

namespace fs = std::filesystem;

constexpr const char* kPgUser = "postgres";  // the unprivileged user when we are root

// Where Debian installs the PostgreSQL 15 server binaries; HOGLAKE_PG_BINDIR
// overrides.
std::string FindBinDir() {
  if (const char* env = std::getenv("HOGLAKE_PG_BINDIR"); env && *env) return env;
  return "/usr/lib/postgresql/15/bin";
}

struct RunAs {
  bool drop = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

Result<RunAs> ResolveRunAs() {
  RunAs run_as;
  if (geteuid() != 0) return run_as;
  const passwd* pw = getpwnam(kPgUser);
  if (pw == nullptr) {
    return Unavailable("running as root, and PostgreSQL refuses root; the '", kPgUser,
                       "' system user (created by Debian's postgresql-15 package) is missing");
  }
  run_as.drop = true;
  run_as.uid = pw->pw_uid;
  run_as.gid = pw->pw_gid;
  return run_as;
}

// Starts `argv` as a child (as the unprivileged user when needed) with stdout
// and stderr appended to `log_path`. `die_with_parent` makes the kernel send
// SIGINT to the child when this process exits.
Result<pid_t> Spawn(const std::vector<std::string>& argv, const RunAs& run_as,
                    const std::string& log_path, bool die_with_parent) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return IoError("fork failed: ", std::strerror(errno));
  if (pid == 0) {
    // Opened before dropping privileges, so the log may live in a root-owned
    // directory.
    const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
      close(log);
    }
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    setpgid(0, 0);  // a terminal's Ctrl-C reaches us, not PostgreSQL directly
    if (run_as.drop) {
      if (setgroups(0, nullptr) != 0 || setgid(run_as.gid) != 0 || setuid(run_as.uid) != 0) {
        _exit(126);
      }
    }
    if (die_with_parent) {
      prctl(PR_SET_PDEATHSIG, SIGINT);
      if (getppid() != parent) _exit(1);
    }
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

Result<int> RunToCompletion(const std::vector<std::string>& argv, const RunAs& run_as,
                            const std::string& log_path) {
  HOGLAKE_ASSIGN_OR_RETURN(pid_t pid, Spawn(argv, run_as, log_path, true));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string LogTail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  if (text.size() > 2000) text = "…" + text.substr(text.size() - 2000);
  return text;
}

Status Chown(const std::string& path, const RunAs& run_as) {
  if (!run_as.drop) return Status::Ok();
  if (chown(path.c_str(), run_as.uid, run_as.gid) != 0) {
    return IoError("cannot hand '", path, "' to the ", kPgUser, " user: ", std::strerror(errno));
  }
  return Status::Ok();
}

// The unprivileged user must be able to reach `dir`: give `dir` itself o+x and
// check that every ancestor already allows traversal.
Status EnsureTraversable(const std::string& dir, const RunAs& run_as) {
  if (!run_as.drop) return Status::Ok();
  struct stat st;
  if (stat(dir.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH))
    chmod(dir.c_str(), st.st_mode | S_IXOTH);
  for (fs::path p = fs::path(dir).parent_path(); !p.empty(); p = p.parent_path()) {
    if (stat(p.c_str(), &st) == 0 && st.st_uid != run_as.uid && !(st.st_mode & S_IXOTH)) {
      return InvalidArgument("the embedded PostgreSQL runs as the '", kPgUser,
                             "' user, which cannot enter '", p.string(),
                             "'; choose a --data-dir outside it");
    }
    if (p == p.root_path()) break;
  }
  return Status::Ok();
}

// A PostgreSQL left running on this data directory (for instance one still
// finishing its shutdown after the previous server was killed) is waited for;
// one that stays up means another server owns the directory.
Status WaitForPreviousPostgres(const std::string& pg_dir) {
  std::ifstream pid_file(pg_dir + "/postmaster.pid");
  pid_t pid = 0;
  if (!(pid_file >> pid) || pid <= 0) return Status::Ok();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (kill(pid, 0) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      return Unavailable("PostgreSQL pid ", pid, " still runs on ", pg_dir,
                         " (is another hoglake server using this --data-dir?)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::Ok();
}

}  // namespace

EmbeddedPostgres::~EmbeddedPostgres() { Stop(); }

Status EmbeddedPostgres::Start(const std::string& data_dir,
                               const std::vector<std::string>& settings) {
  for (const std::string& setting : settings) {
    const size_t eq = setting.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Validation("embedded PostgreSQL setting '", setting,
                        "' is not name=value (HOGLAKE_EMBEDDED_PG_SETTINGS)");
    }
  }
  std::error_code ec;
  fs::create_directories(data_dir, ec);
  if (ec) return IoError("cannot create data directory '", data_dir, "': ", ec.message());
  dir_ = fs::absolute(data_dir).lexically_normal().string();
  pg_dir_ = dir_ + "/pg";
  socket_dir_ = dir_ + "/run";
  bin_dir_ = FindBinDir();
  if (socket_dir_.size() + 16 > 107) {
    return InvalidArgument("data directory path '", dir_,
                           "' is too long for a Unix socket path (limit ~90 characters)");
  }
  if (access((bin_dir_ + "/postgres").c_str(), X_OK) != 0) {
    return Unavailable("PostgreSQL 15 server binaries not found in ", bin_dir_,
                       " (install Debian's postgresql-15, or set HOGLAKE_PG_BINDIR)");
  }
  HOGLAKE_ASSIGN_OR_RETURN(RunAs run_as, ResolveRunAs());
  HOGLAKE_RETURN_IF_ERROR(EnsureTraversable(dir_, run_as));
  HOGLAKE_RETURN_IF_ERROR(EnsureInitialized());
  HOGLAKE_RETURN_IF_ERROR(WaitForPreviousPostgres(pg_dir_));
  fs::create_directories(socket_dir_, ec);
  HOGLAKE_RETURN_IF_ERROR(Chown(socket_dir_, run_as));
  const std::string log_path = dir_ + "/postgres.log";
  LogInfo("starting embedded PostgreSQL in ", pg_dir_, " (log: ", log_path, ")");
  // The server's own settings, then the caller's (a later -c wins).
  std::vector<std::string> argv = {bin_dir_ + "/postgres", "-D", pg_dir_, "-k", socket_dir_};
  for (const std::vector<std::string>* list : {&kServerSettings, &settings}) {
    for (const std::string& setting : *list) {
      argv.push_back("-c");
      argv.push_back(setting);
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(pid_, Spawn(argv, run_as, log_path, /*die_with_parent=*/true));
  conninfo_ = "host=" + socket_dir_ + " port=5432 user=hoglake dbname=postgres";
  Status ready = WaitUntilReady();
  if (!ready.ok()) {
    Stop();
    return Unavailable(ready.error().message, "\n--- postgres.log ---\n", LogTail(log_path));
  }
  // The catalog lives in its own database.
  HOGLAKE_ASSIGN_OR_RETURN(PgConnection admin, PgConnection::Open(conninfo_));
  HOGLAKE_ASSIGN_OR_RETURN(PgResult exists,
                           admin.Exec("SELECT 1 FROM pg_database WHERE datname = 'hoglake'"));
  if (exists.rows() == 0) HOGLAKE_RETURN_IF_ERROR(admin.Exec("CREATE DATABASE hoglake"));
  conninfo_ = "host=" + socket_dir_ + " port=5432 user=hoglake dbname=hoglake";
  return Status::Ok();
}

Status EmbeddedPostgres::EnsureInitialized() {
  if (fs::exists(pg_dir_ + "/PG_VERSION")) return Status::Ok();
  HOGLAKE_ASSIGN_OR_RETURN(RunAs run_as, ResolveRunAs());
  std::error_code ec;
  fs::create_directories(pg_dir_, ec);
  if (ec) return IoError("cannot create '", pg_dir_, "': ", ec.message());
  chmod(pg_dir_.c_str(), 0700);
  HOGLAKE_RETURN_IF_ERROR(Chown(pg_dir_, run_as));
  const std::string log_path = dir_ + "/initdb.log";
  LogInfo("initializing embedded PostgreSQL in ", pg_dir_);
  HOGLAKE_ASSIGN_OR_RETURN(
      int code, RunToCompletion({bin_dir_ + "/initdb", "-D", pg_dir_, "-U", "hoglake",
                                 "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"},
                                run_as, log_path));
  if (code != 0) {
    return Unavailable("initdb failed with exit code ", code, ":\n", LogTail(log_path));
  }
  return Status::Ok();
}

Status EmbeddedPostgres::WaitUntilReady() {
  const std::string ping = "host=" + socket_dir_ + " port=5432 user=hoglake dbname=postgres";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (PQping(ping.c_str()) == PQPING_OK) return Status::Ok();
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return Unavailable("embedded PostgreSQL exited during start-up");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Unavailable("embedded PostgreSQL did not accept connections within 60 s");
}

void EmbeddedPostgres::Stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGINT);  // fast shutdown: abort sessions, checkpoint, exit
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  LogInfo("embedded PostgreSQL stopped");
  pid_ = -1;
}

}  // namespace hoglake::catalog
