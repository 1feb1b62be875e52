import { readFileSync } from 'node:fs';

/**
 * The CPU seconds this process and the children it reaped (quire processes, npm, qpdf…) used, from
 * /proc/self/stat: utime, stime, cutime and cstime in clock ticks (100 a second on Linux). Work done for it in
 * the pass's shared Chromium is counted there, not here.
 */
export function cpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}
