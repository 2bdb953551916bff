//===- tile-run.cpp - One process per GPU, with NVSHMEM -------------------===//
//
// tile-run -n N program [args...]
//
// Starts N copies of a program that uses NVSHMEM through the tile runtime,
// one per PE on this node, and bootstraps them by unique id: tile-run
// creates the id (and so hosts NVSHMEM's bootstrap root, a thread of this
// process) and hands it to each copy with its rank in the environment:
//   TILE_NVSHMEM_UID   the unique id in hex
//   TILE_RANK          0 .. N-1, the PE
//   TILE_WORLD_SIZE    N
//   TILE_LOCAL_RANK    the same as TILE_RANK: one node, device = rank % GPUs
// NVLink multicast stays off in every copy (NVSHMEM_DISABLE_NVLS=1,
// NCCL_NVLS_ENABLE=0): on shared machines it can take the GPUs out of
// service. The copies write straight to tile-run's stdout and stderr.
//
// Exit status: 0 when every copy exits 0; otherwise the first failure's
// status (128 + signal for a copy killed by one), after stopping the other
// copies, which would wait for it forever; 77 (skipped) when NVSHMEM is not
// installed or when every copy exits 77.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Nvshmem.h"
#include "tile/Version.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern char **environ;

namespace rt = tile::rt;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kSkipped = 77;
constexpr int kUsage = 2;
/// How long copies that did not skip may go on once one has skipped: if all
/// skip (no GPU, say), they all do so at once.
constexpr std::chrono::seconds kSkipGrace(10);
/// How long a copy may take to end after SIGTERM before SIGKILL.
constexpr std::chrono::seconds kStopGrace(5);

void usage(FILE *out) {
  std::fprintf(out,
               "usage: tile-run -n <PEs> [--] <program> [args...]\n"
               "Starts <PEs> copies of <program>, one NVSHMEM PE each, on "
               "this node's GPUs\n(PE i on GPU i modulo their number), "
               "bootstrapped by an NVSHMEM unique id.\n"
               "Exits with the first failing copy's status, 77 if NVSHMEM is "
               "missing or\nevery copy skipped.\n");
}

volatile sig_atomic_t pendingSignal = 0;

void onSignal(int signal) { pendingSignal = signal; }

