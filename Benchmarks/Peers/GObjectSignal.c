// GObjectSignal.c — the GObject peer: a GObject type with one signal per callback shape,
// the library's callback a trampoline that emits it, N handlers connected with
// g_signal_connect and their own user data.
//
// Used as GObject's documentation describes: signals created with g_signal_new in the
// class initialiser, no C marshaller given (so GObject uses its generic, libffi-based
// g_cclosure_marshal_generic and its va_list twin), the signal ids kept from
// g_signal_new and emitted with g_signal_emit (the fast form: no lookup by name). The
// expat name is G_TYPE_STRING with G_SIGNAL_TYPE_STATIC_SCOPE (the library keeps it
// alive for the emission, so GObject need not copy it); the attribute array and curl's
// buffer are G_TYPE_POINTER; sizes are G_TYPE_ULONG (gsize). The curl signal returns
// G_TYPE_ULONG with no accumulator: the last handler's value is the emission's, as the
// proxy's last-responder policy.
//
//   peer-gobject [--repetitions N] [--min-ms MS] [--serve]

#include "PeerDriver.h"

#include <glib-object.h>

G_STATIC_ASSERT(sizeof(gulong) == sizeof(size_t));

/// The emitter: the object a program would hand the library as the callback's context.
typedef struct {
  GObject parent;
} PeerEmitter;

typedef struct {
  GObjectClass parent_class;
} PeerEmitterClass;

G_DEFINE_TYPE(PeerEmitter, peer_emitter, G_TYPE_OBJECT)

static guint start_element_signal;
static guint write_signal;

static void peer_emitter_class_init(PeerEmitterClass *klass) {
  // No class closure, accumulator or C marshaller (NULL: the generic one).
  start_element_signal =
      g_signal_new("start-element", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                   NULL, G_TYPE_NONE, 2, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                   G_TYPE_POINTER);
  write_signal = g_signal_new("write", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                              NULL, G_TYPE_ULONG, 3, G_TYPE_POINTER, G_TYPE_ULONG, G_TYPE_ULONG);
}

static void peer_emitter_init(PeerEmitter *self) { (void)self; }

// The library's callbacks: emit the signal on the emitter the context is.

static void start_element_callback(void *user_data, const char *name, const char **atts) {
  g_signal_emit(user_data, start_element_signal, 0, name, atts);
}

static size_t write_callback(char *ptr, size_t size, size_t nmemb, void *userdata) {
  gulong taken = 0;
  g_signal_emit(userdata, write_signal, 0, ptr, (gulong)size, (gulong)nmemb, &taken);
  return taken;
}

// The handlers: GObject's handler signature (instance, arguments…, user data), the
// c_callback handlers' work with the user data as the context.

__attribute__((noinline)) static void on_start_element(PeerEmitter *emitter, const char *name,
                                                       const char **atts, gpointer user_data) {
  (void)emitter;
  peer_start_work(user_data, name, atts);
}

__attribute__((noinline)) static gulong on_write(PeerEmitter *emitter, char *ptr, gulong size,
                                                 gulong nmemb, gpointer user_data) {
  (void)emitter;
  return peer_write_work(ptr, size, nmemb, user_data);
}

/// Each handler's user data: an object of its own, as the c_callback rows' contexts.
typedef struct {
  int64_t id;
} HandlerData;

static int make(peer_shape shape, int fanout, peer_callback *out, char *error, size_t capacity) {
  PeerEmitter *emitter = g_object_new(peer_emitter_get_type(), NULL);
  if (!emitter) {
    g_snprintf(error, capacity, "g_object_new failed");
    return -1;
  }
  for (int k = 0; k < fanout; k++) {
    HandlerData *data = g_new0(HandlerData, 1);
    data->id = k;
    gulong id = shape == PEER_START_ELEMENT
                    ? g_signal_connect(emitter, "start-element", G_CALLBACK(on_start_element), data)
                    : g_signal_connect(emitter, "write", G_CALLBACK(on_write), data);
    if (id == 0) {
      g_snprintf(error, capacity, "g_signal_connect failed for handler %d", k);
      return -1;
    }
  }
  out->function = shape == PEER_START_ELEMENT ? (const void *)start_element_callback
                                              : (const void *)write_callback;
  out->context = emitter;
  return 0;
}

int main(int argc, char **argv) {
  static const peer gobject = {
      .name = "peer_gobject_signal",
      .path = "gobject-g_signal_emit+generic-marshaller",
      .make = make,
  };
  return peer_main(argc, argv, &gobject);
}
