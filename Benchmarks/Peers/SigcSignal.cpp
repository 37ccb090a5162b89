// SigcSignal.cpp — the libsigc++ peer: one sigc::signal per callback shape, the
// library's callback a trampoline that emits it, N handler objects connected with
// sigc::mem_fun.
//
// Used as libsigc++'s documentation describes: `sigc::signal<R(Args...)>` (3.x; the
// `signal<R, Args...>` spelling on 2.x), handlers are member functions of objects
// deriving from sigc::trackable (so a handler that is destroyed disconnects itself, as
// the proxy drops a released delegate), connected with `connect(sigc::mem_fun(…))`,
// emitted with `emit()`. The curl signal keeps libsigc++'s default accumulator: the
// emission returns the last handler's value, as the proxy's last-responder policy.
// libsigc++ is not thread-safe: it takes no lock, and gtkmm's threading rules treat a
// signal as owned by the thread that made it, which alone connects to it and emits it.
//
//   peer-sigc [--repetitions N] [--min-ms MS] [--serve]

#include "PeerDriver.h"

#include <sigc++/sigc++.h>

#include <cstdio>

namespace {

#if SIGCXX_MAJOR_VERSION >= 3
using StartElementSignal = sigc::signal<void(const char *, const char **)>;
using WriteSignal = sigc::signal<size_t(char *, size_t, size_t)>;
#else
using StartElementSignal = sigc::signal<void, const char *, const char **>;
using WriteSignal = sigc::signal<size_t, char *, size_t, size_t>;
#endif

/// A handler: its own object (its address is its context), as the c_callback rows' contexts.
struct Handler : public sigc::trackable {
  __attribute__((noinline)) void on_start_element(const char *name, const char **atts) {
    peer_start_work(this, name, atts);
  }

  __attribute__((noinline)) size_t on_write(char *ptr, size_t size, size_t nmemb) {
    return peer_write_work(ptr, size, nmemb, this);
  }
};

// The library's callbacks: emit the signal the context is.

void start_element_callback(void *user_data, const char *name, const char **atts) {
  static_cast<StartElementSignal *>(user_data)->emit(name, atts);
}

size_t write_callback(char *ptr, size_t size, size_t nmemb, void *userdata) {
  return static_cast<WriteSignal *>(userdata)->emit(ptr, size, nmemb);
}

int make(peer_shape shape, int fanout, peer_callback *out, char *error, size_t capacity) {
  try {
    // Kept for the process's life: the driver measures these rows until it exits.
    if (shape == PEER_START_ELEMENT) {
      auto *signal = new StartElementSignal;
      for (int k = 0; k < fanout; k++) {
        signal->connect(sigc::mem_fun(*new Handler, &Handler::on_start_element));
      }
      out->function = reinterpret_cast<const void *>(&start_element_callback);
      out->context = signal;
    } else {
      auto *signal = new WriteSignal;
      for (int k = 0; k < fanout; k++) {
        signal->connect(sigc::mem_fun(*new Handler, &Handler::on_write));
      }
      out->function = reinterpret_cast<const void *>(&write_callback);
      out->context = signal;
    }
  } catch (const std::exception &e) {
    std::snprintf(error, capacity, "%s", e.what());
    return -1;
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  static const peer sigc_peer = {"peer_sigc", "sigc-signal-emit+mem_fun", make};
  return peer_main(argc, argv, &sigc_peer);
}
