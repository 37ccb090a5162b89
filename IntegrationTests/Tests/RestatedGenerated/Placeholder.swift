// Scripts/restate.sh has `swift package restate-delegate` write the restatements of the
// generated protocols (GeneratedParents) here for the run, then removes them; this file
// keeps the target non-empty in between.
import GeneratedParents

/// The target's one committed declaration.
enum RestatedGeneratedPlaceholder {}
