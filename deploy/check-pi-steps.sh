#!/usr/bin/env bash
# Follow docs/pi.md's steps on a machine that is not a Pi, as far as it allows, in a fresh
# temporary directory tree (the steps' /opt, /etc and /var/lib under it):
#
#   deploy/check-pi-steps.sh [--local-deps] [--seconds N] [--keep]
#
# 2. the source archive (git archive, the working tree's changes included) unpacked;
# 3. install.sh --dry-run; the virtualenv and the package installed from the unpacked
#    tree (not the 'pi' extra: it needs a Pi's lgpio); board.toml from
#    deploy/config/tessella.toml as the installer writes it; the unit checked with
#    systemd-analyze verify (skipped, saying why, without systemd);
# 5. the unit's own command started in the foreground on the simulated backend for N
#    seconds (default 4): its page must answer with the token, and SIGTERM end it with
#    status 0 and its journal written.
# --local-deps: the package's dependencies are not downloaded: the new virtualenv takes
# them from the Python running this script (python3, or $PYTHON); only the build backend
# (setuptools) comes from the index, as for any pip install of a source tree.
# Exit status 0 when every step held; 1 naming the step that failed.
set -euo pipefail

src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"
local_deps=0
seconds=4
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --local-deps) local_deps=1; shift ;;
        --seconds) [ $# -ge 2 ] || { echo "check-pi-steps: --seconds needs a number" >&2; exit 2; }
                   seconds="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n "2,18p" "$0"; exit 0 ;;
        *) echo "check-pi-steps: unknown option $1; options: --local-deps, --seconds N, --keep" >&2
           exit 2 ;;
    esac
done

root="$(mktemp -d "${TMPDIR:-/tmp}/sensorboard-pi.XXXXXX")"
service_pid=""
cleanup() {
    if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; fi
    if [ "$keep" -eq 0 ]; then rm -rf "$root"; else echo "check-pi-steps: kept $root"; fi
}
trap cleanup EXIT
step() { echo "check-pi-steps: $*"; }
fail() { echo "check-pi-steps: FAILED: $*" >&2; exit 1; }

prefix="$root/opt/sensorboard"
conf_dir="$root/etc/sensorboard"
data_dir="$root/var/lib/sensorboard"
unit_dir="$root/etc/systemd/system"
home="$root/home/you"
mkdir -p "$prefix" "$conf_dir" "$data_dir/records" "$unit_dir" "$home"

step "2. the code onto the Pi: git archive, unpacked in $home"
rev="$(git -C "$src" stash create 2>/dev/null || true)"  # the working tree as a commit
git -C "$src" archive --format=tar.gz --prefix=sensorboard/ -o "$home/sensorboard.tar.gz" \
    "${rev:-HEAD}" || fail "git archive"
tar xzf "$home/sensorboard.tar.gz" -C "$home" || fail "unpacking the archive"
tree="$home/sensorboard"
[ -x "$tree/deploy/install.sh" ] || fail "the archive has no executable deploy/install.sh"

step "3. install.sh --dry-run --board tessella"
bash "$tree/deploy/install.sh" --dry-run --board tessella > "$root/dry-run.txt" \
    || fail "install.sh --dry-run (see $root/dry-run.txt)"
grep -q "systemctl enable --now sensorboard.service" "$root/dry-run.txt" \
    || fail "the dry run does not install the unit"

step "3. the virtualenv in $prefix/.venv and the package from the unpacked tree"
pip=("$prefix/.venv/bin/python" -m pip --disable-pip-version-check -q)
if [ "$local_deps" -eq 1 ]; then
    # the dependencies this Python already has (pip and setuptools included), seen by the
    # new virtualenv
    "$python" -m venv --without-pip "$prefix/.venv" || fail "python3 -m venv"
    site="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    new_site="$("$prefix/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    echo "$site" > "$new_site/this-machine.pth"
    "${pip[@]}" install --no-deps "$tree" \
        || fail "pip install of the unpacked tree"
else
    "$python" -m venv "$prefix/.venv" || fail "python3 -m venv"
    "${pip[@]}" install "$tree" || fail "pip install of the unpacked tree"
fi
"$prefix/.venv/bin/sensorboard" --help > /dev/null || fail "the installed sensorboard command"

step "3. $conf_dir/board.toml from deploy/config/tessella.toml, as the installer writes it"
token="$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
sed -e "s/token = \"change-me\"/token = \"$token\"/" \
    -e "s|/var/lib/sensorboard|$data_dir|" "$tree/deploy/config/tessella.toml" \
    > "$conf_dir/board.toml"
chmod 640 "$conf_dir/board.toml"

step "3. the unit in $unit_dir, its paths under the tree"
unit="$unit_dir/sensorboard.service"
sed -e "s|/opt/sensorboard|$prefix|g" -e "s|/etc/sensorboard|$conf_dir|g" \
    -e "s|/var/lib/sensorboard|$data_dir|g" "$tree/deploy/sensorboard.service" > "$unit"
if command -v systemd-analyze > /dev/null 2>&1; then
    systemd-analyze verify "$unit" || fail "systemd-analyze verify $unit"
    step "3. systemd-analyze verify: the unit holds"
else
    step "3. systemd-analyze verify skipped: systemd is not installed on this machine"
fi

step "5. the unit's command in the foreground, on the simulated backend, for $seconds s"
command="$(sed -n 's/^ExecStart=//p' "$unit")"
port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
read -r -a argv <<< "$command"
(cd "$data_dir" && exec "${argv[@]}" --backend sim --host 127.0.0.1 --port "$port") \
    > "$root/service.log" 2>&1 &
service_pid=$!
url="http://127.0.0.1:$port/api/state?token=$token"
answered=0
for _ in $(seq 1 600); do  # up to a minute to come up on a loaded machine
    if "$python" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" \
            "$url" 2>/dev/null; then
        answered=1
        break
    fi
    kill -0 "$service_pid" 2>/dev/null || fail "the service ended early: $(cat "$root/service.log")"
    sleep 0.1
done
sleep "$seconds"
kill -0 "$service_pid" 2>/dev/null || fail "the service ended early: $(cat "$root/service.log")"
[ "$answered" -eq 1 ] || fail "the page did not answer on port $port: $(cat "$root/service.log")"
kill -TERM "$service_pid"
status=0
wait "$service_pid" || status=$?
service_pid=""
[ "$status" -eq 0 ] || fail "the service ended with status $status: $(cat "$root/service.log")"
[ -f "$data_dir/records/journal.sqlite" ] || fail "no journal in $data_dir/records"
step "5. the page answered, SIGTERM ended the service cleanly, the journal is in records/"
step "every step held"
