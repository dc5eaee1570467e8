"""The core is pure: importing it loads no GUI, GPIO, web or discovery module."""
import subprocess
import sys


def test_importing_the_core_loads_no_adapter():
    code = (
        "import sys, companion.core, companion.core.engine, companion.core.common, companion.rules, companion.service\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'kivy', 'gpiozero', 'aiohttp', 'zeroconf', 'qrcode'})\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
