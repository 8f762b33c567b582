# Plays a list of commands against the firmware (bridge_fw, with the shipped
# bridge_config) on the stand-in machine and neopixel; prints every frame the firmware
# sends as "OUT <hex>" and every LED read-back as "LEDS r,g,b;...".

import binascii
import sys

import bridge_config
import bridge_fw
import machine

ROWS = bridge_config.ROW_PINS
COLS = bridge_config.COL_PINS


def write(frame):
    print("OUT " + binascii.hexlify(frame).decode())


def run(commands):
    print("IMPL " + sys.implementation.name)
    fw = bridge_fw.from_config(bridge_config, write)
    for cmd in commands:
        op = cmd[0]
        if op == "step":
            fw.step(cmd[1])
        elif op == "place":
            machine.MAGNETS.add((ROWS[cmd[1]], COLS[cmd[2]]))
        elif op == "lift":
            machine.MAGNETS.discard((ROWS[cmd[1]], COLS[cmd[2]]))
        elif op == "press":
            machine.FORCED[cmd[1]] = 0 if cmd[2] else 1
        elif op == "recv":
            fw.receive(binascii.unhexlify(cmd[1]), cmd[2])
        elif op == "leds":
            shown = fw.leds.written or []
            print("LEDS " + ";".join(f"{p[0]},{p[1]},{p[2]}" for p in shown))
        elif op == "mark":
            print("MARK " + cmd[1])
    print("STOPPED " + str(fw.stopped))
