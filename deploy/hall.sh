#!/usr/bin/env bash
# Secure a tournament hall's mosquitto (run through: sudo deploy/install.sh --hall ...).
#
#   sudo deploy/install.sh --hall [--boards 1-40] [--recorders 1] [--arbiters 1]
#                          [--host recorder.local] [--port 8883] [--local-port 1883]
#                          [--root DIR] [--dry-run]
#
# Makes a hall CA (openssl) and the broker's TLS certificate for --host, a login with a
# random password for every board (board-N), recorder (recorder-N) and arbiter (arbiter-N)
# in a mosquitto password file (hashed by mosquitto_passwd), an ACL (a board writes only
# its own topics, only a recorder writes acks, only an arbiter writes corrections; a board
# speaks to a paired board on its own play topic and hears only what is said to it), and
# the broker's config: TLS with logins on --port for the hall network, logins on
# --local-port for this machine only, nobody anonymous. For each login it leaves a folder
# in /etc/sensorboard/hall/: the password, the CA's certificate and the broker URL to use
# (a board's folder goes to the board: install.sh --login; recorders and arbiters connect
# on this machine). Running it again keeps the CA, the certificate and every password
# made before, and adds the new logins. --root DIR writes everything
# under DIR (and restarts nothing); --dry-run shows every file it would write and writes
# nothing. See docs/hall.md.
set -euo pipefail

boards=1-40
recorders=1
arbiters=1
host="$(hostname -s 2>/dev/null || echo localhost).local"
port=8883
local_port=1883
root=""
dry=0
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
number() { [[ "$2" =~ ^[1-9][0-9]{0,4}$ ]] || fail "$1 must be a whole number >= 1, got '$2'"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --hall) shift ;;
        --boards|--recorders|--arbiters|--host|--port|--local-port|--root)
            [ $# -ge 2 ] || fail "$1 needs a value"
            case "$1" in
                --boards) boards="$2" ;; --recorders) recorders="$2" ;;
                --arbiters) arbiters="$2" ;; --host) host="$2" ;; --port) port="$2" ;;
                --local-port) local_port="$2" ;; --root) root="$2" ;;
            esac
            shift 2 ;;
        --dry-run) dry=1; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) fail "unknown option $1 with --hall; options: --boards LIST, --recorders N," \
                "--arbiters N, --host NAME, --port N, --local-port N, --root DIR, --dry-run" ;;
    esac
done
number --recorders "$recorders"
number --arbiters "$arbiters"
number --port "$port"
number --local-port "$local_port"
[[ "$host" =~ ^[A-Za-z0-9.-]+$ ]] || fail "--host must be a host name, got '$host'"
[ "$port" != "$local_port" ] || fail "--port and --local-port must differ, both are $port"

# --boards: names and ranges, "1-40,50,final" (a name is letters, digits, - and _)
names=()
IFS=',' read -ra parts <<< "$boards"
for part in "${parts[@]}"; do
    if [[ "$part" =~ ^([0-9]+)-([0-9]+)$ ]]; then
        [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] || fail "--boards: $part runs backwards"
        for ((n = BASH_REMATCH[1]; n <= BASH_REMATCH[2]; n++)); do names+=("$n"); done
    elif [[ "$part" =~ ^[A-Za-z0-9_-]+$ ]]; then
        names+=("$part")
    else
        fail "--boards: '$part' is not a board name or a range like 1-40"
    fi
done
declare -A seen
for name in "${names[@]}"; do
    [ -z "${seen[$name]:-}" ] || fail "--boards: board $name is named twice"
    seen[$name]=1
