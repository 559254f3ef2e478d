// process_cpu.h: CPU time of the server and of the embedded PostgreSQL under
// it, read from /proc. Header-only; shared by the bench programs.
//
//   TreeCpu before = SampleTreeCpu(server.pid);
//   … load …
//   TreeCpuDelta used = CpuBetween(before, SampleTreeCpu(server.pid));
//   used.server, used.descendants, used.busiest   (CPU seconds)
//
// `server` is the root process's utime + stime; `descendants` sums every live
// process descended from it (the embedded postmaster and its backends);
// `busiest` is the largest single descendant's share of that sum — the
// backend that runs a catalog's commit batches, whose CPU bounds how fast
// batches can follow each other. A process that exits between the two
// samples is not counted (the server's pool keeps its connections open, so
// none does during a run); one that starts in between counts from zero.
//
// SampleMachineCpu reads /proc/stat: all CPUs' busy and total time, so that
// MachineBusyBetween gives the fraction of the machine's CPU time that was
// busy (ours, PostgreSQL's, the benchmark's own and anything else running).
#pragma once

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

// utime + stime of one process, in seconds (0 if it is gone).
inline double ProcessCpuSeconds(pid_t pid, pid_t* ppid = nullptr) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  std::vector<std::string> f;
  while (fields >> field) f.push_back(field);
  // f[0] = state (field 3); ppid field 4 = f[1]; utime field 14 = f[11]; stime = f[12].
  if (f.size() < 13) return 0;
  if (ppid) *ppid = static_cast<pid_t>(std::stol(f[1]));
  return static_cast<double>(std::stoll(f[11]) + std::stoll(f[12])) /
         static_cast<double>(sysconf(_SC_CLK_TCK));
}

struct TreeCpu {
  double server = 0;
  std::map<pid_t, double> descendants;  // pid → CPU seconds
};

inline TreeCpu SampleTreeCpu(pid_t root) {
  std::map<pid_t, std::pair<pid_t, double>> procs;  // pid → (ppid, CPU seconds)
  if (DIR* d = opendir("/proc")) {
    while (dirent* e = readdir(d)) {
      const pid_t pid = static_cast<pid_t>(std::atol(e->d_name));
      if (pid <= 0) continue;
      pid_t ppid = 0;
      const double cpu = ProcessCpuSeconds(pid, &ppid);
      procs[pid] = {ppid, cpu};
    }
    closedir(d);
  }
  TreeCpu out;
  for (const auto& [pid, info] : procs) {
    if (pid == root) {
      out.server = info.second;
      continue;
    }
    for (pid_t p = info.first; p > 1;) {
      if (p == root) {
        out.descendants[pid] = info.second;
        break;
      }
      auto it = procs.find(p);
      if (it == procs.end()) break;
      p = it->second.first;
    }
  }
  return out;
}

struct TreeCpuDelta {
  double server = 0;
  double descendants = 0;
  double busiest = 0;
};

inline TreeCpuDelta CpuBetween(const TreeCpu& before, const TreeCpu& after) {
  TreeCpuDelta d;
  d.server = after.server - before.server;
  for (const auto& [pid, cpu] : after.descendants) {
    auto it = before.descendants.find(pid);
    const double used = cpu - (it == before.descendants.end() ? 0 : it->second);
    d.descendants += used;
    d.busiest = std::max(d.busiest, used);
  }
  return d;
}

// CPU seconds this process (every thread) has used so far.
inline double SelfCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct MachineCpu {
  long long busy = 0;   // jiffies, all CPUs: everything but idle and iowait
  long long total = 0;  // jiffies, all CPUs
};

inline MachineCpu SampleMachineCpu() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
  MachineCpu m;
  m.busy = user + nice + system + irq + softirq + steal;
  m.total = m.busy + idle + iowait;
  return m;
}

// The busy fraction of all CPUs between two samples (0 when none elapsed).
inline double MachineBusyBetween(const MachineCpu& before, const MachineCpu& after) {
  const long long total = after.total - before.total;
  return total > 0 ? static_cast<double>(after.busy - before.busy) / static_cast<double>(total) : 0;
}
