"""GUI tests: the touchscreen app and its widgets under Xvfb."""