done
[ "${#names[@]}" -ge 1 ] || fail "--boards: give the boards' names, like 1-40"
[ "${#names[@]}" -le 5000 ] || fail "--boards: ${#names[@]} boards; at most 5000"
if [ "$dry" -eq 0 ] && [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
    fail "run as root: sudo deploy/install.sh --hall ... (or --root DIR to try it out)"
fi
for tool in openssl mosquitto_passwd; do
    command -v "$tool" >/dev/null || [ "$dry" -eq 1 ] \
        || fail "$tool is missing: sudo apt-get install mosquitto openssl"
done

tls="$root/etc/mosquitto/sensorboard"  # the broker's files
hall="$root/etc/sensorboard/hall"      # one folder per login, to hand out
conf="$root/etc/mosquitto/conf.d/sensorboard.conf"



password() {  # the login's password: the one made before, else a new random one
    if [ -f "$hall/$1/password" ]; then cat "$hall/$1/password"; return; fi
    head -c 18 /dev/urandom | base64 | tr '+/' '-_'
}

echo "sensorboard: securing the hall's broker for ${#names[@]} boards, $recorders" \
     "recorder(s), $arbiters arbiter(s); TLS for $host:$port"
run mkdir -p "$tls" "$hall" "$(dirname "$conf")"

if [ -f "$tls/ca.crt" ] && [ -f "$tls/server.crt" ]; then
    echo "sensorboard: keeping the hall CA and the broker's certificate in $tls"
else
    run openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -days 3650 -subj "/CN=sensorboard hall CA" -keyout "$tls/ca.key" -out "$tls/ca.crt"
    printf 'subjectAltName=DNS:%s,DNS:localhost,IP:127.0.0.1\n' "$host" \
        | write "$tls/server.ext" 644
    run openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -subj "/CN=$host" -keyout "$tls/server.key" -out "$tls/server.csr"
    run openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" \
        -set_serial "0x$(openssl rand -hex 16)" -days 825 -extfile "$tls/server.ext" \
        -out "$tls/server.crt"
    run chmod 600 "$tls/ca.key" "$tls/server.key"
fi

logins=()
for name in "${names[@]}"; do logins+=("board-$name"); done
for ((n = 1; n <= recorders; n++)); do logins+=("recorder-$n"); done
for ((n = 1; n <= arbiters; n++)); do logins+=("arbiter-$n"); done

# Every login's folder: its password, the CA's certificate, the URL it connects with.
declare -A secret
for login in "${logins[@]}"; do
    secret[$login]="$(password "$login")"
    run mkdir -p "$hall/$login"
    printf '%s\n' "${secret[$login]}" | write "$hall/$login/password" 600 "a random password"
    run cp "$tls/ca.crt" "$hall/$login/ca.crt"
    case "$login" in  # a board's URL names where install.sh --login puts its files
        board-*) url="mqtts://$login@$host:$port?ca=/etc/sensorboard/hall-ca.crt"
                 url="$url&password_file=/etc/sensorboard/mqtt.password" ;;
        *) url="mqtt://$login@127.0.0.1:$local_port?password_file=$hall/$login/password" ;;
    esac
    printf '%s\n' "$url" | write "$hall/$login/broker.url" 644 "$url"
done

for login in "${logins[@]}"; do
    printf '%s:%s\n' "$login" "${secret[$login]}"
done | write "$tls/passwd" 600 "${#logins[@]} logins, hashed next"
run mosquitto_passwd -U "$tls/passwd"

{
    echo "# Written by deploy/install.sh --hall. Each login reads and writes only this."
    for name in "${names[@]}"; do
        echo ""
        echo "user board-$name"
        for kind in journal state; do echo "topic write sensorboard/$name/$kind"; done
        echo "topic readwrite sensorboard/$name/status"
        for kind in ack command; do echo "topic read sensorboard/$name/$kind"; done
        # remote play (docs/remote.md): it speaks on its own topic to each board it is
        # paired with, and hears only what is said to it
        echo "topic write sensorboard/$name/play/+"
        echo "topic read sensorboard/+/play/$name"
    done
    for ((n = 1; n <= recorders; n++)); do
        printf '\nuser recorder-%s\ntopic read sensorboard/#\n' "$n"
        echo "topic write sensorboard/+/ack"
    done
    for ((n = 1; n <= arbiters; n++)); do
        printf '\nuser arbiter-%s\ntopic read sensorboard/#\n' "$n"
        echo "topic write sensorboard/+/command"
    done
} | write "$tls/acl" 640

{
    sed -n '/^# --- kept for every hall/,/^# --- end/p' "$src/deploy/mosquitto.conf"
    cat <<EOF

# --- the hall, secured (deploy/install.sh --hall): nobody anonymous, a login each,
# --- and the ACL; the client id is the login, so no login can take over another's session
per_listener_settings false
allow_anonymous false
password_file $tls/passwd
acl_file $tls/acl

# this machine (the recorder, the arbiter's page): logins, on loopback only
listener $local_port 127.0.0.1
use_username_as_clientid true

# the hall network: TLS with the hall CA's certificate, then the login's password
listener $port
use_username_as_clientid true
cafile $tls/ca.crt
certfile $tls/server.crt
keyfile $tls/server.key
tls_version tlsv1.2
EOF
} | write "$conf" 644

if [ -z "$root" ]; then
    run chgrp mosquitto "$tls/passwd" "$tls/acl" "$tls/server.key"
    run chmod 640 "$tls/passwd" "$tls/acl" "$tls/server.key"
    run systemctl restart mosquitto
fi
echo "sensorboard: done. Give each board its folder $hall/board-NAME (see docs/hall.md);"
echo "  the recorder: sensorboard recorder --broker \"\$(cat $hall/recorder-1/broker.url)\" \\"
echo "    --arbiter \"\$(cat $hall/arbiter-1/broker.url)\" --token ARBITER-SECRET"
