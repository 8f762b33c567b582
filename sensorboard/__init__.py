"""sensorboard: the service that wires one board: scanner -> tracker -> LEDs, journal and record."""
