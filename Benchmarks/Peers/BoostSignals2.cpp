// BoostSignals2.cpp — the Boost.Signals2 peer: one boost::signals2::signal per callback
// shape, the library's callback a trampoline that calls it, N handler objects'
// member functions connected as slots.
//
// Used as Boost.Signals2's documentation describes: `signal<R(Args...)>` with its
// defaults — the optional_last_value combiner (the curl signal's call returns the last
// slot's value, as the proxy's last-responder policy) and the default mutex (a
// Signals2 signal is thread-safe: each call locks it to take a snapshot of the slot
// list) — slots made with boost::bind over a member function, called with `operator()`.
// Slots are not tracked (`slot::track` would lock a weak pointer per slot per call).
//
//   peer-boost-signals2 [--repetitions N] [--min-ms MS] [--serve]

#include "PeerDriver.h"

#include <boost/bind/bind.hpp>
#include <boost/signals2/signal.hpp>

#include <cstdio>

namespace {

using StartElementSignal = boost::signals2::signal<void(const char *, const char **)>;
using WriteSignal = boost::signals2::signal<size_t(char *, size_t, size_t)>;

/// A handler: its own object (its address is its context), as the c_callback rows' contexts.
struct Handler {
  __attribute__((noinline)) void on_start_element(const char *name, const char **atts) {
    peer_start_work(this, name, atts);
  }

  __attribute__((noinline)) size_t on_write(char *ptr, size_t size, size_t nmemb) {
    return peer_write_work(ptr, size, nmemb, this);
  }
};

// The library's callbacks: call the signal the context is.

void start_element_callback(void *user_data, const char *name, const char **atts) {
  (*static_cast<StartElementSignal *>(user_data))(name, atts);
}

size_t write_callback(char *ptr, size_t size, size_t nmemb, void *userdata) {
  // optional_last_value: empty only when no slot is connected.
  return (*static_cast<WriteSignal *>(userdata))(ptr, size, nmemb).value_or(0);
}

int make(peer_shape shape, int fanout, peer_callback *out, char *error, size_t capacity) {
  using namespace boost::placeholders;
  try {
    // Kept for the process's life: the driver measures these rows until it exits.
    if (shape == PEER_START_ELEMENT) {
      auto *signal = new StartElementSignal;
      for (int k = 0; k < fanout; k++) {
        signal->connect(boost::bind(&Handler::on_start_element, new Handler, _1, _2));
      }
      out->function = reinterpret_cast<const void *>(&start_element_callback);
      out->context = signal;
    } else {
      auto *signal = new WriteSignal;
      for (int k = 0; k < fanout; k++) {
        signal->connect(boost::bind(&Handler::on_write, new Handler, _1, _2, _3));
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
  static const peer boost_peer = {"peer_boost_signals2",
                                  "boost-signals2-call+bind+optional_last_value", make};
  return peer_main(argc, argv, &boost_peer);
}
