/**
 * A refused value as a problem line shows it: the office must see what it typed to fix it, but an
 * applicant's email or phone stays masked (error output ends up in tickets and chat). An email
 * keeps its first character and its domain (`j***@example..com`), a phone its punctuation and last
 * two digits (`(***) ***-**23`), so what is wrong (a doubled dot, a missing digit) stays visible;
 * other cells are shown as typed, cut to 60 characters, as a JSON string (control characters
 * escaped).
 */

/** The longest part of a cell a problem line repeats. */
const SHOWN_LENGTH = 60;

/** The columns whose value is personal contact data, shown masked. */
export type MaskedKind = 'email' | 'phone';

function maskEmail(text: string): string {
  const at = text.indexOf('@');
  if (at < 0) return `${text.slice(0, 1)}*** (${text.length} characters, no "@")`;
  return `${text.slice(0, Math.min(1, at))}***${text.slice(at)}`;
}

function maskPhone(text: string): string {
  const digits = text.replace(/\D/g, '').length;
  let seen = 0;
  return text.replace(/\d/g, (digit) => {
    seen += 1;
    return seen > digits - 2 ? digit : '*';
  });
}

/**
 * `value` as a problem line quotes it: masked when `kind` says it is an email or a phone, cut to
 * 60 characters, in JSON quotes (so control characters and quotes are visible).
 */
export function shownValue(value: string, kind?: MaskedKind): string {
  const text = value.trim();
  const masked = kind === 'email' ? maskEmail(text) : kind === 'phone' ? maskPhone(text) : text;
  const cut = masked.length > SHOWN_LENGTH ? `${masked.slice(0, SHOWN_LENGTH)}…` : masked;
  return JSON.stringify(cut);
}

/** What is wrong with an email the syntax check refused, in the words of someone fixing a cell. */
export function emailFault(value: string): string {
  const text = value.trim();
  const ats = text.split('@').length - 1;
  if (ats === 0) return 'it has no "@"';
  if (ats > 1) return `it has ${ats} "@"`;
  if (/\s/.test(text)) return 'it has a space';
  const [local = '', domain = ''] = text.split('@');
  if (local === '') return 'nothing comes before the "@"';
  if (domain === '') return 'nothing comes after the "@"';
  if (/\.\./.test(text)) return 'it has two dots in a row';
  if (!domain.includes('.')) return 'its domain has no dot (e.g. example.com)';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'its domain starts or ends with a dot';
  return 'it has a character an address cannot have';
}
