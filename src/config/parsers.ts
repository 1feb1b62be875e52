import { PLAN_IDS } from '../shared/plan-ids.js';

/**
 * The parsers of configuration values (config.ts's schema): each turns an environment variable's text into
 * its value, or throws a ConfigError that names the variable and says what it accepts.
 */
export type Parser<T> = (raw: string, name: string) => T;

export interface Key<T> {
  env: string;
  default: T | (() => T);
  description: string;
  parse: Parser<T>;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const str: Parser<string> = (raw) => raw;
export const bool: Parser<boolean> = (raw, name) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new ConfigError(`${name} must be a boolean (1/0, true/false), got "${raw}"`);
};
export const int =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
    return n;
  };
function isHostOrHostPort(part: string): boolean {
  try {
    const parsed = new URL(`http://${part}`);
    return parsed.pathname === '/' && !parsed.username && parsed.host === part.replace(/:80$/, '');
  } catch {
    return false;
  }
}

/** `host` or `host:port` entries (IPv6 in brackets), lower-cased; empty entries are ignored. */
export const hostList: Parser<string[]> = (raw, name) => {
  const list = raw
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
  for (const part of list) {
    if (!isHostOrHostPort(part))
      throw new ConfigError(`${name} entries must be host or host:port, got "${part}"`);
  }
  return list;
};
export const url: Parser<string> = (raw, name) => {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
};
/** An optional URL whose scheme is one of `schemes`; `problem` is the error text after the setting's name. */
function optionalUrlOf(schemes: string[], problem: (raw: string) => string): Parser<string | null> {
  return (raw, name) => {
    if (raw.trim() === '') return null;
    let scheme = '';
    try {
      scheme = new URL(raw).protocol;
    } catch {
      // Not a URL: the same answer as a wrong scheme.
    }
    if (!schemes.includes(scheme)) throw new ConfigError(`${name} ${problem(raw)}`);
    return raw;
  };
}
// The SMTP URL may hold a password: never shown.
export const optionalSmtpUrl = optionalUrlOf(
  ['smtp:', 'smtps:'],
  () => 'must be an smtp:// or smtps:// URL, got "<redacted>"',
);
export const optionalWsUrl = optionalUrlOf(
  ['ws:', 'wss:'],
  (raw) => `must be the ws:// endpoint of a Chromium server (playwright's launchServer), got "${raw}"`,
);
export const optionalPostgresUrl: Parser<string | null> = (raw, name) => {
  if (raw.trim() === '') return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Never echo the value: it usually holds a password.
    throw new ConfigError(
      `${name} must be a postgres://user:password@host:port/database URL (not a valid URL)`,
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new ConfigError(`${name} must start with postgres:// or postgresql://, got "${u.protocol}//…"`);
  if (u.hostname === '' || u.pathname.length <= 1)
    throw new ConfigError(`${name} must name a host and a database, e.g. postgres://user:pass@db:5432/quire`);
  return raw;
};
/** Where `QUIRE_STORAGE_URL` puts blobs (null = DATA_DIR/blobs). Credentials never come from the URL. */
export interface S3Location {
  bucket: string;
  /** '' or ending in '/'. */
  prefix: string;
  endpoint: string | null;
  region: string | null;
  forcePathStyle: boolean;
}
export const parseStorageUrl: Parser<S3Location | null> = (raw, name) => {
  if (raw.trim() === '') return null;
  const fail = (why: string) =>
    new ConfigError(`${name} ${why}, got "${raw.replace(/\/\/[^/@]*@/, '//<redacted>@')}"`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw fail('must be an s3://BUCKET/PREFIX URL');
  }
  if (u.protocol !== 's3:') throw fail('must be an s3://BUCKET/PREFIX URL');
  if (u.username || u.password)
    throw fail('must not hold credentials (use AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(u.hostname)) throw fail('must name a valid bucket');
  const known = new Set(['endpoint', 'region', 'force_path_style']);
  const unknown = [...u.searchParams.keys()].find((k) => !known.has(k));
  if (unknown) throw fail(`has an unknown parameter "${unknown}" (endpoint, region, force_path_style)`);
  const endpoint = u.searchParams.get('endpoint');
  if (endpoint !== null) url(endpoint, `${name} endpoint`);
  let prefix: string;
  try {
    prefix = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, '');
  } catch {
    throw fail('has a malformed prefix');
  }
  return {
    bucket: u.hostname,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: u.searchParams.get('region'),
    forcePathStyle: bool(u.searchParams.get('force_path_style') ?? '', `${name} force_path_style`),
  };
};
export const optionalPath: Parser<string | null> = (raw) => (raw.trim() === '' ? null : raw);
export const logLevel: Parser<string> = (raw, name) => {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(raw)) throw new ConfigError(`${name} must be one of ${levels.join(', ')}`);
  return raw;
};
export const planId: Parser<string> = (raw, name) => {
  if (!(PLAN_IDS as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${PLAN_IDS.join(', ')}`);
  return raw;
};

export const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (raw, name) => {
    if (!(values as readonly string[]).includes(raw))
      throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
/** A secret: never echoed back in messages. */
export const optionalSecret =
  (minLength: number): Parser<string | null> =>
  (raw, name) => {
    if (raw === '') return null;
    if (raw.length < minLength) throw new ConfigError(`${name} must be at least ${minLength} characters`);
    return raw;
  };
/** Fastify's trustProxy forms: boolean, hop count, or a list of addresses/CIDRs (checked by Fastify at start). */
export const trustProxy: Parser<boolean | number | string[]> = (raw, name) => {
  const v = raw.trim();
  if (/^(true|false|yes|no|on|off|0|)$/i.test(v)) return bool(v, name);
  if (/^\d+$/.test(v)) return int(1, 100)(v, name);
  const list = v
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (!list.every((part) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(part)))
    throw new ConfigError(
      `${name} must be true, false, a hop count or comma-separated addresses/CIDRs, got "${raw}"`,
    );
  return list;
};
