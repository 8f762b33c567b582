// Runs a MicroPython script under the MicroPython WebAssembly port (npm package
// @micropython/micropython-webassembly-pyscript) with the firmware files on its
// filesystem. Usage: node run_micropython.mjs NODE_MODULES_DIR FIRMWARE_DIR SCRIPT.py
// [EXTRA_DIR]. Everything the script prints goes to stdout; an exception exits with 1.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const [modules, firmware, script, extra] = process.argv.slice(2);
const require = createRequire(join(modules, "noop.js"));
const entry = require.resolve("@micropython/micropython-webassembly-pyscript/micropython.mjs");
const { loadMicroPython } = await import(entry);
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdirTree("/fw");
for (const dir of [firmware, extra].filter(Boolean)) {
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".py"))) {
    mp.FS.writeFile("/fw/" + name, readFileSync(join(dir, name)));
  }
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\n" + readFileSync(script, "utf8"));
} catch (e) {
  process.stderr.write(String(e) + "\n");
  process.exit(1);
}
