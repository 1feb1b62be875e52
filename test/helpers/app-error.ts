import assert from 'node:assert/strict';
import { AppError, type ErrorCode } from '../../src/shared/errors.js';

function checked(err: unknown, code: ErrorCode): AppError {
  assert.ok(err instanceof AppError, String(err));
  assert.equal(err.code, code);
  return err;
}

/** The AppError `fn` throws, with `code`; the test fails when `fn` throws anything else, or nothing. */
export function thrownAppError(fn: () => unknown, code: ErrorCode, what = ''): AppError {
  try {
    fn();
  } catch (err) {
    return checked(err, code);
  }
  assert.fail(`expected ${code}${what && ` for ${what}`}`);
}

/** The AppError `work` rejects with, with `code`; the test fails when it rejects otherwise, or resolves. */
export async function rejectedAppError(work: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  try {
    await work;
  } catch (err) {
    return checked(err, code);
  }
  assert.fail(`expected ${code}`);
}
