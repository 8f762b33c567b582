# Runs at power-up on the Pico: the bridge between the board and the host's USB serial.
# Ctrl-C is switched off while it runs (0x03 is an ordinary byte of the binary link); the
# host's STOP message, or an error, switches it back on and leaves the REPL.

import select
import sys
import time

import bridge_config as config
import micropython
from bridge_fw import from_config


def run():
    time.sleep_ms(config.BOOT_WAIT_MS)
    fw = from_config(config, sys.stdout.buffer.write)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    read = sys.stdin.buffer.read
    micropython.kbd_intr(-1)
    try:
        while not fw.stopped:
            start = time.ticks_ms()
            n = 0
            while n < 1024 and poll.poll(0):
                fw.receive(read(1), start)
                n += 1
            fw.step(start)
            spare = config.SCAN_MS - time.ticks_diff(time.ticks_ms(), start)
            if spare > 0:
                time.sleep_ms(spare)
    finally:
        micropython.kbd_intr(3)


run()
