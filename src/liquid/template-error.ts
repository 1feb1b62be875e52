import { AssertionError, LiquidError } from 'liquidjs';
import { AppError } from '../shared/errors.js';
import { LIQUID_LIMITS } from './limits.js';

/**
 * Thrown by Quire's filters for input they cannot format. Its message names the filter and the
 * problem, never the value (spec "Warning"/"Errors": messages must not echo user data).
 */
export class FilterInputError extends Error {
  constructor(filter: string, problem: string) {
    super(`The "${filter}" filter ${problem}.`);
    this.name = 'FilterInputError';
  }
}

/** Thrown by the output guard when a render's HTML passes the memory cap. */
export class OutputLimitError extends Error {
  constructor() {
    super('memory alloc limit exceeded');
    this.name = 'OutputLimitError';
  }
}

type Position = { line: number; column: number };

const MAX_TOKEN_CHARS = 80;

/** Liquid token positions are 1-based `[line, col]`. */
function positionOf(err: LiquidError): Position | undefined {
  const token = (err as { token?: { getPosition?: () => number[] } }).token;
  const pos = token?.getPosition?.();
  const line = pos?.[0];
  const column = pos?.[1];
  return line !== undefined && column !== undefined ? { line, column } : undefined;
}

/** The template's own token text (allowed in messages: it is template text, not data). */
function tokenText(err: LiquidError): string {
  const token = (err as { token?: { getText?: () => string } }).token;
  const text = token?.getText?.() ?? '';
  return text.length > MAX_TOKEN_CHARS ? `${text.slice(0, MAX_TOKEN_CHARS)}…` : text;
}

/** Follows `originalError` links (liquidjs wraps a filter's exception in RenderError). */
function rootCause(err: unknown): unknown {
  let current = err;
  for (let i = 0; i < 10; i++) {
    const next = (current as { originalError?: unknown } | null)?.originalError;
    if (next === undefined || next === null) return current;
    current = next;
  }
  return current;
}

/** liquidjs appends ", line:1, col:2" to its messages; the position goes to `details` instead. */
function stripPosition(message: string): string {
  return message.replace(/, line:\d+, col:\d+$/, '').split('\n')[0] ?? '';
}

const TIME_LIMIT_MESSAGE = `The Liquid render took longer than ${LIQUID_LIMITS.renderMs / 1000} second.`;
const MEMORY_LIMIT_MESSAGE = `The Liquid render used more than ${LIQUID_LIMITS.memoryBytes / (1024 * 1024)} MB.`;

function limitMessage(cause: unknown): string | undefined {
  const message = cause instanceof Error ? cause.message : '';
  if (message.includes('template render limit exceeded')) return TIME_LIMIT_MESSAGE;
  if (message.includes('memory alloc limit exceeded')) return MEMORY_LIMIT_MESSAGE;
  if (cause instanceof RangeError && /string length|array length/i.test(message)) {
    return MEMORY_LIMIT_MESSAGE;
  }
  return undefined;
}

/** A parse or render stopped by the pool's hard time limit (same message as liquidjs's own limit). */
export function timeLimitError(): AppError {
  return new AppError('template_render_error', TIME_LIMIT_MESSAGE);
}

/** A worker that ran out of heap while parsing or rendering. */
export function memoryLimitError(): AppError {
  return new AppError('template_render_error', MEMORY_LIMIT_MESSAGE);
}

/**
 * Parse failures: liquidjs messages quote only the template's own token (e.g.
 * `tag {% if a %} not closed`, `undefined filter: nosuch`), so they are kept, minus the position.
 */
export function parseFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (LiquidError.is(err)) {
    const details = positionOf(err as LiquidError);
    return new AppError(
      'template_render_error',
      `Liquid syntax error: ${stripPosition(err.message)}`,
      details,
    );
  }
  const message = err instanceof AssertionError ? err.message : 'the template could not be parsed';
  return new AppError('template_render_error', `Liquid syntax error: ${message}`);
}

/**
 * Render failures: a filter's own FilterInputError message, a limit message, or a generic message
 * naming the failing template token. Other exception texts are dropped because a library's
 * message can contain data values.
 */
export function renderFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const cause = rootCause(err);
  const details = LiquidError.is(err) ? positionOf(err as LiquidError) : undefined;
  const limit = limitMessage(cause);
  if (limit !== undefined) return new AppError('template_render_error', limit, details);
  if (cause instanceof FilterInputError) {
    return new AppError('template_render_error', cause.message, details);
  }
  const where = LiquidError.is(err) ? ` in ${tokenText(err as LiquidError)}` : '';
  return new AppError('template_render_error', `The Liquid template failed to render${where}.`, details);
}
