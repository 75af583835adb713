/**
 * One process per embedded data directory. SQLite itself would survive a second writer, but the adapter's
 * read-modify-write updates and its cached table layout (columns, dictionaries) rely on being the only one. A `LOCK` file
 * holding the owner's pid turns that mistake into a `DATA_DIR_LOCKED` error. A lock left by a dead process (or
 * by an earlier incarnation with our own pid, as with pid 1 in a restarted container) is taken over.
 */
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { StoreError } from "./errors";

const heldInThisProcess = new Set<string>();

function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function locked(dataDir: string, pid: number | undefined): StoreError {
  return new StoreError(
    "DATA_DIR_LOCKED",
    `data directory ${dataDir} is in use by ${pid === process.pid ? "another store in this process" : `process ${pid}`}; the embedded store allows one process per directory`,
    { dataDir, pid },
  );
}

/**
 * Takes the directory's lock (creating the directory).
 * @returns a function releasing it
 * @throws StoreError `DATA_DIR_LOCKED`
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const dir = resolve(dataDir);
  if (heldInThisProcess.has(dir)) throw locked(dir, process.pid);
  heldInThisProcess.add(dir);
  const lockFile = join(dir, "LOCK");
  try {
    await mkdir(dir, { recursive: true });
    for (let attempt = 0; ; attempt++) {
      try {
        await writeFile(lockFile, String(process.pid), { flag: "wx" });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const owner = Number((await readFile(lockFile, "utf8").catch(() => "")).trim());
        if (attempt > 0 || isAlive(owner)) throw locked(dir, owner);
        await unlink(lockFile).catch(() => undefined); // stale: its owner is gone
      }
    }
  } catch (err) {
    heldInThisProcess.delete(dir);
    throw err;
  }
  return async () => {
    await unlink(lockFile).catch(() => undefined);
    heldInThisProcess.delete(dir);
  };
}