/// The environment of the copy that is PE `rank`: tile-run's own, with the
/// variables it sets replaced.
std::vector<std::string> childEnvironment(const std::string &uid, int rank,
                                          int size) {
  std::vector<std::pair<std::string, std::string>> set = {
      {rt::nvshmemenv::kUniqueId, uid},
      {rt::nvshmemenv::kRank, std::to_string(rank)},
      {rt::nvshmemenv::kWorldSize, std::to_string(size)},
      {rt::nvshmemenv::kLocalRank, std::to_string(rank)},
      {"NVSHMEM_DISABLE_NVLS", "1"},
      {"NCCL_NVLS_ENABLE", "0"},
  };
  std::vector<std::string> result;
  for (char **entry = environ; *entry; ++entry) {
    std::string text = *entry;
    std::string name = text.substr(0, text.find('='));
    bool replaced = false;
    for (const auto &[key, value] : set)
      replaced |= name == key;
    if (!replaced)
      result.push_back(text);
  }
  for (const auto &[key, value] : set)
    result.push_back(key + "=" + value);
  return result;
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> result;
  for (std::string &s : strings)
    result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

struct Copy {
  pid_t pid = 0;
  bool running = false;
  /// Exit status, or 128 + signal.
  int status = 0;
  bool stoppedByUs = false;
};

std::string describe(int rank, const Copy &copy, int rawStatus) {
  std::string text = "PE " + std::to_string(rank) + " (pid " +
                     std::to_string(copy.pid) + ") ";
  if (WIFSIGNALED(rawStatus)) {
    int signal = WTERMSIG(rawStatus);
    return text + "was killed by signal " + std::to_string(signal) + " (" +
           strsignal(signal) + ")";
  }
  return text + "exited with status " + std::to_string(WEXITSTATUS(rawStatus));
}

class Launcher {
public:
  explicit Launcher(int size) : copies(size) {}

  bool start(const std::string &uid, std::vector<std::string> argv) {
    std::vector<char *> args = pointers(argv);
    // Each copy leads a process group of its own, so that stopping it also
    // stops what it started (a wrapper script's program, say).
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    for (size_t rank = 0; rank < copies.size(); ++rank) {
      std::vector<std::string> envStrings =
          childEnvironment(uid, int(rank), int(copies.size()));
      std::vector<char *> envp = pointers(envStrings);
      pid_t pid = 0;
      int error = posix_spawnp(&pid, args[0], nullptr, &attributes,
                               args.data(), envp.data());
      if (error) {
        std::fprintf(stderr, "tile-run: cannot start '%s': %s\n", args[0],
                     std::strerror(error));
        posix_spawnattr_destroy(&attributes);
        stop(SIGTERM);
        waitAll();
        return false;
      }
      copies[rank].pid = pid;
      copies[rank].running = true;
    }
    posix_spawnattr_destroy(&attributes);
    return true;
  }

  /// Waits for every copy, stopping the others when one fails. Returns
  /// tile-run's exit status.
  int waitAll() {
    // Clock::time_point::max() while not set.
    const Clock::time_point never = Clock::time_point::max();
    Clock::time_point skipDeadline = never, killDeadline = never;
    bool stopping = false;
    int failedRank = -1;
    bool forwarded = false;
    while (running()) {
      int rawStatus = 0;
      pid_t pid = waitpid(-1, &rawStatus, WNOHANG);
      if (pid < 0 && errno == EINTR)
        continue;
      if (pid < 0)
        break; // ECHILD: nothing left to wait for.
      if (pid > 0) {
        int rank = rankOf(pid);
        if (rank < 0)
          continue;
        Copy &copy = copies[rank];
        copy.running = false;
        copy.status = WIFSIGNALED(rawStatus) ? 128 + WTERMSIG(rawStatus)
                                             : WEXITSTATUS(rawStatus);
        if (copy.stoppedByUs || failedRank >= 0 || pendingSignal)
          continue;
        if (copy.status == kSkipped) {
          if (skipDeadline == never)
            skipDeadline = Clock::now() + kSkipGrace;
        } else if (copy.status != 0) {
          failedRank = rank;
          std::fprintf(stderr, "tile-run: %s; stopping the other PEs\n",
                       describe(rank, copy, rawStatus).c_str());
          stop(SIGTERM);
          stopping = true;
          killDeadline = Clock::now() + kStopGrace;
        }
        continue;
      }
      // Nothing exited: look at the clocks and signals, then sleep a little.
      if (pendingSignal && !forwarded) {
        stop(pendingSignal);
        forwarded = stopping = true;
        killDeadline = Clock::now() + kStopGrace;
      }
      if (skipDeadline != never && !stopping && Clock::now() > skipDeadline) {
        std::fprintf(stderr,
                     "tile-run: a PE skipped (exit 77) while others went on "
                     "without it; stopping them\n");
        stop(SIGTERM);
        stopping = true;
        killDeadline = Clock::now() + kStopGrace;
      }
      if (killDeadline != never && Clock::now() > killDeadline) {
        stop(SIGKILL);
        killDeadline = never;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }

    if (pendingSignal)
      return 128 + pendingSignal;
    if (failedRank >= 0)
      return copies[failedRank].status;
    int skipped = 0;
    for (const Copy &copy : copies)
      skipped += copy.status == kSkipped;
    if (skipped == int(copies.size()))
      return kSkipped;
    if (skipped) {
      std::fprintf(stderr,
                   "tile-run: %d of %zu PEs skipped (exit 77) and the others "
                   "did not\n",
                   skipped, copies.size());
      return 1;
    }
    return 0;
  }

private:
  bool running() const {
    for (const Copy &copy : copies)
      if (copy.running)
        return true;
    return false;
  }

  int rankOf(pid_t pid) const {
    for (size_t rank = 0; rank < copies.size(); ++rank)
      if (copies[rank].pid == pid)
        return int(rank);
    return -1;
  }

  /// Signals each running copy's process group.
  void stop(int signal) {
    for (Copy &copy : copies)
      if (copy.running) {
        copy.stoppedByUs = true;
        kill(-copy.pid, signal);
      }
  }

  std::vector<Copy> copies;
};

/// Parses "-n N", "-nN", "--np N" and "--np=N"; returns the index of the
/// program's name in argv, or -1 after printing what is wrong.
int parseArguments(int argc, char **argv, int &size) {
  size = 0;
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    if (arg == "-h" || arg == "--help") {
      usage(stdout);
      std::exit(0);
    }
    if (arg == "--version") {
      std::printf("tile version %s\n", TILE_VERSION);
      std::exit(0);
    }
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "-n" || arg == "--np") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "tile-run: %s needs a number of PEs\n",
                     arg.c_str());
        return -1;
      }
      value = argv[++i];
    } else if (arg.rfind("--np=", 0) == 0) {
      value = arg.substr(5);
    } else if (arg.rfind("-n", 0) == 0 && arg.size() > 2) {
      value = arg.substr(2);
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "tile-run: unknown option '%s'\n", arg.c_str());
      return -1;
    } else {
      break;
    }
    char *end = nullptr;
    long n = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end || n < 1 || n > 4096) {
      std::fprintf(stderr,
                   "tile-run: the number of PEs must be 1 to 4096, got '%s'\n",
                   value.c_str());
      return -1;
    }
    size = int(n);
  }
  if (size == 0) {
    std::fprintf(stderr, "tile-run: say how many PEs to start with -n <PEs>\n");
    return -1;
  }
  if (i >= argc) {
    std::fprintf(stderr, "tile-run: no program to run\n");
    return -1;
  }
  return i;
}

} // namespace

int main(int argc, char **argv) {
  int size = 0;
  int programIndex = parseArguments(argc, argv, size);
  if (programIndex < 0) {
    usage(stderr);
    return kUsage;
  }

  std::string why;
  if (!rt::nvshmemAvailable(&why)) {
    std::fprintf(stderr, "tile-run: skipped: %s\n", why.c_str());
    return kSkipped;
  }

  // The PEs reach the bootstrap root in this process over loopback: they
  // all run on this node. The copies inherit the setting.
  setenv("NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", "lo", /*overwrite=*/0);
  std::string uid;
  try {
    uid = rt::nvshmemCreateUniqueId();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tile-run: %s\n", e.what());
    return 1;
  }

  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP})
    sigaction(signal, &action, nullptr);

  Launcher launcher(size);
  if (!launcher.start(uid, std::vector<std::string>(argv + programIndex,
                                                    argv + argc)))
    return 127;
  return launcher.waitAll();
}
