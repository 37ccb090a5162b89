// The functions declared in dp_message_runtime.h are defined in Swift (MessageRuntime,
// Runtime.swift, with @_cdecl). This file only makes sure the header compiles on its own;
// a C target needs at least one source file.

#include "dp_message_runtime.h"
