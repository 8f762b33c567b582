# The board this Pico serves: edit, then copy to the Pico with the other files
# (see docs/protocol.md, "Flashing the Pico"). GP numbers as printed on the Pico's pinout.

ROW_PINS = (0, 1, 2, 3, 4, 5, 6)  # driven HIGH one at a time (anode side of the diodes)
COL_PINS = (7, 8, 9, 10, 11, 12)  # inputs with the Pico's pull-downs
LED_PIN = 16  # NeoPixel data (through a 74AHCT125 to 5 V)
LED_COUNT = 41
BUTTONS = (("clock", 17),)  # (name, GP) to ground; "clock:red" for a player's own side
BRIGHTNESS = 0.3  # 0..1, applied to every colour the host sends
BOARD_ID = None  # None: the Pico's unique id (machine.unique_id) in hex
DEBOUNCE_MS = 10  # a cell must hold its new state this long to count
BUTTON_MS = 20
SCAN_MS = 2  # one scan of the matrix every SCAN_MS
SETTLE_US = 5  # wait after driving a row before reading the columns
HEARTBEAT_MS = 250  # a full snapshot at least this often
BOOT_WAIT_MS = 1000  # Ctrl-C still works this long after power-up (for mpremote)
