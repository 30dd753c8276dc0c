/**
 * Output of `groups list`, streamed one group at a time so a large account never sits in
 * memory: an aligned table for people, a JSON array or CSV for programs. Data goes to stdout.
 */
import { type ApplicantGroup, toDate } from 'applicant-verification';
import { toCsv } from '../../shared/csv-output.js';
import { expiredBeforeCompletion } from '../../shared/group-state.js';
import { type OutputStream, write } from '../../shared/io.js';
import { toJson } from '../../shared/json-output.js';
import { safeCell } from '../../shared/terminal.js';

/** Formats of `groups list --format`. */
export const GROUP_FORMATS = ['table', 'json', 'csv'] as const;
/** A format of `groups list --format`. */
export type GroupFormat = (typeof GROUP_FORMATS)[number];

/** Whether `value` names a format. */
export function isGroupFormat(value: string): value is GroupFormat {
  return (GROUP_FORMATS as readonly string[]).includes(value);
}

/** Writes groups one by one. */
export interface GroupWriter {
  write(group: ApplicantGroup): Promise<void>;
  /** Closes the document (the JSON array, or a CSV header when there were no groups). */
  end(): Promise<void>;
}

/** Columns of the CSV format: flat, one group per record; lists joined with "; ". */
export const GROUP_CSV_COLUMNS = [
  'id',
  'status',
  'is_expired',
  'created_at',
  'correlation_id',
  'decision_maker_display_name',
  'property_name',
  'street_address',
  'city',
  'state',
  'zip_code',
  'unit_number',
  'monthly_rent_cents',
  'verification_types',
  'applicant_count',
  'applicant_names',
  'applicant_emails',
] as const;

type GroupCsvRecord = Record<(typeof GROUP_CSV_COLUMNS)[number], string | number | boolean>;

function createdAt(group: ApplicantGroup): string {
  const date = toDate(group.created_at_timestamp);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** One group as a CSV record. */
export function groupCsvRecord(group: ApplicantGroup): GroupCsvRecord {
  return {
    id: group.id,
    status: group.status,
    is_expired: group.is_expired,
    created_at: createdAt(group),
    correlation_id: group.correlation_id ?? '',
    decision_maker_display_name: group.decision_maker_display_name,
    property_name: group.property.name,
    street_address: group.property.street_address,
    city: group.property.city,
    state: group.property.state,
    zip_code: group.property.zip_code,
    unit_number: group.unit_number,
    monthly_rent_cents: group.monthly_rent_cents,
    verification_types: group.verification_types.join('; '),
    applicant_count: group.applicants.length,
    applicant_names: group.applicants.map((a) => `${a.first_name} ${a.last_name}`).join('; '),
    applicant_emails: group.applicants.map((a) => a.email).join('; '),
  };
}

function csvWriter(out: OutputStream): GroupWriter {
  let first = true;
  const columns = [...GROUP_CSV_COLUMNS];
  return {
    async write(group) {
      await write(out, toCsv([groupCsvRecord(group)], columns, first));
      first = false;
    },
    async end() {
      if (first) await write(out, toCsv([], columns, true));
    },
  };
}

// One group per line inside a JSON array: valid JSON for `JSON.parse` and `jq`, yet streamed.
// `toJson`, not `JSON.stringify`: a field nested thousands deep must not crash the listing.
function jsonWriter(out: OutputStream): GroupWriter {
  let first = true;
  return {
    async write(group) {
      await write(out, `${first ? '[\n' : ',\n'}${toJson(group)}`);
      first = false;
    },
    async end() {
      await write(out, first ? '[]\n' : '\n]\n');
    },
  };
}

// Server text, so control sequences are made visible before it reaches a terminal.
function fitCell(raw: string, width: number): string {
  const text = safeCell(raw);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function dollars(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

// Widths are fixed, not measured: the table is printed as pages arrive.
const TABLE = [
  ['ID', 36],
  ['STATUS', 12],
  ['CREATED', 17],
  ['RENT', 11],
  ['UNIT', 8],
  ['APPL', 4],
  ['PROPERTY', 24],
  ['CORRELATION ID', 0],
] as const;

function tableLine(cells: readonly string[]): string {
  return `${TABLE.map(([, width], index) => {
    const cell = cells[index] ?? '';
    return width === 0 ? safeCell(cell) : fitCell(cell, width);
  })
    .join('  ')
    .trimEnd()}\n`;
}

function tableWriter(out: OutputStream): GroupWriter {
  let first = true;
  return {
    async write(group) {
      if (first) await write(out, tableLine(TABLE.map(([title]) => title)));
      first = false;
      // Settled without completing: expired.
      const status = expiredBeforeCompletion(group) ? `${group.status}*` : group.status;
      await write(
        out,
        tableLine([
          group.id,
          status,
          createdAt(group).slice(0, 16).replace('T', ' '),
          dollars(group.monthly_rent_cents),
          group.unit_number,
          String(group.applicants.length),
          group.property.name,
          group.correlation_id ?? '',
        ]),
      );
    },
    async end() {
      if (first) await write(out, 'No applicant groups match.\n');
    },
  };
}

/** The writer of `format` on `out`. */
export function createGroupWriter(format: GroupFormat, out: OutputStream): GroupWriter {
  if (format === 'json') return jsonWriter(out);
  if (format === 'csv') return csvWriter(out);
  return tableWriter(out);
}
