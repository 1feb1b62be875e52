import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const CLOCK_TICKS = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
  rssBytes: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const rssPages = Number(fields[21]);
    return {
      pid,
      ppid: Number(fields[1]),
      cpuMs: ((utime + stime) * 1000) / CLOCK_TICKS,
      rssBytes: rssPages * 4096,
    };
  } catch {
    return null;
  }
}

/** A process and all its descendants (Node plus every Chromium process it started). */
/**
 * A process and its descendants, leaving out the subtrees of `excluded` (e.g. the bench process without the
 * Quire, jsreport and WeasyPrint servers it started: raw Chromium's side is the bench and its own browser).
 */
export function processTree(rootPid: number, excluded: readonly number[] = []): ProcStat[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== null);
  const byParent = new Map<number, ProcStat[]>();
  for (const s of all) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const out: ProcStat[] = [];
  const visit = (pid: number) => {
    if (excluded.includes(pid)) return;
    const self = all.find((s) => s.pid === pid);
    if (self) out.push(self);
    for (const child of byParent.get(pid) ?? []) visit(child.pid);
  };
  visit(rootPid);
  return out;
}

export function treeCpuMs(rootPid: number, excluded: readonly number[] = []): number {
  return processTree(rootPid, excluded).reduce((sum, s) => sum + s.cpuMs, 0);
}

export function treeRssMb(rootPid: number): number {
  return processTree(rootPid).reduce((sum, s) => sum + s.rssBytes, 0) / (1024 * 1024);
}

/** The one process's RSS (e.g. the Node server without its Chromium). */
export function processRssMb(pid: number): number {
  return (readStat(pid)?.rssBytes ?? 0) / (1024 * 1024);
}

export function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** One process's proportional set size in MB (0 once it has ended). */
export function processPssMb(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return Number(match?.[1] ?? 0) / 1024;
  } catch {
    // The process ended between the listing and the read.
    return 0;
  }
}

/**
 * Proportional set size of a process tree in MB: each shared page counted once across the processes that
 * map it, split between them. Fairer than summed RSS for multi-process contenders (several Chromiums).
 */
export function treePssMb(rootPid: number): number {
  return processTree(rootPid).reduce((sum, { pid }) => sum + processPssMb(pid), 0);
}

/** CPU of this process's children that have ended and been reaped (cutime + cstime), ms. */
export function reapedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

export interface ProcessMemory {
  pid: number;
  ppid: number;
  /** What the process is: `node`, or Chromium's `--type=` (browser, renderer, gpu-process, zygote, utility…). */
  kind: string;
  rssMb: number;
  pssMb: number;
}

/** Chromium names its helpers' role in `--type=`; the browser has none; Node is named by its executable. */
function processKind(pid: number): string {
  try {
    // Chromium's helpers rewrite their command line into one string with spaces (their process title).
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
    const type = argv.find((arg) => arg.startsWith('--type='))?.slice('--type='.length);
    const utility = argv
      .find((arg) => arg.startsWith('--utility-sub-type='))
      ?.split('.')
      .at(-1);
    const exe = path.basename(argv[0] ?? '?');
    if (type) return utility ? `${type} (${utility})` : type;
    return /chrom/i.test(exe) ? 'browser' : exe;
  } catch {
    return '?';
  }
}

/** Every process of a tree with its RSS and PSS: what holds the memory, process by process. */
export function treeMemory(rootPid: number): ProcessMemory[] {
  return processTree(rootPid).map((s) => ({
    pid: s.pid,
    ppid: s.ppid,
    kind: processKind(s.pid),
    rssMb: s.rssBytes / (1024 * 1024),
    pssMb: processPssMb(s.pid),
  }));
}
