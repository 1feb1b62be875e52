import type { Invoice } from '../model.js';
import { array, type Fields, optionalObject, requiredText, text } from './reader.js';

/** UNTDID 4451 text subject qualifiers: three capital letters (PMT, PMD, AAB, REG…). */
const SUBJECT_CODE = /^[A-Z]{3}$/;
const ISSUE_TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

type Notes = Pick<Invoice, 'notes' | 'note_subjects'>;

/**
 * BG-1 notes: each item a string (BT-22) or `{ text, subject_code }` (BT-22 with its BT-21 subject code,
 * e.g. the French PMT/PMD/AAB mentions). Blank texts are left out, as before.
 */
export function parseNotes(f: Fields): Notes {
  const notes: string[] = [];
  const subjects: (string | undefined)[] = [];
  for (const item of array(f, 'notes')) {
    const note = noteOf(item.value, item.path, f);
    if (!note || note.text === '') continue;
    notes.push(note.text);
    subjects.push(note.subject);
  }
  return subjects.some((s) => s !== undefined) ? { notes, note_subjects: subjects } : { notes };
}

function noteOf(value: unknown, path: string, f: Fields): { text: string; subject?: string } | undefined {
  if (typeof value === 'string') return checkedText(value, path, f);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    f.issues.add(path, 'must be a string or an object with text and subject_code');
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (key !== 'text' && key !== 'subject_code') f.issues.add(`${path}.${key}`, 'is not a known field');
  if (typeof record.text !== 'string') {
    f.issues.add(`${path}.text`, record.text === undefined ? 'is required' : 'must be a string');
    return undefined;
  }
  const note = checkedText(record.text, `${path}.text`, f);
  const subject = record.subject_code;
  if (subject === undefined) return note;
  if (typeof subject !== 'string' || !SUBJECT_CODE.test(subject.trim())) {
    f.issues.add(`${path}.subject_code`, 'must be a UNTDID 4451 code of three capital letters, e.g. PMT');
    return undefined;
  }
  return note && { text: note.text, subject: subject.trim() };
}

function checkedText(value: string, path: string, f: Fields): { text: string } | undefined {
  if (value.trim().length > 5000) {
    f.issues.add(path, 'must be at most 5000 characters');
    return undefined;
  }
  return { text: value.trim() };
}

/** BT-23 billing mode / process type, HR-BT-2 issue time, HR-BT-4/5 operator (checked per standard later). */
export function parseNationalFields(f: Fields): Pick<Invoice, 'billing_mode' | 'issue_time' | 'operator'> {
  const billingMode = text(f, 'billing_mode', { max: 200 });
  let issueTime = text(f, 'issue_time', { max: 8 });
  if (issueTime !== undefined && !ISSUE_TIME.test(issueTime)) {
    f.issue('issue_time', 'must be a time written HH:MM:SS');
    issueTime = undefined;
  }
  const operator = optionalObject(f, 'operator', (sub) => ({
    name: requiredText(sub, 'name'),
    id: requiredText(sub, 'id', 11),
  }));
  return { billing_mode: billingMode, issue_time: issueTime, operator };
}
