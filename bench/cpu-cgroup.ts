/**
 * Gives a process its own share of a core, as a small machine of its own would have: a CPU cgroup with
 * a quota. cgroup v2 (`cpu.max` under /sys/fs/cgroup) or v1 (`cpu.cfs_quota_us` under
 * /sys/fs/cgroup/cpu); both need root. Without either, the process runs unlimited and `how` says why,
 * so a figure is never presented as something it is not.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PERIOD_US = 100_000;

export interface CpuShare {
  /** What was done: "cgroup v2 cpu.max 50000 100000", or why nothing could be. */
  how: string;
  limited: boolean;
  release(): Promise<void>;
}

async function cgroupV2Root(): Promise<string | undefined> {
  const root = '/sys/fs/cgroup';
  if (!existsSync(join(root, 'cgroup.controllers'))) return undefined;
  const controllers = await readFile(join(root, 'cgroup.controllers'), 'utf8').catch(() => '');
  return controllers.split(/\s+/).includes('cpu') ? root : undefined;
}

/** Moves `pid` (all its threads) into a new cgroup limited to `share` of one core (0.1 to 4). */
export async function limitCpu(pid: number, share: number, name: string): Promise<CpuShare> {
  const quota = Math.round(share * PERIOD_US);
  const none = (why: string): CpuShare => ({ how: `unlimited: ${why}`, limited: false, release: async () => undefined });
  if (process.getuid?.() !== 0) return none('not root, so no cgroup can be made (run the bench as root)');
  try {
    const v2 = await cgroupV2Root();
    if (v2 !== undefined) {
      const dir = join(v2, `discovery-bench-${name}-${pid}`);
      await mkdir(dir);
      await writeFile(join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
      await writeFile(join(dir, 'cgroup.procs'), String(pid));
      return { how: `cgroup v2 cpu.max ${quota} ${PERIOD_US}`, limited: true, release: () => release(v2, dir) };
    }
    const v1 = '/sys/fs/cgroup/cpu';
    if (existsSync(join(v1, 'cpu.cfs_quota_us'))) {
      const dir = join(v1, `discovery-bench-${name}-${pid}`);
      await mkdir(dir);
      await writeFile(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      await writeFile(join(dir, 'cpu.cfs_quota_us'), String(quota));
      await writeFile(join(dir, 'cgroup.procs'), String(pid));
      return { how: `cgroup v1 cpu.cfs_quota_us ${quota} of ${PERIOD_US}`, limited: true, release: () => release(v1, dir) };
    }
    return none('no cgroup cpu controller mounted (neither v2 cpu.max nor v1 cpu.cfs_quota_us)');
  } catch (error) {
    return none(`the cgroup could not be made (${(error as Error).message})`);
  }
}

/** Moves whatever is left in `dir` back to the root group, then removes it (a group must be empty to go). */
async function release(root: string, dir: string): Promise<void> {
  const left = (await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
  for (const pid of left) await writeFile(join(root, 'cgroup.procs'), pid).catch(() => undefined);
  await rmdir(dir).catch(() => undefined);
}
