#!/usr/bin/env bash
# Issue #24.3, one name per concept: renames files (git mv) and identifiers (sed, word
# boundaries) over Sources, Tests, Examples, Benchmarks, IntegrationTests, the C layer and
# the docs. Run from the repository root on a clean tree; running it again changes
# nothing (every pattern matches only a retired name). Another branch is brought up to
# date by merging main and running it over the branch's own changes.
#
#   handle      DelegateMessage, ThrowingDelegateMessage, AsyncDelegateMessage
#               -> MessageHandle, ThrowingMessageHandle, AsyncMessageHandle;
#               DelegateMessageHandle -> MessageHandleProtocol; DelegateMessages ->
#               MessageHandles; the generated Messages (and the generic parameter) ->
#               Handles; CMessages -> CHandles; MessageKey/CMessageKey ->
#               HandleKey/CHandleKey; a handle's generic parameter Message -> Handle
#   reducer     FoldRule -> ReducerRule, Fold -> Reduction, EffectFold ->
#               EffectReduction; RouteCombine -> RouteReducer; C dp_combine ->
#               dp_reducer, DP_COMBINE_* -> DP_REDUCER_*, a route's combine -> reducer
#   description DelegateProtocol -> ProtocolDescription, DelegateMethodDescription ->
#               MethodDescription
#   generation  RespondsToGeneration -> Generational, respondsToGeneration -> generation
#   errors      DelegateErrors (what the members threw) -> MemberErrors
#   C face      MulticastRuntimeFace -> MulticastCFace; the object of
#               @Delegate(for:object:) is its "object", not a face (__face -> __object)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

# Tracked text files in scope (never .build, resolved pins, benchmark results, nor the
# deprecated aliases that keep the retired names on purpose).
files() {
  git ls-files -- Sources Tests Examples Benchmarks IntegrationTests CFFIShim Scripts \
    Model Fuzz README.md ARCHITECTURE.md CONTRIBUTING.md \
    | grep -E '\.(swift|md|c|h|py|sh|txt|pml)$' \
    | grep -v -e '^Scripts/renames-24\.sh$' -e '/results/' -e '/SwiftProtocols/Renamed\.swift$' \
    || true
}

# sed over the files that contain $1 (a grep -E pattern), with the sed script $2.
edit() {
  local pattern=$1 script=$2 list
  list=$(files | xargs grep -lE "$pattern" 2>/dev/null || true)
  [ -z "$list" ] && return 0
  echo "$list" | xargs sed -i -E "$script"
}

# Like edit, only under the given path prefixes ($3…).
edit_in() {
  local pattern=$1 script=$2
  shift 2
  local list
  list=$(files | grep -E "^($(IFS='|'; echo "$*"))" | xargs grep -lE "$pattern" 2>/dev/null || true)
  [ -z "$list" ] && return 0
  echo "$list" | xargs sed -i -E "$script"
}

move() {  # git mv $1 $2 if $1 exists
  if [ -e "$1" ]; then git mv "$1" "$2"; fi
}

P=Sources/DelegateProxy

# --- files ---------------------------------------------------------------------------
move $P/SwiftProtocols/DelegateMessageHandle.swift $P/SwiftProtocols/MessageHandleProtocol.swift
move $P/SwiftProtocols/DelegateMessage.swift $P/SwiftProtocols/MessageHandle.swift
move $P/SwiftProtocols/ThrowingDelegateMessage.swift $P/SwiftProtocols/ThrowingMessageHandle.swift
move $P/SwiftProtocols/AsyncDelegateMessage.swift $P/SwiftProtocols/AsyncMessageHandle.swift
move $P/SwiftProtocols/DelegateProtocol.swift $P/SwiftProtocols/ProtocolDescription.swift
move $P/SwiftProtocols/DelegateMethodDescription.swift $P/SwiftProtocols/MethodDescription.swift
move $P/SwiftProtocols/DelegateErrors.swift $P/SwiftProtocols/MemberErrors.swift
move $P/SwiftProtocols/EffectFold.swift $P/SwiftProtocols/EffectReduction.swift
move $P/Policies/Fold.swift $P/Policies/Reduction.swift
move $P/RespondsToGeneration.swift $P/Generational.swift
move $P/CFace/MulticastRuntimeFace.swift $P/CFace/MulticastCFace.swift

# --- generation: one property -------------------------------------------------------
# MulticastProxy answered both; the forwarding copy and its doc line go.
edit_in 'respondsToGeneration: UInt64 \{ generation \}' \
  '/``generation``, for ``RespondsToGeneration``\./d; /respondsToGeneration: UInt64 \{ generation \}/d' \
  $P/RuntimeProxy/
