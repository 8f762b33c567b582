"""sensorboard: the service that wires one board: scanner -> tracker -> LEDs and recorder."""
