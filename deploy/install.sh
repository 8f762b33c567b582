#!/usr/bin/env bash
# Install sensorboard as a service on Raspberry Pi OS (any Pi, 1 to 5).
#
#   sudo deploy/install.sh [--board NAME] [--leds pwm|spi] [--login DIR] [--dry-run]
#   sudo deploy/install.sh --hall ...   a hall's broker: logins, TLS, ACL (deploy/hall.sh)
#
# From the source tree: creates the virtualenv in /opt/sensorboard with the 'pi' extra
# (rpi-lgpio and lgpio), the 'sensorboard' user (groups gpio, spi); LEDs on GPIO18 (pwm,
# the shipped layouts' choice: the service runs as root) or GPIO10 (spi: SPI enabled, no
# root; the layout must leave GPIO7-11 free); on a Pi 5 with pwm LEDs also the 'pi5-leds'
# extra (Blinka's Pi 5 NeoPixel driver, GPL-2.0, through /dev/pio0: no root either);
# writes /etc/sensorboard/board.toml from deploy/config/NAME.toml (kept if it exists),
# and installs and starts the systemd unit. --login DIR joins a secured hall with the
# board's folder that install.sh --hall made (the board's name, its MQTT login, the hall
# CA). --dry-run prints every step and every file it would write, and changes nothing.
# See docs/hardware.md and docs/hall.md.
set -euo pipefail

case " $* " in  # the broker of a hall: deploy/hall.sh (docs/hall.md)
    *" --hall "*) exec bash "$(dirname "${BASH_SOURCE[0]}")/hall.sh" "$@" ;;
esac

board=tessella
leds=pwm
dry=0
prefix=/opt/sensorboard
conf_dir=/etc/sensorboard
data_dir=/var/lib/sensorboard
unit_dir=/etc/systemd/system
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

login=""

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

while [ $# -gt 0 ]; do
    case "$1" in
        --board) [ $# -ge 2 ] || fail "--board needs a name"; board="$2"; shift 2 ;;
        --leds) [ $# -ge 2 ] || fail "--leds needs spi or pwm"; leds="$2"; shift 2 ;;
        --login) [ $# -ge 2 ] || fail "--login needs a board's folder from install.sh --hall"
                 login="$2"; shift 2 ;;
        --dry-run) dry=1; shift ;;
        -h|--help) sed -n "2,16p" "$0"; exit 0 ;;
        *) fail "unknown option $1; options: --board NAME, --leds spi|pwm, --login DIR," \
                "--dry-run, --hall" ;;
    esac
done

config="$src/deploy/config/$board.toml"
if [ ! -f "$config" ]; then
    boards="$(find "$src/deploy/config" -name '*.toml' -printf '%f ' | sed 's/\.toml//g')"
    fail "no config for board '$board'; boards: $boards"
