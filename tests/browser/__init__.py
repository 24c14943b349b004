"""Browser tests: Playwright and Debian Chromium against a real ``bigtwo serve``."""
