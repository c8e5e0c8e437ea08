// Preloaded by scripts/test.sh (`node --import ./web/tests/support/wire_capture.mjs --test web/tests/`):
// with CAMHUB_VIEWER_MESSAGES=FILE, every message a Connection sends in any
// node test is appended to FILE as one JSON line, and scripts/test.sh then
// checks the file against docs/asyncapi.yaml (scripts/validate_messages.py).
import { appendFileSync } from 'node:fs';

const file = process.env.CAMHUB_VIEWER_MESSAGES;
if (file) {
  globalThis.__camhubWireTap = (text) => appendFileSync(file, `${text}\n`);
}