fi
case "$leds" in spi|pwm) ;; *) fail "--leds must be spi or pwm, got '$leds'" ;; esac
if [ "$dry" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    fail "run as root: sudo $0 $*"
fi
if [ -n "$login" ]; then
    for file in password ca.crt broker.url; do
        [ -f "$login/$file" ] || fail "--login $login: no $file (give a board-NAME folder" \
                                      "that install.sh --hall made)"
    done
    url="$(cat "$login/broker.url")"
    name="$(sed -n 's|^mqtts://board-\([A-Za-z0-9_-]*\)@.*|\1|p' "$login/broker.url")"
    [ -n "$name" ] || fail "--login $login: broker.url is not a board's login"
fi



# The sensors' front end (docs/hardware.md): MCP3008s need SPI, MCP23017s need I2C.
frontend="$(sed -n 's/^frontend *= *"\([a-z0-9]*\)".*/\1/p' "$config")"
if [ "$frontend" = mcp3008 ] && [ "$leds" = spi ]; then
    fail "--leds spi: the $board board's MCP3008s use SPI0; use --leds pwm"
fi
layout="$src/boards/layouts/$(sed -n 's/^layout *= *"\([^"]*\)".*/\1/p' "$config").toml"
if [ "$leds" = spi ] && [ "${frontend:-pins}" = pins ] && [ -f "$layout" ]; then
    for pin in $(sed -n 's/^\(row\|col\)_pins *= *\[\([0-9, ]*\)\].*/\2/p' "$layout" | tr ',' ' '); do
        case "$pin" in 7|8|9|10|11)
            fail "--leds spi: the $board board's matrix uses GPIO$pin, an SPI0 pin; use --leds pwm" ;;
        esac
    done
fi

# SENSORBOARD_MODEL stands in for the device tree's model (for a dry run off a Pi).
model="${SENSORBOARD_MODEL:-$(tr -d '\0' 2>/dev/null < /proc/device-tree/model || true)}"
pi5=0
case "$model" in *"Raspberry Pi 5"*) pi5=1 ;; esac
extras=pi
if [ "$leds" = pwm ] && [ "$pi5" -eq 1 ]; then
    extras=pi,pi5-leds
fi

echo "sensorboard: installing board '$board' (LEDs on $leds) from $src"
run apt-get install -y --no-install-recommends python3-venv python3-dev swig liblgpio-dev
if ! id sensorboard >/dev/null 2>&1; then
    run useradd --system --home-dir "$data_dir" --shell /usr/sbin/nologin sensorboard
fi
run usermod -a -G gpio,spi sensorboard
run mkdir -p "$prefix" "$conf_dir" "$data_dir/records"
run chown -R sensorboard:sensorboard "$data_dir"
run python3 -m venv "$prefix/.venv"
run "$prefix/.venv/bin/pip" install --upgrade pip
run "$prefix/.venv/bin/pip" install "${src}[$extras]"
run cp -r "$src/docs" "$prefix/"

enable() {  # enable "$1" (spi or i2c) in the firmware config
    if command -v raspi-config >/dev/null 2>&1 || [ "$dry" -eq 1 ]; then
        run raspi-config nonint "do_$1" 0
    else
        echo "sensorboard: raspi-config not found; add dtparam=$1_arm=on (i2c) or dtparam=spi=on to config.txt"
    fi
}
if [ "$frontend" = mcp3008 ]; then
    enable spi
elif [ "$frontend" = mcp23017 ]; then
    enable i2c
    run usermod -a -G i2c sensorboard
fi

if [ "$leds" = spi ]; then
    # NeoPixels on GPIO10 (SPI MOSI) need SPI on, and no root.
    enable spi
    led_pin=D10
elif [ "$pi5" -eq 1 ]; then
    # A Pi 5 drives NeoPixels on GPIO18 from RP1's PIO (/dev/pio0): the gpio group will do.
    led_pin=D18
    echo 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"' \
        | write /etc/udev/rules.d/99-sensorboard-pio.rules 644
    run udevadm trigger
else
    # NeoPixels on GPIO18 use PWM and DMA through /dev/mem: the service must run as root.
    led_pin=D18
    run mkdir -p "$unit_dir/sensorboard.service.d"
    printf '[Service]\nUser=root\nGroup=root\n' | write "$unit_dir/sensorboard.service.d/root.conf" 644
fi

if [ -n "$login" ]; then  # the secured hall: the board's login and the hall's CA
    write "$conf_dir/mqtt.password" 640 "board-$name's password" < "$login/password"
    run chgrp sensorboard "$conf_dir/mqtt.password"
    write "$conf_dir/hall-ca.crt" 644 "the hall CA's certificate" < "$login/ca.crt"
fi
if [ -f "$conf_dir/board.toml" ]; then
    echo "sensorboard: keeping $conf_dir/board.toml"
    if [ -n "$login" ]; then
        echo "sensorboard: to join the hall put these at its top: board = \"$name\"" \
             "and mqtt = \"$url\""
    fi
else
    token="$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    shown="$token"
    if [ "$dry" -eq 1 ]; then shown="(a new random token)"; fi
    echo "sensorboard: $conf_dir/board.toml from $config (led_pin = \"$led_pin\", a new token)"
    {
        if [ -n "$login" ]; then printf 'board = "%s"\nmqtt = "%s"\n' "$name" "$url"; fi
        sed -e "s/token = \"change-me\"/token = \"$shown\"/" \
            -e "s/^\[hardware\]$/[hardware]\nled_pin = \"$led_pin\"/" "$config"
    } | write "$conf_dir/board.toml" 640
    run chgrp sensorboard "$conf_dir/board.toml"
fi

run install -m 644 "$src/deploy/sensorboard.service" "$unit_dir/sensorboard.service"
run systemctl daemon-reload
run systemctl enable --now sensorboard.service
echo "sensorboard: installed; check the wiring with"
echo "  sudo systemctl stop sensorboard && $prefix/.venv/bin/sensorboard check-wiring --config $conf_dir/board.toml"
echo "and follow the service with: journalctl -u sensorboard -f"