edit '\bRespondsToGeneration\b' 's/\bRespondsToGeneration\b/Generational/g'
edit '\brespondsToGeneration\b' 's/\brespondsToGeneration\b/generation/g'

# --- handles -------------------------------------------------------------------------
# The generic parameter naming a handle (only where Message is never the runtime's
# typed message: the Swift multicast's files and its C face).
edit_in '\bMessage\b' 's/\bMessage\b/Handle/g' $P/SwiftProtocols/ $P/CFace/
edit '\bDelegateMessageHandle\b' 's/\bDelegateMessageHandle\b/MessageHandleProtocol/g'
edit '\bThrowingDelegateMessage\b' 's/\bThrowingDelegateMessage\b/ThrowingMessageHandle/g'
edit '\bAsyncDelegateMessage\b' 's/\bAsyncDelegateMessage\b/AsyncMessageHandle/g'
edit '\bDelegateMessage\b' 's/\bDelegateMessage\b/MessageHandle/g'
edit '\bDelegateMessages\b' 's/\bDelegateMessages\b/MessageHandles/g'
edit '\bCMessages\b' 's/\bCMessages\b/CHandles/g'
edit '\bCMessageKey\b' 's/\bCMessageKey\b/CHandleKey/g'
edit '\bMessageKey\b' 's/\bMessageKey\b/HandleKey/g'
# `Messages` the generated type, not the word opening a sentence, nor the benchmarks'
# own enum of runtime messages.
files | grep -v '^Benchmarks/Sources/ProxyFixtures/' | xargs grep -lE '\bMessages\b' 2>/dev/null \
  | xargs -r sed -i -E '/(Messages [a-z]|MARK: Messages)/!s/\bMessages\b/Handles/g'

# --- reducer -------------------------------------------------------------------------
edit '\bFoldRule\b' 's/\bFoldRule\b/ReducerRule/g'
edit '\bEffectFold\b' 's/\bEffectFold\b/EffectReduction/g'
files | grep -v '^Sources/MessageRuntime/TypeLayout.swift$' | xargs grep -lE '\bFold\b' 2>/dev/null \
  | xargs -r sed -i -E 's/``Fold``/``Reduction``/g; s/\bFold(<|\(|\.)/Reduction\1/g; s/struct Fold\b/struct Reduction/g'
edit '\bRouteCombine\b' 's/\bRouteCombine\b/RouteReducer/g'
edit '\brouteCombine\b' 's/\brouteCombine\b/routeReducer/g'
edit '\bdp_combine\b' 's/\bdp_combine\b/dp_reducer/g'
edit '\bDP_COMBINE_' 's/\bDP_COMBINE_/DP_REDUCER_/g'
# A route's rule: the C field and parameter, Route.swift's property and labels, and
# their callers.
edit_in '\bcombine\b' 's/\bcombine\b/reducer/g' \
  CFFIShim/ Tests/CABI/ Benchmarks/Callgrind/ Sources/MessageRuntime/Route.swift \
  $P/RuntimeProxy/FastRoutes.swift Tests/MessageRuntimeTests/RouteTests.swift \
  Tests/MessageRuntimeTests/RandomSignatureTests.swift

# --- descriptions --------------------------------------------------------------------
edit '\bDelegateProtocol\b' 's/\bDelegateProtocol\b/ProtocolDescription/g'
edit '\bDelegateMethodDescription\b' 's/\bDelegateMethodDescription\b/MethodDescription/g'

# --- errors --------------------------------------------------------------------------
edit '\bDelegateErrors\b' 's/\bDelegateErrors\b/MemberErrors/g'

# --- the C face and the object -------------------------------------------------------
edit '\bMulticastRuntimeFace\b' 's/\bMulticastRuntimeFace\b/MulticastCFace/g'
edit '\b__face\b' 's/\b__face\b/__object/g'
edit_in 'object face|s\.face|\$0\.face|var face: AnyObject' \
  's/The object face of/The `object` of/; s/\bs\.face\b/s.object/g; s/\$0\.face\b/$0.object/g; s/var face: AnyObject/var object: AnyObject/' \
  $P/
edit 'anObjectFaceForwards' 's/anObjectFaceForwards/anObjectForwards/g'

# Lines the renames lengthened or shortened, laid out again (not the generated protocols,
# which must stay the generator's output, nor the README and DocC examples, which stand
# verbatim as their documents have them).
changed=$(git diff --name-only -- '*.swift' | grep -v -e '^Tests/ReadmeTests/' -e '/GeneratedProtocolTests/' || true)
if [ -n "$changed" ]; then echo "$changed" | xargs swift format -i; fi

echo "renames-24: done"
