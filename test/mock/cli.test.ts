/**
 * `vsk mock` run as a script runs it (issue 24.16): through `bin/vsk.mjs`, the file
 * `node_modules/.bin/vsk` links to, a SIGTERM to that process stops the mock with exit 0, and
 * docs/mock.md tells scripts to start it that way rather than through `npx` (which does not pass
 * the SIGTERM on; checked by hand with npm 11.19.1, see docs/mock.md).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("vsk mock in scripts (issue 24.16)", () => {
  it("a SIGTERM to the process node_modules/.bin/vsk starts stops the mock, exit 0", async () => {
    const child = spawn(process.execPath, [join(root, "bin/vsk.mjs"), "mock", "--port", "0"], { cwd: root });
    let stdout = "";
    await new Promise<void>((ready) =>
      child.stdout.on("data", (c) => {
        stdout += c;
        if (stdout.includes("listening on")) ready();
      }),
    );
    const url = /listening on (\S+)/.exec(stdout)![1]!;
    expect((await fetch(`${url}/v1/predictions/x`)).status).toBe(401);
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    expect(code).toBe(0);
    await expect(fetch(`${url}/v1/predictions/x`)).rejects.toThrow();
  });

  it("a signal sent the instant the ready line is read stops the mock with exit 0 (issue 38.6)", async () => {
    // the handlers are installed before the line is printed: a script that sends SIGINT (or
    // SIGTERM) as soon as it sees the line never races them; tried a few times, each signal
    for (const signal of ["SIGINT", "SIGTERM", "SIGINT", "SIGTERM", "SIGINT", "SIGINT"] as const) {
      const child = spawn(process.execPath, [join(root, "dist/cli/vsk.js"), "mock", "--port", "0"], { cwd: root });
      let stdout = "";
      child.stdout.on("data", (c) => {
        stdout += c;
        if (stdout.includes("listening on")) child.kill(signal); // at once, in the same tick
      });
      const [code, by] = await new Promise<[number | null, string | null]>((r) =>
        child.on("exit", (c, s) => r([c, s])),
      );
      expect({ signal, code, by }).toEqual({ signal, code: 0, by: null });
    }
  });

  it("docs/mock.md starts it in scripts as node_modules/.bin/vsk, and says why not npx", () => {
    const docs = readFileSync(join(root, "docs/mock.md"), "utf8");
    const script = /```sh\n([\s\S]*?)```/.exec(docs)?.[1] ?? "";
    expect(script).toMatch(/^node_modules\/\.bin\/vsk mock .*&$/m);
    expect(script).toMatch(/kill -TERM "\$MOCK_PID"/);
    expect(script).not.toMatch(/npx/);
    expect(docs).toMatch(/not `npx vsk mock`[\s\S]*SIGTERM/);
  });
});
