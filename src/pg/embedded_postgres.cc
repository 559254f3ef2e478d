#include "pg/embedded_postgres.h"

#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "common/log.h"
#include "pg/pg_connection.h"

namespace hoglake::pg {
namespace {

// Settings every embedded server starts with: no TCP listener, a private
// socket, room for the pool and replicas' connections, durable commits.
const std::vector<std::string> kServerSettings = {
    "listen_addresses=", "unix_socket_permissions=0700", "max_connections=200",
    "synchronous_commit=on"};

namespace fs = std::filesystem;

constexpr const char* kPgUser = "postgres";  // the unprivileged user when we are root

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

// Whether `pid` is a live process working in the PostgreSQL data directory
// `pg_dir` (a postmaster and each of its children run with the data
// directory as their working directory). A pid that is gone, or was reused
// by an unrelated process, is not.
bool IsProcessOfDataDir(pid_t pid, const std::string& pg_dir) {
  if (pid <= 0) return false;
  if (kill(pid, 0) != 0 && errno == ESRCH) return false;
  std::error_code ec;
  const fs::path cwd = fs::read_symlink("/proc/" + std::to_string(pid) + "/cwd", ec);
  if (ec) return false;  // gone meanwhile, a zombie, or another user's process
  const fs::path dir = fs::weakly_canonical(pg_dir, ec);
  return !ec && cwd == dir;
}

// The first line of a PostgreSQL lock file (postmaster.pid, a socket's
// .lock) is the pid of the server that wrote it; line 7 of postmaster.pid
// is "<key> <id>" of the System V shared memory segment whose attachments
// PostgreSQL itself uses to tell whether processes of an old server remain.
struct LockFile {
  bool exists = false;
  pid_t pid = 0;
  long shm_id = -1;
};

LockFile ReadLockFile(const std::string& path) {
  LockFile file;
  std::ifstream in(path);
  if (!in) return file;
  file.exists = true;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (number == 1) {
      file.pid = static_cast<pid_t>(std::atol(line.c_str()));
    } else if (number == 7) {
      std::istringstream words(line);
      unsigned long key = 0;
      long id = -1;
      if (words >> key >> id) file.shm_id = id;
    }
  }
  return file;
}

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) return StrCat("was killed by signal ", WTERMSIG(status));
  if (WIFEXITED(status)) return StrCat("exited with code ", WEXITSTATUS(status));
  return "stopped";
}

}  // namespace

EmbeddedPostgres::~EmbeddedPostgres() { Stop(); }

std::string EmbeddedPostgres::ConninfoFor(const std::string& data_dir) {
  const std::string dir = fs::absolute(data_dir).lexically_normal().string();
  return "host=" + dir + "/run port=5432 user=hoglake dbname=hoglake";
}

