import { hostname } from 'node:os';

/**
 * Where log lines and start-up announcements go. With QUIRE_LOG_FORMAT=json (the default)
 * stdout carries only pino's JSON lines, one per record, for a log collector; `pretty` turns the same records
 * into short readable lines for development. Start-up announcements (the serving address, the first run's keys
 * and the owner's sign-in link) are for the person who started Quire: plain text on stderr when it is a
 * terminal (or with `pretty`), else one JSON record each on stderr, so no stream ever mixes in plain text.
 */
export type LogFormat = 'json' | 'pretty';

/** pino's numeric levels, as `pretty` names them. */
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every record has, shown in the line's prefix or left out by `pretty`. */
const PREFIX_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/** A pino destination (`{ write }`) for the format; undefined keeps pino's own JSON to stdout. */
export function logDestination(
  format: LogFormat,
  out: { write(text: string): unknown } = process.stdout,
): { write(line: string): void } | undefined {
  if (format === 'json') return undefined;
  return { write: (line) => void out.write(prettyLine(line)) };
}

/** `12:34:56.789 INFO  request completed method=GET url=/v1/templates status=200 …`, then an error's stack. */
export function prettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof record.time === 'number' ? new Date(record.time).toISOString().slice(11, 23) : '';
  const level = (LEVEL_NAMES[record.level as number] ?? String(record.level)).padEnd(5);
  const fields = Object.entries(record)
    .filter(([key]) => !PREFIX_FIELDS.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const head = [time, level, String(record.msg ?? ''), ...fields].filter(Boolean).join(' ');
  const stack = (record.err as { stack?: unknown } | undefined)?.stack;
  return typeof stack === 'string' ? `${head}\n${stack.replace(/^/gm, '    ')}\n` : `${head}\n`;
}

/** One start-up announcement: its text lines, and the same facts as fields for the JSON record. */
export type Announce = (event: string, lines: readonly string[], fields?: Record<string, unknown>) => void;

/**
 * Announcements on `err` (stderr): the text lines on a terminal or with `pretty`; otherwise one JSON record
 * shaped like pino's (level 30, time, pid, hostname), with `event`, the fields, and the text as `msg`.
 */
export function createAnnouncer(
  format: LogFormat,
  err: { write(text: string): unknown; isTTY?: boolean } = process.stderr,
): Announce {
  const asText = format === 'pretty' || err.isTTY === true;
  return (event, lines, fields = {}) => {
    if (asText) {
      err.write(`${lines.join('\n')}\n`);
      return;
    }
    const msg = lines
      .map((line) => line.trim())
      .filter(Boolean)
      .join(' ');
    err.write(logRecordLine(30, { event, ...fields }, msg));
  };
}

/** One JSON line shaped like pino's records (level, time, pid, hostname, the fields, msg). */
export function logRecordLine(level: number, fields: Record<string, unknown>, msg: string): string {
  return `${JSON.stringify({ level, time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg })}\n`;
}

/**
 * Node's process warnings (deprecations, listener leaks) go to the log as records instead of Node's own
 * plain-text lines on stderr, which would be the only lines of a JSON stream that are not JSON.
 */
export function logProcessWarnings(log: { warn(fields: object, msg: string): void }): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    log.warn({ warning: warning.name, code: warning.code }, warning.message);
  });
}
