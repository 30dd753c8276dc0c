/**
 * `groups duplicates`: every household with more than one live group created in a period, through
 * `applicantGroups.findDuplicates` (docs/fault-model.md, "A duplicate was reported"): the reconcile
 * pass an operator runs after a Redis incident, or on a schedule, for duplicates nobody reported.
 * Exit 0 when there are none, 7 when there are.
 */
import type { DuplicateHousehold } from 'applicant-verification';
import { EXIT_DUPLICATES, EXIT_OK, UsageError } from '../../errors.js';
import { COMMON_HELP, expectPositionals, parseCommand, timeOption } from '../../shared/args.js';
import { connect } from '../../shared/connection.js';
import { toCsv } from '../../shared/csv-output.js';
import { type CliIO, write } from '../../shared/io.js';
import { toJson } from '../../shared/json-output.js';
import { progressMode, Reporter } from '../../shared/progress.js';
import { safeCell } from '../../shared/terminal.js';

/** Help of `groups duplicates`. */
export const GROUPS_DUPLICATES_HELP = `Usage: applicant-verification groups duplicates [options]

Lists every household with more than one live group among the groups created in a period: a
household created (and its applicants invited) more than once. A household is a correlation id
with the same applicants' emails, rent and unit; an expired group never counts, so a
re-invitation (groups create --reinvite-expired) beside an expired group is not a duplicate.
Groups without a correlation id are not households and are not listed. Each household's groups
are listed newest first: the first is the one groups create and createOnce use from now on.

Options:
  --since TIME           groups created after TIME: a duration back from now (15d, 36h, 90m),
                         Unix seconds or an ISO date/time (default 15d: older groups have
                         expired or completed)
  --until TIME           groups created before TIME (same forms; default: now)
  --format FORMAT        table (default), json (one array), csv (one row per group)

What to do with a duplicate (the API cannot delete a group): docs/fault-model.md, "A
duplicate was reported".

Exit codes: 0 no duplicates; 7 duplicates found (listed on stdout); 2 usage; 1 or 5 the
API failed or refused the credentials.

${COMMON_HELP}

Examples:
  applicant-verification groups duplicates
  applicant-verification groups duplicates --since 2026-03-01 --format json`;

const OPTIONS = {
  since: { type: 'string', default: '15d' },
  until: { type: 'string' },
  format: { type: 'string', default: 'table' },
} as const;

const FORMATS = ['table', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration back from `now` (15d, 36h, 90m), or what `timeOption` reads, as Unix seconds. */
function sinceOption(name: string, value: string | undefined, now: number): number | undefined {
  const duration = value === undefined ? null : /^\s*(\d+)\s*([mhd])\s*$/i.exec(value);
  if (duration) {
    const [, amount = '0', unit = 'd'] = duration;
    return Math.max(0, Math.floor((now - Number(amount) * (UNIT_MS[unit.toLowerCase()] ?? 0)) / 1000));
  }
  return timeOption(name, value);
}

function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

/** One CSV row per group. */
interface DuplicateRow {
  correlation_id: string;
  group_id: string;
  created_at: string;
  status: string;
  newest: string;
}

const CSV_COLUMNS = ['correlation_id', 'group_id', 'created_at', 'status', 'newest'] as const;

function rowsOf(found: readonly DuplicateHousehold[]): DuplicateRow[] {
  return found.flatMap((household) =>
    household.groups.map((group, index) => ({
      correlation_id: household.correlationId,
      group_id: group.id,
      created_at: group.createdAt ?? '',
      status: String(group.status),
      newest: index === 0 ? 'true' : 'false',
    })),
  );
}

function tableOf(found: readonly DuplicateHousehold[]): string {
  const lines: string[] = [];
  for (const household of found) {
    lines.push(`${safeCell(household.correlationId)}: ${household.groups.length} live groups`);
    household.groups.forEach((group, index) => {
      const role = index === 0 ? 'newest, keep' : 'duplicate';
      lines.push(
        `  ${safeCell(group.id)}  ${group.createdAt ?? '(no creation time)'}  ${safeCell(String(group.status))}  ${role}`,
      );
    });
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Runs `groups duplicates`. */
export async function groupsDuplicates(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) {
    await write(io.stdout, `${GROUPS_DUPLICATES_HELP}\n`);
    return EXIT_OK;
  }
  expectPositionals(positionals, []);
  const format = values.format;
  if (!isFormat(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${format}"`);
  const now = io.clock?.now() ?? Date.now();
  const since = sinceOption('since', values.since, now);
  const until = sinceOption('until', values.until, now);
  if (since !== undefined && until !== undefined && since >= until) {
    throw new UsageError('--since must be before --until');
  }
  const reporter = new Reporter(io.stderr, { mode: progressMode(io.stderr, values.quiet ?? false) });
  const client = await connect(values, io, reporter);
  let found: DuplicateHousehold[];
  try {
    found = await client.applicantGroups.findDuplicates(
      { createdAfter: since, createdBefore: until },
      { signal: io.signal },
    );
  } finally {
    await client.close();
  }
  if (format === 'json') await write(io.stdout, `${toJson(found, 2)}\n`);
  else if (format === 'csv') await write(io.stdout, toCsv(rowsOf(found), CSV_COLUMNS, true));
  else await write(io.stdout, tableOf(found));
  const period = `created ${since === undefined ? 'at any time' : `after ${new Date(since * 1000).toISOString()}`}${until === undefined ? '' : ` and before ${new Date(until * 1000).toISOString()}`}`;
  if (found.length === 0) {
    reporter.note(`No duplicates: no household has more than one live group among the groups ${period}.`);
    return EXIT_OK;
  }
  const extra = found.reduce((sum, household) => sum + household.groups.length - 1, 0);
  reporter.error(
    `${found.length} household(s) with more than one live group (${extra} duplicate group(s)) among the groups ${period}. The API cannot delete a group: see docs/fault-model.md, "A duplicate was reported".`,
  );
  return EXIT_DUPLICATES;
}
