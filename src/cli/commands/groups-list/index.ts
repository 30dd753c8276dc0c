/** `groups list`: every group matching the filters, all pages, streamed to stdout. */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ApplicantGroupListParams } from 'applicant-verification';
import { EXIT_OK, UsageError } from '../../errors.js';
import { COMMON_HELP, expectPositionals, parseCommand, timeOption } from '../../shared/args.js';
import { connect } from '../../shared/connection.js';
import { displayPath, openPrivateFile, type PrivateFileStream } from '../../shared/files.js';
import { type CliIO, write } from '../../shared/io.js';
import { progressMode, Reporter } from '../../shared/progress.js';
import { groupFilterOf } from './filter.js';
import { createGroupWriter, GROUP_FORMATS, isGroupFormat } from './group-output.js';

/** Help of `groups list`. */
export const GROUPS_LIST_HELP = `Usage: applicant-verification groups list [options]

Lists every applicant group matching the filters, walking all pages, and streams them to
stdout as they arrive.

Filters:
  --status STATUS        not_started, in_progress, completed, or expired (settled before
                         completion) or live (neither completed nor expired); repeat or
                         comma-separate: a group matching any of them is listed
  --expired              the same as --status expired
  --live                 the same as --status live
  --search TEXT          names, emails, property name or address
  --correlation-id ID    exact correlation id
  --created-after TIME   Unix seconds or ISO date/time (2026-01-31, 2026-01-31T09:00:00Z)
  --created-before TIME  same forms

  --format FORMAT        table (default; * marks an expired group), json (one array), csv
  --output FILE          write to FILE, created readable by you only (mode 0600: it holds
                         applicants' names and emails), replaced whole once the list is done;
                         stdout otherwise (a shell's "> file" makes a file others can read)

${COMMON_HELP}

Examples:
  applicant-verification groups list --status completed --format csv --output completed.csv
  applicant-verification groups list --expired --created-after 2026-01-01
  applicant-verification groups list --created-after 2026-01-01 --format json | jq length`;

const OPTIONS = {
  status: { type: 'string', multiple: true },
  expired: { type: 'boolean' },
  live: { type: 'boolean' },
  search: { type: 'string' },
  'correlation-id': { type: 'string' },
  'created-after': { type: 'string' },
  'created-before': { type: 'string' },
  format: { type: 'string', default: 'table' },
  output: { type: 'string' },
} as const;

/** Runs `groups list`. */
export async function groupsList(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) {
    await write(io.stdout, `${GROUPS_LIST_HELP}\n`);
    return EXIT_OK;
  }
  expectPositionals(positionals, []);
  const format = values.format;
  if (!isGroupFormat(format)) {
    throw new UsageError(`--format must be one of ${GROUP_FORMATS.join(', ')}, got "${format}"`);
  }
  const params: ApplicantGroupListParams = {};
  const filter = groupFilterOf(values);
  if (filter.statuses) params.statuses = filter.statuses;
  if (values.search !== undefined) params.search = values.search;
  if (values['correlation-id'] !== undefined) params.correlation_id = values['correlation-id'];
  const after = timeOption('created-after', values['created-after']);
  const before = timeOption('created-before', values['created-before']);
  if (after !== undefined) params.created_after = after;
  if (before !== undefined) params.created_before = before;

  if (values.output !== undefined && values.output.trim() === '') {
    throw new UsageError('--output needs a file name, got ""');
  }
  const outputPath = values.output === undefined ? undefined : resolve(io.cwd, values.output);
  if (outputPath !== undefined) await checkWritableDir(dirname(outputPath));

  const reporter = new Reporter(io.stderr, { mode: progressMode(io.stderr, values.quiet ?? false) });
  const client = await connect(values, io, reporter);
  let file: PrivateFileStream | undefined;
  try {
    file = outputPath === undefined ? undefined : await openPrivateFile(outputPath);
    const writer = createGroupWriter(format, file?.stream ?? io.stdout);
    let count = 0;
    for await (const group of client.applicantGroups.list(params, { signal: io.signal })) {
      if (!filter.keep(group)) continue;
      await writer.write(group);
      count++;
    }
    await writer.end();
    if (file && outputPath !== undefined) {
      await file.commit();
      reporter.note(`${count} group(s) written to ${displayPath(io.cwd, outputPath)} (mode 0600)`);
    }
    return EXIT_OK;
  } finally {
    await file?.discard();
    await client.close();
  }
}

async function checkWritableDir(dir: string): Promise<void> {
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a directory');
    await access(dir, constants.W_OK);
  } catch {
    throw new UsageError(`--output: cannot write to the directory ${dir}`);
  }
}