Status EmbeddedPostgres::Start(const std::string& data_dir,
                               const std::vector<std::string>& settings,
                               const std::string& bin_dir) {
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
  bin_dir_ = bin_dir.empty() ? std::string(kDefaultPgBinDir) : bin_dir;
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
  // A previous server on this directory (killed, or still shutting down)
  // must be gone, its children detached from its shared memory too, or the
  // new postmaster refuses to start; a live one is waited for up to 30 s.
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);;) {
    Status cleared = ClearStaleLockFiles();
    if (cleared.ok()) break;
    if (cleared.error().code != ErrorCode::kUnavailable) return cleared;
    if (std::chrono::steady_clock::now() > deadline) {
      return Unavailable(cleared.error().message,
                         " (is another hoglake server using this --data-dir?)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  fs::create_directories(socket_dir_, ec);
  HOGLAKE_RETURN_IF_ERROR(Chown(socket_dir_, run_as));
  log_path_ = dir_ + "/postgres.log";
  LogInfo("starting embedded PostgreSQL in ", pg_dir_, " (log: ", log_path_, ")");
  // The server's own settings, then the caller's (a later -c wins).
  server_argv_ = {bin_dir_ + "/postgres", "-D", pg_dir_, "-k", socket_dir_};
  for (const std::vector<std::string>* list : {&kServerSettings, &settings}) {
    for (const std::string& setting : *list) {
      server_argv_.push_back("-c");
      server_argv_.push_back(setting);
    }
  }
  conninfo_ = "host=" + socket_dir_ + " port=5432 user=hoglake dbname=postgres";
  HOGLAKE_RETURN_IF_ERROR(Launch());
  // The catalog lives in its own database.
  {
    HOGLAKE_ASSIGN_OR_RETURN(PgConnection admin, PgConnection::Open(conninfo_));
    HOGLAKE_ASSIGN_OR_RETURN(PgResult exists,
                             admin.Exec("SELECT 1 FROM pg_database WHERE datname = 'hoglake'"));
    if (exists.rows() == 0) HOGLAKE_RETURN_IF_ERROR(admin.Exec("CREATE DATABASE hoglake"));
  }
  conninfo_ = ConninfoFor(dir_);
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
    check_now_ = false;
  }
  // The supervisor spawns every later postmaster, and a child's
  // parent-death signal follows the thread that spawned it: the thread
  // lives until Stop.
  supervisor_ = std::thread([this] { Supervise(); });
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

Status EmbeddedPostgres::Launch() {
  HOGLAKE_ASSIGN_OR_RETURN(RunAs run_as, ResolveRunAs());
  HOGLAKE_ASSIGN_OR_RETURN(pid_, Spawn(server_argv_, run_as, log_path_, /*die_with_parent=*/true));
  Status ready = WaitUntilReady();
  if (!ready.ok()) {
    StopChild();
    return Unavailable(ready.error().message, "\n--- postgres.log ---\n", LogTail(log_path_));
  }
  return Status::Ok();
}

Status EmbeddedPostgres::WaitUntilReady() {
  const std::string ping = "host=" + socket_dir_ + " port=5432 user=hoglake dbname=postgres";
  // A server that answers "starting up" (crash recovery replaying WAL, say)
  // is waited for as long as it takes; one that does not answer at all gets
  // 60 s.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    const PGPing answer = PQping(ping.c_str());
    if (answer == PQPING_OK) return Status::Ok();
    if (answer == PQPING_REJECT) {
      deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return Unavailable("embedded PostgreSQL ", DescribeExit(status), " during start-up");
    }
    if (stopping()) return Unavailable("embedded PostgreSQL start-up abandoned: stopping");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Unavailable("embedded PostgreSQL did not accept connections within 60 s");
}

Status EmbeddedPostgres::ClearStaleLockFiles() {
  const std::string pid_path = pg_dir_ + "/postmaster.pid";
  const LockFile postmaster = ReadLockFile(pid_path);
  if (postmaster.exists) {
    if (IsProcessOfDataDir(postmaster.pid, pg_dir_)) {
      return Unavailable("PostgreSQL pid ", postmaster.pid, " still runs on ", pg_dir_,
                         "; not starting another");
    }
    if (postmaster.shm_id >= 0) {
      shmid_ds segment{};
      if (shmctl(static_cast<int>(postmaster.shm_id), IPC_STAT, &segment) == 0) {
        if (segment.shm_nattch > 0) {
          return Unavailable(segment.shm_nattch,
                             " process(es) of the previous PostgreSQL are still attached to its "
                             "shared memory; waiting for them to exit");
        }
      } else if (errno != EINVAL && errno != EIDRM) {
        // Cannot tell: leave the file to PostgreSQL's own check.
        return Status::Ok();
      }
    }
    std::error_code ec;
    fs::remove(pid_path, ec);
    if (ec) return IoError("cannot remove stale '", pid_path, "': ", ec.message());
    LogInfo("removed stale ", pid_path, " (pid ", postmaster.pid, " is gone)");
  }
  const std::string socket_lock = socket_dir_ + "/.s.PGSQL.5432.lock";
  const LockFile socket = ReadLockFile(socket_lock);
  if (socket.exists && !IsProcessOfDataDir(socket.pid, pg_dir_)) {
    std::error_code ec;
    fs::remove(socket_lock, ec);
  }
  return Status::Ok();
}

bool EmbeddedPostgres::stopping() {
  std::lock_guard lock(mutex_);
  return stopping_;
}

void EmbeddedPostgres::CheckSoon() {
  {
    std::lock_guard lock(mutex_);
    check_now_ = true;
  }
  wake_.notify_all();
}

std::string EmbeddedPostgres::Reap() {
  if (pid_ <= 0) return "is not running";
  int status = 0;
  const pid_t reaped = waitpid(pid_, &status, WNOHANG);
  if (reaped == 0 || (reaped < 0 && errno == EINTR)) return "";
  const std::string how = reaped == pid_ ? DescribeExit(status) : "is gone";
  pid_ = -1;
  return how;
}

void EmbeddedPostgres::Supervise() {
  using Clock = std::chrono::steady_clock;
  std::chrono::milliseconds delay = kFirstRestartDelay;
  Clock::time_point started = Clock::now();
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait_for(lock, kPollInterval, [this] { return stopping_ || check_now_; });
    if (stopping_) return;
    check_now_ = false;
    lock.unlock();
    const pid_t old_pid = pid_;
    const std::string how = Reap();
    if (!how.empty()) {
      LogWarn("embedded PostgreSQL (pid ", old_pid, ") ", how, "; restarting it");
      // A server that stayed up a while starts the backoff afresh; one that
      // keeps dying soon after each start keeps backing off.
      if (Clock::now() - started >= kStableAfter) delay = kFirstRestartDelay;
      if (!Restart(&delay)) return;  // stopping
      started = Clock::now();
    }
    lock.lock();
  }
}

bool EmbeddedPostgres::Restart(std::chrono::milliseconds* delay) {
  for (int attempt = 1;; ++attempt) {
    LogInfo("restarting embedded PostgreSQL in ", delay->count(), " ms (attempt ", attempt, ")");
    {
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, *delay, [this] { return stopping_; })) return false;
    }
    *delay = std::min(*delay * 2, std::chrono::milliseconds(kMaxRestartDelay));
    Status launched = ClearStaleLockFiles();
    if (launched.ok()) launched = Launch();
    if (launched.ok()) {
      const int restarts = ++restarts_;
      LogInfo("embedded PostgreSQL restarted (pid ", pid_, "; restart ", restarts, ", attempt ",
              attempt, "), accepting connections again");
      return true;
    }
    if (stopping()) return false;
    LogWarn("embedded PostgreSQL restart attempt ", attempt,
            " failed: ", launched.error().message);
  }
}

void EmbeddedPostgres::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (supervisor_.joinable()) supervisor_.join();
  StopChild();
}

void EmbeddedPostgres::StopChild() {
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

}  // namespace hoglake::pg
