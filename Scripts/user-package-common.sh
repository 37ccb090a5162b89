# Sourced by the scripts that build a throwaway user package against this checkout
# (user-package-check.sh, no-libffi-check.sh): makes the scratch directory, removes it on
# exit unless DP_USER_PACKAGE_KEEP is set, and copies this package into it.
#
#   user_package_start PREFIX   # sets $root and $work, cd's into $work, copies the package
#                               # to $work/DelegateProxy (work tree, no build products,
#                               # no Benchmarks/Fuzz/IntegrationTests packages), and its
#                               # Package.resolved (swift-syntax as this package has it)
user_package_start() {
  root=$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  if [ -z "${DP_USER_PACKAGE_KEEP:-}" ]; then
    trap 'rm -rf "$work"' EXIT
  else
    echo "kept: $work"
  fi
  cd "$work"
  # A copy, so that edits made while the check builds do not disturb it.
  mkdir DelegateProxy
  tar -C "$root" --exclude=./.build --exclude=./.git --exclude='./.build-*' \
    --exclude=./Benchmarks --exclude=./Fuzz --exclude=./IntegrationTests -cf - . |
    tar -C DelegateProxy -xf -
  if [ -f "$root/Package.resolved" ]; then cp "$root/Package.resolved" .; fi
}
