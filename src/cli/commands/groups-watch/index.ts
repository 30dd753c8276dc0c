/**
 * `groups watch ID`: polls a group until it completes or expires, printing a line whenever its
 * status or its applicants' progress changes.
 */
import type { ApplicantGroup } from 'applicant-verification';
import { EXIT_FAILED, EXIT_OK } from '../../errors.js';
import { COMMON_HELP, expectPositionals, numberOption, parseCommand } from '../../shared/args.js';
import { connect } from '../../shared/connection.js';
import { expiredBeforeCompletion } from '../../shared/group-state.js';
import { type CliIO, write } from '../../shared/io.js';
import { progressMode, Reporter } from '../../shared/progress.js';
import { safeCell } from '../../shared/terminal.js';

/** Help of `groups watch`. */
export const GROUPS_WATCH_HELP = `Usage: applicant-verification groups watch ID [--interval SECONDS]

Polls an applicant group until it is completed or has expired, printing a line to stdout each
time its status or the number of applicants who completed changes:

  2026-01-15T12:00:03.120Z  <group id>  not_started  0/2 applicants completed
  2026-01-15T14:20:33.480Z  <group id>  in_progress  0/2 applicants completed
  2026-01-16T09:05:03.950Z  <group id>  in_progress  1/2 applicants completed

Options:
  --interval SECONDS     time between polls (default 30)

Exit codes: 0 completed; 1 expired before completion, or no such group; 2 usage;
130/143 stopped by SIGINT/SIGTERM.

${COMMON_HELP}`;

const OPTIONS = {
  interval: { type: 'string' },
} as const;

function applicantDone(applicant: ApplicantGroup['applicants'][number]): boolean {
  return (
    applicant.verifications.length > 0 &&
    applicant.verifications.every((verification) => verification.status === 'completed')
  );
}

/** What a status line says about the group: status (or `expired`), applicants completed. */
function progressOf(group: ApplicantGroup): string {
  // Settled but not completed: expired before every applicant finished.
  const status = expiredBeforeCompletion(group) ? `expired (${group.status})` : group.status;
  const done = group.applicants.filter(applicantDone).length;
  return `${safeCell(status)}  ${done}/${group.applicants.length} applicants completed`;
}

/** One status line: time, id, status (or `expired`), applicants completed. */
export function statusLine(group: ApplicantGroup, at: Date): string {
  return `${at.toISOString()}  ${safeCell(group.id)}  ${progressOf(group)}\n`;
}

/** Runs `groups watch`. */
export async function groupsWatch(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) {
    await write(io.stdout, `${GROUPS_WATCH_HELP}\n`);
    return EXIT_OK;
  }
  const [id = ''] = expectPositionals(positionals, ['group id']);
  const interval = numberOption('interval', values.interval, 30, { min: 0.05, max: 86_400, integer: false });
  const reporter = new Reporter(io.stderr, { mode: progressMode(io.stderr, values.quiet ?? false) });
  const client = await connect(values, io, reporter);
  try {
    // The API has no retrieve-by-id: find the group once (every page if need be), then each
    // poll is one narrow request thanks to its correlation id or creation time.
    const group = await client.applicantGroups.findById(id, {}, { signal: io.signal });
    if (!group) {
      reporter.error(`No applicant group with id ${id}.`);
      return EXIT_FAILED;
    }
    let shown: string | undefined;
    const final = await client.applicantGroups.waitForCompletion(group, {
      pollInterval: Math.round(interval * 1000),
      signal: io.signal,
      // Every poll is looked at: an applicant completing changes no status, and is news too.
      onPoll: (current) => {
        const progress = progressOf(current);
        if (progress === shown) return;
        shown = progress;
        io.stdout.write(statusLine(current, new Date()));
      },
    });
    if (final.status === 'completed') return EXIT_OK;
    reporter.error(`Group ${id} expired before every applicant completed.`);
    return EXIT_FAILED;
  } finally {
    await client.close();
  }
}
