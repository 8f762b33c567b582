"""The Pi owner's path (docs/pi.md) followed on this machine by deploy/check-pi-steps.sh:
the archive, the virtualenv and the package from it, the unit checked, and the service
started in the foreground on the simulated backend."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_pi_steps_hold_on_this_machine():
    proc = subprocess.run(["bash", str(ROOT / "deploy" / "check-pi-steps.sh"), "--local-deps",
                           "--seconds", "2"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHON": sys.executable})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "check-pi-steps: every step held" in out
    verified = "check-pi-steps: 3. systemd-analyze verify: the unit holds" in out
    skipped = "systemd-analyze verify skipped: systemd is not installed" in out
    assert verified if shutil.which("systemd-analyze") else skipped


def test_the_docs_run_the_bring_up_tools_with_sudo():
    """install.sh makes /etc/sensorboard/board.toml readable by root and the sensorboard
    group only: a command that reads it is run with sudo."""
    for doc in ("docs/pi.md", "docs/hardware.md"):
        for line in (ROOT / doc).read_text().splitlines():
            if re.search(r"sensorboard (check-wiring|calibrate) --config /etc", line):
                assert "sudo /opt/sensorboard" in line, (doc, line)
    assert "docs/pi.md" in (ROOT / "README.md").read_text()


def test_the_check_script_passes_shellcheck():
    out = subprocess.run(["shellcheck", str(ROOT / "deploy" / "check-pi-steps.sh")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
