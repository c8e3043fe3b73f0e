#!/usr/bin/env bash
# Builds the release archives of RaftNS into DIST: one tar.gz per platform
# holding raftns, raftnsctl, LICENSE, README.md, CHANGELOG.md and the sample
# configurations, and SHA256SUMS over them. Used by `make release`.
#   build.sh VERSION COMMIT DIST [PLATFORM...]   (PLATFORM: linux/amd64 ...)
# VERSION is the release tag (git describe --tags), e.g. v0.3.0.
set -euo pipefail
version=$1
commit=$2
dist=$3
shift 3
platforms=("$@")
if [[ ${#platforms[@]} -eq 0 ]]; then
  platforms=(linux/amd64 linux/arm64)
fi
if [[ -z $version || $version == */* ]]; then
  echo "build.sh: version '$version' cannot name an archive" >&2
  exit 2
fi
if ! [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "build.sh: warning: version '$version' is not a release tag (vMAJOR.MINOR.PATCH on the commit); see docs/contributors/releasing.md" >&2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
buildinfo=github.com/raftns/raftns/internal/buildinfo
ldflags="-s -w -X $buildinfo.commit=$commit -X $buildinfo.describe=$version"
# Archive members carry the commit's time, so the same commit gives the
# same archives.
mtime=$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)
mkdir -p "$dist"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
archives=()
for platform in "${platforms[@]}"; do
  os=${platform%/*}
  arch=${platform#*/}
  name="raftns-$version-$os-$arch"
  dir="$stage/$name"
  mkdir -p "$dir/config"
  for cmd in raftns raftnsctl; do
    (cd "$root" && CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "$dir/$cmd" "./cmd/$cmd")
  done
  cp "$root/LICENSE" "$root/README.md" "$root/CHANGELOG.md" "$dir/"
  cp "$root/deploy/systemd/raftns.properties" "$root/deploy/systemd/raftns.service" "$dir/config/"
  tar -C "$stage" --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner -cf - "$name" |
    gzip -n -9 >"$dist/$name.tar.gz"
  archives+=("$name.tar.gz")
done
(cd "$dist" && sha256sum "${archives[@]}" >SHA256SUMS)
echo "release $version in $dist:"
(cd "$dist" && ls -l "${archives[@]}" SHA256SUMS)
